/**
 * The objects an impact report or a rollout gate is about: those named in `targets`, and every Kubernetes
 * object in the manifest files that `manifests` matches — on a pull request, the files it
 * changes (removed ones read at the base commit: deleting an object is the riskiest change);
 * elsewhere, the files in the workspace.
 */
import { escapeControls } from '../markdown/format.js'
import { statSync } from 'node:fs'
import { matchesGlob, resolve } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { targetsFromManifest } from './manifests.js'
import type { UnnamedObject } from './manifest-identity.js'
import type { ChangedFile } from '../github/pull-request.js'
import {
  isRemovedTarget,
  type NothingCollected,
  type SkippedFile,
  type Target,
  type TargetOrigin,
} from '../model/target.js'
import { matchFiles, readRenderedSet, renderedTargets } from './rendered.js'
import { MAX_MANIFEST_BYTES, readWorkspaceFile, tooLarge, workspaceRoot, type FileRead } from './read-workspace-file.js'
import { tooManyTargets } from './caps.js'
import { InputError } from '../settings/settings.js'

/** What the pull-request side must provide; implemented over the GitHub API. */
export interface PullRequestFiles {
  changedFiles(): Promise<ChangedFile[]>
  /** The file's text at the PR's base commit if it is at most `maxBytes` long; undefined when it is not there. */
  readAtBase(path: string, maxBytes: number): Promise<{ text: string } | { tooLarge: number } | undefined>
}

export interface CollectedTargets {
  targets: Target[]
  skippedFiles: SkippedFile[]
  /**
   * Of the skipped files, those that could not be read at all (with the line where the parser
   * stopped): a rollout gate fails on them. Kept apart so that `skippedFiles`, which impact
   * reports, is as it was.
   */
  unreadable: SkippedFile[]
  /** Manifest files read, for the log. */
  files: string[]
  /** Globs that matched nothing, and the like: for the log and the report. */
  warnings: string[]
  /** The files the pull request changes, when they were listed: where annotations can show. */
  changedPaths: string[]
  /** Set when no target was collected: what was searched, for the verdict and the summary. */
  nothing?: NothingCollected | undefined
  /** Manifest objects named by `generateName` (no name to look up): a rollout lists them as not checked. */
  unnamed: UnnamedObject[]
}

