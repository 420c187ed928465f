/**
 * Rendered manifest sets: what `helm template` or `kustomize build` printed in earlier steps,
 * for the head of a pull request and optionally for its base. Each set is read whole, whichever
 * files the pull request changed. With both, the targets are the objects whose rendered form was
 * added, removed or changed (identity: group, kind, namespace, name); with the head alone, every
 * object in it.
 *
 * The files are produced from the pull request, so they are read like any manifest: workspace-only
 * regular files under the size cap, linear YAML checks (read-workspace-file.ts, manifests.ts).
 */
import { escapeControls } from '../markdown/format.js'
import { globSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { objectsFromManifest, type ManifestObject } from './manifests.js'
import { isRecord } from '../model/plain-value.js'
import { objectKey, type RenderedChange, type SkippedFile, type Target } from '../model/target.js'
import { readWorkspaceFile } from './read-workspace-file.js'

/**
 * The largest rendered file read. Larger than for a manifest file (4 MiB): one `helm template`
 * of a big chart with its CRDs (monitoring stacks, operators) prints several MiB into one file.
 * Parsing stays bounded per document (manifests.ts), so this bounds the text held and the time.
 */
export const MAX_RENDERED_FILE_BYTES = 16 * 1024 * 1024

/**
 * Fields renderers change without the object changing, ignored when base and head are compared,
 * wherever a `metadata` appears (the object's and its pod template's):
 * - annotations `checksum/*`: Helm charts hash their config into the pod template to roll pods;
 *   the config object itself shows the change;
 * - label `helm.sh/chart`: the chart's version, on every object, bumped by any chart release;
 * - annotations `config.kubernetes.io/*` and `internal.config.kubernetes.io/*`: what Kustomize
 *   records about where an object came from (build metadata), not what is applied;
 * - `metadata.creationTimestamp` (`null` in kubectl and Kustomize output) and `status`.
 */
const NOISY_ANNOTATION = /^(checksum\/|config\.kubernetes\.io\/|internal\.config\.kubernetes\.io\/)/
const NOISY_LABELS = new Set(['helm.sh/chart'])

interface RenderedObject {
  target: Omit<Target, 'origin'>
  /** The rendered file, relative to the workspace, and the object's `kind:` line in it. */
  path: string
  line: number
  /** The chart or overlay file the renderer names, when it does. */
  source?: string | undefined
  /** The object without noise fields, as canonical JSON. */
  fingerprint: string
}

interface RenderedSet {
  objects: RenderedObject[]
  files: string[]
  skippedFiles: SkippedFile[]
  /** Globs that matched no regular file. */
  emptyGlobs: string[]
}

/** Reads every file the globs match, in path order; an object declared twice keeps its first declaration. */
export async function readRenderedSet(options: {
  globs: readonly string[]
  workspace: string
  root: string | undefined
  defaultNamespace: string | undefined
  signal?: AbortSignal | undefined
  maxFileBytes?: number | undefined
  maxDocuments?: number | undefined
}): Promise<RenderedSet> {
  const { paths, emptyGlobs } = matchFiles(options.workspace, options.globs)
  const set: RenderedSet = { objects: [], files: [], skippedFiles: [], emptyGlobs }
  const seen = new Set<string>()
  for (const path of paths) {
    await nextTurn()
    options.signal?.throwIfAborted()
    set.files.push(path)
    const read =
      options.root === undefined
        ? { skipped: 'not in the workspace: render it in an earlier step of this job' }
        : await readWorkspaceFile(options.root, path, options.maxFileBytes ?? MAX_RENDERED_FILE_BYTES)
    if ('skipped' in read) {
      set.skippedFiles.push({ path: escapeControls(path), reason: read.skipped })
      continue
    }
    const parsed = await objectsFromManifest(path, read.text, {
      defaultNamespace: options.defaultNamespace,
      signal: options.signal,
      maxDocuments: options.maxDocuments,
    })
    if (parsed.skipped) set.skippedFiles.push({ ...parsed.skipped, path: escapeControls(parsed.skipped.path) })
    for (const object of parsed.objects) {
      const key = objectKey(object.target)
      if (seen.has(key)) continue
      seen.add(key)
      set.objects.push(renderedObject(path, object))
    }
  }
  return set
}

function renderedObject(path: string, object: ManifestObject): RenderedObject {
  return {
    target: object.target,
    path,
    line: object.line,
    source: object.source ?? kustomizeOrigin(object.value),
    fingerprint: fingerprint(object.value),
  }
}

/**
 * The targets of a rendered head set, compared with the base set when there is one: added,
 * removed (placed in the base file) and changed objects; unchanged ones are no target.
 */
export function renderedTargets(head: RenderedSet, base: RenderedSet | undefined): Target[] {
  const target = (object: RenderedObject, change: RenderedChange, name = object.target.name): Target => ({
    ...object.target,
    name,
    origin: { kind: 'rendered', path: object.path, line: object.line, change, source: object.source },
  })
  if (!base) return head.objects.map((object) => target(object, 'rendered'))
  const before = new Map(base.objects.map((object) => [objectKey(object.target), object]))
  const inHead = new Set(head.objects.map((object) => objectKey(object.target)))
  const added = head.objects.filter((object) => !before.has(objectKey(object.target)))
  const removed = base.objects.filter((object) => !inHead.has(objectKey(object.target)))
  const regenerated = pairGenerated(added, removed)
  const targets: Target[] = []
  for (const object of head.objects) {
    const old = before.get(objectKey(object.target))
    const live = regenerated.get(object)
    if (live) targets.push(target(object, 'changed', live.target.name))
    else if (!old) targets.push(target(object, 'added'))
    else if (old.fingerprint !== object.fingerprint) targets.push(target(object, 'changed'))
  }
  const paired = new Set(regenerated.values())
  for (const object of removed) if (!paired.has(object)) targets.push(target(object, 'removed'))
  return targets
}

/**
 * Kustomize names a generated ConfigMap or Secret after a hash of its content (`name-<10 chars>`,
 * hex digits with 0, 1, 3, a, e spelled g, h, k, m, t), so a content change reads as one object
 * removed and one added. Such a pair is one changed object, named as at the base: that is the
 * object the cluster holds, whose downstream the change reaches.
 */
const GENERATED_SUFFIX = /-[2456789bcdfghkmt]{10}$/

function pairGenerated(
  added: readonly RenderedObject[],
  removed: readonly RenderedObject[],
): Map<RenderedObject, RenderedObject> {
  const stem = (object: RenderedObject) =>
    GENERATED_SUFFIX.test(object.target.name)
      ? objectKey({ ...object.target, name: object.target.name.replace(GENERATED_SUFFIX, '') })
      : undefined
  const removedByStem = new Map<string, RenderedObject[]>()
  for (const object of removed) {
    const key = stem(object)
    if (key === undefined) continue
    const list = removedByStem.get(key)
    if (list) list.push(object)
    else removedByStem.set(key, [object])
  }
  const addedPerStem = new Map<string, number>()
  for (const object of added) {
    const key = stem(object)
    if (key !== undefined) addedPerStem.set(key, (addedPerStem.get(key) ?? 0) + 1)
  }
  const pairs = new Map<RenderedObject, RenderedObject>()
  for (const object of added) {
    const key = stem(object)
    if (key === undefined) continue
    const candidates = removedByStem.get(key)
    // only an unambiguous pair: one old and one new object of that stem
    if (candidates?.length === 1 && addedPerStem.get(key) === 1) pairs.set(object, candidates[0]!)
  }
  return pairs
}

/** Regular files the globs match (folders are not files to read), and the globs that matched none. */
export function matchFiles(workspace: string, globs: readonly string[]): { paths: string[]; emptyGlobs: string[] } {
  const paths = new Set<string>()
  const emptyGlobs: string[] = []
  for (const glob of globs) {
    let matched = 0
    for (const entry of globSync(glob, {
      cwd: workspace,
      withFileTypes: true,
      exclude: (entry) => entry.name === 'node_modules' || entry.name === '.git',
    })) {
      if (entry.isDirectory()) continue
      paths.add(
        relative(resolve(workspace), resolve(workspace, join(entry.parentPath, entry.name)))
          .split('\\')
          .join('/'),
      )
      matched++
    }
    if (matched === 0) emptyGlobs.push(glob)
  }
  return { paths: [...paths].sort(), emptyGlobs }
}

/** Canonical JSON of an object without the noise fields: equal when only noise differs. @internal */
export function fingerprint(value: unknown): string {
  return JSON.stringify(canonical(value, ''))
}

function canonical(value: unknown, key: string): unknown {
  if (Array.isArray(value)) return value.map((item) => canonical(item, ''))
  if (typeof value !== 'object' || value === null) return value
  const record = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const name of Object.keys(record).sort()) {
    if (key === '' && name === 'status' && 'apiVersion' in record) continue
    if (key === 'metadata' && name === 'creationTimestamp') continue
    let field = record[name]
    if (key === 'metadata' && (name === 'annotations' || name === 'labels') && isRecord(field)) {
      const noisy =
        name === 'annotations' ? (k: string) => NOISY_ANNOTATION.test(k) : (k: string) => NOISY_LABELS.has(k)
      field = Object.fromEntries(Object.entries(field).filter(([k]) => !noisy(k)))
    }
    out[name] = canonical(field, name)
  }
  return out
}

/** Kustomize's `buildMetadata: [originAnnotations]` records `path: ../base/x.yaml` per object. */
function kustomizeOrigin(value: Record<string, unknown>): string | undefined {
  const metadata = value.metadata
  const annotations = isRecord(metadata) ? metadata.annotations : undefined
  const origin = isRecord(annotations) ? annotations['config.kubernetes.io/origin'] : undefined
  if (typeof origin !== 'string') return undefined
  const match = /^path: *(\S[^\n]*)$/m.exec(origin)
  return match?.[1]?.trim().replace(/^['"]|['"]$/g, '')
}
