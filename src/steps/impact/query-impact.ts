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
      relation === 'namespaced' ? { limit: 200, objects: RELATED_PROJECTION } : { objects: RELATED_PROJECTION }
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
    const classified = classifyRelated(relatedRefs(anchor, self.edge), objectKey(self))
    return {
      target: { ...target, namespace: target.namespace ?? self.namespace },
      edge: self.edge ?? target.edge ?? '',
      ...classified,
      // `incomplete` alone also marks a full page of roots; the row cap adds a warning (docs/hub-facts.md, "Paging").
      incomplete:
        isTruncated(status) || (status.incomplete === true && (status.objects?.length ?? 0) >= DEFAULT_ROOT_LIMIT),
    }
  })
}

/**
 * Every related object of a row, at every level of each relation's tree, named by the relation
 * it hangs under. A nested node has no `cluster`: it is on its parent's edge.
 */
function relatedRefs(row: ObjectResult, edge: string | undefined): RelatedRef[] {
  const refs: RelatedRef[] = []
  for (const { node, relation, cluster } of walkRelations(row)) {
    const ref = refOf(node, relation)
    const nodeEdge = edgeOf(cluster) ?? edge
    refs.push(ref.edge === undefined && nodeEdge !== undefined ? { ...ref, edge: nodeEdge } : ref)
  }
  return refs
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
