/**
 * The rollout's targets and what each should look like: collected as `impact` collects them
 * (the same function, so the same inputs, caps and scope), then each manifest object read back
 * whole from its file, since the manifest is the expected state. A manifest object without a
 * namespace is in the `namespace` input's, else in `default`, as kubectl applies it. Helm hooks
 * and tests, and objects named by `generateName`, are listed as not checked: they are no
 * release's lasting objects, or no row can be matched to them.
 */
import { objectsFromManifest } from '../../sources/manifests.js'
import { partitionByScope } from '../../sources/scope.js'
import { isChecked } from './checked-kinds.js'
import { hookReason, scaledByManifests, unnamedTargets } from './release-objects.js'
import type { ReleaseContext } from './revision.js'
import {
  isRemovedTarget,
  objectKey,
  targetLabel,
  type NothingCollected,
  type SkippedFile,
  type SkippedTarget,
  type Target,
} from '../../model/target.js'
import { MAX_MANIFEST_BYTES, readWorkspaceFile, workspaceRoot } from '../../sources/read-workspace-file.js'
import { MAX_RENDERED_FILE_BYTES } from '../../sources/rendered.js'
import { collectTargets, type PullRequestFiles } from '../../sources/targets.js'
import type { RolloutSettings } from './inputs.js'

export interface RolloutTarget {
  /** Identity without the edge: what a graph row is matched on. */
  key: string
  label: string
  target: Target
  /** The manifest object, or for a target named in `targets` its identity alone. */
  expected: Record<string, unknown>
  /** Where the manifest declares it, for annotations. */
  place?: { file: string; line: number } | undefined
  /** For a target not checked: why (the kind is not synced when absent). */
  notChecked?: string | undefined
}

export interface RolloutTargets {
  /** The targets the gate checks: in scope, of a kind the graph syncs. */
  targets: RolloutTarget[]
  /** Of a kind the graph does not sync (Secret, HelmRelease…), a Helm hook, a `generateName` object: listed as not checked, never waited for. */
  unchecked: RolloutTarget[]
  /** Outside `allowed-namespaces` / `allowed-kinds`: listed, never queried. */
  outOfScope: SkippedTarget[]
  skippedFiles: SkippedFile[]
  /** Manifest files that could not be read: the gate fails on them (./unreadable.ts). */
  unreadable: SkippedFile[]
  warnings: string[]
  files: string[]
  /** Set when no target was collected: what was searched (globs and folder). */
  nothing?: NothingCollected | undefined
}

