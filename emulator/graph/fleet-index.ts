// The graph engine's index of a fleet: per-object facts (Entry) built on first use, and the lazy
// lookup tables (keys, ownership) that relations.ts and the query layer read; rebuilt when the fleet changes.

import type { Fleet, FleetObject } from './fleet.ts'
import { groupOf } from './fleet.ts'

/** Precomputed per-object facts. `i` is the position in `FleetIndex.entries`. */
export type Entry = {
  i: number
  obj: FleetObject
  edge: string
  ns: string
  name: string
  kind: string
  group: string
  ts: string
  uid: string
  labels: Record<string, string>
  /** The engine's internal path of this object as a root: `.kind.namespace/name` (kind lower-cased). */
  path: string
}

type Lists = (Entry[] | undefined)[]

export type FleetIndex = {
  fleet: Fleet
  version: number
  entries: Entry[]
  entryOf: Map<FleetObject, Entry>
  /** Free-form cache for the query layer (sorted root lists); cleared with the index. */
  cache: Map<string, unknown>
  // The parts below are built on first use (a plain paging query needs none of them).
  keys?: {
    byUid: Map<string, Entry>
    byKey: Map<string, Entry>
    byNsName: Map<string, Entry[]>
    nsMembers: Map<string, Entry[]>
  }
  ownership?: { owners: Lists; children: Lists }
  selection?: { holders: Map<string, [Entry, Record<string, unknown>][]>; selects: Lists }
  groups?: Map<string, Entry[]>
}

export const SEP = '\u0000'
export const EMPTY: readonly Entry[] = Object.freeze([])

export function objectKey(edge: string, ns: string, kind: string, name: string): string {
  return edge + SEP + ns + SEP + kind + SEP + name
}

const indexes = new WeakMap<Fleet, FleetIndex>()

/** The index already built for `fleet`, if any (none is built). */
export function cachedIndex(fleet: Fleet): FleetIndex | undefined {
  return indexes.get(fleet)
}

/** The fleet's index, built on first use and rebuilt when `fleet.version` changes. */
export function getIndex(fleet: Fleet): FleetIndex {
  const cached = indexes.get(fleet)
  if (cached && cached.version === fleet.version && cached.entries.length === fleet.objects.length) return cached
  const idx = buildIndex(fleet)
  indexes.set(fleet, idx)
  return idx
}

function push(lists: Lists, i: number, e: Entry): void {
  const l = lists[i]
  if (l) l.push(e)
  else lists[i] = [e]
}

export function pushMap<K, V>(m: Map<K, V[]>, k: K, e: V): void {
  const l = m.get(k)
  if (l) l.push(e)
  else m.set(k, [e])
}

const NO_LABELS: Record<string, string> = Object.freeze({})

function buildIndex(fleet: Fleet): FleetIndex {
  const entries: Entry[] = []
  const entryOf = new Map<FleetObject, Entry>()
  for (const [i, obj] of fleet.objects.entries()) {
    const md = obj.metadata
    const ns = md.namespace ?? ''
    const e: Entry = {
      i,
      obj,
      edge: obj.edge,
      ns,
      name: md.name,
      kind: obj.kind,
      group: groupOf(obj.apiVersion),
      ts: md.creationTimestamp ?? '',
      uid: md.uid,
      labels: md.labels ?? NO_LABELS,
      path: `.${obj.kind.toLowerCase()}.${ns}/${md.name}`,
    }
    entries.push(e)
    entryOf.set(obj, e)
  }
  return { fleet, version: fleet.version, entries, entryOf, cache: new Map() }
}

export function keysOf(idx: FleetIndex): NonNullable<FleetIndex['keys']> {
  if (idx.keys) return idx.keys
  const byUid = new Map<string, Entry>()
  const byKey = new Map<string, Entry>()
  const byNsName = new Map<string, Entry[]>()
  const nsMembers = new Map<string, Entry[]>()
  for (const e of idx.entries) {
    if (e.uid) byUid.set(e.uid, e)
    byKey.set(objectKey(e.edge, e.ns, e.kind, e.name), e)
    pushMap(byNsName, e.edge + SEP + e.ns + SEP + e.name, e)
    pushMap(nsMembers, e.edge + SEP + e.ns, e)
  }
  return (idx.keys = { byUid, byKey, byNsName, nsMembers })
}

export function ownershipOf(idx: FleetIndex): NonNullable<FleetIndex['ownership']> {
  if (idx.ownership) return idx.ownership
  const { byUid } = keysOf(idx)
  const owners: Lists = []
  const children: Lists = []
  for (const e of idx.entries) {
    for (const ref of e.obj.metadata.ownerReferences ?? []) {
      const owner = byUid.get(ref.uid)
      if (!owner || owner.edge !== e.edge || owner === e) continue
      push(owners, e.i, owner)
      push(children, owner.i, e)
    }
  }
  return (idx.ownership = { owners, children })
}