export async function collectTargets(options: {
  given: readonly Target[]
  globs: readonly string[]
  /** Globs of the rendered manifest set of the head (read whole), and of the base (optional). */
  renderedHead?: readonly string[] | undefined
  renderedBase?: readonly string[] | undefined
  defaultNamespace: string | undefined
  workspace: string
  pullRequest: PullRequestFiles | undefined
  /** Aborted when the job is cancelled: reading stops between files and within large ones. */
  signal?: AbortSignal | undefined
  /** Per file, from the checkout and from GitHub alike. */
  maxFileBytes?: number
  /** Progress for the step log: reading large files can take seconds. */
  log?: (message: string) => void
  /** Distinct targets allowed in all (`max-targets`): past it, reading stops and a CapError is thrown. */
  maxTargets?: number | undefined
  /** YAML documents one file may hold (`max-documents`). */
  maxDocuments?: number | undefined
}): Promise<CollectedTargets> {
  const maxTargets = options.maxTargets ?? Infinity
  const folders = folderProblems(options.workspace, {
    manifests: options.globs,
    'rendered-head': options.renderedHead ?? [],
    'rendered-base': options.renderedBase ?? [],
  })
  if (folders.length > 0) throw new InputError(folders)
  const inputs = [
    ...(options.given.length > 0 ? ['targets'] : []),
    ...(options.globs.length > 0 ? ['manifests'] : []),
    ...(options.renderedHead?.length ? ['rendered-head'] : []),
  ]
  const found = new Map<string, Target>()
  // counted as they are found, so a pull request of many objects stops the reading early
  const add = (targets: readonly Target[], complete: boolean) => {
    addDistinct(found, targets)
    if (found.size > maxTargets) throw tooManyTargets(maxTargets, found.size, complete, inputs)
  }
  const rendering = (options.renderedHead?.length ?? 0) > 0
  add(options.given, options.globs.length === 0 && !rendering)
  const skippedFiles: SkippedFile[] = []
  const unreadable: SkippedFile[] = []
  // A file name is the pull request's: shown on one line wherever it is printed.
  const skip = (skipped: SkippedFile) => {
    const file = { ...skipped, path: escapeControls(skipped.path) }
    skippedFiles.push({ path: file.path, reason: file.reason })
    if (file.unreadable) unreadable.push(file)
  }
  const unnamed: UnnamedObject[] = []
  const files: string[] = []
  const warnings: string[] = []
  const root = await workspaceRoot(options.workspace).catch(() => undefined)
  const wantsChanged = options.globs.length > 0 || (options.renderedHead?.length ?? 0) > 0
  const changed = options.pullRequest && wantsChanged ? await options.pullRequest.changedFiles() : []
  // a pull request that changes no matching file, though the globs match files in the checkout
  let unchanged = false
  if (options.globs.length > 0) {
    const { sources, emptyGlobs } = options.pullRequest
      ? changedManifests(changed, options.globs, options.workspace)
      : workspaceManifests(options.workspace, options.globs)
    // One glob per spelling (`*.yaml`, `*.yml`) is common and a repository uses one: only
    // globs that all match nothing are a mistake worth a warning on every pull request.
    const where = options.pullRequest !== undefined
    if (emptyGlobs.length === options.globs.length)
      warnings.push(emptyGlobWarning('manifests', emptyGlobs, options.workspace, where))
    else if (emptyGlobs.length > 0) options.log?.(emptyGlobNote(emptyGlobs, options.workspace, where))
    unchanged = options.pullRequest !== undefined && sources.length === 0 && emptyGlobs.length < options.globs.length
    if (sources.length > 0) options.log?.(`Reading ${sources.length} manifest file(s).`)
    for (const [index, source] of sources.entries()) {
      // a turn of the event loop between files, so a cancel is heard even when each file is quick
      await nextTurn()
      options.signal?.throwIfAborted()
      files.push(source.path)
      const read = await readSource(source, root, options)
      if ('skipped' in read) {
        // a removed file is no rollout target; any other one the step could not read is a failure to read it
        skip({ path: source.path, reason: read.skipped, ...(source.change === 'removed' ? {} : { unreadable: {} }) })
        continue
      }
      const origin: TargetOrigin = { kind: 'manifest', path: escapeControls(source.path), change: source.change }
      const result = await targetsFromManifest(source.path, read.text, origin, {
        defaultNamespace: options.defaultNamespace,
        signal: options.signal,
        maxDocuments: options.maxDocuments,
      })
      add(result.targets, index === sources.length - 1 && !rendering)
      if (result.skipped) skip(result.skipped)
      unnamed.push(...(result.unnamed ?? []))
    }
  }
  if (options.renderedHead && rendering) {
    const read = (globs: readonly string[]) =>
      readRenderedSet({
        globs,
        workspace: options.workspace,
        root,
        defaultNamespace: options.defaultNamespace,
        signal: options.signal,
        maxFileBytes: options.maxFileBytes,
        maxDocuments: options.maxDocuments,
      })
    const head = await read(options.renderedHead)
    const base = options.renderedBase && options.renderedBase.length > 0 ? await read(options.renderedBase) : undefined
    for (const [input, set] of [
      ['rendered-head', head],
      ['rendered-base', base],
    ] as const) {
      if (!set) continue
      files.push(...set.files)
      set.skippedFiles.forEach(skip)
      if (set.emptyGlobs.length > 0) warnings.push(emptyGlobWarning(input, set.emptyGlobs, options.workspace, false))
    }
    const rendered = renderedTargets(head, base)
    options.log?.(
      base
        ? `Rendered sets: ${head.objects.length} object(s) at the head, ${base.objects.length} at the base; ${rendered.length} added, removed or changed.`
        : `Rendered set: ${head.objects.length} object(s) at the head (no base set: every one is a target).`,
    )
    // the last source: every target is counted by now
    add(rendered, true)
    if (base && head.objects.length > 0) unchanged = true
  }
  const nothing = found.size === 0 ? nothingCollected(options, files.length, unchanged) : undefined
  if (nothing && !nothing.quiet && warnings.length === 0) warnings.push(`No target: ${nothing.searched}.`)
  return {
    targets: [...found.values()],
    skippedFiles,
    unreadable,
    files,
    warnings,
    changedPaths: changed.filter((file) => file.status !== 'removed').map((file) => file.path),
    nothing,
    unnamed,
  }
}

/** Names each input's globs and the folder searched: the user sees what was looked for, and where. */
function nothingCollected(
  options: { globs: readonly string[]; renderedHead?: readonly string[] | undefined; workspace: string },
  files: number,
  unchanged: boolean,
): NothingCollected {
  const inputs = [
    ...(options.globs.length > 0 ? [`\`manifests\` (${globList(options.globs)})`] : []),
    ...(options.renderedHead?.length ? [`\`rendered-head\` (${globList(options.renderedHead)})`] : []),
  ].join(' and ')
  if (!inputs) return { searched: '`targets` names no object and no manifest was given', quiet: false }
  if (unchanged) return { searched: `this pull request changes no object that ${inputs} declares`, quiet: true }
  if (files === 0) return { searched: `${inputs} matched no file in the workspace ${options.workspace}`, quiet: false }
  return {
    searched: `the ${files} file(s) that ${inputs} matched in the workspace ${options.workspace} declare no Kubernetes object`,
    quiet: false,
  }
}

function globList(globs: readonly string[]): string {
  return globs.map((glob) => `\`${glob}\``).join(', ')
}

