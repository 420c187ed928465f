/**
 * Fleet query provider client: one query page, every page (with the guards the real hub
 * needs), and the workspace's edges. The hub's paging traps (docs/hub-facts.md, "Graph queries"): absent
 * `objects` when nothing matched, `cursor.next` on the last page too, an unreadable cursor
 * silently restarting at page 1, and a keyset that ignores the edge unless ordered by it.
 */
import * as z from '../zod.js'
import { HubNotFoundError, HubProtocolError } from './errors.js'
import type { JsonRequest, ResponseLimits } from './request.js'
import type { HubTransport } from './transport.js'
import type { ObjectResult } from './graph-tree.js'

const PREFIX = '/services/providers/graph'
/** The hub cuts a query at 30 s; our request must outlive that to hear its answer. */
const QUERY_TIMEOUT_MS = 45_000
export const MAX_QUERY_LIMIT = 10_000

/**
 * One query page holds at most 10,000 rows (roots and related objects together: the hub's
 * row cap), whatever `limit` asks. We allow 1.6 KiB and 100 JSON values per row on average
 * at that cap: 16 MiB and 1,000,000 values, which JSON.parse turns into at most ~100 MB of
 * heap whatever their shape. Pages of bigger objects must be asked for in smaller pages.
 */
const QUERY_PAGE_LIMITS: ResponseLimits = Object.freeze({
  name: 'one query page',
  maxBytes: 16 * 1024 * 1024,
  maxValues: 1_000_000,
  maxDepth: 128,
  hint: 'A page may hold at most 16 MiB (10,000 rows of 1.6 KiB on average): ask for smaller pages with a lower `limit` in the `query` input, or project fewer fields with `objects`.',
})

const ObjectResultSchema: z.ZodMiniType<ObjectResult> = z.lazy(() =>
  z.looseObject({
    id: z.optional(z.string()),
    cluster: z.optional(z.string()),
    object: z.optional(z.record(z.string(), z.unknown())),
    relations: z.optional(z.record(z.string(), z.array(ObjectResultSchema))),
  }),
)

const QueryStatusSchema = z.looseObject({
  objects: z.optional(z.array(ObjectResultSchema)),
  cursor: z.optional(z.looseObject({ next: z.optional(z.string()) })),
  count: z.optional(z.number()),
  incomplete: z.optional(z.boolean()),
  warnings: z.optional(z.array(z.unknown())),
})
export type QueryStatus = z.infer<typeof QueryStatusSchema>

/**
 * For paging through many objects: the envelope and each row's identity are checked, the
 * rest passes through as the hub sent it. Checking every field of 10,000 objects costs more
 * than the paging itself.
 */
const ShallowQueryStatusSchema = z.extend(QueryStatusSchema, {
  objects: z.optional(z.array(z.looseObject({ id: z.optional(z.string()), cluster: z.optional(z.string()) }))),
}) as unknown as typeof QueryStatusSchema

const EdgesSchema = z.looseObject({ edges: z.nullish(z.array(z.string())) })
const StatusSchema = z.looseObject({ storeDriver: z.optional(z.unknown()) })

/**
 * The graph's store (docs/hub-facts.md, "Store drivers"): SQLite and Postgres answer some
 * queries differently. `unknown` when the provider does not say (an older one has no status route).
 */
export type StoreDriver = 'sqlite' | 'postgres' | 'unknown'

/** A QuerySpec as sent; its shape is checked where the user wrote it (src/commands/query/inputs.ts). */
export type QuerySpec = Record<string, unknown>

export interface PageGuardResult {
  pages: number
  count: number
  /**
   * Why paging ended. `truncated`: the hub's 10,000-row cap cut a page (short page with
   * `incomplete` and a warning), so whole trailing objects are missing.
   */
  stoppedBy: 'last-page' | 'max-objects' | 'cursor-restart' | 'truncated'
  /** The hub's `warnings`, as text, clipped (untrusted). */
  warnings: string[]
  /**
   * The query asked for relations: the hub then pages by an internal path, not by the order
   * asked (docs/hub-facts.md, "Paging"), so a later page can repeat objects (dropped here and
   * counted in `repeated`) or skip some (which nothing in the answer reveals).
   */
  withRelations: boolean
  /** Objects a later page sent again, dropped. */
  repeated: number
}

const MAX_HUB_WARNINGS = 5
const MAX_HUB_WARNING_CHARS = 300

export class GraphClient {
  private readonly transport: HubTransport

  constructor(transport: HubTransport) {
    this.transport = transport
  }

