// Relations between fleet objects as the graph engine computes them (docs/hub-facts.md,
// "Relations"): what each relation really joins, not what its name promises.
// - references: one fixed list of Pod-level (and Ingress, PVC, RoleBinding) paths applied to
//   every parent whatever its kind, matched by name against any kind in the same namespace and
//   edge unless the relation's filters name kinds;
// - selects / selected-by: only spec.selector.matchLabels, against any kind in the namespace; a
//   label key with a `.` never matches (the default SQLite store looks it up as a JSON path);
// - owners / descendants by ownerReferences uid; namespace / namespaced; linked (one way, from a
//   JSON-array annotation, same edge); grouped (a shared group label, any edge).
// The index these are read from is fleet-index.ts.

import type { Fleet, FleetObject } from './fleet.ts'
import { GROUP_LABEL, LINKED_ANNOTATION, canonicalKind } from './fleet.ts'
import type { Entry, FleetIndex } from './fleet-index.ts'
import { EMPTY, SEP, cachedIndex, getIndex, keysOf, objectKey, ownershipOf, pushMap } from './fleet-index.ts'
import { list, referencedNames } from './references.ts'
import { QueryInternalError } from './query/spec.ts'

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

/** Builds every lazy part of the index now (so later queries pay nothing). */
export function warmIndex(fleet: Fleet): FleetIndex {
  const idx = getIndex(fleet)
  keysOf(idx)
  ownershipOf(idx)
  selectionOf(idx)
  groupsOf(idx)
  return idx
}

