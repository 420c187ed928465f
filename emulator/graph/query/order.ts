// Ordering and keyset paging: sort keys, cursors, and the sorted roots of a query.
import type { Entry, FleetIndex } from '../fleet-index.ts'
import type { ObjectFilter, OrderField } from './spec.ts'
import { isObj } from './decode.ts'
import type { ValidatedSpec } from './validate.ts'
import { compileFilters } from './filters.ts'

type KeyFn = (e: Entry) => string
const FIELD_FNS: Record<OrderField, KeyFn> = {
  name: (e) => e.name,
  namespace: (e) => e.ns,
  kind: (e) => e.kind,
  apiGroup: (e) => e.group,
  cluster: (e) => e.edge,
  creationTimestamp: (e) => e.ts,
}

type Key = { fn: KeyFn; desc: boolean }

/** `2025-03-01T09:00:00Z` as the SQLite column holds it: `2025-03-01 09:00:00+00:00`. */
const sqliteTimestamp: KeyFn = (e) => e.ts.replace('T', ' ').replace(/Z$/, '+00:00')

/**
 * The keyset as SQLite compares it with a cursor: the timestamp column as text in its own format
 * against the cursor's RFC 3339 text, so every row of the cursor's calendar day compares lower
 * (docs/hub-facts.md, "Store drivers"): Asc skips them, Desc repeats them.
 */
export function sqliteKeyset(keys: readonly Key[]): Key[] {
  return keys.map((k) => (k.fn === FIELD_FNS.creationTimestamp ? { ...k, fn: sqliteTimestamp } : k))
}

/**
 * Keyset: the order fields plus namespace and name (which take the first field's direction).
 * The edge is NOT part of it unless ordered by cluster (faithful trap).
 */
export function keysetKeys(order: ValidatedSpec['order']): Key[] {
  const desc = order[0]?.desc ?? false
  return [
    ...order.map((o) => ({ fn: FIELD_FNS[o.field], desc: o.desc })),
    { fn: FIELD_FNS.namespace, desc },
    { fn: FIELD_FNS.name, desc },
  ]
}

/** Full sort: keyset, then deterministic tie-breakers (edge, group, kind, uid). */
function sortKeys(order: ValidatedSpec['order']): Key[] {
  return [
    ...keysetKeys(order),
    { fn: FIELD_FNS.cluster, desc: false },
    { fn: FIELD_FNS.apiGroup, desc: false },
    { fn: FIELD_FNS.kind, desc: false },
    { fn: (e) => e.uid, desc: false },
  ]
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compareBy(keys: readonly Key[], a: Entry, b: Entry): number {
  for (const k of keys) {
    const c = cmpStr(k.fn(a), k.fn(b))
    if (c !== 0) return k.desc ? -c : c
  }
  return 0
}

/**
 * Where a row stands against the cursor's keyset, as the hub decides it: ONE comparison for the
 * whole tuple, `>` or `<` by the first order field's direction (docs/hub-facts.md, "Graph queries"). With mixed
 * directions this disagrees with the sort, so pages from 2 on repeat (and skip) rows.
 */
export function compareToKeyset(keys: readonly Key[], e: Entry, ks: readonly string[]): number {
  const desc = keys[0]?.desc ?? false
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as Key
    const c = cmpStr(k.fn(e), ks[i] as string)
    if (c !== 0) return desc ? -c : c
  }
  return 0
}

type Cursor = { p: number; k: string[] }

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ v: 1, p: c.p, k: c.k })).toString('base64')
}

/** Decodes a cursor; anything unreadable (or for another order) → undefined, i.e. page 1. */
export function decodeCursor(s: string | undefined, keysetLength: number): Cursor | undefined {
  if (!s) return undefined
  try {
    const v: unknown = JSON.parse(Buffer.from(s, 'base64').toString('utf8'))
    if (
      !isObj(v) ||
      v.v !== 1 ||
      !Array.isArray(v.k) ||
      v.k.length !== keysetLength ||
      !v.k.every((x) => typeof x === 'string')
    )
      return undefined
    const p = typeof v.p === 'number' && Number.isInteger(v.p) && v.p >= 2 ? v.p : 2
    return { p, k: v.k }
  } catch {
    return undefined
  }
}

const SORT_CACHE_MAX = 64

export function sortedRoots(
  idx: FleetIndex,
  edge: string | undefined,
  filters: readonly ObjectFilter[],
  order: ValidatedSpec['order'],
): Entry[] {
  const key = 'roots:' + JSON.stringify([edge ?? null, filters, order])
  const cached = idx.cache.get(key) as Entry[] | undefined
  if (cached) {
    idx.cache.delete(key)
    idx.cache.set(key, cached)
    return cached
  }
  const pred = compileFilters(filters)
  const out: Entry[] = []
  // Roots are tenant-scoped: rows of another workspace (an edge holding `/`) are never roots.
  for (const e of idx.entries)
    if ((edge === undefined || e.edge === edge) && !e.edge.includes('/') && pred(e)) out.push(e)
  const keys = sortKeys(order)
  out.sort((a, b) => compareBy(keys, a, b))
  idx.cache.set(key, out)
  while (idx.cache.size > SORT_CACHE_MAX) {
    const oldest = idx.cache.keys().next().value
    if (oldest === undefined) break
    idx.cache.delete(oldest)
  }
  return out
}