  async query(
    spec: QuerySpec,
    signal?: AbortSignal,
    operation = 'query the fleet graph',
    shallow = false,
  ): Promise<QueryStatus> {
    const { data } = await this.transport.call(this.queryCall(spec, signal, operation, shallow))
    return data as QueryStatus
  }

  queryCall(
    spec: QuerySpec,
    signal?: AbortSignal,
    operation = 'query the fleet graph',
    shallow = false,
  ): JsonRequest<QueryStatus> {
    return {
      method: 'POST',
      path: `${PREFIX}/api/query`,
      body: spec,
      schema: shallow ? ShallowQueryStatusSchema : QueryStatusSchema,
      operation,
      timeoutMs: QUERY_TIMEOUT_MS,
      limits: QUERY_PAGE_LIMITS,
      // A query reads; sending it twice is harmless.
      repeatable: true,
      ...(signal ? { signal } : {}),
    }
  }

  /** The workspace's engaged edges: a cheap preflight, and what explains an empty result. */
  async edges(signal?: AbortSignal): Promise<string[]> {
    const { data } = await this.transport.call({
      method: 'GET',
      path: `${PREFIX}/api/edges`,
      schema: EdgesSchema,
      operation: 'list the workspace edges',
      repeatable: true,
      timeoutMs: 15_000,
      ...(signal ? { signal } : {}),
    })
    return data?.edges ?? []
  }

  /** Which store the graph answers from; `unknown` when the provider does not say. Needs no tenant. */
  async storeDriver(signal?: AbortSignal): Promise<StoreDriver> {
    try {
      const { data } = await this.transport.call(this.storeDriverCall(signal))
      const driver = (data as z.infer<typeof StatusSchema>).storeDriver
      return driver === 'sqlite' || driver === 'postgres' ? driver : 'unknown'
    } catch (error) {
      // A provider without the route answers the portal's HTML or a 404: it says nothing of its store.
      if (error instanceof HubProtocolError || error instanceof HubNotFoundError) return 'unknown'
      throw error
    }
  }

  storeDriverCall(signal?: AbortSignal): JsonRequest<unknown> {
    return {
      method: 'GET',
      path: `${PREFIX}/api/status`,
      schema: StatusSchema,
      operation: "read the graph's store driver",
      repeatable: true,
      timeoutMs: 15_000,
      ...(signal ? { signal } : {}),
    }
  }

  /**
   * Every page of a query, each handed to `onPage` as it arrives so callers can stream.
   * Orders by edge first (the keyset ignores the edge otherwise), stops on a short page, and
   * stops on a cursor that restarts at page 1 instead of looping.
   */
  async forEachPage(
    spec: QuerySpec,
    options: {
      pageSize: number
      maxObjects: number
      signal?: AbortSignal
      operation?: string
      /** Check the shape of nested relations too (when the caller reads them). */
      deep?: boolean
    },
    onPage: (objects: ObjectResult[], pageIndex: number) => void | Promise<void>,
  ): Promise<PageGuardResult> {
    const pageSize = Math.min(MAX_QUERY_LIMIT, Math.max(1, options.pageSize))
    const base = pagedSpec(spec)
    const withRelations = asksForRelations(spec)
    const seen = new Set<string>()
    let cursor: string | undefined
    let count = 0
    let repeated = 0
    const warnings: string[] = []
    const result = (pages: number, stoppedBy: PageGuardResult['stoppedBy']): PageGuardResult => ({
      pages,
      count,
      stoppedBy,
      warnings,
      withRelations,
      repeated,
    })
    for (let page = 0; ; page++) {
      const limit = Math.min(pageSize, options.maxObjects - count)
      if (limit <= 0) return result(page, 'max-objects')
      const request: QuerySpec = { ...base, limit }
      if (cursor) request.page = { cursor }
      const status = await this.query(request, options.signal, options.operation, !options.deep)
      // Rows past the limit asked for break the contract: they are not ours to carry.
      const objects = (status.objects ?? []).slice(0, limit)
      addHubWarnings(warnings, status.warnings)
      const fresh: ObjectResult[] = []
      let restarted = false
      for (const object of objects) {
        const key = rowKey(object)
        if (seen.has(key)) {
          // With relations a repeat is the hub's paging by path: drop it and go on. Without,
          // it means the cursor was not accepted and page 1 came back.
          if (withRelations && page > 0) {
            repeated++
            continue
          }
          restarted = true
          break
        }
        seen.add(key)
        fresh.push(object)
      }
      // A page of repeats only makes no progress: stop rather than loop.
      if (withRelations && page > 0 && objects.length > 0 && fresh.length === 0) restarted = true
      count += fresh.length
      if (fresh.length > 0) await onPage(fresh, page)
      if (restarted) {
        if (page === 0) {
          throw new HubProtocolError({
            operation: options.operation ?? 'query the fleet graph',
            hubMessage: 'the same object twice in one page',
            hint: 'The hub returned duplicate rows; report this with the query.',
          })
        }
        return result(page + 1, 'cursor-restart')
      }
      // A short page is the end, unless the row cap made it short: then the hub says
      // `incomplete` (which a full page says too) and adds a warning (docs/hub-facts.md, "Graph queries").
      if (objects.length < limit && isTruncated(status)) return result(page + 1, 'truncated')
      // `cursor.next` is present on the last page too: a short page is the real end.
      if (objects.length < limit || status.incomplete === false || !status.cursor?.next)
        return result(page + 1, 'last-page')
      cursor = status.cursor.next
    }
  }
}

