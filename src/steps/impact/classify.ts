/**
 * Sorts related objects by direction (hub-behaviour.md §3's table) and lists each object
 * once per direction with every relation that links it. Both impact sources (query and MCP)
 * end here, so they count the same way.
 */
import type { McpRelated } from '../../hub/mcp/impact.js'
import { objectKey, type Direction, type RelatedObject } from './model.js'

const DIRECTIONS: Record<string, Direction> = {
  owners: 'upstream',
  references: 'upstream',
  selects: 'upstream',
  namespace: 'upstream',
  descendants: 'downstream',
  'selected-by': 'downstream',
  namespaced: 'downstream',
  // Ours: the reverse of `references`, which the hub's tool does not offer.
  'referenced-by': 'downstream',
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

/** A related object as the graph names it: the MCP tool's shape, which graph rows are read into. */
export type RelatedRef = McpRelated

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
    const existing = byDirection[direction].get(key)
    if (existing) {
      if (!existing.relations.includes(relation)) existing.relations.push(relation)
      continue
    }
    byDirection[direction].set(key, {
      edge: ref.edge,
      group: ref.group,
      kind: ref.kind,
      namespace: ref.namespace,
      name: ref.name,
      relations: [relation],
    })
  }
  const finish = (map: Map<string, RelatedObject>) =>
    [...map.values()].map((object) => ({ ...object, relations: object.relations.sort() })).sort((a, b) => compare(a, b))
  return { upstream: finish(byDirection.upstream), downstream: finish(byDirection.downstream), associated: finish(byDirection.associated) }
}

/** Merge more related objects into a classified set (e.g. `referenced-by` found later). */
export function mergeRelated(into: RelatedObject[], more: readonly RelatedObject[]): RelatedObject[] {
  const byKey = new Map(into.map((object) => [objectKey(object), { ...object, relations: [...object.relations] }]))
  for (const object of more) {
    const existing = byKey.get(objectKey(object))
    if (!existing) byKey.set(objectKey(object), { ...object, relations: [...object.relations] })
    else for (const relation of object.relations) if (!existing.relations.includes(relation)) existing.relations.push(relation)
  }
  return [...byKey.values()].map((object) => ({ ...object, relations: object.relations.sort() })).sort(compare)
}

function compare(a: RelatedObject, b: RelatedObject): number {
  return (
    (a.edge ?? '').localeCompare(b.edge ?? '') ||
    a.kind.localeCompare(b.kind) ||
    (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
    a.name.localeCompare(b.name)
  )
}
