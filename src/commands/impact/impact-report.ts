/**
 * ImpactReport → markdown, for both the job summary and the PR comment. Pure: publishers
 * write it. Every name, path, edge and message comes from the hub, a manifest or an input
 * and is escaped (`inline`, `details`, Mermaid labels); nothing here emits `<!--`. The
 * parts are measured as they are built; fit-report.ts fits them to the budget.
 */
import type { Direction, ImpactReport, RelatedObject, TargetImpact } from './model.js'
import { isRemovedTarget, kindLabel, targetLabel, type Target } from '../../model/target.js'
import { cuttable, piece, type CuttableList, type Piece } from '../../markdown/fit.js'
import { ZERO_WIDTH_SPACE, clip, details, inline, table } from '../../markdown/format.js'
import { formatCount } from '../../units.js'
import type { Column } from '../../markdown/format.js'
import { fitReport, type ImpactParts, type Parts, type Tables } from './fit-report.js'
import { renderGraph } from './mermaid.js'

const DEFAULT_IMPACT_TITLE = 'Impact of this change'

export interface ImpactRenderOptions {
  /** Maximum length in characters (code points, as GitHub counts them). */
  budget: number
  /** Where the untrimmed report lives (the job summary); linked when the rendering was trimmed. */
  summaryUrl?: string | undefined
  title?: string | undefined
  /** Said when the rendering was trimmed, instead of pointing at the job summary (which is this). */
  trimmedNote?: string | undefined
}

const REMOVED_NOTE = 'removed in this PR — deleting it affects every downstream object'
const INCOMPLETE_NOTE = 'incomplete — the hub cut the result (row cap or limit), so there may be more'
const MAX_WARNING = 2_000

const CAVEAT = [
  '> [!NOTE]',
  '> Impact comes only from declared relationships: owner references, spec references, label selectors, namespace membership and declared links.',
  '> Runtime traffic (calls, DNS names, queues, shared databases) is not traced, and the hub stops at 10,000 rows.',
  '> An empty list proves nothing: something can still depend on an object in a way the graph does not record.',
].join('\n')
/** Added to the caveat when a relation was derived: the reader must know which rows the graph did not give. */
const DERIVED_CAVEAT =
  '> **(derived)**: worked out by the action from the objects themselves, where the graph has no relation.'

/** One line for logs: plain text, no markdown, no line breaks or control characters. */
export function renderImpactVerdictLine(impact: TargetImpact): string {
  const parts = [`${logSafe(targetLabel(impact.target))} on ${logSafe(impact.edge)} — ${countsText(impact)}`]
  if (isRemoved(impact.target)) parts.push(REMOVED_NOTE)
  if (impact.incomplete) parts.push(INCOMPLETE_NOTE)
  return parts.join(' · ')
}

/** The report within `options.budget` characters: see fit-report.ts for what gives way first. */
export function renderImpactReport(report: ImpactReport, options: ImpactRenderOptions): string {
  return fitReport(buildParts(report, options), Math.max(0, Math.floor(options.budget)))
}

