// Relations between fleet objects (graph provider §3 direction table), over
// indexes built once per fleet version.

import type { Fleet, FleetObject } from './fleet.ts'
import { GROUP_ANNOTATION, LINKED_ANNOTATION, canonicalKind, groupOf } from './fleet.ts'

export type Direction = 'upstream' | 'downstream' | 'lateral'

/** Relation name → direction relative to the object (the `+` transitive forms share it). */
const RELATION_DIRECTIONS: Readonly<Record<string, Direction>> = {
  owners: 'upstream',
  references: 'upstream',
  selects: 'upstream',
  namespace: 'upstream',
  descendants: 'downstream',
  'selected-by': 'downstream',
  namespaced: 'downstream',
  linked: 'lateral',
  grouped: 'lateral',
}

/** Direction of a relation name as requested (`descendants+` → downstream); undefined when unknown. */
export function relationDirection(name: string): Direction | undefined {
  const base = name.endsWith('+') ? name.slice(0, -1) : name
  return Object.hasOwn(RELATION_DIRECTIONS, base) ? RELATION_DIRECTIONS[base] : undefined
}

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
  keys?: { byUid: Map<string, Entry>; byKey: Map<string, Entry>; nsMembers: Map<string, Entry[]> }
  ownership?: { owners: Lists; children: Lists }
  selection?: { selects: Lists; selectedBy: Lists }
  links?: { linked: Lists; groups: Map<string, Entry[]> }
  refs: Lists
}

const SEP = '\u0000'
const EMPTY: readonly Entry[] = Object.freeze([])

function objectKey(edge: string, ns: string, kind: string, name: string): string {
  return edge + SEP + ns + SEP + kind + SEP + name
}

const indexes = new WeakMap<Fleet, FleetIndex>()

/** The fleet's index, built on first use and rebuilt when `fleet.version` changes. */
export function getIndex(fleet: Fleet): FleetIndex {
  const cached = indexes.get(fleet)
  if (cached && cached.version === fleet.version && cached.entries.length === fleet.objects.length) return cached
  const idx = buildIndex(fleet)
  indexes.set(fleet, idx)
  return idx
}

/** Builds every lazy part of the index now (so later queries pay nothing). */
export function warmIndex(fleet: Fleet): FleetIndex {
  const idx = getIndex(fleet)
  keysOf(idx)
  ownershipOf(idx)
  selectionOf(idx)
  linksOf(idx)
  return idx
}

function push(lists: Lists, i: number, e: Entry): void {
  const l = lists[i]
  if (l) l.push(e)
  else lists[i] = [e]
}

function pushMap<K>(m: Map<K, Entry[]>, k: K, e: Entry): void {
  const l = m.get(k)
  if (l) l.push(e)
  else m.set(k, [e])
}

type LabelSelector = { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] }

/** The pod label selector an object declares (Service, PodDisruptionBudget, NetworkPolicy); undefined = selects nothing. */
function selectorOf(o: FleetObject): LabelSelector | undefined {
  const spec = o.spec
  if (!spec || typeof spec !== 'object') return undefined
  switch (o.kind) {
    case 'Service': {
      const sel = spec.selector
      if (!sel || typeof sel !== 'object' || Object.keys(sel).length === 0) return undefined
      return { matchLabels: sel as Record<string, string> }
    }
    case 'PodDisruptionBudget':
      return spec.selector && typeof spec.selector === 'object' ? (spec.selector as LabelSelector) : undefined
    case 'NetworkPolicy':
      return spec.podSelector && typeof spec.podSelector === 'object' ? (spec.podSelector as LabelSelector) : undefined
    default:
      return undefined
  }
}

export function matchExpression(labels: Record<string, string>, key: string, operator: string, values: readonly string[] | undefined): boolean {
  const has = Object.hasOwn(labels, key)
  switch (operator) {
    case 'In':
      return has && (values ?? []).includes(labels[key] as string)
    case 'NotIn':
      return !has || !(values ?? []).includes(labels[key] as string)
    case 'Exists':
      return has
    case 'DoesNotExist':
      return !has
    default:
      return false
  }
}

const NO_LABELS: Record<string, string> = Object.freeze({})

function buildIndex(fleet: Fleet): FleetIndex {
  const objs = fleet.objects
  const n = objs.length
  const entries: Entry[] = []
  const entryOf = new Map<FleetObject, Entry>()
  for (let i = 0; i < n; i++) {
    const obj = objs[i] as FleetObject
    const md = obj.metadata
    const e: Entry = {
      i,
      obj,
      edge: obj.edge,
      ns: md.namespace ?? '',
      name: md.name,
      kind: obj.kind,
      group: groupOf(obj.apiVersion),
      ts: md.creationTimestamp ?? '',
      uid: md.uid,
      labels: md.labels ?? NO_LABELS,
    }
    entries.push(e)
    entryOf.set(obj, e)
  }
  return { fleet, version: fleet.version, entries, entryOf, cache: new Map(), refs: [] }
}

