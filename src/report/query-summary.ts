/** QueryResult → markdown for the job summary. Pure. */
import type { QueryResult } from '../commands/query.js'
import { edgeOf } from '../hub/graph.js'
import { code, inline, table, formatCount } from './markdown.js'

export function renderQuerySummary(result: QueryResult, maxObjects: number): string {
  const sections: string[] = [`## Fleet query: ${formatCount(result.count)} object${result.count === 1 ? '' : 's'}`]
  sections.push(`Collected over ${result.pages} page${result.pages === 1 ? '' : 's'}; written to ${code(result.resultFile)} (output \`result-file\`).`)
  if (result.stoppedBy === 'max-objects') {
    sections.push(`> [!WARNING]\n> Stopped at max-objects (${formatCount(maxObjects)}): more objects match. Raise \`max-objects\` or narrow the query.`)
  }
  if (result.stoppedBy === 'cursor-restart') {
    sections.push(
      '> [!WARNING]\n> The hub restarted the results at page 1 (it did not accept the paging cursor), so paging stopped there to avoid a loop. The objects collected are distinct but may be incomplete.',
    )
  }
  if (result.count === 0) {
    const edges = result.edges ?? []
    const engaged =
      edges.length > 0
        ? `Engaged edges in this workspace: ${edges.map(code).join(', ')}.`
        : 'This workspace has no engaged edges, which explains an empty result.'
    sections.push(
      `> [!NOTE]\n> No object matched. An empty result does not prove absence: an edge may be stale, the token may lack visibility, or \`org\`/\`workspace\` may not be what you meant (the hub silently falls back to the personal org). ${engaged}`,
    )
    return `${sections.join('\n\n')}\n`
  }
  const rows = result.sample.map((row) => describe(row))
  sections.push(`First ${rows.length} of ${formatCount(result.count)}:`)
  sections.push(
    table<ReturnType<typeof describe>>(
      [
        { header: 'Kind', cell: (row) => inline(row.kind) },
        { header: 'Namespace/Name', cell: (row) => inline(row.name) },
        { header: 'Edge', cell: (row) => inline(row.edge) },
      ],
      rows,
    ),
  )
  return `${sections.join('\n\n')}\n`
}

function describe(row: Record<string, unknown>): { kind: string; name: string; edge: string } {
  const object = (row.object ?? {}) as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } }
  const name = typeof object.metadata?.name === 'string' ? object.metadata.name : typeof row.id === 'string' ? row.id : '?'
  const namespace = typeof object.metadata?.namespace === 'string' ? `${object.metadata.namespace}/` : ''
  return {
    kind: typeof object.kind === 'string' ? object.kind : '—',
    name: namespace + name,
    edge: edgeOf(typeof row.cluster === 'string' ? row.cluster : undefined) ?? '—',
  }
}
