/**
 * Sorts related objects by direction (docs/hub-facts.md, "Relations") and lists each object
 * once per direction with every relation that links it. Both impact sources (query and MCP)
 * end here, so they count the same way.
 */
import type { McpRelated } from '../../hub/mcp/impact.js'
import type { Direction, RelatedObject } from './model.js'
import { objectKey } from '../../model/target.js'

const DIRECTIONS: Record<string, Direction> = {
  owners: 'upstream',
  references: 'upstream',
  selects: 'upstream',
  namespace: 'upstream',
  descendants: 'downstream',
  'selected-by': 'downstream',
  namespaced: 'downstream',
  // Ours, walked from the Pod side (walks.ts): the hub has no reverse of `references`, and
  // the references of a workload sit on its Pods.
  'referenced-by': 'downstream',
  'owns-referrer': 'downstream',
  'pod-references': 'upstream',
  // Ours, derived: the Pods a Service's selector routes to, and their owners.
  'routes-to': 'upstream',
  // Ours, derived from the objects' own fields where the graph has no relation.
  'selects-pods': 'downstream',
  scales: 'downstream',
  linked: 'associated',
  grouped: 'associated',
}

/** Direction of a relation name, with or without the transitive "+"; undefined if unknown. */
function directionOf(relation: string): Direction | undefined {
  return DIRECTIONS[baseRelation(relation)]
}

export function baseRelation(relation: string): string {
  return relation.endsWith('+') ? relation.slice(0, -1) : relation
}

/**
 * A related object as the graph names it: the MCP tool's shape, which graph rows are read into;
 * `derived` when the action worked the relation out itself.
 */
export type RelatedRef = McpRelated & { derived?: boolean | undefined }

type Classified = Record<Direction, RelatedObject[]>

/** Group refs by direction, merge duplicates, and sort for a stable report. */
export function classifyRelated(refs: Iterable<RelatedRef>, exclude?: string): Classified {
  const byDirection: Record<Direction, Map<string, RelatedObject>> = {
    upstream: new Map(),
    downstream: new Map(),
    associated: new Map(),
  }
  for (const ref of refs) {
    const direction = directionOf(ref.relation)
    if (!direction) continue
    const key = objectKey(ref)
    if (key === exclude) continue
    const relation = baseRelation(ref.relation)
    const found: RelatedObject = {
      edge: ref.edge,
      group: ref.group,
      kind: ref.kind,
      namespace: ref.namespace,
      name: ref.name,
      relations: [relation],
    }
    if (ref.derived) found.derived = [relation]
    const existing = byDirection[direction].get(key)
    if (existing) addRelations(existing, found)
    else byDirection[direction].set(key, found)
  }
  const finish = (map: Map<string, RelatedObject>) => [...map.values()].map(sorted).sort(compare)
  return {
    upstream: finish(byDirection.upstream),
    downstream: finish(byDirection.downstream),
    associated: finish(byDirection.associated),
  }
}

/**
 * Adds `more`'s relations to `into`. A relation is derived only while no source gave it from
 * the graph: the graph's word wins over the action's own reading.
 */
function addRelations(into: RelatedObject, more: RelatedObject): void {
  const derivedBefore = new Set(into.derived ?? [])
  const had = new Set(into.relations)
  for (const relation of more.relations) if (!had.has(relation)) into.relations.push(relation)
  const derived = new Set<string>()
  for (const relation of into.relations) {
    const fromInto = had.has(relation) ? derivedBefore.has(relation) : true
    const fromMore = more.relations.includes(relation) ? (more.derived ?? []).includes(relation) : true
    if (fromInto && fromMore) derived.add(relation)
  }
  if (derived.size > 0) into.derived = [...derived]
  else delete into.derived
}

function sorted(object: RelatedObject): RelatedObject {
  const out: RelatedObject = { ...object, relations: [...object.relations].sort() }
  if (object.derived) out.derived = [...object.derived].sort()
  return out
}

/** Merge more related objects into a classified set (e.g. `referenced-by` found later). */
/**
 * A workload's selector matches what it owns (its ReplicaSets and Pods: docs/hub-facts.md,
 * "Relations"), which the engine answers as `selects`, upstream. Those are downstream, owned,
 * not something the workload depends on: drop an upstream object whose only relation is
 * `selects` when the same object is downstream as a descendant. Run once every source merged.
 */
export function withoutOwnSelected(
  upstream: readonly RelatedObject[],
  downstream: readonly RelatedObject[],
): RelatedObject[] {
  const owned = new Set(downstream.filter((object) => object.relations.includes('descendants')).map(objectKey))
  return upstream.filter(
    (object) => !(owned.has(objectKey(object)) && object.relations.every((relation) => relation === 'selects')),
  )
}

export function mergeRelated(into: RelatedObject[], more: readonly RelatedObject[]): RelatedObject[] {
  const copy = (object: RelatedObject): RelatedObject => ({
    ...object,
    relations: [...object.relations],
    ...(object.derived ? { derived: [...object.derived] } : {}),
  })
  const byKey = new Map(into.map((object) => [objectKey(object), copy(object)]))
  for (const object of more) {
    const existing = byKey.get(objectKey(object))
    if (!existing) byKey.set(objectKey(object), copy(object))
    else addRelations(existing, object)
  }
  return [...byKey.values()].map(sorted).sort(compare)
}

function compare(a: RelatedObject, b: RelatedObject): number {
  return (
    (a.edge ?? '').localeCompare(b.edge ?? '') ||
    a.kind.localeCompare(b.kind) ||
    (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
    a.name.localeCompare(b.name)
  )
}
