/**
 * HPAs in the graph that scale a workload target: the HPA writes its `spec.replicas`, so the
 * manifest's value is not compared there (docs/hub-facts.md, "What the API server stores"). The
 * API server's managedFields usually say so already (the HPA's scale writes own the field); this
 * covers objects without them, and HPAs the manifests do not hold. One query at the start of the
 * step, over the namespaces of the workloads whose manifest sets `spec.replicas` (none: no
 * query); an HPA on any edge counts for every edge. An HPA created later by this release is
 * among its manifests (./release-objects.ts).
 */
import { edgeOf, type GraphClient, type QuerySpec } from '../../hub/graph.js'
import { at, str } from './live-object.js'
import { releaseContext, skipInComparison, type RolloutTarget } from './targets.js'

/** Namespaces per query (filters are OR-ed). */
const FILTERS_PER_QUERY = 200
/** HPAs read at most: far more than any namespace holds. */
const MAX_HPAS = 20_000
const PAGE_SIZE = 5_000
const REPLICAS = 'spec.replicas'

const refKey = (kind: string, namespace: string | undefined, name: string) =>
  `${kind}\u0000${namespace ?? ''}\u0000${name}`

/** The queries that read the HPAs of these targets' namespaces; none when no manifest sets replicas. */
function scalerQueries(targets: readonly RolloutTarget[]): QuerySpec[] {
  const namespaces = [...new Set(scaledCandidates(targets).map((t) => t.target.namespace as string))].sort()
  const queries: QuerySpec[] = []
  for (let i = 0; i < namespaces.length; i += FILTERS_PER_QUERY)
    queries.push({
      filter: {
        objects: namespaces
          .slice(i, i + FILTERS_PER_QUERY)
          .map((namespace) => ({ groupKind: { apiGroup: 'autoscaling', kind: 'HorizontalPodAutoscaler' }, namespace })),
      },
      objects: {
        cluster: true,
        object: {
          apiVersion: true,
          kind: true,
          metadata: { name: true, namespace: true },
          spec: { scaleTargetRef: true },
        },
      },
    })
  return queries
}

function scaledCandidates(targets: readonly RolloutTarget[]): RolloutTarget[] {
  return targets.filter(
    (t) =>
      t.target.namespace !== undefined &&
      releaseContext(t.expected)?.manifest === true &&
      typeof at(t.expected, 'spec', 'replicas') === 'number',
  )
}

/**
 * Reads the HPAs and marks `spec.replicas` of each workload one scales as not compared.
 * Returns the requests sent and what to say in the log.
 */
export async function skipScaledReplicas(
  graph: GraphClient,
  targets: readonly RolloutTarget[],
  signal: AbortSignal,
): Promise<{ requests: number; lines: string[] }> {
  const byKey = new Map<string, RolloutTarget[]>()
  for (const t of scaledCandidates(targets)) {
    const key = refKey(t.target.kind, t.target.namespace, t.target.name)
    byKey.set(key, [...(byKey.get(key) ?? []), t])
  }
  const lines: string[] = []
  let requests = 0
  const scaled = new Map<string, string>()
  for (const spec of scalerQueries(targets)) {
    const paged = await graph.forEachPage(
      spec,
      { pageSize: PAGE_SIZE, maxObjects: MAX_HPAS, signal, operation: 'read the HPAs of the rollout targets' },
      (rows) => {
        for (const row of rows) {
          const hpa = row.object
          if (!hpa || !edgeOf(row.cluster)) continue
          const ref = at(hpa, 'spec', 'scaleTargetRef')
          const namespace = str(at(hpa, 'metadata', 'namespace'))
          // a scaleTargetRef may leave its apiVersion out: matched by kind and name
          const key = refKey(str(at(ref, 'kind')), namespace, str(at(ref, 'name')))
          if (byKey.has(key) && !scaled.has(key)) scaled.set(key, `${namespace}/${str(at(hpa, 'metadata', 'name'))}`)
        }
      },
    )
    requests += paged.pages
    if (paged.stoppedBy !== 'last-page')
      lines.push(
        'Not every HPA of the targets’ namespaces was read (the row cap): a replica count they own may read as not synced.',
      )
  }
  for (const [key, hpa] of scaled)
    for (const t of byKey.get(key) ?? []) {
      skipInComparison(t.expected, REPLICAS)
      lines.push(`${t.label}: spec.replicas is not compared, HPA ${hpa} scales it.`)
    }
  return { requests, lines }
}
