/**
 * What the graph's relations leave out of an impact, walked from the Pods (docs/hub-facts.md,
 * "Relations"), for both impact sources alike:
 * - a ConfigMap, Secret, PersistentVolumeClaim or ServiceAccount: the Pods that reference it
 *   (`referenced-by`) and every workload that owns them (`owns-referrer`);
 * - a workload or a Pod: its Pods and the owners in between at every level (`descendants`),
 *   what the Pods reference (`pod-references`), and, derived from the objects' own fields, the
 *   Services, PodDisruptionBudgets and NetworkPolicies selecting its Pods (`selects-pods`) and
 *   the HorizontalPodAutoscaler scaling it (`scales`).
 * One Pod scan per (edge, namespace) serves every target there, however many the pull request
 * changes; one scan of selector holders follows where a workload is among them.
 */
import type { GraphClient, ObjectResult, QuerySpec } from '../../hub/graph.js'
import { classifyRelated, mergeRelated, type RelatedRef } from './classify.js'
import type { TargetImpact } from './model.js'
import { labelSelectorMatches, REFERENCED_KINDS, serviceSelectorMatches } from './pod-spec.js'
import { podFacts, podScanQuery, podsOf, type PodFacts } from './pod-walks.js'
import { refOf, type Limiter } from './query-impact.js'
import { isRecord } from '../../model/plain-value.js'

/** Kinds whose Pods are read from the Pod side (core Pod, apps and batch workloads). */
const POD_OWNERS: Readonly<Record<string, string>> = {
  Pod: '',
  Deployment: 'apps',
  ReplicaSet: 'apps',
  StatefulSet: 'apps',
  DaemonSet: 'apps',
  Job: 'batch',
  CronJob: 'batch',
}
/** Pods per page: each brings its owners and references as rows, under the hub's 10,000-row cap. */
const POD_PAGE_SIZE = 500
const MAX_PODS_SCANNED = 100_000

const HOLDERS = [
  { apiGroup: '', kind: 'Service' },
  { apiGroup: 'policy', kind: 'PodDisruptionBudget' },
  { apiGroup: 'networking.k8s.io', kind: 'NetworkPolicy' },
  { apiGroup: 'autoscaling', kind: 'HorizontalPodAutoscaler' },
] as const

/** Said for a workload when no PodDisruptionBudget came back: the graph does not sync them by default. @internal */
export const PDB_UNKNOWN =
  'PodDisruptionBudgets: not known. The graph does not sync them by default, so finding none does not mean none guards these Pods.'

function isReferenced(target: { group: string; kind: string }): boolean {
  return target.group === '' && REFERENCED_KINDS.has(target.kind)
}

function isService(target: { group: string; kind: string }): boolean {
  return target.group === '' && target.kind === 'Service'
}

function ownsPods(target: { group: string; kind: string }): boolean {
  return Object.hasOwn(POD_OWNERS, target.kind) && POD_OWNERS[target.kind] === target.group
}

/**
 * A changed Secret the graph does not hold (it syncs no Secrets by default: docs/hub-facts.md,
 * "What the graph knows"): one empty impact per edge to walk from the Pods' specs, which still
 * name it. Only a Secret with a namespace; the walk keeps those that found a Pod.
 */
export function unsyncedSecretImpacts(
  notFound: readonly TargetImpact['target'][],
  edges: readonly string[],
): TargetImpact[] {
  return notFound
    .filter((target) => target.group === '' && target.kind === 'Secret' && target.namespace)
    .flatMap((target) =>
      (target.edge ? [target.edge] : edges).map((edge) => ({
        target,
        edge,
        upstream: [],
        downstream: [],
        associated: [],
        incomplete: false,
      })),
    )
}

/** Adds the Pod-side walks to the impacts that need them; returns warnings for walks cut short. */
export async function addPodWalks(
  graph: GraphClient,
  impacts: TargetImpact[],
  maxDepth: number,
  limit: Limiter,
  signal?: AbortSignal,
): Promise<string[]> {
  const places = new Map<string, TargetImpact[]>()
  for (const impact of impacts) {
    const { target } = impact
    if (!target.namespace || !(isReferenced(target) || ownsPods(target) || isService(target))) continue
    const key = `${impact.edge}\u0000${target.namespace}`
    places.set(key, [...(places.get(key) ?? []), impact])
  }
  const warnings = await Promise.all(
    [...places.values()].map((members) => walkPlace(graph, members, maxDepth, limit, signal)),
  )
  return warnings.flat()
}

