/**
 * One look at the fleet: the engaged edges, then the targets still to confirm on every edge in
 * as few queries as the hub's caps allow (filters OR-ed, paged), each row judged as it arrives
 * and kept only as its edge × target cell, so memory holds verdicts, not objects. The graph
 * keeps no per-object freshness and drops a disconnected edge's objects (docs/hub-facts.md,
 * "What the graph knows"): a target missing from an engaged edge is "not applied yet", from an edge that is
 * not engaged "not reporting", and a result the row cap cut is marked incomplete.
 */
import { edgeOf, type GraphClient, type QuerySpec } from '../../hub/graph.js'
import { groupOf } from '../../model/target.js'
import type { Revision } from './inputs.js'
import type { Cell, CellState } from './cell.js'
import { cellFacts, isBound, releaseProjection } from './cell-facts.js'
import { collectGarbage } from './heap.js'
import { at, shortText, str } from './live-object.js'
import { mergeProjection, rolloutProjection } from './projection.js'
import { rolloutState } from './revision.js'
import { stuckPods, watchesPods, type StuckMemory } from './pods.js'
import { releaseContext, type RolloutTarget } from './targets.js'

export type { Cell, CellState } from './cell.js'

/** Filters per query: entries are OR-ed, so one query reads many targets on every edge. */
const FILTERS_PER_QUERY = 200
/**
 * Rows per page: a projected workload is about 1.4 KiB. Each page is parsed, checked and
 * judged, then dropped; small pages keep what survives a young-generation collection small, so
 * the heap does not grow with a read: at 1,000 targets × 50 edges, 250-row pages held the read
 * at ~190 MB of RSS where 1,000-row pages reached ~290 MB and 5,000-row pages ~350 MB (bench/).
 */
const PAGE_SIZE = 250
/**
 * A query that can match at most this many rows (its filters × the engaged edges) is read in one
 * page: the memory above is a concern of large reads, and a small fleet's requests a minute are
 * not (100 targets × 20 edges: one page a look instead of eight, 7 requests a minute instead of 21,
 * at 144 MB of RSS instead of 125: bench/rollout.ts).
 */
const ONE_PAGE_ROWS = 2_000
/**
 * Pages read between two collections within a large read (./heap.ts): 5,000 rows, one in the
 * middle of each full query. At 1,000 × 50, every 2,000 rows peaked at ~188 MB but spent about
 * four times as long collecting; at look ends only, ~252 MB.
 */
const PAGES_BETWEEN_COLLECTIONS = 20
/** A bound on rows per query: 200 targets on 1,000 edges. */
const MAX_ROWS = 200_000

export interface Snapshot {
  /** Engaged edges, as GET /api/edges said. */
  engaged: string[]
  /** Per edge, per target index: the cell its rows make (the worst row when several match). */
  cells: Map<string, Map<number, Cell>>
  /** The targets read at this look; the others were current everywhere and are not read again. */
  read: ReadonlySet<number>
  /** False when the hub's row cap cut a result, or the bound on rows was reached. */
  complete: boolean
  warnings: string[]
  requests: number
}

const rowKey = (group: string, kind: string, name: string) => `${group}\u0000${kind}\u0000${name}`

/** The queries that read these targets: one filter per distinct identity, FILTERS_PER_QUERY a query. */
export function rolloutQueries(
  targets: readonly (Pick<RolloutTarget, 'target'> & Partial<Pick<RolloutTarget, 'expected'>>)[],
  revision?: Revision,
): QuerySpec[] {
  const filters = new Map<string, { filter: Record<string, unknown>; expected: Record<string, unknown>[] }>()
  for (const { target, expected } of targets) {
    const filter = {
      groupKind: { apiGroup: target.group, kind: target.kind },
      ...(target.namespace ? { namespace: target.namespace } : {}),
      name: target.name,
    }
    const key = JSON.stringify(filter)
    const entry = filters.get(key)
    const shown = expected ? [expected] : []
    if (entry) entry.expected.push(...shown)
    else filters.set(key, { filter, expected: shown })
  }
  const all = [...filters.values()]
  const queries: QuerySpec[] = []
  for (let i = 0; i < all.length; i += FILTERS_PER_QUERY) {
    const chunk = all.slice(i, i + FILTERS_PER_QUERY)
    const object = mergeProjection(rolloutProjection(chunk.flatMap((c) => c.expected)), releaseProjection(revision))
    queries.push({ filter: { objects: chunk.map((c) => c.filter) }, objects: { cluster: true, object } })
  }
  return queries
}

/** Worst first: failed, not reporting, in progress, current. */
export const STATE_RANK: Readonly<Record<CellState, number>> = {
  failed: 0,
  'not-reporting': 1,
  'in-progress': 2,
  current: 3,
}

export function worse(a: CellState, b: CellState): number {
  return STATE_RANK[a] - STATE_RANK[b]
}

export interface ReadOptions {
  signal: AbortSignal
  /** Ages unschedulable pods. */
  now: () => number
  /** Given the engaged edges, the indices of the targets to read at this look. */
  pick: (engaged: readonly string[]) => readonly number[]
  /** The `revision` input: its key is read from each `targets` target's row. */
  revision?: Revision | undefined
  /** Stuck pods seen at earlier looks (an image pull must persist across two). */
  stuck?: StuckMemory | undefined
}

