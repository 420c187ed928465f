/**
 * QueryResult → markdown for the job summary. Pure. Every name comes from the hub and may be
 * any size: each cell and the edge list are clipped, and the whole stays within
 * SUMMARY_BYTE_BUDGET (the result file holds every object in full).
 */
import type { QueryResult } from './run-query.js'
import { edgeOf } from '../../hub/graph.js'
import { groupOf, kindLabel } from '../../model/target.js'
import { SUMMARY_BYTE_BUDGET, byteLength, clip, code, inline, table } from '../../markdown/format.js'
import { formatCount } from '../../units.js'

const MAX_CELL = 300
const MAX_EDGES = 50
const MAX_EDGE = 200

export function renderQuerySummary(result: QueryResult, maxObjects: number): string {
  const atLeast = result.stoppedBy === 'truncated' ? '≥ ' : ''
  const sections: string[] = [
    `## Fleet query: ${atLeast}${formatCount(result.count)} object${result.count === 1 ? '' : 's'}`,
  ]
  sections.push(
    `Collected from ${result.pages} page${result.pages === 1 ? '' : 's'}; written to ${code(result.resultFile)} (output \`result-file\`).`,
  )
  if (result.storeNote) sections.push(`> [!NOTE]\n> ${inline(result.storeNote)}`)
  if (result.stoppedBy === 'max-objects') {
    sections.push(
      `> [!WARNING]\n> Stopped at max-objects (${formatCount(maxObjects)}): more objects match. Raise \`max-objects\` or narrow the query.`,
    )
  }
  if (result.stoppedBy === 'cursor-restart') {
    sections.push(
      '> [!WARNING]\n> The hub restarted the results at page 1 (it did not accept the paging cursor), so paging stopped there to avoid a loop. The objects collected are distinct but may be incomplete.',
    )
  }
  if (result.stoppedBy === 'truncated') {
    const said =
      result.warnings.length > 0
        ? ` The hub said: ${result.warnings.map((warning) => inline(clip(warning, MAX_CELL))).join('; ')}.`
        : ''
    sections.push(
      `> [!WARNING]\n> Incomplete: the hub's 10,000-row cap (objects and their relations together) cut a page, so whole objects after it are missing and ${formatCount(result.count)} is a lower bound.${said} Ask for smaller pages (a lower \`limit\`) or fewer relations.`,
    )
  }
  if (result.relationPaging) {
    sections.push(
      `> [!WARNING]\n> Paged with relations: the hub pages such a query by an internal path, not by the order asked, so its pages can repeat or skip objects. ${formatCount(result.relationPaging.repeated)} repeated object${result.relationPaging.repeated === 1 ? ' was' : 's were'} dropped; skipped ones cannot be seen, so this result may be incomplete. For a complete list, query one edge at a time with a \`limit\` above the number of objects, or without relations.`,
    )
  }
  if (result.count === 0) {
    const edges = result.edges ?? []
    const shown = edges.slice(0, MAX_EDGES).map((edge) => code(clip(edge, MAX_EDGE)))
    if (edges.length > MAX_EDGES) shown.push(`and ${formatCount(edges.length - MAX_EDGES)} more`)
    const engaged =
      edges.length > 0
        ? `Engaged edges in this workspace: ${shown.join(', ')}.`
        : 'This workspace has no engaged edges, which explains an empty result.'
    sections.push(
      `> [!NOTE]\n> No object matched. An empty result does not prove absence: an edge may be stale, the token may lack visibility, or \`org\`/\`workspace\` may not be what you meant (the hub silently falls back to the personal org). ${engaged}`,
    )
    return `${sections.join('\n\n')}\n`
  }
  const sample = sampleTable(
    result.sample.map((row) => describe(row)),
    SUMMARY_BYTE_BUDGET - byteLength(sections.join('\n\n')) - 1_024,
  )
  sections.push(`First ${sample.rows} of ${formatCount(result.count)}:`)
  sections.push(sample.markdown)
  return `${sections.join('\n\n')}\n`
}

/** The sample table, whole rows only, within `budget` bytes (20 rows of clipped cells always fit today). */
function sampleTable(
  rows: ReadonlyArray<ReturnType<typeof describe>>,
  budget: number,
): { markdown: string; rows: number } {
  const render = (kept: ReadonlyArray<ReturnType<typeof describe>>) =>
    table<ReturnType<typeof describe>>(
      [
        { header: 'Kind', cell: (row) => inline(clip(row.kind, MAX_CELL)) },
        { header: 'Namespace/Name', cell: (row) => inline(clip(row.name, MAX_CELL)) },
        { header: 'Edge', cell: (row) => inline(clip(row.edge, MAX_CELL)) },
      ],
      kept,
    )
  let kept = rows.length
  let markdown = render(rows)
  while (kept > 0 && byteLength(markdown) > budget) markdown = render(rows.slice(0, --kept))
  return { markdown, rows: kept }
}

function describe(row: Record<string, unknown>): { kind: string; name: string; edge: string } {
  const object = (row.object ?? {}) as {
    apiVersion?: unknown
    kind?: unknown
    metadata?: { name?: unknown; namespace?: unknown }
  }
  const name =
    typeof object.metadata?.name === 'string' ? object.metadata.name : typeof row.id === 'string' ? row.id : '?'
  const namespace = typeof object.metadata?.namespace === 'string' ? `${object.metadata.namespace}/` : ''
  return {
    // qualified by its group when the query selected apiVersion, as the impact report writes kinds
    kind: typeof object.kind === 'string' ? kindLabel(object.kind, groupOf(object.apiVersion)) : '—',
    name: namespace + name,
    edge: edgeOf(typeof row.cluster === 'string' ? row.cluster : undefined) ?? '—',
  }
}