function buildParts(report: ImpactReport, options: ImpactRenderOptions): Parts {
  // The first target and edge opens, so a reader sees one graph without a click; the rest stay folded.
  const impacts = report.impacts.map((impact, index) => impactParts(impact, index === 0))
  const verdictItems = report.impacts.map((impact) => piece(`- ${verdictMarkdown(impact)}`))
  const verdicts: CuttableList | Piece =
    verdictItems.length > 0
      ? cuttable(
          '### By target and edge',
          verdictItems,
          (rest) => `- … and ${formatCount(rest)} more ${plural(rest, 'target')} (trimmed to fit)`,
        )
      : piece(
          report.targets.length === 0
            ? report.skippedTargets.length > 0
              ? 'No targets in scope: every object declared is outside `allowed-namespaces` or `allowed-kinds`, so nothing was queried.'
              : report.nothing
                ? `No targets: ${inline(clip(report.nothing.searched, MAX_WARNING, ' …'))}.`
                : 'No targets: nothing was named in `targets` and no manifest declared an object.'
            : 'None of the targets was found on an edge, so no impact could be read.',
        )

  return {
    title: piece(`## ${inline(options.title ?? DEFAULT_IMPACT_TITLE)}`),
    overview: piece(overview(report)),
    notice: piece(options.trimmedNote ?? trimNotice(options.summaryUrl)),
    verdicts,
    impacts,
    notFoundFull: report.notFound.length > 0 ? piece(notFoundSection(report)) : undefined,
    notFoundNames:
      report.notFound.length > 0
        ? cuttable(
            `### Not synchronized (${formatCount(report.notFound.length)})`,
            report.notFound.map((target) => piece(`- ${targetName(target)}`)),
            (rest) => `- … and ${formatCount(rest)} more (trimmed to fit)`,
          )
        : undefined,
    skipped:
      report.skippedFiles.length > 0 || report.skippedTargets.length > 0 ? piece(skippedSection(report)) : undefined,
    warnings: report.warnings.length > 0 ? piece(warningsSection(report.warnings)) : undefined,
    caveat: piece(derivedCount(report) > 0 ? `${CAVEAT}\n${DERIVED_CAVEAT}` : CAVEAT),
  }
}

function overview(report: ImpactReport): string {
  const totals = report.totals
  const incomplete = report.impacts.filter((impact) => impact.incomplete).length
  // A cut result holds only part of the related objects: its counts are a lower bound.
  const atLeast = incomplete > 0 ? '≥ ' : ''
  const lines = [
    `**${formatCount(report.targets.length)} ${plural(report.targets.length, 'target')} · ${atLeast}${formatCount(totals.upstream)} upstream · ${atLeast}${formatCount(totals.downstream)} downstream · ${atLeast}${formatCount(totals.associated)} associated**`,
  ]
  const counts: string[] = []
  if (report.notFound.length > 0) counts.push(`Not found on any edge: ${formatCount(report.notFound.length)}`)
  if (report.skippedFiles.length > 0) counts.push(`Skipped files: ${formatCount(report.skippedFiles.length)}`)
  if (report.skippedTargets.length > 0)
    counts.push(`Outside the allowed scope: ${formatCount(report.skippedTargets.length)}`)
  if (incomplete > 0) counts.push(`Incomplete results: ${formatCount(incomplete)}`)
  if (counts.length > 0) lines.push(counts.join(' · '))
  const source = report.source === 'mcp' ? 'the MCP impact tool' : 'the query API'
  const commit = report.commit ? ` for commit ${inline(report.commit.slice(0, 40))}` : ''
  const derived = derivedCount(report)
  const derivedText =
    derived > 0
      ? `; ${formatCount(derived)} ${plural(derived, 'relation')} derived by the action, not by the graph`
      : ''
  lines.push(
    `Relationships up to depth ${formatCount(report.maxDepth)}, read through ${source}${commit}${derivedText}.`,
  )
  return lines.join('\n\n')
}

function trimNotice(summaryUrl: string | undefined): string {
  const href = safeHref(summaryUrl)
  return href
    ? `Trimmed to fit: [see the full report in the job summary](<${href}>).`
    : 'Trimmed to fit: see the full report in the job summary.'
}

function verdictMarkdown(impact: TargetImpact): string {
  let line = `**${inline(targetLabel(impact.target))}** on ${inline(impact.edge)} — ${countsText(impact)}`
  if (isRemoved(impact.target)) line += ` · ⚠️ **removed in this PR** — deleting it affects every downstream object`
  else if (impact.target.origin.kind === 'rendered' && impact.target.origin.change !== 'rendered')
    line += ` · **${impact.target.origin.change}** in the rendered set`
  if (impact.target.origin.kind === 'rendered' && impact.target.origin.source)
    line += ` · from ${inline(impact.target.origin.source)}`
  if (impact.incomplete)
    line += ` · ⚠️ **incomplete** — the hub cut the result (row cap or limit), so there may be more`
  return line
}

