/**
 * Impact over the query API, the way the hub's own graph_impact tool computes it
 * (docs/hub-facts.md, "Impact"): one query per target with the tool's
 * relation set, each related object projected to kind, apiVersion, name and namespace.
 * Unlike the tool, every matching object is an anchor, so a target without an edge is
 * reported on each edge where it exists, and a transitive relation is read at every level of
 * its tree (a Deployment's Pods hang under its ReplicaSets), where the tool reads the first.
 */
import {
  edgeOf,
  isTruncated,
  walkRelations,
  type ObjectResult,
  type QuerySpec,
  type QueryStatus,
} from '../../hub/graph.js'
import { classifyRelated, type RelatedRef } from './classify.js'
import type { TargetImpact } from './model.js'
import { objectKey, type Target } from '../../model/target.js'

const IMPACT_RELATIONS = [
  'descendants+',
  'references',
  'selects',
  'selected-by',
  'owners',
  'linked+',
  'grouped',
  'namespace',
  'namespaced',
] as const
/** The cap the hub's impact tool (and so this query) puts on the `namespaced` block. */
export const NAMESPACED_CAP = 200
/** The relations whose answer is a tree, of which the MCP tool reads only the first level. */
export const TRANSITIVE_RELATIONS = ['descendants+', 'linked+'] as const
/** The hub's default `limit` (roots per page); the impact query sets none. */
export const DEFAULT_ROOT_LIMIT = 100
const RELATED_PROJECTION = {
  id: true,
  cluster: true,
  object: { kind: true, apiVersion: true, metadata: { name: true, namespace: true } },
}

/** The tool's query; `only` narrows it to some of its relations (the levels the tool does not read). */
export function buildImpactQuery(
  target: Target,
  maxDepth: number,
  only: readonly string[] = IMPACT_RELATIONS,
): QuerySpec {
  const filter: Record<string, unknown> = {
    groupKind: { apiGroup: target.group, kind: target.kind },
    name: target.name,
  }
  if (target.namespace) filter.namespace = target.namespace
  const relations: Record<string, unknown> = {}
  for (const relation of only) {
    relations[relation] =
      relation === 'namespaced'
        ? { limit: NAMESPACED_CAP, objects: RELATED_PROJECTION }
        : { objects: RELATED_PROJECTION }
  }
  const spec: QuerySpec = {
    filter: { objects: [filter] },
    maxDepth,
    objects: {
      id: true,
      cluster: true,
      object: { kind: true, apiVersion: true, metadata: { name: true, namespace: true } },
      relations,
    },
  }
  if (target.edge) spec.cluster = { name: target.edge }
  return spec
}

/** One TargetImpact per matching object (one per edge, or per namespace when none was named). */
export function impactsFromStatus(status: QueryStatus, target: Target): TargetImpact[] {
  return (status.objects ?? []).map((anchor) => {
    const self = refOf(anchor, '')
    const { refs, foreign } = relatedRefs(anchor, self.edge)
    const classified = classifyRelated(refs, objectKey(self))
    const namespacedCapped = (anchor.relations?.namespaced?.length ?? 0) >= NAMESPACED_CAP
    return {
      target: { ...target, namespace: target.namespace ?? self.namespace },
      edge: self.edge ?? target.edge ?? '',
      ...classified,
      // `incomplete` alone also marks a full page of roots; the row cap adds a warning (docs/hub-facts.md, "Paging").
      incomplete:
        namespacedCapped ||
        isTruncated(status) ||
        (status.incomplete === true && (status.objects?.length ?? 0) >= DEFAULT_ROOT_LIMIT),
      ...(namespacedCapped ? { namespacedCapped } : {}),
      ...(foreign > 0 ? { foreign } : {}),
    }
  })
}

/** The workspace path of a `cluster` (`<workspace path>/<edge>`), or undefined. */
function workspacePathOf(cluster: string | undefined): string | undefined {
  const cut = cluster?.lastIndexOf('/') ?? -1
  return cluster && cut > 0 ? cluster.slice(0, cut) : undefined
}