function keysOf(idx: FleetIndex): NonNullable<FleetIndex['keys']> {
  if (idx.keys) return idx.keys
  const byUid = new Map<string, Entry>()
  const byKey = new Map<string, Entry>()
  const nsMembers = new Map<string, Entry[]>()
  for (const e of idx.entries) {
    if (e.uid) byUid.set(e.uid, e)
    byKey.set(objectKey(e.edge, e.ns, e.kind, e.name), e)
    if (e.ns) pushMap(nsMembers, e.edge + SEP + e.ns, e)
  }
  return (idx.keys = { byUid, byKey, nsMembers })
}

function ownershipOf(idx: FleetIndex): NonNullable<FleetIndex['ownership']> {
  if (idx.ownership) return idx.ownership
  const { byUid } = keysOf(idx)
  const owners: Lists = []
  const children: Lists = []
  for (const e of idx.entries) {
    const refs = e.obj.metadata.ownerReferences
    if (!refs) continue
    for (const ref of refs) {
      const owner = byUid.get(ref.uid)
      if (!owner || owner.edge !== e.edge || owner === e) continue
      push(owners, e.i, owner)
      push(children, owner.i, e)
    }
  }
  return (idx.ownership = { owners, children })
}

function selectionOf(idx: FleetIndex): NonNullable<FleetIndex['selection']> {
  if (idx.selection) return idx.selection
  const podsByNs = new Map<string, Entry[]>()
  const podsByLabel = new Map<string, Entry[]>()
  const selectors: [Entry, LabelSelector][] = []
  for (const e of idx.entries) {
    if (e.kind === 'Pod') {
      pushMap(podsByNs, e.edge + SEP + e.ns, e)
      for (const k in e.labels) pushMap(podsByLabel, e.edge + SEP + e.ns + SEP + k + SEP + e.labels[k], e)
    } else {
      const sel = selectorOf(e.obj)
      if (sel) selectors.push([e, sel])
    }
  }
  const selects: Lists = []
  const selectedBy: Lists = []
  for (const [e, sel] of selectors) {
    const matched = selectPods(sel, e, podsByNs, podsByLabel)
    if (!matched.length) continue
    selects[e.i] = matched
    for (const p of matched) push(selectedBy, p.i, e)
  }
  return (idx.selection = { selects, selectedBy })
}

function linksOf(idx: FleetIndex): NonNullable<FleetIndex['links']> {
  if (idx.links) return idx.links
  const linked: Lists = []
  const groups = new Map<string, Entry[]>()
  let byKey: Map<string, Entry> | undefined
  for (const e of idx.entries) {
    const ann = e.obj.metadata.annotations
    if (!ann) continue
    const g = ann[GROUP_ANNOTATION]
    if (g) for (const name of g.split(',')) if (name.trim()) pushMap(groups, name.trim(), e)
    const link = ann[LINKED_ANNOTATION]
    if (!link) continue
    byKey ??= keysOf(idx).byKey
    for (const target of link.split(',')) {
      const parts = target.trim().split('/')
      if (parts.length !== 4) continue
      const [edge, ns, kind, name] = parts as [string, string, string, string]
      const t = byKey.get(objectKey(edge, ns, canonicalKind(kind), name))
      if (!t || t === e) continue
      if (!(linked[e.i] ?? []).includes(t)) push(linked, e.i, t)
      if (!(linked[t.i] ?? []).includes(e)) push(linked, t.i, e)
    }
  }
  return (idx.links = { linked, groups })
}

function selectPods(sel: LabelSelector, e: Entry, podsByNs: Map<string, Entry[]>, podsByLabel: Map<string, Entry[]>): Entry[] {
  const ml = sel.matchLabels ?? {}
  const exprs = sel.matchExpressions ?? []
  const keys = Object.keys(ml)
  let candidates: readonly Entry[]
  if (keys.length) {
    // smallest posting list first
    let best: readonly Entry[] | undefined
    for (const k of keys) {
      const l = podsByLabel.get(e.edge + SEP + e.ns + SEP + k + SEP + ml[k]) ?? EMPTY
      if (!best || l.length < best.length) best = l
    }
    candidates = best ?? EMPTY
  } else {
    candidates = podsByNs.get(e.edge + SEP + e.ns) ?? EMPTY
  }
  const out: Entry[] = []
  for (const p of candidates) {
    let ok = true
    for (const k of keys)
      if (p.labels[k] !== ml[k]) {
        ok = false
        break
      }
    if (ok)
      for (const x of exprs)
        if (!matchExpression(p.labels, x.key, x.operator, x.values)) {
          ok = false
          break
        }
    if (ok) out.push(p)
  }
  return out
}

