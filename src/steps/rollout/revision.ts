/**
 * Is the live object the one the manifest asks for, and is it rolled out? Only what the API server
 * keeps as written is compared (generation, container images); it defaults and normalises the rest.
 */
import { computeHealth } from './kstatus.js'
import { at, generationsOf, groupOf, kindKey, list, shortText, str } from './live-object.js'
import { isRecord } from '../../model/plain-value.js'

/** @internal */
export interface RevisionCheck {
  atRevision: boolean
  reason: string
}

type RolloutState = 'rolled-out' | 'in-progress' | 'failed' | 'terminating' | 'unknown'

export interface RolloutVerdict {
  state: RolloutState
  reason: string
}

/** Where each workload keeps its pod spec; a kind not listed has no images to compare. */
const POD_SPEC_PATHS: ReadonlyMap<string, readonly string[]> = new Map([
  ['apps/Deployment', ['spec', 'template', 'spec']],
  ['apps/StatefulSet', ['spec', 'template', 'spec']],
  ['apps/DaemonSet', ['spec', 'template', 'spec']],
  ['apps/ReplicaSet', ['spec', 'template', 'spec']],
  ['batch/Job', ['spec', 'template', 'spec']],
  ['batch/CronJob', ['spec', 'jobTemplate', 'spec', 'template', 'spec']],
  ['Pod', ['spec']],
])

/** The graph's default sync list (hub-behaviour.md §7) by group; each kind with its resource and short names. */
const SYNCED_BY_DEFAULT: ReadonlyMap<string, readonly string[]> = new Map([
  ['', ['pod', 'pods', 'po', 'service', 'services', 'svc', 'configmap', 'configmaps', 'cm', 'persistentvolumeclaim', 'persistentvolumeclaims', 'pvc']],
  ['apps', ['deployment', 'deployments', 'deploy', 'replicaset', 'replicasets', 'rs', 'statefulset', 'statefulsets', 'sts', 'daemonset', 'daemonsets', 'ds']],
  ['batch', ['job', 'jobs']],
  ['networking.k8s.io', ['ingress', 'ingresses', 'ing']],
  ['autoscaling', ['horizontalpodautoscaler', 'horizontalpodautoscalers', 'hpa']],
  ['rbac.authorization.k8s.io', ['role', 'roles', 'rolebinding', 'rolebindings', 'clusterrole', 'clusterroles', 'clusterrolebinding', 'clusterrolebindings']],
  ['apiextensions.k8s.io', ['customresourcedefinition', 'customresourcedefinitions', 'crd', 'crds']],
])

/**
 * Whether the graph syncs this group/kind without the operator widening its list: built-in kinds
 * only. Custom resources (HelmRelease, Argo CD Application), secrets and events are not.
 * @internal
 */
export function syncedByDefault(group: string, kind: string): boolean {
  return SYNCED_BY_DEFAULT.get(group)?.includes(kind.toLowerCase()) ?? false
}

/**
 * The live object is at the manifest's revision when its controller has observed its generation
 * and every container and init container of the manifest's pod template runs the same image.
 * Containers the live object has beyond the manifest's (injected sidecars) are not compared.
 * @internal
 */
export function atExpectedRevision(expected: unknown, live: unknown): RevisionCheck {
  const generations = generationsOf(live)
  if (!generations.ok) return { atRevision: false, reason: generations.problem }
  const { generation, observed } = generations.value
  if (generation !== undefined && observed !== undefined && generation !== observed) {
    return { atRevision: false, reason: `generation ${generation} observed ${observed}` }
  }
  const path = POD_SPEC_PATHS.get(kindKey(groupOf(at(expected, 'apiVersion')), str(at(expected, 'kind'))))
  if (!path) return { atRevision: true, reason: 'generation observed' }
  let compared = 0
  for (const [field, label] of [
    ['initContainers', 'init container'],
    ['containers', 'container'],
  ] as const) {
    const want = list(at(expected, ...path, field), `expected ${field}`)
    const have = list(at(live, ...path, field), `live ${field}`)
    if (!want.ok) return { atRevision: false, reason: want.problem }
    if (!have.ok) return { atRevision: false, reason: have.problem }
    const liveImages = new Map<string, string>()
    for (const container of have.value) liveImages.set(str(at(container, 'name')), str(at(container, 'image')))
    for (const container of want.value) {
      const name = str(at(container, 'name'))
      const image = str(at(container, 'image'))
      if (!name || !image) continue
      const liveImage = liveImages.get(name)
      if (liveImage === undefined) return { atRevision: false, reason: `no ${label} ${shortText(name)} yet` }
      if (liveImage !== image) return { atRevision: false, reason: `image still ${shortText(liveImage) || '(none)'} (${label} ${shortText(name)})` }
      compared++
    }
  }
  return { atRevision: true, reason: compared === 1 ? 'image matches' : `${compared} images match` }
}

/**
 * One target's state: the manifest's object against the live one from the graph (undefined when
 * the graph has none). Absence proves nothing (not synced yet, edge gone), so a synced kind that
 * is absent is in progress; a kind outside the default sync list is 'unknown', since it may never
 * appear. A live object at old images is in progress however healthy: its health is the old one's.
 */
export function rolloutState(expected: unknown, live: unknown, now: number): RolloutVerdict {
  const kind = str(at(expected, 'kind'))
  if (!isRecord(expected) || !kind) return { state: 'unknown', reason: 'expected object has no kind' }
  const group = groupOf(expected.apiVersion)
  if (live === undefined || live === null) {
    return syncedByDefault(group, kind)
      ? { state: 'in-progress', reason: 'not in the graph yet' }
      : { state: 'unknown', reason: `not synced by the graph (${shortText(kindKey(group, kind))})` }
  }
  const health = computeHealth(live, now)
  if (health.status === 'terminating' || health.status === 'unknown') return { state: health.status, reason: health.reason }
  const revision = atExpectedRevision(expected, live)
  if (!revision.atRevision) return { state: 'in-progress', reason: revision.reason }
  if (health.status === 'current') return { state: 'rolled-out', reason: health.reason }
  return { state: health.status, reason: health.reason }
}