/**
 * Every related object of a row, at every level of each relation's tree, named by the relation
 * it hangs under. A nested node has no `cluster`: it is on its parent's edge. Roots are this
 * workspace's, related objects need not be: `grouped` (and `linked` with a `cluster` key) reach
 * other workspaces (docs/hub-facts.md, "Relations, more precisely"), whose objects are left out
 * and counted as `foreign`.
 */
function relatedRefs(row: ObjectResult, edge: string | undefined): { refs: RelatedRef[]; foreign: number } {
  const refs: RelatedRef[] = []
  const home = workspacePathOf(row.cluster)
  const foreign = new Set<string>()
  for (const { node, relation, cluster, inherited } of walkRelations(row)) {
    const ref = refOf(node, relation)
    if (home !== undefined && !inherited && cluster !== undefined && workspacePathOf(cluster) !== home) {
      foreign.add(`${cluster}\u0000${objectKey(ref)}`)
      continue
    }
    const nodeEdge = edgeOf(cluster) ?? edge
    refs.push(ref.edge === undefined && nodeEdge !== undefined ? { ...ref, edge: nodeEdge } : ref)
  }
  return { refs, foreign: foreign.size }
}

export function refOf(result: ObjectResult, relation: string): RelatedRef {
  const object = (result.object ?? {}) as {
    kind?: unknown
    apiVersion?: unknown
    metadata?: { name?: unknown; namespace?: unknown }
  }
  const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : ''
  const namespace = object.metadata?.namespace
  const edge = edgeOf(result.cluster)
  return {
    ...(edge === undefined ? {} : { edge }),
    group: apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '',
    kind: typeof object.kind === 'string' ? object.kind : '',
    ...(typeof namespace === 'string' && namespace ? { namespace } : {}),
    name: typeof object.metadata?.name === 'string' ? object.metadata.name : '',
    relation,
  }
}

/** Hub requests one impact step has in flight at most. */
const PARALLEL_REQUESTS = 4

export type Limiter = <T>(request: () => Promise<T>) => Promise<T>

/**
 * At most `size` requests in flight; the others wait their turn in order. Wrap single requests
 * (or one paging loop) only: work that waits for another limited request while holding a place
 * could wait for itself.
 */
export function requestLimiter(size = PARALLEL_REQUESTS): Limiter {
  let active = 0
  const waiting: Array<() => void> = []
  return async (request) => {
    if (active >= size) await new Promise<void>((resolve) => waiting.push(resolve))
    else active++
    try {
      return await request()
    } finally {
      // hand the place on directly, so a newcomer cannot take it between the two
      const next = waiting.shift()
      if (next) next()
      else active--
    }
  }
}

/** Cluster-scoped kinds that objects name in the engine's reference paths (docs/hub-facts.md, "Relations"). */
const REFERENCED_CLUSTER_KINDS = new Set(['StorageClass', 'PersistentVolume', 'ClusterRole'])

export function isUnreferenceable(target: Target): boolean {
  return !target.namespace && REFERENCED_CLUSTER_KINDS.has(target.kind)
}

/**
 * Associated objects not on this workspace's engaged edges (GET /api/edges, read once when any
 * are listed), dropped; with those of other workspaces already dropped per row, the count left out.
 */
export async function dropForeignAssociated(
  impacts: TargetImpact[],
  workspaceEdges: () => Promise<string[]>,
): Promise<number> {
  let dropped = impacts.reduce((sum, impact) => sum + (impact.foreign ?? 0), 0)
  if (!impacts.some((impact) => impact.associated.length > 0)) return dropped
  const engaged = new Set(await workspaceEdges())
  for (const impact of impacts) {
    const kept = impact.associated.filter((object) => object.edge === undefined || engaged.has(object.edge))
    dropped += impact.associated.length - kept.length
    impact.associated = kept
  }
  return dropped
}
