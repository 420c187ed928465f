/**
 * The objects an impact report is about: those named in `targets`, and every Kubernetes
 * object in the manifest files that `manifests` matches — on a pull request, the files it
 * changes (removed ones read at the base commit: deleting an object is the riskiest change);
 * elsewhere, the files in the workspace.
 */
import { globSync } from 'node:fs'
import { matchesGlob } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { targetsFromManifest } from './manifests.js'
import type { SkippedFile, Target, TargetOrigin } from './model.js'
import { MAX_MANIFEST_BYTES, readWorkspaceFile, tooLarge, workspaceRoot, type FileRead } from './read-workspace-file.js'

export interface ChangedFile {
  path: string
  status: string
  previousPath?: string | undefined
}

/** What the pull-request side must provide; implemented over the GitHub API. */
export interface PullRequestFiles {
  changedFiles(): Promise<ChangedFile[]>
  /** The file's text at the PR's base commit if it is at most `maxBytes` long; undefined when it is not there. */
  readAtBase(path: string, maxBytes: number): Promise<{ text: string } | { tooLarge: number } | undefined>
}

export interface CollectedTargets {
  targets: Target[]
  skippedFiles: SkippedFile[]
  /** Manifest files read, for the log. */
  files: string[]
}

export async function collectTargets(options: {
  given: readonly Target[]
  globs: readonly string[]
  defaultNamespace: string | undefined
  workspace: string
  pullRequest: PullRequestFiles | undefined
  /** Aborted when the job is cancelled: reading stops between files and within large ones. */
  signal?: AbortSignal | undefined
  /** Per file, from the checkout and from GitHub alike. */
  maxFileBytes?: number
  /** Progress for the step log: reading large files can take seconds. */
  log?: (message: string) => void
}): Promise<CollectedTargets> {
  const found: Target[] = [...options.given]
  const skippedFiles: SkippedFile[] = []
  const files: string[] = []
  if (options.globs.length > 0) {
    const sources = options.pullRequest ? await changedManifests(options.pullRequest, options.globs) : workspaceManifests(options.workspace, options.globs)
    const root = await workspaceRoot(options.workspace).catch(() => undefined)
    if (sources.length > 0) options.log?.(`Reading ${sources.length} manifest file(s).`)
    for (const source of sources) {
      // a turn of the event loop between files, so a cancel is heard even when each file is quick
      await nextTurn()
      options.signal?.throwIfAborted()
      files.push(source.path)
      const read = await readSource(source, root, options)
      if ('skipped' in read) {
        skippedFiles.push({ path: source.path, reason: read.skipped })
        continue
      }
      const origin: TargetOrigin = { kind: 'manifest', path: source.path, change: source.change }
      const result = await targetsFromManifest(source.path, read.text, origin, { defaultNamespace: options.defaultNamespace, signal: options.signal })
      found.push(...result.targets)
      if (result.skipped) skippedFiles.push(result.skipped)
    }
  }
  return { targets: distinctTargets(found), skippedFiles, files }
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
  if (root === undefined) return { skipped: 'not in the workspace: check out the pull request head (actions/checkout) before this step' }
  return readWorkspaceFile(root, source.path, maxBytes)
}

/** One target per object; a removed manifest's origin wins, since it is the riskier change. */
export function distinctTargets(targets: readonly Target[]): Target[] {
  const byKey = new Map<string, Target>()
  for (const target of targets) {
    const key = [target.edge ?? '', target.group, target.kind, target.namespace ?? '', target.name].join('\u0000')
    const existing = byKey.get(key)
    if (!existing || (target.origin.kind === 'manifest' && target.origin.change === 'removed')) byKey.set(key, target)
  }
  return [...byKey.values()]
}

type Source = { path: string; change: Extract<TargetOrigin, { kind: 'manifest' }>['change'] }

async function changedManifests(pullRequest: PullRequestFiles, globs: readonly string[]): Promise<Source[]> {
  const changed = await pullRequest.changedFiles()
  const sources: Source[] = []
  for (const file of changed) {
    if (!globs.some((glob) => matchesGlob(file.path, glob))) continue
    const change = file.status === 'removed' ? 'removed' : file.status === 'added' ? 'added' : file.status === 'renamed' ? 'renamed' : 'modified'
    sources.push({ path: file.path, change })
  }
  return sources
}

function workspaceManifests(workspace: string, globs: readonly string[]): Source[] {
  const paths = new Set<string>()
  for (const glob of globs) {
    for (const path of globSync(glob, { cwd: workspace, exclude: (name) => name === 'node_modules' || name === '.git' })) paths.add(path.split('\\').join('/'))
  }
  return [...paths].sort().map((path) => ({ path, change: 'workspace' as const }))
}