/** True when the hub says a result was cut: `incomplete` with a warning (a full page is `incomplete` alone). */
export function isTruncated(status: QueryStatus): boolean {
  return status.incomplete === true && (status.warnings?.length ?? 0) > 0
}

/** Keeps a few of the hub's warnings as short single-line text: they are untrusted and end up in logs. */
function addHubWarnings(into: string[], given: readonly unknown[] | undefined): void {
  for (const warning of given ?? []) {
    if (into.length >= MAX_HUB_WARNINGS) return
    const text = (typeof warning === 'string' ? warning : (JSON.stringify(warning) ?? '')).replace(/\s+/g, ' ').trim()
    const clipped = text.length > MAX_HUB_WARNING_CHARS ? `${text.slice(0, MAX_HUB_WARNING_CHARS)}…` : text
    if (clipped && !into.includes(clipped)) into.push(clipped)
  }
}

/** A query as paging sends it: ordered by edge first, asking for a cursor, rows carrying ids. */
export function pagedSpec(spec: QuerySpec): QuerySpec {
  const paged: QuerySpec = { ...spec, order: orderedByEdgeFirst(spec.order), cursor: true }
  // Rows are told apart by id for the restart guard, so a projection must carry it. Without
  // one the hub sends neither id nor cluster (and still the whole object): ask for both.
  paged.objects =
    spec.objects && typeof spec.objects === 'object' ? { ...spec.objects, id: true } : { id: true, cluster: true }
  return paged
}

/** True when the query asks for relations of its objects (the hub then pages differently). */
function asksForRelations(spec: QuerySpec): boolean {
  const objects = spec.objects as { relations?: unknown } | undefined
  return (
    !!objects &&
    typeof objects.relations === 'object' &&
    objects.relations !== null &&
    Object.keys(objects.relations).length > 0
  )
}

/** The edge of an object: the hub sends `<tenant workspace path>/<edge>`. */
export { walkRelations, type ObjectResult } from './graph-tree.js'

export function edgeOf(cluster: string | undefined): string | undefined {
  if (!cluster) return undefined
  const at = cluster.lastIndexOf('/')
  return at >= 0 ? cluster.slice(at + 1) : cluster
}

/**
 * The order paging sends: the edge first (the keyset ignores it otherwise), the user's order or
 * namespace and name, then kind and group. The keyset is the order fields plus namespace and
 * name, so objects of several kinds with one namespace and name on one edge tie, and a page
 * boundary between them skips the later ones (docs/hub-facts.md, "Relations, more precisely").
 */
function orderedByEdgeFirst(order: unknown): Array<Record<string, unknown>> {
  const given = Array.isArray(order) ? (order as Array<Record<string, unknown>>) : []
  // One comparison for the whole tuple (docs/hub-facts.md, "Graph queries"): every field we add
  // takes the user's direction, or a Desc order would become a mixed one.
  const direction = given[0]?.direction === 'Desc' ? 'Desc' : 'Asc'
  const fields = [
    ...(given.some((entry) => entry.field === 'cluster') ? [] : [{ field: 'cluster', direction }]),
    ...(given.length > 0
      ? given
      : [
          { field: 'namespace', direction },
          { field: 'name', direction },
        ]),
  ]
  for (const field of ['kind', 'apiGroup'])
    if (!fields.some((entry) => entry.field === field)) fields.push({ field, direction })
  return fields
}

function rowKey(object: ObjectResult): string {
  if (object.id) return object.id
  const meta = (object.object?.metadata ?? {}) as { name?: unknown; namespace?: unknown; uid?: unknown }
  return [object.cluster, object.object?.apiVersion, object.object?.kind, meta.namespace, meta.name, meta.uid]
    .map(String)
    .join('\u0000')
}