// ---------------------------------------------------------------------------
// Spec references

type RefTarget = { kind: string; name: string }

function podSpecOf(o: FleetObject): any {
  const spec = o.spec
  if (!spec || typeof spec !== 'object') return undefined
  switch (o.kind) {
    case 'Pod':
      return spec
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'Job':
    case 'ReplicationController':
      return spec.template?.spec
    case 'CronJob':
      return spec.jobTemplate?.spec?.template?.spec
    default:
      return undefined
  }
}

function isStr(v: unknown): v is string {
  return typeof v === 'string' && v !== ''
}

function podSpecRefs(ps: any, out: RefTarget[]): void {
  if (!ps || typeof ps !== 'object') return
  if (isStr(ps.serviceAccountName)) out.push({ kind: 'ServiceAccount', name: ps.serviceAccountName })
  else if (isStr(ps.serviceAccount)) out.push({ kind: 'ServiceAccount', name: ps.serviceAccount })
  for (const s of arr(ps.imagePullSecrets)) if (isStr(s?.name)) out.push({ kind: 'Secret', name: s.name })
  for (const v of arr(ps.volumes)) {
    if (isStr(v?.configMap?.name)) out.push({ kind: 'ConfigMap', name: v.configMap.name })
    if (isStr(v?.secret?.secretName)) out.push({ kind: 'Secret', name: v.secret.secretName })
    if (isStr(v?.persistentVolumeClaim?.claimName)) out.push({ kind: 'PersistentVolumeClaim', name: v.persistentVolumeClaim.claimName })
    for (const src of arr(v?.projected?.sources)) {
      if (isStr(src?.configMap?.name)) out.push({ kind: 'ConfigMap', name: src.configMap.name })
      if (isStr(src?.secret?.name)) out.push({ kind: 'Secret', name: src.secret.name })
    }
  }
  for (const c of [...arr(ps.initContainers), ...arr(ps.containers), ...arr(ps.ephemeralContainers)]) {
    for (const ef of arr(c?.envFrom)) {
      if (isStr(ef?.configMapRef?.name)) out.push({ kind: 'ConfigMap', name: ef.configMapRef.name })
      if (isStr(ef?.secretRef?.name)) out.push({ kind: 'Secret', name: ef.secretRef.name })
    }
    for (const ev of arr(c?.env)) {
      if (isStr(ev?.valueFrom?.configMapKeyRef?.name)) out.push({ kind: 'ConfigMap', name: ev.valueFrom.configMapKeyRef.name })
      if (isStr(ev?.valueFrom?.secretKeyRef?.name)) out.push({ kind: 'Secret', name: ev.valueFrom.secretKeyRef.name })
    }
  }
}

function arr(v: unknown): any[] {
  return Array.isArray(v) ? v : []
}

/** Spec references of an object, as (kind, name) in the object's namespace (cluster-scoped targets use ns ''). */
function referenceTargets(o: FleetObject): { ns: 'same' | 'cluster'; t: RefTarget }[] {
  const same: RefTarget[] = []
  const cluster: RefTarget[] = []
  podSpecRefs(podSpecOf(o), same)
  const spec = o.spec
  if (spec && typeof spec === 'object') {
    switch (o.kind) {
      case 'Ingress': {
        const backend = (b: any) => {
          if (isStr(b?.service?.name)) same.push({ kind: 'Service', name: b.service.name })
        }
        backend(spec.defaultBackend)
        for (const r of arr(spec.rules)) for (const p of arr(r?.http?.paths)) backend(p?.backend)
        for (const t of arr(spec.tls)) if (isStr(t?.secretName)) same.push({ kind: 'Secret', name: t.secretName })
        break
      }
      case 'HorizontalPodAutoscaler':
        if (isStr(spec.scaleTargetRef?.kind) && isStr(spec.scaleTargetRef?.name))
          same.push({ kind: canonicalKind(spec.scaleTargetRef.kind), name: spec.scaleTargetRef.name })
        break
      case 'PersistentVolumeClaim':
        if (isStr(spec.storageClassName)) cluster.push({ kind: 'StorageClass', name: spec.storageClassName })
        if (isStr(spec.volumeName)) cluster.push({ kind: 'PersistentVolume', name: spec.volumeName })
        break
      case 'RoleBinding':
        if (isStr(spec.roleRef?.name) && spec.roleRef?.kind === 'Role') same.push({ kind: 'Role', name: spec.roleRef.name })
        if (isStr(spec.roleRef?.name) && spec.roleRef?.kind === 'ClusterRole') cluster.push({ kind: 'ClusterRole', name: spec.roleRef.name })
        break
    }
  }
  // RoleBinding subjects live at the top level in Kubernetes
  if (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') {
    for (const s of arr((o as any).subjects)) if (s?.kind === 'ServiceAccount' && isStr(s.name)) same.push({ kind: 'ServiceAccount', name: s.name })
  }
  return [...same.map((t) => ({ ns: 'same' as const, t })), ...cluster.map((t) => ({ ns: 'cluster' as const, t }))]
}

