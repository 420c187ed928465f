// Execution: which fleet a tenant sees, and a QuerySpec run against it, page by page.
import type { Fleet } from '../fleet.ts'
import type { Entry } from '../fleet-index.ts'
import { getIndex } from '../fleet-index.ts'
import { setFleetStore } from '../relations.ts'
import type { ExecuteOptions, ObjectResult, QueryStatus, TenantLike } from './spec.ts'
import { ROW_CAP } from './spec.ts'
import { decodeQuerySpec } from './decode.ts'
import { validateQuerySpec } from './validate.ts'
import { compareToKeyset, decodeCursor, encodeCursor, keysetKeys, sortedRoots, sqliteKeyset } from './order.ts'
import { projectObject, renderFlat, sqliteBooleans } from './render.ts'
import { renderWithRelations } from './rows.ts'

function tenantPath(fleet: Fleet, tenant: TenantLike, opts: ExecuteOptions): string {
  if (typeof tenant === 'string') return tenant
  return opts.workspacePath ?? fleet.workspacePath
}

/** True when the tenant may see the fleet (false = personal-org fallback or another workspace). */
export function tenantSeesFleet(fleet: Fleet, tenant: TenantLike, opts: ExecuteOptions = {}): boolean {
  const ws = opts.workspace ?? fleet.workspace
  if (!ws || tenant === null || tenant === undefined || typeof tenant === 'string') return true
  return tenant.workspace.toLowerCase() === ws.toLowerCase()
}

/**
 * Runs a QuerySpec (already parsed JSON; type-checked here) over the fleet.
 * Throws QueryBodyError (400 invalid body) or QueryValidationError (400 validation).
 */
export function executeQuery(
  fleet: Fleet,
  rawSpec: unknown,
  tenant?: TenantLike,
  opts: ExecuteOptions = {},
): QueryStatus {
  const v = validateQuerySpec(decodeQuerySpec(rawSpec))
  if (opts.storeDriver !== undefined) setFleetStore(fleet, opts.storeDriver)
  if (!tenantSeesFleet(fleet, tenant, opts)) return {}
  const wsPath = tenantPath(fleet, tenant, opts)
  const spec = v.spec
  const edge = spec.cluster?.name ? spec.cluster.name.slice(spec.cluster.name.lastIndexOf('/') + 1) : undefined

  if (v.root === 'clusters') {
    const edges = [...fleet.edges].filter((x) => edge === undefined || x === edge).sort()
    if (edges.length === 0) return {}
    const p = spec.objects
    // A cluster row's id is its cluster path, and its object a synthetic Cluster
    // (docs/hub-facts.md, "Relations, more precisely").
    const objects = edges.slice(0, v.limit).map((x) => {
      const r: ObjectResult = {}
      if (p?.id) r.id = `${wsPath}/${x}`
      if (p?.cluster) r.cluster = `${wsPath}/${x}`
      const object = projectObject(
        {
          edge: x,
          apiVersion: 'v1',
          kind: 'Cluster',
          metadata: { name: x, uid: x, creationTimestamp: '' },
          status: { phase: 'Ready' },
        },
        p?.object,
      )
      if (object !== undefined) r.object = object
      return r
    })
    const st: QueryStatus = { objects }
    if (spec.count) st.count = edges.length
    if (objects.length === v.limit) st.incomplete = true
    return st
  }

  const idx = getIndex(fleet)
  const roots = sortedRoots(idx, edge, v.filters, v.order)
  const ksKeys = keysetKeys(v.order)
  // What the WHERE clause compares rows with: on SQLite, timestamps in the column's own text.
  const whereKeys = opts.storeDriver === 'sqlite' ? sqliteKeyset(ksKeys) : ksKeys
  const cursor = decodeCursor(spec.page?.cursor, ksKeys.length)
  let start = 0
  let page = 1
  let afterCursor: Entry[] = roots
  if (cursor && ksKeys.some((k) => k.desc !== ksKeys[0]?.desc)) {
    // Mixed directions: the one-operator keyset is not monotonic in the sort, so filter every
    // row as the hub's WHERE clause does; rows before the cursor come back again.
    page = cursor.p
    afterCursor = roots.filter((e) => compareToKeyset(whereKeys, e, cursor.k) > 0)
  } else if (cursor) {
    page = cursor.p
    // first root strictly after the keyset (binary search; the keyset is a prefix of the sort key)
    let lo = 0
    let hi = roots.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareToKeyset(whereKeys, roots[mid] as Entry, cursor.k) <= 0) lo = mid + 1
      else hi = mid
    }
    start = lo
  }
  const pageRoots = afterCursor.slice(start, start + v.limit)
  const status: QueryStatus = {}
  const proj = spec.objects
  let rendered: ObjectResult[]
  // The cursor is built from the last root of the answer: by the requested order without
  // relations, by internal path with them (so the next page can repeat or skip roots).
  let last: Entry | undefined
  let roots0 = pageRoots.length
  let truncated = false
  if (Object.keys(proj?.relations ?? {}).length > 0) {
    const answer = renderWithRelations(idx, wsPath, pageRoots, proj, v.maxDepth)
    rendered = answer.objects
    last = answer.rootsInPage[answer.rootsInPage.length - 1]
    roots0 = answer.rootsInPage.length
    truncated = answer.truncated
  } else {
    rendered = pageRoots.map((e) => renderFlat(wsPath, e, proj))
    last = pageRoots[pageRoots.length - 1]
  }
  if (opts.storeDriver === 'sqlite') sqliteBooleans(rendered, proj)
  if (rendered.length) status.objects = rendered
  if (spec.cursor && last)
    status.cursor = { next: encodeCursor({ p: page + 1, k: ksKeys.map((k) => k.fn(last)) }), page, pageSize: v.limit }
  if (spec.count) status.count = roots.length
  if (roots0 === v.limit || truncated) status.incomplete = true
  if (truncated) status.warnings = [`response truncated at ${ROW_CAP} total rows`]
  return status
}

/** The edge name of a rendered `cluster` (text after the last `/`). */
export function edgeOfCluster(cluster: string): string {
  return cluster.slice(cluster.lastIndexOf('/') + 1)
}
