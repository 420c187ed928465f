// Execution: which fleet a tenant sees, and a QuerySpec run against it, page by page.
import type { Fleet } from '../fleet.ts'
import type { Entry, FleetIndex } from '../relations.ts'
import { getIndex } from '../relations.ts'
import type { ExecuteOptions, ObjectResult, QueryStatus, TenantLike } from './spec.ts'
import { ROW_CAP } from './spec.ts'
import { decodeQuerySpec } from './decode.ts'
import type { ValidatedSpec } from './validate.ts'
import { validateQuerySpec } from './validate.ts'
import { cmpStr, compareToKeyset, decodeCursor, encodeCursor, keysetKeys, sortedRoots } from './order.ts'
import type { RenderCtx } from './render.ts'
import { DEFAULT_PROJECTION, render } from './render.ts'

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
export function executeQuery(fleet: Fleet, rawSpec: unknown, tenant?: TenantLike, opts: ExecuteOptions = {}): QueryStatus {
  const v = validateQuerySpec(decodeQuerySpec(rawSpec))
  if (!tenantSeesFleet(fleet, tenant, opts)) return {}
  const wsPath = tenantPath(fleet, tenant, opts)
  const spec = v.spec
  const edge = spec.cluster?.name ? spec.cluster.name.slice(spec.cluster.name.lastIndexOf('/') + 1) : undefined

  if (v.root === 'clusters') {
    const edges = [...fleet.edges].filter((x) => edge === undefined || x === edge).sort()
    if (edges.length === 0) return {}
    const p = spec.objects ?? DEFAULT_PROJECTION
    const objects = edges.slice(0, v.limit).map((x) => {
      const r: ObjectResult = {}
      if (p.id ?? true) r.id = x
      if (p.cluster ?? true) r.cluster = `${wsPath}/${x}`
      return r
    })
    const st: QueryStatus = { objects }
    if (spec.count) st.count = edges.length
    if (objects.length === v.limit) st.incomplete = true
    return st
  }

  const idx = getIndex(fleet)
  if (edge === undefined && Object.keys(spec.objects?.relations ?? {}).length > 0) return executeByPath(idx, wsPath, v)
  const roots = sortedRoots(idx, edge, v.filters, v.order)
  const ksKeys = keysetKeys(v.order)
  const cursor = decodeCursor(spec.page?.cursor, ksKeys.length)
  let start = 0
  let page = 1
  let afterCursor: Entry[] = roots
  if (cursor && ksKeys.some((k) => k.desc !== ksKeys[0]?.desc)) {
    // Mixed directions: the one-operator keyset is not monotonic in the sort, so filter every
    // row as the hub's WHERE clause does; rows before the cursor come back again.
    page = cursor.p
    afterCursor = roots.filter((e) => compareToKeyset(ksKeys, e, cursor.k) > 0)
  } else if (cursor) {
    page = cursor.p
    // first root strictly after the keyset (binary search; the keyset is a prefix of the sort key)
    let lo = 0
    let hi = roots.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareToKeyset(ksKeys, roots[mid] as Entry, cursor.k) <= 0) lo = mid + 1
      else hi = mid
    }
    start = lo
  }
  let pageRoots = afterCursor.slice(start, start + v.limit)
  const status: QueryStatus = {}
  const ctx: RenderCtx = { idx, wsPath, maxDepth: v.maxDepth, budget: ROW_CAP - pageRoots.length, truncated: false, compiled: new Map() }
  const proj = spec.objects ?? DEFAULT_PROJECTION
  // The row cap drops whole trailing roots (hub-behaviour.md §3): the root whose rows crossed
  // it and every root after it are missing, so the page comes back short. Only a first root
  // that alone crosses the cap stays, with its relations cut.
  const rendered: ObjectResult[] = []
  for (const [i, e] of pageRoots.entries()) {
    const row = render(ctx, e, proj)
    if (ctx.truncated && i > 0) {
      pageRoots = pageRoots.slice(0, i)
      break
    }
    rendered.push(row)
    if (ctx.truncated) {
      pageRoots = pageRoots.slice(0, 1)
      break
    }
  }
  if (rendered.length) status.objects = rendered
  if (spec.cursor && pageRoots.length) {
    const last = pageRoots[pageRoots.length - 1] as Entry
    status.cursor = { next: encodeCursor({ p: page + 1, k: ksKeys.map((k) => k.fn(last)) }), page, pageSize: v.limit }
  }
  if (spec.count) status.count = roots.length
  if (pageRoots.length === v.limit || ctx.truncated) status.incomplete = true
  if (ctx.truncated) status.warnings = [`result truncated: the ${ROW_CAP}-row cap was reached`]
  return status
}

/** The graph engine's internal path for a row when relations are asked: no edge in it (§3). */
function pathOf(e: Entry): string {
  return `.${e.kind}.${e.ns}/${e.name}`
}

/**
 * A query that asks for relations across edges (hub-behaviour.md §3): rows are ordered and paged
 * by a path without the edge, and the tree is assembled by that path, so same-named objects on
 * different edges fall into one node: the first gets every edge's relations, the others none.
 * The cursor follows the path, so same-path rows split across a page boundary are lost.
 */
function executeByPath(idx: FleetIndex, wsPath: string, v: ValidatedSpec): QueryStatus {
  const spec = v.spec
  const roots = [...sortedRoots(idx, undefined, v.filters, [])].sort((a, b) => cmpStr(pathOf(a), pathOf(b)) || cmpStr(a.edge, b.edge))
  const cursor = decodeCursor(spec.page?.cursor, 1)
  const afterCursor = cursor ? roots.filter((e) => pathOf(e) > (cursor.k[0] as string)) : roots
  let pageRoots = afterCursor.slice(0, v.limit)
  const ctx: RenderCtx = { idx, wsPath, maxDepth: v.maxDepth, budget: ROW_CAP - pageRoots.length, truncated: false, compiled: new Map() }
  const proj = spec.objects ?? DEFAULT_PROJECTION
  const status: QueryStatus = {}
  const nodes = new Map<string, ObjectResult>()
  const rows: ObjectResult[] = []
  for (const [i, e] of pageRoots.entries()) {
    const row = render(ctx, e, proj)
    // The row cap drops whole trailing roots here too (see executeQuery).
    if (ctx.truncated && i > 0) {
      pageRoots = pageRoots.slice(0, i)
      break
    }
    const node = nodes.get(pathOf(e))
    if (node) {
      // Same path on another edge: its relations land on the first node; this row keeps none.
      for (const [name, related] of Object.entries(row.relations ?? {})) ((node.relations ??= {})[name] ??= []).push(...related)
      delete row.relations
    } else nodes.set(pathOf(e), row)
    rows.push(row)
    if (ctx.truncated) {
      pageRoots = pageRoots.slice(0, 1)
      break
    }
  }
  if (rows.length) status.objects = rows
  const page = cursor?.p ?? 1
  if (spec.cursor && pageRoots.length) {
    const last = pageRoots[pageRoots.length - 1] as Entry
    status.cursor = { next: encodeCursor({ p: page + 1, k: [pathOf(last)] }), page, pageSize: v.limit }
  }
  if (spec.count) status.count = roots.length
  if (pageRoots.length === v.limit || ctx.truncated) status.incomplete = true
  if (ctx.truncated) status.warnings = [`result truncated: the ${ROW_CAP}-row cap was reached`]
  return status
}

/** The edge name of a rendered `cluster` (text after the last `/`). */
export function edgeOfCluster(cluster: string): string {
  return cluster.slice(cluster.lastIndexOf('/') + 1)
}