export async function collectRolloutTargets(
  settings: RolloutSettings,
  context: {
    workspace: string
    pullRequest: PullRequestFiles | undefined
    signal: AbortSignal
    log: (line: string) => void
    /** The step's start (ms since the epoch); now when not given. */
    startedAt?: number | undefined
  },
): Promise<RolloutTargets> {
  const startedAt = context.startedAt ?? Date.now()
  const defaultNamespace = settings.defaultNamespace ?? 'default'
  const collected = await collectTargets({
    given: settings.targets,
    globs: settings.manifests,
    renderedHead: settings.renderedHead,
    defaultNamespace,
    maxTargets: settings.maxTargets,
    maxDocuments: settings.maxDocuments,
    workspace: context.workspace,
    pullRequest: context.pullRequest,
    signal: context.signal,
    log: context.log,
  })
  const warnings = [...collected.warnings]
  const root = await workspaceRoot(context.workspace).catch(() => undefined)
  const values = new Map<string, Map<string, Record<string, unknown>>>()
  const targets: RolloutTarget[] = []
  const unchecked: RolloutTarget[] = []
  const { inScope, skipped } = partitionByScope(collected.targets, settings.scope)
  const fromManifest = new Set<RolloutTarget>()
  for (const target of inScope) {
    // A removed object is not rolled out: it is gone, which absence cannot prove (docs/hub-facts.md, "What the graph knows").
    if (isRemovedTarget(target)) {
      warnings.push(
        `${targetLabel(target)} is removed by this change: a rollout gate cannot confirm a deletion, so it is not a target.`,
      )
      continue
    }
    const origin = target.origin
    const place = origin.kind === 'input' ? undefined : { file: origin.path, line: origin.line ?? 1 }
    const value =
      place && root
        ? (
            await objectsOf(
              root,
              place.file,
              { rendered: origin.kind === 'rendered', defaultNamespace, maxDocuments: settings.maxDocuments },
              values,
              context.signal,
            )
          ).get(objectKey(target))
        : undefined
    const one: RolloutTarget = {
      key: identityKey(target),
      label: targetLabel(target),
      target,
      expected: value ?? identityObject(target),
      place,
    }
    if (value) fromManifest.add(one)
    const hook = value && hookReason(value)
    if (hook) unchecked.push({ ...one, notChecked: hook })
    else (isChecked(target.group, target.kind, settings.syncedKinds) ? targets : unchecked).push(one)
  }
  unchecked.push(...unnamedTargets(collected.unnamed))
  // An HPA among the manifests owns its workload's spec.replicas.
  const scaled = scaledByManifests([...targets, ...unchecked])
  for (const one of targets)
    RELEASE_CONTEXT.set(one.expected, {
      startedAt,
      manifest: fromManifest.has(one),
      skip: scaled.has(identityKey(one.target)) ? ['spec.replicas'] : [],
    })
  return {
    targets,
    unchecked,
    outOfScope: skipped,
    skippedFiles: collected.skippedFiles,
    unreadable: collected.unreadable,
    warnings,
    files: collected.files,
    nothing: collected.nothing,
  }
}

/**
 * What the comparison of each target's expected object needs to know (./revision.ts), kept
 * beside the object rather than on it so the manifest stays the manifest.
 */
const RELEASE_CONTEXT = new WeakMap<object, ReleaseContext>()

/** The context of a target's expected object; none for an object this module did not collect. */
export function releaseContext(expected: object): ReleaseContext | undefined {
  return RELEASE_CONTEXT.get(expected)
}

/** Marks a path of a target's expected object as another manager's: not compared (./scalers.ts). */
export function skipInComparison(expected: object, path: string): void {
  const context = RELEASE_CONTEXT.get(expected)
  if (context && !context.skip?.includes(path))
    RELEASE_CONTEXT.set(expected, { ...context, skip: [...(context.skip ?? []), path] })
}

/** The group, kind, namespace and name of an object, without its edge. */
function identityKey(object: Pick<Target, 'group' | 'kind' | 'namespace' | 'name'>): string {
  return objectKey({ group: object.group, kind: object.kind, namespace: object.namespace, name: object.name })
}

/** A target named in `targets`: only its generation is compared, and its health. */
function identityObject(target: Target): Record<string, unknown> {
  return {
    apiVersion: target.group ? `${target.group}/v1` : 'v1',
    kind: target.kind,
    metadata: { name: target.name, ...(target.namespace ? { namespace: target.namespace } : {}) },
  }
}

/** Each file is read and parsed once, however many targets it declares. */
async function objectsOf(
  root: string,
  path: string,
  how: { rendered: boolean; defaultNamespace: string; maxDocuments: number },
  cache: Map<string, Map<string, Record<string, unknown>>>,
  signal: AbortSignal,
): Promise<Map<string, Record<string, unknown>>> {
  const cached = cache.get(path)
  if (cached) return cached
  const byKey = new Map<string, Record<string, unknown>>()
  cache.set(path, byKey)
  const read = await readWorkspaceFile(root, path, how.rendered ? MAX_RENDERED_FILE_BYTES : MAX_MANIFEST_BYTES)
  if ('skipped' in read) return byKey
  const parsed = await objectsFromManifest(path, read.text, {
    signal,
    defaultNamespace: how.defaultNamespace,
    maxDocuments: how.maxDocuments,
  })
  for (const object of parsed.objects)
    if (!byKey.has(objectKey(object.target))) byKey.set(objectKey(object.target), object.value)
  return byKey
}