async function walkPlace(
  graph: GraphClient,
  members: TargetImpact[],
  maxDepth: number,
  limit: Limiter,
  signal?: AbortSignal,
): Promise<string[]> {
  const edge = members[0]?.edge ?? ''
  const namespace = members[0]?.target.namespace ?? ''
  const warnings: string[] = []
  const pods: PodFacts[] = []
  const where = `in namespace ${namespace} on edge ${edge}`
  const scanned = await scan(
    graph,
    podScanQuery(edge, namespace, maxDepth),
    `read the Pods ${where}`,
    limit,
    signal,
    (row) => {
      const facts = podFacts(row)
      if (facts) pods.push(facts)
    },
  )
  if (scanned)
    warnings.push(
      `The Pod walk ${where} stopped early (${scanned}): Pods, and what uses or is used by them, may be missing.`,
    )
  // Every row of a walk, or none when no member needs it; a walk cut short is said once.
  const walk = async (needed: boolean, spec: QuerySpec, what: string, walkName: string, missing: string) => {
    const rows: ObjectResult[] = []
    if (!needed) return rows
    const stopped = await scan(graph, spec, `read the ${what} ${where}`, limit, signal, (row) => rows.push(row))
    if (stopped) warnings.push(`The ${walkName} walk ${where} stopped early (${stopped}): ${missing}`)
    return rows
  }
  const holders = await walk(
    members.some((impact) => ownsPods(impact.target) || isService(impact.target)),
    holdersQuery(edge, namespace),
    'selectors',
    'selector',
    'Services, HPAs and policies may be missing.',
  )
  const ingresses = await walk(
    members.some((impact) => isService(impact.target)),
    ingressQuery(edge, namespace),
    'Ingresses',
    'Ingress',
    'Ingresses routing to a Service may be missing.',
  )
  for (const impact of members) {
    const refs = isReferenced(impact.target)
      ? referrers(impact, pods)
      : isService(impact.target)
        ? serviceRefs(impact, pods, holders, ingresses)
        : workloadRefs(impact, pods, holders)
    const more = classifyRelated(refs)
    impact.upstream = mergeRelated(impact.upstream, more.upstream)
    impact.downstream = mergeRelated(impact.downstream, more.downstream)
    if (ownsPods(impact.target) && !holders.some((row) => refOf(row, '').kind === 'PodDisruptionBudget'))
      impact.unknown = [...(impact.unknown ?? []), PDB_UNKNOWN]
  }
  return warnings
}

/** The Pods that reference a ConfigMap, Secret, PVC or ServiceAccount, and every owner of each. */
function referrers(impact: TargetImpact, pods: readonly PodFacts[]): RelatedRef[] {
  const { target, edge } = impact
  const refs: RelatedRef[] = []
  for (const pod of pods) {
    const used = pod.references.find((ref) => ref.kind === target.kind && ref.name === target.name)
    if (!used) continue
    refs.push(
      related(edge, target.namespace, { group: '', kind: 'Pod', name: pod.name }, 'referenced-by', !used.confirmed),
    )
    for (const owner of pod.owners)
      refs.push(related(edge, target.namespace, owner, 'owns-referrer', !used.confirmed || owner.derived))
  }
  return refs
}

/** A workload's (or Pod's) Pods, what they reference, and what selects or scales them. */
function workloadRefs(impact: TargetImpact, pods: readonly PodFacts[], holders: readonly ObjectResult[]): RelatedRef[] {
  const { target, edge } = impact
  const refs: RelatedRef[] = []
  const own = podsOf(pods, target)
  for (const { pod, between } of own) {
    if (pod.name !== target.name || target.kind !== 'Pod')
      refs.push(related(edge, target.namespace, { group: '', kind: 'Pod', name: pod.name }, 'descendants', false))
    for (const owner of between) refs.push(related(edge, target.namespace, owner, 'descendants', owner.derived))
    // What the graph holds (confirmed), or a dotted name its tree drops; not an object it never synced.
    for (const ref of pod.references)
      if (ref.confirmed || ref.name.includes('.'))
        refs.push(related(edge, target.namespace, { group: '', ...ref }, 'pod-references', !ref.confirmed))
  }
  for (const row of holders) {
    const holder = refOf(row, '')
    const spec = isRecord(row.object?.spec) ? row.object.spec : {}
    const selects = (labels: Record<string, string>) =>
      holder.kind === 'Service'
        ? serviceSelectorMatches(spec.selector, labels)
        : holder.kind === 'NetworkPolicy'
          ? labelSelectorMatches(spec.podSelector, labels)
          : holder.kind === 'PodDisruptionBudget' && labelSelectorMatches(spec.selector, labels)
    if (own.some(({ pod }) => selects(pod.labels)))
      refs.push(related(edge, target.namespace, holder, 'selects-pods', true))
    if (holder.kind === 'HorizontalPodAutoscaler' && scales(spec.scaleTargetRef, target))
      refs.push(related(edge, target.namespace, holder, 'scales', true))
  }
  return refs
}

/**
 * A Service: the Ingresses whose backends name it (the engine's `references` start at the
 * Ingress, with no reverse), and, derived from its `spec.selector` (the engine's `selects` reads
 * none), the Pods it routes to and their owners, upstream of it.
 */
