/**
 * The reverse of `references`, which the hub's impact tool lacks: a ConfigMap, Secret,
 * PersistentVolumeClaim or ServiceAccount shows no dependents there, yet changing one touches
 * every pod that mounts or uses it. One query per (edge, namespace) lists the objects there
 * with their `references` filtered down to our targets; whoever keeps a non-empty list
 * references one of them.
 */
import type { GraphClient, ObjectResult } from '../../hub/graph.js'
import { mergeRelated } from './classify.js'
import type { RelatedObject, TargetImpact } from './model.js'
import { refOf } from './query-impact.js'
import type { Limiter } from './bounds.js'

const REFERENCED_KINDS = new Set(['ConfigMap', 'Secret', 'PersistentVolumeClaim', 'ServiceAccount'])
const PAGE_SIZE = 2_000
const MAX_SCANNED = 100_000

function isReferencedKind(group: string, kind: string): boolean {
  return group === '' && REFERENCED_KINDS.has(kind)
}

/**
 * Adds `referenced-by` objects to the downstream lists of the impacts that can have them. The
 * (edge, namespace) lookups run side by side; each one's pages hold one place of the limiter.
 */
export async function addReferencedBy(graph: GraphClient, impacts: TargetImpact[], limit: Limiter, signal?: AbortSignal): Promise<string[]> {
  const groups = new Map<string, TargetImpact[]>()
  for (const impact of impacts) {
    const { target } = impact
    if (!isReferencedKind(target.group, target.kind) || !target.namespace) continue
    const key = `${impact.edge}\u0000${target.namespace}`
    groups.set(key, [...(groups.get(key) ?? []), impact])
  }
  const perGroup = await Promise.all([...groups.values()].map((members) => referrersIn(graph, members, limit, signal)))
  return perGroup.flatMap((warning) => (warning ? [warning] : []))
}

/** One (edge, namespace): its referrers merged into the members' downstream; a warning when the lookup stopped early. */
async function referrersIn(graph: GraphClient, members: TargetImpact[], limit: Limiter, signal?: AbortSignal): Promise<string | undefined> {
  const first = members[0]
  if (!first?.target.namespace) return undefined
  const namespace = first.target.namespace
  const filters = members.map((impact) => ({
    groupKind: { apiGroup: '', kind: impact.target.kind },
    name: impact.target.name,
    namespace,
  }))
  const spec = {
    cluster: { name: first.edge },
    filter: { objects: [{ namespace }] },
    objects: {
      id: true,
      cluster: true,
      object: { kind: true, apiVersion: true, metadata: { name: true, namespace: true } },
      relations: { references: { filters, objects: { object: { kind: true, metadata: { name: true } } } } },
    },
  }
  const found = new Map<TargetImpact, RelatedObject[]>()
  const result = await limit(() =>
    graph.forEachPage(
      spec,
      {
        pageSize: PAGE_SIZE,
        maxObjects: MAX_SCANNED,
        deep: true,
        operation: `find what references objects in namespace ${namespace} on edge ${first.edge}`,
        ...(signal ? { signal } : {}),
      },
      (objects) => {
        for (const object of objects) collect(object, members, found)
      },
    ),
  )
  for (const [impact, referrers] of found) impact.downstream = mergeRelated(impact.downstream, referrers)
  if (result.stoppedBy === 'last-page') return undefined
  return `Referenced-by lookup in namespace ${namespace} on edge ${first.edge} stopped early (${result.stoppedBy}); dependents may be missing.`
}

function collect(object: ObjectResult, members: TargetImpact[], found: Map<TargetImpact, RelatedObject[]>): void {
  const references = object.relations?.references ?? object.relations?.['references+'] ?? []
  if (references.length === 0) return
  const self = refOf(object, 'referenced-by')
  for (const reference of references) {
    const ref = reference.object as { kind?: unknown; metadata?: { name?: unknown } } | undefined
    const impact = members.find((member) => member.target.kind === ref?.kind && member.target.name === ref?.metadata?.name)
    if (!impact) continue
    const list = found.get(impact) ?? []
    list.push({ edge: self.edge, group: self.group, kind: self.kind, namespace: self.namespace, name: self.name, relations: ['referenced-by'] })
    found.set(impact, list)
  }
}
