/**
 * Failures a workload's own status never names: a pod of its new revision that cannot pull its
 * image or keeps crashing. The Deployment only reports "1 unavailable" until its progress
 * deadline (10 minutes by default), so while a workload target is in progress one query reads
 * the unready pods of its namespace and fails it at once. Pods are matched to their workload by
 * owner reference (a Deployment's through its ReplicaSet, named `<deployment>-<pod-template-hash>`),
 * and to the release by image: a stuck pod running an image the manifest does not name is the
 * old revision's, not this release's. Bounded: one page a poll; what it cannot read the deadline
 * still catches.
 */
import { edgeOf, type GraphClient, type QuerySpec } from '../../hub/graph.js'
import { stuckContainers, stuckText } from './kstatus-kinds.js'
import { groupOf } from '../../model/target.js'
import { at, list, str } from './live-object.js'
import { sameImage } from './synced.js'
import type { RolloutTarget } from './targets.js'

/** Unready pods read a poll at most: one page. */
const MAX_PODS = 1_000

/** Workloads whose pods this looks at, and the owner kind their pods name. */
const OWNED_THROUGH: ReadonlyMap<string, string> = new Map([
  ['apps/Deployment', 'ReplicaSet'],
  ['apps/StatefulSet', 'StatefulSet'],
  ['apps/DaemonSet', 'DaemonSet'],
  ['batch/Job', 'Job'],
])

/** Whether a target's pods can be read for stuck containers. */
export function watchesPods(target: RolloutTarget): boolean {
  return target.target.namespace !== undefined && OWNED_THROUGH.has(`${target.target.group}/${target.target.kind}`)
}

/** Unready pods of these namespaces, projected to what names their owner and their waiting reasons. */
function podQuery(namespaces: readonly string[]): QuerySpec {
  return {
    filter: {
      objects: namespaces.map((namespace) => ({
        groupKind: { apiGroup: '', kind: 'Pod' },
        namespace,
        conditions: [{ type: 'Ready', status: 'False' }],
      })),
    },
    objects: {
      cluster: true,
      object: {
        apiVersion: true,
        kind: true,
        metadata: { name: true, namespace: true, labels: true, ownerReferences: true },
        status: { containerStatuses: true, initContainerStatuses: true },
      },
    },
  }
}

/** `kind/namespace/name` of the workload that owns a pod, as a target would name it; undefined when none. */
function ownerOf(pod: Record<string, unknown>): string | undefined {
  const refs = list(at(pod, 'metadata', 'ownerReferences'), 'ownerReferences')
  if (!refs.ok) return undefined
  const controller = refs.value.find((r) => at(r, 'controller') === true) ?? refs.value[0]
  const kind = str(at(controller, 'kind'))
  const name = str(at(controller, 'name'))
  const namespace = str(at(pod, 'metadata', 'namespace'))
  if (!kind || !name) return undefined
  if (kind !== 'ReplicaSet') return `${groupOf(at(controller, 'apiVersion'))}/${kind}/${namespace}/${name}`
  const hash = str(at(pod, 'metadata', 'labels', 'pod-template-hash'))
  return hash && name.endsWith(`-${hash}`)
    ? `apps/Deployment/${namespace}/${name.slice(0, -hash.length - 1)}`
    : undefined
}

/** The images the manifest names, by container name (none for a target named in `targets`). */
function expectedImages(expected: Record<string, unknown>): Map<string, string> {
  const images = new Map<string, string>()
  const spec =
    at(expected, 'kind') === 'CronJob'
      ? at(expected, 'spec', 'jobTemplate', 'spec', 'template', 'spec')
      : at(expected, 'spec', 'template', 'spec')
  for (const field of ['initContainers', 'containers']) {
    const containers = list(at(spec, field), field)
    for (const c of containers.ok ? containers.value : [])
      if (str(at(c, 'name')) && str(at(c, 'image'))) images.set(str(at(c, 'name')), str(at(c, 'image')))
  }
  return images
}

/**
 * Per edge, per target index: why a pod of the target's new revision is stuck. Reads one page
 * of unready pods in the namespaces of the given targets.
 */
export async function stuckPods(
  graph: GraphClient,
  targets: readonly RolloutTarget[],
  indices: readonly number[],
  signal: AbortSignal,
): Promise<{ stuck: Map<string, Map<number, string>>; requests: number }> {
  const byOwner = new Map<string, number[]>()
  for (const i of indices) {
    const { group, kind, namespace, name } = (targets[i] as RolloutTarget).target
    const key = `${group}/${kind}/${namespace ?? ''}/${name}`
    byOwner.set(key, [...(byOwner.get(key) ?? []), i])
  }
  const namespaces = [...new Set(indices.map((i) => (targets[i] as RolloutTarget).target.namespace ?? ''))]
    .filter(Boolean)
    .sort()
  const stuck = new Map<string, Map<number, string>>()
  if (namespaces.length === 0) return { stuck, requests: 0 }
  const paged = await graph.forEachPage(
    podQuery(namespaces),
    { pageSize: MAX_PODS, maxObjects: MAX_PODS, signal, operation: 'read the unready pods of the rollout targets' },
    (rows) => {
      for (const row of rows) {
        const edge = edgeOf(row.cluster)
        const pod = row.object
        const owner = pod && ownerOf(pod)
        const matching = owner ? byOwner.get(owner) : undefined
        if (!edge || !pod || !matching) continue
        const found = stuckContainers(pod)
        if (!found || 'problem' in found) continue
        for (const i of matching) {
          const target = targets[i] as RolloutTarget
          if (target.target.edge !== undefined && target.target.edge !== edge) continue
          const images = expectedImages(target.expected)
          // A stuck container the manifest names at another image belongs to the old revision.
          const ours = found.containers.every(
            (c) => !images.has(c.name) || sameImage(images.get(c.name) as string, c.image),
          )
          if (!ours) continue
          let byTarget = stuck.get(edge)
          if (!byTarget) stuck.set(edge, (byTarget = new Map<number, string>()))
          if (!byTarget.has(i)) byTarget.set(i, `pod ${str(at(pod, 'metadata', 'name'))}: ${stuckText(found)}`)
        }
      }
    },
  )
  return { stuck, requests: paged.pages }
}