function impactParts(impact: TargetImpact, open: boolean): ImpactParts {
  const summary = renderImpactVerdictLine(impact)
  // The summary line already names the target, the edge and the counts: the body adds only where the target came from.
  const unknown = (impact.unknown ?? []).map((line) => ` ${inline(clip(line, MAX_WARNING, ' …'))}`).join('')
  const cut = impact.namespacedCapped
    ? ' The `namespaced` relation lists at most 200 objects: the lists below are incomplete.'
    : impact.incomplete
      ? ' The hub cut this result (row cap or limit): the lists below are incomplete.'
      : ''
  const fixed = `${capitalize(originText(impact.target))}.${cut}${unknown}`
  return {
    summary,
    fixed,
    open,
    wrapper: piece(details(summary, fixed, open)),
    mermaid: once(() => piece(renderGraph(impact))),
    shown: tablePieces(impact, false),
    // Only a report that fits whole draws graphs, so only a small one builds these.
    folded: once(() => tablePieces(impact, true)),
  }
}

function tablePieces(impact: TargetImpact, folded: boolean): Tables {
  return {
    upstream: piece(directionBlock('upstream', impact, { folded })),
    downstream: piece(directionBlock('downstream', impact, { folded })),
    downstreamShort: piece(directionBlock('downstream', impact, { folded, limit: SHORT_TABLE_ROWS })),
    associated: piece(directionBlock('associated', impact, { folded })),
  }
}

const DIRECTION_TITLE: Record<Direction, string> = {
  upstream: 'Upstream — what it depends on',
  downstream: 'Downstream — what depends on it',
  associated: 'Associated — declared links',
}

/** Rows a cut downstream table keeps: enough to show reviewers what kind of objects are hit. */
const SHORT_TABLE_ROWS = 25

/**
 * One direction's table under its title. `folded`: under a graph, which already names these
 * objects, the table (which adds their relations) is folded behind its title.
 */
function directionBlock(
  direction: Direction,
  impact: TargetImpact,
  options: { folded: boolean; limit?: number },
): string {
  const objects = impact[direction]
  if (objects.length === 0) return `**${DIRECTION_TITLE[direction]}:** none found.`
  const title = `${DIRECTION_TITLE[direction]} (${formatCount(objects.length)})`
  const { limit } = options
  let body = relatedTable(objects, impact.edge)
  if (limit !== undefined && objects.length > limit) {
    const rest = objects.length - limit
    body = `${relatedTable(objects.slice(0, limit), impact.edge)}\n\n… and ${formatCount(rest)} more ${direction} ${rest === 1 ? 'object' : 'objects'}: the job summary and the result file list them all.`
  }
  return options.folded ? details(title, body) : `**${title}**\n\n${body}`
}

/**
 * One table per target and edge: no Edge column, which would repeat that edge on every row.
 * An object on another edge (an associated object can be) says so after its name.
 */
function relatedTable(objects: readonly RelatedObject[], edge: string): string {
  const columns: Column<RelatedObject>[] = [
    { header: 'Kind', cell: (object) => repeated(kindLabel(object.kind, object.group)) },
    { header: 'Namespace/Name', cell: (object) => objectName(object, edge) },
    { header: 'Relation(s)', cell: (object) => repeated(relationsText(object)) },
  ]
  return table(columns, objects)
}

/** Relation names, each the action derived marked so. */
function relationsText(object: Pick<RelatedObject, 'relations' | 'derived'>): string {
  const derived = new Set(object.derived ?? [])
  return object.relations.map((relation) => (derived.has(relation) ? `${relation} (derived)` : relation)).join(', ')
}

/** Relations the action derived, across every target and edge (an object counts once per relation it derived). */
function derivedCount(report: ImpactReport): number {
  let count = 0
  for (const impact of report.impacts)
    for (const direction of ['upstream', 'downstream', 'associated'] as const)
      for (const object of impact[direction]) count += object.derived?.length ?? 0
  return count
}

function objectName(object: RelatedObject, edge: string): string {
  const name = inline(object.namespace ? `${object.namespace}/${object.name}` : object.name)
  return object.edge && object.edge !== edge ? `${name} (on edge ${inline(object.edge)})` : name
}