/** An example of a glob relative to the workspace that is not one of the user's own (echoing theirs back helps no one). */
function exampleGlob(globs: readonly string[]): string {
  return (
    ['deploy/**/*.yaml', 'k8s/*.yml', 'manifests/**/*.yaml'].find((example) => !globs.includes(example)) ?? 'k8s/*.yml'
  )
}

/** Names the input, its globs and where they were matched, and what to check. */
function emptyGlobWarning(input: string, globs: readonly string[], workspace: string, pullRequest: boolean): string {
  const where = pullRequest
    ? `the files this pull request changes nor the workspace ${workspace}`
    : `the workspace ${workspace}`
  return `\`${input}\`: ${globs.length === 1 ? 'the glob' : 'the globs'} ${globList(globs)} matched no file in ${where} (folders are not matched as files; globs are relative to the workspace, e.g. ${exampleGlob(globs)}). Check the paths, and that an earlier step wrote the files.`
}

/** Globs that matched nothing while the input's other globs matched: normal, said in the log only. */
function emptyGlobNote(globs: readonly string[], workspace: string, pullRequest: boolean): string {
  const where = pullRequest
    ? 'in the files this pull request changes or the workspace'
    : `in the workspace ${workspace}`
  return `\`manifests\`: ${globList(globs)} matched no file ${where}; the other globs did.`
}

/**
 * A glob that names a folder matches no file (folders are not read), so the step would pass
 * having checked nothing: each is an input error naming the glob to write instead.
 */
function folderProblems(workspace: string, inputs: Record<string, readonly string[]>): string[] {
  const problems: string[] = []
  for (const [input, globs] of Object.entries(inputs)) {
    for (const glob of globs) {
      if (/[*?[\]{}]/.test(glob) || !isFolder(workspace, glob)) continue
      const folder = glob.replace(/\/+$/, '')
      problems.push(
        `\`${input}\`: \`${glob}\` is a folder, and \`${input}\` takes globs of files: write \`${folder}/**/*.yaml\` (add \`${folder}/**/*.yml\` if some files end so).`,
      )
    }
  }
  return problems
}

function isFolder(workspace: string, path: string): boolean {
  try {
    return statSync(resolve(workspace, path)).isDirectory()
  } catch {
    return false
  }
}

/** A removed file is read at the base commit; every other one from the checkout of the head. */
async function readSource(
  source: Source,
  root: string | undefined,
  options: { pullRequest: PullRequestFiles | undefined; maxFileBytes?: number },
): Promise<FileRead> {
  const maxBytes = options.maxFileBytes ?? MAX_MANIFEST_BYTES
  if (source.change === 'removed') {
    const atBase = await options.pullRequest?.readAtBase(source.path, maxBytes)
    if (atBase === undefined) return { skipped: 'removed, and not readable at the base commit' }
    return 'text' in atBase ? atBase : { skipped: tooLarge(atBase.tooLarge, maxBytes) }
  }
  if (root === undefined)
    return { skipped: 'not in the workspace: check out the pull request head (actions/checkout) before this step' }
  return readWorkspaceFile(root, source.path, maxBytes)
}

/** One target per object; a removed manifest's origin wins, since it is the riskier change. */
function addDistinct(byKey: Map<string, Target>, targets: readonly Target[]): void {
  for (const target of targets) {
    const key = [target.edge ?? '', target.group, target.kind, target.namespace ?? '', target.name].join('\u0000')
    const existing = byKey.get(key)
    if (!existing || isRemovedTarget(target)) byKey.set(key, target)
  }
}

type Source = { path: string; change: Extract<TargetOrigin, { kind: 'manifest' }>['change'] }

/**
 * The changed files the globs match. A glob that matches none of them is normal (the pull
 * request changes other things) unless it matches no file in the checkout either.
 */
function changedManifests(
  changed: readonly ChangedFile[],
  globs: readonly string[],
  workspace: string,
): { sources: Source[]; emptyGlobs: string[] } {
  const sources: Source[] = []
  const used = new Set<string>()
  for (const file of changed) {
    const glob = globs.find((glob) => matchesGlob(file.path, glob))
    if (glob === undefined) continue
    used.add(glob)
    const change =
      file.status === 'removed'
        ? 'removed'
        : file.status === 'added'
          ? 'added'
          : file.status === 'renamed'
            ? 'renamed'
            : 'modified'
    sources.push({ path: file.path, change })
  }
  const unused = globs.filter((glob) => !used.has(glob))
  return { sources, emptyGlobs: unused.length > 0 ? matchFiles(workspace, unused).emptyGlobs : [] }
}

function workspaceManifests(workspace: string, globs: readonly string[]): { sources: Source[]; emptyGlobs: string[] } {
  const { paths, emptyGlobs } = matchFiles(workspace, globs)
  return { sources: paths.map((path) => ({ path, change: 'workspace' as const })), emptyGlobs }
}