/** Rows per page for one query: all it can match when that is few (ONE_PAGE_ROWS), else PAGE_SIZE. */
function pageSizeFor(spec: QuerySpec, edges: number): number {
  const filters = (spec.filter as { objects?: readonly unknown[] } | undefined)?.objects?.length ?? FILTERS_PER_QUERY
  const most = filters * Math.max(1, edges)
  return most <= ONE_PAGE_ROWS ? ONE_PAGE_ROWS : PAGE_SIZE
}

export async function readSnapshot(
  graph: GraphClient,
  targets: readonly RolloutTarget[],
  options: ReadOptions,
): Promise<Snapshot> {
  const engaged = await graph.edges(options.signal)
  const read = new Set(options.pick(engaged))
  const snapshot: Snapshot = { engaged, cells: new Map(), read, complete: true, warnings: [], requests: 1 }
  if (read.size === 0) return snapshot
  const byIdentity = new Map<string, number[]>()
  for (const i of read) {
    const { group, kind, name } = (targets[i] as RolloutTarget).target
    const key = rowKey(group, kind, name)
    byIdentity.set(key, [...(byIdentity.get(key) ?? []), i])
  }
  const now = options.now()
  for (const spec of rolloutQueries(
    [...read].map((i) => targets[i] as RolloutTarget),
    options.revision,
  )) {
    const paged = await graph.forEachPage(
      spec,
      {
        pageSize: pageSizeFor(spec, engaged.length),
        maxObjects: MAX_ROWS,
        signal: options.signal,
        operation: 'read the rollout targets',
      },
      (rows, page) => {
        // every few pages, the rows judged so far are garbage: collect it before more arrive (./heap.ts)
        if (page > 0 && page % PAGES_BETWEEN_COLLECTIONS === 0) collectGarbage()
        for (const row of rows) {
          const edge = edgeOf(row.cluster)
          const object = row.object
          if (!edge || !object) continue
          const matching =
            byIdentity.get(rowKey(groupOf(object.apiVersion), str(object.kind), str(at(object, 'metadata', 'name')))) ??
            []
          for (const i of matching) {
            const { namespace, edge: pinned } = (targets[i] as RolloutTarget).target
            if (
              (namespace && str(at(object, 'metadata', 'namespace')) !== namespace) ||
              (pinned !== undefined && pinned !== edge)
            )
              continue
            let byTarget = snapshot.cells.get(edge)
            if (!byTarget) snapshot.cells.set(edge, (byTarget = new Map<number, Cell>()))
            const target = targets[i] as RolloutTarget
            const cell = {
              ...cellOf(target.expected, object, now),
              ...cellFacts(object, isBound(target) ? options.revision : undefined, isBound(target)),
            }
            const before = byTarget.get(i)
            if (!before || worse(cell.state, before.state) < 0) byTarget.set(i, cell)
          }
        }
      },
    )
    snapshot.requests += paged.pages
    if (paged.stoppedBy !== 'last-page') snapshot.complete = false
    for (const warning of paged.warnings) if (!snapshot.warnings.includes(warning)) snapshot.warnings.push(warning)
  }
  await failStuckPods(graph, targets, snapshot, options)
  return snapshot
}

/** A workload still in progress whose new pods cannot pull or keep crashing fails now, not at its deadline. */
async function failStuckPods(
  graph: GraphClient,
  targets: readonly RolloutTarget[],
  snapshot: Snapshot,
  options: Pick<ReadOptions, 'signal' | 'now' | 'stuck'>,
): Promise<void> {
  const moving = new Set<number>()
  for (const byTarget of snapshot.cells.values())
    for (const [i, cell] of byTarget) if (cell.state === 'in-progress') moving.add(i)
  const watched = [...moving].filter((i) => watchesPods(targets[i] as RolloutTarget))
  if (watched.length === 0) return
  const { stuck, requests } = await stuckPods(graph, targets, watched, {
    signal: options.signal,
    cells: snapshot.cells,
    now: options.now(),
    memory: options.stuck,
  })
  snapshot.requests += requests
  for (const [edge, reasons] of stuck) {
    for (const [i, reason] of reasons) {
      const cell = snapshot.cells.get(edge)?.get(i)
      if (cell?.state === 'in-progress')
        snapshot.cells.get(edge)?.set(i, { ...cell, state: 'failed', reason: shortText(reason) })
    }
  }
}

function cellOf(expected: Record<string, unknown>, object: Record<string, unknown>, now: number): Cell {
  const verdict = rolloutState(expected, object, now, releaseContext(expected))
  const proof = verdict.proof === undefined ? {} : { proof: verdict.proof }
  if (verdict.state === 'rolled-out') return { state: 'current', reason: verdict.reason, ...proof }
  if (verdict.state === 'failed') return { state: 'failed', reason: verdict.reason, ...proof }
  return {
    state: 'in-progress',
    reason: verdict.state === 'unknown' ? `unreadable: ${verdict.reason}` : verdict.reason,
    ...proof,
  }
}

/**
 * One target on one watched edge, as this snapshot shows it; `previous` stands for a target
 * not read again (current everywhere at the last look).
 */
export function observeCell(index: number, edge: string, snapshot: Snapshot, previous: Cell | undefined): Cell {
  if (!snapshot.engaged.includes(edge)) return { state: 'not-reporting', reason: 'edge not engaged' }
  if (!snapshot.read.has(index) && previous) return previous
  const cell = snapshot.cells.get(edge)?.get(index)
  if (cell) return cell
  // Engaged, and the kind is synced: the object is not there yet (or the edge's first sync is not done).
  return {
    state: 'in-progress',
    reason: snapshot.complete ? 'not applied yet' : 'not in the result (cut by the row cap)',
    absent: true,
  }
}