/** `inline` for the few values that repeat across thousands of rows (kinds, edges, relations). */
const repeatedCache = new Map<string, string>()
function repeated(text: string): string {
  let escaped = repeatedCache.get(text)
  if (escaped === undefined) {
    escaped = inline(text)
    if (repeatedCache.size >= 1_000) repeatedCache.clear()
    repeatedCache.set(text, escaped)
  }
  return escaped
}

function notFoundSection(report: ImpactReport): string {
  const edges =
    report.edges.length > 0
      ? `Engaged edges in this workspace: ${report.edges.map((edge) => inline(edge)).join(', ')}.`
      : 'No engaged edges were read for this workspace (an empty edge list also explains empty results).'
  const items = report.notFound.map((target) => `- ${targetName(target)} — ${originText(target)}`)
  return [
    `### Not synchronized (${formatCount(report.notFound.length)})`,
    'These targets were found on no edge. Either the object is new (it appears once it is applied and synchronized), the edge named is stale or wrong, or the hub cannot see it with these credentials — including when the org or workspace input is not a membership of the token owner, which the hub answers with empty results rather than an error. Their impact is unknown, not empty.',
    edges,
    items.join('\n'),
  ].join('\n\n')
}

/** Files not read, and targets outside the scope the workflow allows (never queried). */
function skippedSection(report: ImpactReport): string {
  const sections: string[] = []
  if (report.skippedFiles.length > 0) {
    const items = report.skippedFiles.map((file) => `- ${inline(file.path)} — ${inline(file.reason)}`)
    sections.push(`### Skipped files (${formatCount(report.skippedFiles.length)})\n\n${items.join('\n')}`)
  }
  if (report.skippedTargets.length > 0) {
    const items = report.skippedTargets.map(
      ({ target, reason }) => `- ${targetName(target)} — ${originText(target)}; ${inline(reason)}`,
    )
    sections.push(`### Outside the allowed scope (${formatCount(report.skippedTargets.length)})\n\n${items.join('\n')}`)
  }
  return sections.join('\n\n')
}

function warningsSection(warnings: readonly string[]): string {
  const items = warnings.map((warning) => `- ${inline(clip(warning, MAX_WARNING, ' …'))}`)
  return `### Warnings\n\n${items.join('\n')}`
}

function targetName(target: Target): string {
  return `${inline(targetLabel(target))}${target.edge ? ` (edge ${inline(target.edge)})` : ''}`
}

function originText(target: Target): string {
  const origin = target.origin
  if (origin.kind === 'input') return 'named in the targets input'
  if (origin.kind === 'rendered') {
    const from = origin.source ? `rendered from ${inline(origin.source)}` : 'rendered'
    return `${from}, in ${inline(origin.path)} (${origin.change === 'rendered' ? 'head set' : origin.change})`
  }
  const change = origin.change === 'workspace' ? 'in the workspace' : origin.change
  return `from ${inline(origin.path)} (${change})`
}

function countsText(impact: TargetImpact): string {
  return `${formatCount(impact.upstream.length)} upstream, ${formatCount(impact.downstream.length)} downstream, ${formatCount(impact.associated.length)} associated`
}

function isRemoved(target: Target): boolean {
  return isRemovedTarget(target)
}

// ---------------------------------------------------------------------------------------
// Small helpers

/** One log-safe line: no control characters, no line breaks, no workflow command ("::"). */
function logSafe(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/::/g, `:${ZERO_WIDTH_SPACE}:`)
}

function safeHref(url: string | undefined): string | undefined {
  if (!url) return undefined
  try {
    const parsed = new URL(url)
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined
    return parsed.href.replace(/</g, '%3C').replace(/>/g, '%3E').replace(/\s/g, '%20')
  } catch {
    return undefined
  }
}

function once<T>(make: () => T): () => T {
  let value: T | undefined
  let made = false
  return () => {
    if (!made) {
      value = make()
      made = true
    }
    return value as T
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`
}