function serviceRefs(
  impact: TargetImpact,
  pods: readonly PodFacts[],
  holders: readonly ObjectResult[],
  ingresses: readonly ObjectResult[],
): RelatedRef[] {
  const { target, edge } = impact
  const refs: RelatedRef[] = []
  for (const row of ingresses) {
    if ((row.relations?.references ?? []).some((ref) => refOf(ref, '').name === target.name))
      refs.push(related(edge, target.namespace, refOf(row, ''), 'referenced-by', false))
    // The engine reads only rule backends: a `spec.defaultBackend` is no reference to it
    // (docs/hub-facts.md, "Relations, more precisely"), so that use is derived here.
    else if (defaultBackendService(row) === target.name)
      refs.push(related(edge, target.namespace, refOf(row, ''), 'referenced-by', true))
  }
  const self = holders.find((row) => refOf(row, '').kind === 'Service' && refOf(row, '').name === target.name)
  const selector = isRecord(self?.object?.spec) ? self.object.spec.selector : undefined
  for (const pod of pods) {
    if (!serviceSelectorMatches(selector, pod.labels)) continue
    refs.push(related(edge, target.namespace, { group: '', kind: 'Pod', name: pod.name }, 'routes-to', true))
    for (const owner of pod.owners) refs.push(related(edge, target.namespace, owner, 'routes-to', true))
  }
  return refs
}

/** The Ingresses of one (edge, namespace), each with the Services its backends name. */
function ingressQuery(edge: string, namespace: string): QuerySpec {
  return {
    cluster: { name: edge },
    filter: { objects: [{ groupKind: { apiGroup: 'networking.k8s.io', kind: 'Ingress' }, namespace }] },
    objects: {
      id: true,
      cluster: true,
      object: {
        kind: true,
        apiVersion: true,
        metadata: { name: true, namespace: true },
        spec: { defaultBackend: { service: { name: true } } },
      },
      // One filter: the engine AND-s several, and matches a name against any kind without one.
      relations: {
        references: {
          filters: [{ groupKind: { apiGroup: '', kind: 'Service' } }],
          objects: { object: { kind: true, metadata: { name: true } } },
        },
      },
    },
  }
}

function defaultBackendService(ingress: ObjectResult): unknown {
  const spec = ingress.object?.spec
  const backend = isRecord(spec) && isRecord(spec.defaultBackend) ? spec.defaultBackend.service : undefined
  return isRecord(backend) ? backend.name : undefined
}

function scales(scaleTargetRef: unknown, target: { group: string; kind: string; name: string }): boolean {
  if (!isRecord(scaleTargetRef)) return false
  const apiVersion = typeof scaleTargetRef.apiVersion === 'string' ? scaleTargetRef.apiVersion : ''
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  return scaleTargetRef.kind === target.kind && scaleTargetRef.name === target.name && group === target.group
}

function related(
  edge: string,
  namespace: string | undefined,
  object: { group: string; kind: string; name: string },
  relation: string,
  derived: boolean,
): RelatedRef {
  return {
    edge,
    group: object.group,
    kind: object.kind,
    ...(namespace ? { namespace } : {}),
    name: object.name,
    relation,
    ...(derived ? { derived } : {}),
  }
}

/** The objects of one (edge, namespace) that select Pods or scale a workload, with those fields (maps, whole). */
function holdersQuery(edge: string, namespace: string): QuerySpec {
  return {
    cluster: { name: edge },
    filter: { objects: HOLDERS.map((groupKind) => ({ groupKind, namespace })) },
    objects: {
      id: true,
      cluster: true,
      object: {
        kind: true,
        apiVersion: true,
        metadata: { name: true, namespace: true },
        spec: { selector: true, podSelector: true, scaleTargetRef: true },
      },
    },
  }
}

/** Every page of a scan, holding one place of the limiter; why it stopped early, if it did. */
async function scan(
  graph: GraphClient,
  spec: QuerySpec,
  operation: string,
  limit: Limiter,
  signal: AbortSignal | undefined,
  onRow: (row: ObjectResult) => void,
): Promise<string | undefined> {
  const result = await limit(() =>
    graph.forEachPage(
      spec,
      { pageSize: POD_PAGE_SIZE, maxObjects: MAX_PODS_SCANNED, deep: true, operation, ...(signal ? { signal } : {}) },
      (rows) => {
        for (const row of rows) onRow(row)
      },
    ),
  )
  if (result.stoppedBy !== 'last-page') return result.stoppedBy
  // One kind in one namespace on one edge pages by name, as the hub's internal path does; should
  // a page still repeat objects, it may have skipped others (docs/hub-facts.md, "Paging").
  return result.repeated > 0
    ? `${result.repeated} repeated on a later page, so others may have been skipped`
    : undefined
}
