/**
 * One look at the fleet: the engaged edges, then every target on every edge in as few queries
 * as the hub's caps allow (filters OR-ed, paged by edge), each row read as one edge × target
 * cell. Absence is never success (hub-behaviour.md §7): a target missing from an edge is "not
 * reporting", and a result the row cap cut is marked incomplete.
 */
import { edgeOf, type GraphClient, type QuerySpec } from '../../hub/graph.js'
import { at, groupOf, str } from './live-object.js'
import { rolloutState } from './revision.js'
import type { RolloutTarget } from './targets.js'

export type CellState = 'current' | 'in-progress' | 'failed' | 'not-reporting'

export interface Cell {
  state: CellState
  reason: string
}

/** Filters per query: entries are OR-ed, so one query reads many targets on every edge. */
const FILTERS_PER_QUERY = 200
/** Rows per page: a projected workload is ~1.5 KiB, so a page stays far below the 16 MiB read cap. */
const PAGE_SIZE = 5_000
/** A bound on rows per query: 200 targets on 1,000 edges. */
const MAX_ROWS = 200_000

const IMAGES = { containers: { name: true, image: true }, initContainers: { name: true, image: true } }

/** The status fields the kstatus rules read: conditions without their timestamps, counts, revisions. */
const STATUS = {
  observedGeneration: true,
  conditions: { type: true, status: true, reason: true, message: true },
  ...Object.fromEntries(
    [
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'currentReplicas',
      'fullyLabeledReplicas',
      'currentRevision',
      'updateRevision',
      'desiredNumberScheduled',
      'currentNumberScheduled',
      'updatedNumberScheduled',
      'numberAvailable',
      'numberReady',
      'phase',
      'active',
      'succeeded',
      'failed',
      'startTime',
      'loadBalancer',
    ].map((field) => [field, true] as const),
  ),
  containerStatuses: { name: true, state: true },
  initContainerStatuses: { name: true, state: true },
}

/** What the kstatus rules and the revision check read, and nothing else (no env, no volumes). */
const ROLLOUT_PROJECTION = {
  cluster: true,
  object: {
    apiVersion: true,
    kind: true,
    metadata: { name: true, namespace: true, generation: true, creationTimestamp: true, deletionTimestamp: true },
    spec: {
      replicas: true,
      progressDeadlineSeconds: true,
      updateStrategy: true,
      completions: true,
      parallelism: true,
      suspend: true,
      type: true,
      ...IMAGES,
      template: { spec: IMAGES },
      jobTemplate: { spec: { template: { spec: IMAGES } } },
    },
    status: STATUS,
  },
} as const

export interface Snapshot {
  /** Engaged edges, as GET /api/edges said. */
  engaged: string[]
  /** Live objects per edge, then per `group kind name`. */
  live: Map<string, Map<string, Record<string, unknown>[]>>
  /** False when the hub's row cap cut a result, or the bound on rows was reached. */
  complete: boolean
  warnings: string[]
  requests: number
}

const rowKey = (group: string, kind: string, name: string) => `${group}\u0000${kind}\u0000${name}`

/** The queries that read every target: one filter per distinct identity, FILTERS_PER_QUERY a query. */
export function rolloutQueries(targets: readonly Pick<RolloutTarget, 'target'>[]): QuerySpec[] {
  const filters = new Map<string, Record<string, unknown>>()
  for (const { target } of targets) {
    const filter = {
      groupKind: { apiGroup: target.group, kind: target.kind },
      ...(target.namespace ? { namespace: target.namespace } : {}),
      name: target.name,
    }
    filters.set(JSON.stringify(filter), filter)
  }
  const all = [...filters.values()]
  const queries: QuerySpec[] = []
  for (let i = 0; i < all.length; i += FILTERS_PER_QUERY) {
    queries.push({ filter: { objects: all.slice(i, i + FILTERS_PER_QUERY) }, objects: ROLLOUT_PROJECTION })
  }
  return queries
}

export async function readSnapshot(graph: GraphClient, queries: readonly QuerySpec[], signal: AbortSignal): Promise<Snapshot> {
  const engaged = await graph.edges(signal)
  const snapshot: Snapshot = { engaged, live: new Map(), complete: true, warnings: [], requests: 1 }
  for (const spec of queries) {
    const paged = await graph.forEachPage(spec, { pageSize: PAGE_SIZE, maxObjects: MAX_ROWS, signal, operation: 'read the rollout targets' }, (rows) => {
      for (const row of rows) {
        const edge = edgeOf(row.cluster)
        const object = row.object
        if (!edge || !object) continue
        const key = rowKey(groupOf(object.apiVersion), str(object.kind), str(at(object, 'metadata', 'name')))
        let byKey = snapshot.live.get(edge)
        if (!byKey) snapshot.live.set(edge, (byKey = new Map<string, Record<string, unknown>[]>()))
        byKey.set(key, [...(byKey.get(key) ?? []), object])
      }
    })
    snapshot.requests += paged.pages
    if (paged.stoppedBy !== 'last-page') snapshot.complete = false
    for (const warning of paged.warnings) if (!snapshot.warnings.includes(warning)) snapshot.warnings.push(warning)
  }
  return snapshot
}

/** Worst first: failed, not reporting, in progress, current. */
export const STATE_RANK: Readonly<Record<CellState, number>> = { failed: 0, 'not-reporting': 1, 'in-progress': 2, current: 3 }

export function worse(a: CellState, b: CellState): number {
  return STATE_RANK[a] - STATE_RANK[b]
}

/** One target on one engaged edge, as this snapshot shows it. `now` ages unschedulable pods. */
export function observeCell(target: RolloutTarget, edge: string, snapshot: Snapshot, now: number): Cell {
  if (!snapshot.engaged.includes(edge)) return { state: 'not-reporting', reason: 'edge not engaged' }
  const { group, kind, name, namespace } = target.target
  const rows = (snapshot.live.get(edge)?.get(rowKey(group, kind, name)) ?? []).filter(
    (object) => !namespace || str(at(object, 'metadata', 'namespace')) === namespace,
  )
  if (rows.length === 0) {
    const absent = rolloutState(target.expected, undefined, now)
    // "not in the graph yet" for a synced kind; "not synced by the graph (…)" for a custom resource.
    const reason = absent.state === 'unknown' ? absent.reason : snapshot.complete ? 'not in the graph' : 'not in the graph (result cut by the row cap)'
    return { state: 'not-reporting', reason }
  }
  let worst: Cell | undefined
  for (const object of rows) {
    const verdict = rolloutState(target.expected, object, now)
    const cell: Cell =
      verdict.state === 'rolled-out'
        ? { state: 'current', reason: verdict.reason }
        : verdict.state === 'failed'
          ? { state: 'failed', reason: verdict.reason }
          : { state: 'in-progress', reason: verdict.state === 'unknown' ? `unreadable: ${verdict.reason}` : verdict.reason }
    if (!worst || worse(cell.state, worst.state) < 0) worst = cell
  }
  return worst as Cell
}
