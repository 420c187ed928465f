/**
 * `command: query` — run a QuerySpec through every page and stream the objects to the result
 * file as they arrive, so memory stays flat however many there are.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import type { GraphClient, ObjectResult, PageGuardResult, QuerySpec, StoreDriver } from '../../hub/graph.js'
import { MAX_QUERY_LIMIT, walkRelations } from '../../hub/graph.js'
import { ActionError, type StatementErrorData } from '../../errors.js'
import type { QuerySettings } from './inputs.js'
import { redact } from '../../redact.js'

const DEFAULT_PAGE_SIZE = 1_000
const SAMPLE_SIZE = 20
/** The schema id and version at the head of the result file; a change of shape bumps the version. */
const RESULT_FILE = { schema: 'hub-action/query-result', version: 1 } as const

export interface QueryResult {
  count: number
  pages: number
  stoppedBy: PageGuardResult['stoppedBy']
  /** What the hub warned about (e.g. the row cap cutting the result). */
  warnings: string[]
  /**
   * A query with relations read over several pages: the hub pages it by an internal path, so
   * pages may have repeated objects (`repeated`, dropped) or skipped some (undetectable).
   */
  relationPaging: { repeated: number } | undefined
  /** The first objects, for the summary. */
  sample: Array<Record<string, unknown>>
  /** The workspace's edges, read only when nothing matched (to explain why). */
  edges: string[] | undefined
  resultFile: string
  /** How the answer depends on the graph's store, when it does (an order by creationTimestamp). */
  storeNote: string | undefined
}

/**
 * On SQLite a cursor over creationTimestamp is compared as text in another format, so a later
 * page skips (Asc) or repeats (Desc) every row of the cursor's day (docs/hub-facts.md, "Store
 * drivers"). Such an order is read in one page, and refused when one page cannot hold it.
 */
function timestampOrder(spec: QuerySpec): boolean {
  return (
    Array.isArray(spec.order) &&
    spec.order.some((entry) => (entry as { field?: unknown }).field === 'creationTimestamp')
  )
}

/** A query the action declined to page because the hub would answer it wrongly. */
class QueryRefusal extends ActionError<StatementErrorData> {
  constructor(statement: string) {
    super({ kind: 'statement', operation: 'query the fleet graph', hint: 'see the message', statement })
    this.name = 'QueryRefusal'
  }
}

/** Objects per request: the spec's own `limit`, else 1,000; never above the hub's 10,000. */
export function pageSizeOf(settings: QuerySettings): number {
  return Math.min(settings.spec.limit ?? DEFAULT_PAGE_SIZE, MAX_QUERY_LIMIT, settings.maxObjects)
}

export async function runQuery(
  settings: QuerySettings,
  graph: GraphClient,
  resultFile: string,
  signal?: AbortSignal,
): Promise<QueryResult> {
  const spec = settings.spec as QuerySpec
  const driver: StoreDriver | undefined = timestampOrder(spec) ? await graph.storeDriver(signal) : undefined
  const onePage = driver !== undefined && driver !== 'postgres'
  const pageSize = onePage ? Math.min(MAX_QUERY_LIMIT, settings.maxObjects) : pageSizeOf(settings)
  const sample: Array<Record<string, unknown>> = []
  const fd = openSync(resultFile, 'w', 0o600)
  let written = 0
  let outcome: PageGuardResult
  let relationPaging: QueryResult['relationPaging']
  try {
    writeSync(
      fd,
      `{"schema":${JSON.stringify(RESULT_FILE.schema)},"version":${RESULT_FILE.version},"query":${JSON.stringify(spec)},"objects":[\n`,
    )
    outcome = await graph.forEachPage(
      spec,
      { pageSize, maxObjects: onePage ? pageSize : settings.maxObjects, ...(signal ? { signal } : {}) },
      (objects) => {
        for (const object of objects) fillInheritedEdges(object)
        const chunk = objects.map((object) => JSON.stringify(object)).join(',\n')
        writeSync(fd, (written > 0 ? ',\n' : '') + redact(chunk))
        written += objects.length
        for (const object of objects) if (sample.length < SAMPLE_SIZE) sample.push(object)
      },
    )
    if (onePage && outcome.stoppedBy === 'max-objects' && settings.maxObjects > pageSize)
      throw new QueryRefusal(
        `The query orders by creationTimestamp and more than ${pageSize.toLocaleString('en-US')} objects match. ${storeWords(driver)} a cursor over creationTimestamp is compared as text in another format, so every later page would skip (Asc) or repeat (Desc) the rows of the cursor's calendar day: the action reads such an order in one page only, and one page holds at most ${MAX_QUERY_LIMIT.toLocaleString('en-US')}. Narrow the query (a namespace, an edge with \`cluster\`, \`creationTimestamp.after\`), or order by name. The result file holds only the first page.`,
      )
    relationPaging = outcome.withRelations && outcome.pages > 1 ? { repeated: outcome.repeated } : undefined
    // Complete only when the cursor can be trusted: not over several pages of a query with relations.
    const complete = outcome.stoppedBy === 'last-page' && relationPaging === undefined
    const paging = relationPaging
      ? `,"relationPaging":{"repeatedObjectsDropped":${relationPaging.repeated},"mayHaveSkipped":true}`
      : ''
    writeSync(
      fd,
      `\n],"count":${outcome.count},"pages":${outcome.pages},"complete":${complete},"stoppedBy":${JSON.stringify(outcome.stoppedBy)}${paging},"hubWarnings":${redact(JSON.stringify(outcome.warnings))}}\n`,
    )
  } finally {
    closeSync(fd)
  }
  const edges = outcome.count === 0 ? await graph.edges(signal) : undefined
  return {
    count: outcome.count,
    pages: outcome.pages,
    stoppedBy: outcome.stoppedBy,
    warnings: outcome.warnings,
    relationPaging,
    sample,
    edges,
    resultFile,
    storeNote:
      driver === undefined
        ? undefined
        : onePage
          ? `Ordered by creationTimestamp: ${storeWords(driver)} such an order cannot be paged with a cursor, so it was read in one page of up to ${pageSize.toLocaleString('en-US')}.`
          : 'Ordered by creationTimestamp: the hub keeps its graph in Postgres, whose cursor pages such an order exactly.',
  }
}

function storeWords(driver: StoreDriver | undefined): string {
  return driver === 'sqlite'
    ? 'The hub keeps its graph in SQLite (GET /api/status), where'
    : 'The hub does not say which store it keeps its graph in (no GET /api/status), and on SQLite, its default,'
}

/**
 * Nested relation nodes come without `cluster` below the first level of a transitive relation
 * (docs/hub-facts.md, "Relations"): each gets its parent's edge, marked `clusterFromParent`,
 * so a reader can tell the hub's fields from ours. Every other field stays as the hub sent it.
 */
function fillInheritedEdges(row: ObjectResult): void {
  for (const entry of walkRelations(row)) {
    if (!entry.inherited) continue
    entry.node.cluster = entry.cluster
    entry.node.clusterFromParent = true
  }
}
