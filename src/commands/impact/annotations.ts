/**
 * The blast radius on the diff: one notice annotation per target, on the line that declares it
 * — the `kind:` line of a changed manifest, or of the chart or overlay file a renderer names —
 * so it shows in the pull request's "Files changed" view with no extra permission.
 *
 * GitHub shows at most 10 annotations of each level (error, warning, notice) per step and 50
 * per job (docs: "Workflow commands for GitHub Actions" and the Checks API's annotation limits);
 * more are dropped silently. So at most MAX_NOTICES are written (one fewer than the limit: the
 * step's verdict is a notice too), the last being a summary of the
 * rest when there are more, most downstream objects first.
 */
import { statSync } from 'node:fs'
import { dirname, isAbsolute, normalize } from 'node:path'
import type { ImpactReport, TargetImpact } from './model.js'
import { isRemovedTarget, targetLabel, type Target } from '../../model/target.js'
import { readWorkspaceFile } from '../../sources/read-workspace-file.js'

/** Notice annotations GitHub shows per step. @internal */
export const NOTICES_PER_STEP = 10
/** What the impact step may write: the verdict line of the step is a notice too (publish.ts). @internal */
export const MAX_NOTICES = NOTICES_PER_STEP - 1
/** A declaring template or overlay file read to find its `kind:` line; larger ones are placed at line 1. */
const MAX_DECLARING_FILE_BYTES = 512 * 1024

export interface Annotation {
  file: string
  line: number
  title: string
  message: string
  /** For ordering: the target's downstream objects across edges. */
  downstream: number
}

/** Where each target is declared, with what it affects; targets declared nowhere in the checkout get none. */
export async function impactAnnotations(
  report: Pick<ImpactReport, 'targets' | 'impacts' | 'notFound'>,
  context: { root: string | undefined; changedPaths: readonly string[] },
): Promise<Annotation[]> {
  const annotations: Annotation[] = []
  const placed = new Map<string, Promise<{ file: string; line: number } | undefined>>()
  for (const target of report.targets) {
    const place = await placeOf(target, context, placed)
    if (!place) continue
    const impacts = report.impacts.filter((impact) => sameObject(impact.target, target))
    const downstream = impacts.reduce((sum, impact) => sum + impact.downstream.length, 0)
    annotations.push({
      ...place,
      title: `hub-action impact: ${targetLabel(target)}`,
      message: messageFor(target, impacts),
      downstream,
    })
  }
  return annotations
}

/** At most `max` annotations: the ones with most downstream first, then one that counts the rest. */
export function capAnnotations(
  annotations: readonly Annotation[],
  max = MAX_NOTICES,
): { shown: Annotation[]; summary: string | undefined } {
  const ordered = [...annotations].sort((a, b) => b.downstream - a.downstream)
  if (ordered.length <= max) return { shown: ordered, summary: undefined }
  const shown = ordered.slice(0, max - 1)
  const rest = ordered.length - shown.length
  return {
    shown,
    summary: `${rest} more changed object(s) have impact not annotated on the diff: GitHub shows at most ${NOTICES_PER_STEP} notice annotations per step. The job summary and the pull request comment list them all.`,
  }
}

/** The title names the object; the message says how it changed and its counts, upstream first as everywhere else. */
function messageFor(target: Target, impacts: readonly TargetImpact[]): string {
  const change = changeText(target)
  const changed = `${change.charAt(0).toUpperCase()}${change.slice(1)}`
  if (impacts.length === 0)
    return `${changed}: not found on any edge, so its impact is unknown (a new object, a stale edge, or no visibility).`
  const perEdge = impacts.map(
    (impact) =>
      `${impact.upstream.length} upstream, ${impact.downstream.length} downstream on ${impact.edge}${impact.incomplete ? ' (incomplete)' : ''}`,
  )
  const removed = isRemovedTarget(target) ? ' Removing it affects every downstream object.' : ''
  return `${changed}: ${perEdge.join('; ')}.${removed} See the job summary for the objects.`
}

function changeText(target: Target): string {
  const origin = target.origin
  if (origin.kind === 'input') return 'named in targets'
  if (origin.kind === 'manifest') return origin.change === 'workspace' ? 'in the workspace' : origin.change
  return origin.change === 'rendered' ? 'rendered' : `${origin.change} in the rendered set`
}

async function placeOf(
  target: Target,
  context: { root: string | undefined; changedPaths: readonly string[] },
  placed: Map<string, Promise<{ file: string; line: number } | undefined>>,
): Promise<{ file: string; line: number } | undefined> {
  const origin = target.origin
  if (origin.kind === 'manifest')
    return origin.change === 'removed' || origin.line === undefined
      ? undefined
      : { file: origin.path, line: origin.line }
  if (origin.kind !== 'rendered' || !origin.source || context.root === undefined) return undefined
  const key = `${origin.source}\u0000${target.kind}`
  let place = placed.get(key)
  if (!place) {
    place = declaringLine(context.root, origin.source, target.kind, context.changedPaths)
    placed.set(key, place)
  }
  return place
}

/**
 * The file a renderer names, found in the checkout: Helm names it from the chart's parent
 * (`shop/templates/x.yaml`), Kustomize from the overlay (`../../base/x.yaml`); so it is tried
 * from the workspace root and from each folder of the changed files and their parents, nearest
 * first. Only paths inside the workspace, read with the workspace reader.
 */
async function declaringLine(
  root: string,
  source: string,
  kind: string,
  changedPaths: readonly string[],
): Promise<{ file: string; line: number } | undefined> {
  for (const candidate of candidates(source, changedPaths)) {
    if (!isRegularFile(`${root}/${candidate}`)) continue
    const read = await readWorkspaceFile(root, candidate, MAX_DECLARING_FILE_BYTES)
    if ('skipped' in read) continue
    return { file: candidate, line: kindLine(read.text, kind) }
  }
  return undefined
}

function candidates(source: string, changedPaths: readonly string[]): string[] {
  const folders = new Set<string>()
  for (const path of changedPaths) {
    for (let folder = dirname(path); folder !== '.' && folder !== '/' && !folders.has(folder); folder = dirname(folder))
      folders.add(folder)
  }
  const found: string[] = []
  for (const candidate of [
    source,
    ...[...folders].sort((a, b) => b.length - a.length).map((folder) => `${folder}/${source}`),
  ]) {
    const path = normalize(candidate).split('\\').join('/')
    if (isAbsolute(path) || path === '..' || path.startsWith('../') || found.includes(path)) continue
    found.push(path)
  }
  return found
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** The line of `kind: <Kind>` (a template may declare several kinds), else the first `kind:`, else 1. */
function kindLine(text: string, kind: string): number {
  const lines = text.split('\n')
  const exact = lines.findIndex((line) => line.trim() === `kind: ${kind}`)
  if (exact !== -1) return exact + 1
  const any = lines.findIndex((line) => /^\s*kind:/.test(line))
  return any + 1 || 1
}

function sameObject(a: Target, b: Target): boolean {
  return (
    a.group === b.group &&
    a.kind === b.kind &&
    a.name === b.name &&
    (b.namespace === undefined || a.namespace === b.namespace) &&
    (b.edge === undefined || a.edge === b.edge)
  )
}