function referencesOf(idx: FleetIndex, e: Entry): readonly Entry[] {
  const cached = idx.refs[e.i]
  if (cached) return cached
  const out: Entry[] = []
  for (const { ns, t } of referenceTargets(e.obj)) {
    const target = keysOf(idx).byKey.get(objectKey(e.edge, ns === 'same' ? e.ns : '', t.kind, t.name))
    if (target && target !== e && !out.includes(target)) out.push(target)
  }
  idx.refs[e.i] = out
  return out
}

// ---------------------------------------------------------------------------
// Relation lookup

/** Direct neighbours of `e` for a base relation name; empty for unknown names. */
function directRelation(idx: FleetIndex, e: Entry, base: string): readonly Entry[] {
  switch (base) {
    case 'owners':
      return ownershipOf(idx).owners[e.i] ?? EMPTY
    case 'descendants':
      return ownershipOf(idx).children[e.i] ?? EMPTY
    case 'references':
      return referencesOf(idx, e)
    case 'selects':
      return selectionOf(idx).selects[e.i] ?? EMPTY
    case 'selected-by':
      return selectionOf(idx).selectedBy[e.i] ?? EMPTY
    case 'namespace': {
      if (!e.ns) return EMPTY
      const nsObj = keysOf(idx).byKey.get(objectKey(e.edge, '', 'Namespace', e.ns))
      return nsObj ? [nsObj] : EMPTY
    }
    case 'namespaced':
      return e.kind === 'Namespace' && !e.ns ? (keysOf(idx).nsMembers.get(e.edge + SEP + e.name) ?? EMPTY) : EMPTY
    case 'linked':
      return linksOf(idx).linked[e.i] ?? EMPTY
    case 'grouped': {
      const g = e.obj.metadata.annotations?.[GROUP_ANNOTATION]
      if (!g) return EMPTY
      const out: Entry[] = []
      for (const name of g.split(',')) {
        for (const m of linksOf(idx).groups.get(name.trim()) ?? EMPTY) if (m !== e && !out.includes(m)) out.push(m)
      }
      return out
    }
    default:
      return EMPTY
  }
}

/**
 * Related entries for a relation name as requested: `NAME` (direct) or `NAME+`
 * (transitive, breadth first, at most `maxDepth` hops, each object once, never `e` itself).
 * Unknown names → empty.
 */
export function relatedEntries(idx: FleetIndex, e: Entry, name: string, maxDepth: number): readonly Entry[] {
  const transitive = name.endsWith('+')
  const base = transitive ? name.slice(0, -1) : name
  if (!Object.hasOwn(RELATION_DIRECTIONS, base)) return EMPTY
  if (!transitive) return directRelation(idx, e, base)
  if (maxDepth < 1) return EMPTY
  const seen = new Set<Entry>([e])
  const out: Entry[] = []
  let frontier: readonly Entry[] = [e]
  for (let depth = 0; depth < maxDepth && frontier.length; depth++) {
    const next: Entry[] = []
    for (const f of frontier) {
      for (const r of directRelation(idx, f, base)) {
        if (seen.has(r)) continue
        seen.add(r)
        out.push(r)
        next.push(r)
      }
    }
    frontier = next
  }
  return out
}

/** Convenience over FleetObjects: related objects of `obj` for relation `name` (see relatedEntries). */
export function relatedObjects(fleet: Fleet, obj: FleetObject, name: string, maxDepth = 10): FleetObject[] {
  const idx = getIndex(fleet)
  const e = idx.entryOf.get(obj)
  if (!e) return []
  return relatedEntries(idx, e, name, maxDepth).map((r) => r.obj)
}

/** Finds one object by edge, namespace ('' for cluster-scoped), kind (alias allowed) and name. */
export function findObject(fleet: Fleet, edge: string, namespace: string, kind: string, name: string): FleetObject | undefined {
  return keysOf(getIndex(fleet)).byKey.get(objectKey(edge, namespace, canonicalKind(kind), name))?.obj
}