export function matchExpression(
  labels: Record<string, string>,
  key: string,
  operator: string,
  values: readonly string[] | undefined,
): boolean {
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** `spec.selector.matchLabels` of an object: the only selector the engine reads (a Service's plain map is not one). */
function matchLabelsOf(o: FleetObject): Record<string, unknown> | undefined {
  const ml: unknown = isRecord(o.spec) && isRecord(o.spec.selector) ? o.spec.selector.matchLabels : undefined
  return isRecord(ml) ? ml : undefined
}

/** Fleets served as a Postgres store (set by the graph provider), where dotted keys match. */
const postgresFleets = new WeakSet<Fleet>()

/** The store the graph provider serves `fleet` from (docs/hub-facts.md, "Store drivers"). */
export function setFleetStore(fleet: Fleet, driver: 'sqlite' | 'postgres' | undefined): void {
  if ((driver === 'postgres') === postgresFleets.has(fleet)) return
  if (driver === 'postgres') postgresFleets.add(fleet)
  else postgresFleets.delete(fleet)
  // Selections already computed were matched under the other store's rule.
  const idx = cachedIndex(fleet)
  if (idx) delete idx.selection
}

/**
 * Every key must hold the value. On SQLite (and by default) a key with a `.` never matches: the
 * store reads `$.<key>` as a path. Postgres uses containment and matches every key.
 */
function labelsMatch(ml: Record<string, unknown>, labels: Record<string, string>, dottedMatch: boolean): boolean {
  for (const [k, v] of Object.entries(ml))
    if ((!dottedMatch && k.includes('.')) || !Object.hasOwn(labels, k) || labels[k] !== v) return false
  return true
}

function selectionOf(idx: FleetIndex): NonNullable<FleetIndex['selection']> {
  if (idx.selection) return idx.selection
  const holders = new Map<string, [Entry, Record<string, unknown>][]>()
  for (const e of idx.entries) {
    const ml = matchLabelsOf(e.obj)
    if (ml) pushMap(holders, e.edge + SEP + e.ns, [e, ml] as [Entry, Record<string, unknown>])
  }
  return (idx.selection = { holders, selects: [] })
}

function selectsOf(idx: FleetIndex, e: Entry): readonly Entry[] {
  const sel = selectionOf(idx)
  const cached = sel.selects[e.i]
  if (cached) return cached
  const ml = matchLabelsOf(e.obj)
  if (!ml) return EMPTY
  const dotted = postgresFleets.has(idx.fleet)
  const out = (keysOf(idx).nsMembers.get(e.edge + SEP + e.ns) ?? EMPTY).filter(
    (m) => m !== e && labelsMatch(ml, m.labels, dotted),
  )
  sel.selects[e.i] = out
  return out
}

function selectedByOf(idx: FleetIndex, e: Entry): readonly Entry[] {
  const holders = selectionOf(idx).holders.get(e.edge + SEP + e.ns) ?? []
  const dotted = postgresFleets.has(idx.fleet)
  return holders.filter(([h, ml]) => h !== e && labelsMatch(ml, e.labels, dotted)).map(([h]) => h)
}

function groupsOf(idx: FleetIndex): Map<string, Entry[]> {
  if (idx.groups) return idx.groups
  const groups = new Map<string, Entry[]>()
  for (const e of idx.entries) {
    const g = e.labels[GROUP_LABEL]
    if (g) pushMap(groups, g, e)
  }
  return (idx.groups = groups)
}

/**
 * What `e` references: names read by every path (or only the paths towards `kinds`, when the
 * relation's filters name kinds), matched against any object of that name in e's namespace and
 * edge, of any kind unless `kinds` is given. The object itself is not excluded.
 */
function referencesOf(idx: FleetIndex, e: Entry, kinds: readonly string[]): readonly Entry[] {
  const names = referencedNames(e.obj, kinds)
  const out: Entry[] = []
  const { byNsName } = keysOf(idx)
  for (const n of names)
    for (const t of byNsName.get(e.edge + SEP + e.ns + SEP + n) ?? EMPTY)
      if (kinds.length === 0 || kinds.includes(t.kind)) out.push(t)
  return out
}

/**
 * `linked`: one way, from a JSON array of `{kind, name, namespace?, group?, cluster?}` in the
 * annotation, on the same edge unless `cluster` names another (which need not be engaged, nor of
 * this workspace). A malformed annotation fails the whole query (docs/hub-facts.md, "Relations,
 * more precisely").
 */
function linkedOf(idx: FleetIndex, e: Entry): readonly Entry[] {
  const raw = e.obj.metadata.annotations?.[LINKED_ANNOTATION]
  if (!raw) return EMPTY
  let refs: unknown
  try {
    refs = JSON.parse(raw)
  } catch {
    throw new QueryInternalError(`malformed ${LINKED_ANNOTATION} annotation on ${e.kind} ${e.ns}/${e.name}`)
  }
  const out: Entry[] = []
  for (const r of list(refs)) {
    if (!isRecord(r) || typeof r.kind !== 'string' || typeof r.name !== 'string') continue
    const edge = typeof r.cluster === 'string' && r.cluster !== '' ? r.cluster : e.edge
    const t = keysOf(idx).byKey.get(objectKey(edge, typeof r.namespace === 'string' ? r.namespace : '', r.kind, r.name))
    if (t && t.group === (typeof r.group === 'string' ? r.group : '')) out.push(t)
  }
  return out
}

// ---------------------------------------------------------------------------
// Relation lookup

/** Direct neighbours of `e` for a base relation name; empty for unknown names. `kinds`: the kinds the relation's filters name. */
export function directRelation(
  idx: FleetIndex,
  e: Entry,
  base: string,
  kinds: readonly string[] = [],
): readonly Entry[] {
  switch (base) {
    case 'owners':
      return ownershipOf(idx).owners[e.i] ?? EMPTY
    case 'descendants':
      return ownershipOf(idx).children[e.i] ?? EMPTY
    case 'references':
      return referencesOf(idx, e, kinds)
    case 'selects':
      return selectsOf(idx, e)
    case 'selected-by':
      return selectedByOf(idx, e)
    case 'namespace': {
      if (!e.ns) return EMPTY
      const nsObj = keysOf(idx).byKey.get(objectKey(e.edge, '', 'Namespace', e.ns))
      return nsObj ? [nsObj] : EMPTY
    }
    case 'namespaced':
      return e.kind === 'Namespace' && !e.ns ? (keysOf(idx).nsMembers.get(e.edge + SEP + e.name) ?? EMPTY) : EMPTY
    case 'linked':
      return linkedOf(idx, e)
    case 'grouped': {
      const g = e.labels[GROUP_LABEL]
      return g ? (groupsOf(idx).get(g) ?? EMPTY).filter((m) => m !== e) : EMPTY
    }
    default:
      return EMPTY
  }
}

/** True for a relation name the engine knows (with or without `+`). */
export function knownRelation(name: string): boolean {
  return relationDirection(name) !== undefined
}

/**
 * Related objects of `obj` for relation `name`, flattened (a transitive relation walked to
 * `maxDepth` hops, each object once). For tests and the emulator's helpers; a query answers
 * the nested tree (query/rows.ts).
 */
export function relatedObjects(fleet: Fleet, obj: FleetObject, name: string, maxDepth = 10): FleetObject[] {
  const idx = getIndex(fleet)
  const e = idx.entryOf.get(obj)
  if (!e || !knownRelation(name)) return []
  const base = name.endsWith('+') ? name.slice(0, -1) : name
  if (!name.endsWith('+')) return directRelation(idx, e, base).map((r) => r.obj)
  const seen = new Set<Entry>([e])
  const out: FleetObject[] = []
  let frontier: readonly Entry[] = [e]
  for (let depth = 0; depth < maxDepth && frontier.length; depth++) {
    const next: Entry[] = []
    for (const f of frontier)
      for (const r of directRelation(idx, f, base))
        if (!seen.has(r)) {
          seen.add(r)
          out.push(r.obj)
          next.push(r)
        }
    frontier = next
  }
  return out
}

/** Finds one object by edge, namespace ('' for cluster-scoped), kind (alias allowed) and name. */
export function findObject(
  fleet: Fleet,
  edge: string,
  namespace: string,
  kind: string,
  name: string,
): FleetObject | undefined {
  return keysOf(getIndex(fleet)).byKey.get(objectKey(edge, namespace, canonicalKind(kind), name))?.obj
}
