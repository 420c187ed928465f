/**
 * Failures a workload's own status never names: a pod of its new revision that cannot pull its
 * image or keeps crashing. The Deployment only reports "1 unavailable" until its progress
 * deadline (10 minutes by default), so while a workload target is in progress one query reads
 * the unready pods of its namespace and fails it before then. Only the new revision's pods count
 * (the fix-forward of a crash-looping release must not fail on the old pods' crashes): a
 * Deployment's are those of the ReplicaSet its Progressing condition names, a StatefulSet's
 * those whose `controller-revision-hash` is its `status.updateRevision`; where neither is known
 * (a DaemonSet), a stuck pod running an image the manifest does not name is the old revision's.
 * And only a state that persists: a crash loop once the container restarted 3 times (the
 * kubelet's back-off doubles from 10 s, so that is over a minute of crashing), an image that
 * cannot be pulled once seen on two looks at least PULL_PERSISTS_MS apart. Jobs are left to their
 * own Failed condition. Bounded: one page a poll; what it cannot read the deadline still catches.
 */
import { edgeOf, type GraphClient, type QuerySpec } from '../../hub/graph.js'
import { stuckContainers, stuckText, type StuckContainer } from './kstatus-kinds.js'
import { groupOf } from '../../model/target.js'
import { at, list, str } from './live-object.js'
import type { Cell } from './cell.js'
import { sameImage } from './synced.js'
import type { RolloutTarget } from './targets.js'

/** Unready pods read a poll at most: one page. */
const MAX_PODS = 1_000

/** A crash loop counts from this many restarts of the container. */
const CRASH_RESTARTS = 3
/** An image pull failure counts once seen on two looks this far apart. @internal */
export const PULL_PERSISTS_MS = 15_000

/** When each stuck pull was first seen, by edge, pod and reason; kept by the caller across looks. */
export type StuckMemory = Map<string, number>

/** Workloads whose pods this looks at, and the owner kind their pods name (not Jobs: their Failed condition says it). */
const OWNED_THROUGH: ReadonlyMap<string, string> = new Map([
  ['apps/Deployment', 'ReplicaSet'],
  ['apps/StatefulSet', 'StatefulSet'],
  ['apps/DaemonSet', 'DaemonSet'],
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
        // whole lists: restartCount and the waiting reason of each container
        status: { containerStatuses: true, initContainerStatuses: true },
      },
    },
  }
}

/** `kind/namespace/name` of the workload that owns a pod, as a target would name it; undefined when none. */
function ownerOf(pod: Record<string, unknown>): { key: string; replicaSet?: string } | undefined {
  const refs = list(at(pod, 'metadata', 'ownerReferences'), 'ownerReferences')
  if (!refs.ok) return undefined
  const controller = refs.value.find((r) => at(r, 'controller') === true) ?? refs.value[0]
  const kind = str(at(controller, 'kind'))
  const name = str(at(controller, 'name'))
  const namespace = str(at(pod, 'metadata', 'namespace'))
  if (!kind || !name) return undefined
  if (kind !== 'ReplicaSet') return { key: `${groupOf(at(controller, 'apiVersion'))}/${kind}/${namespace}/${name}` }
  const hash = str(at(pod, 'metadata', 'labels', 'pod-template-hash'))
  return hash && name.endsWith(`-${hash}`)
    ? { key: `apps/Deployment/${namespace}/${name.slice(0, -hash.length - 1)}`, replicaSet: name }
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
 * of unready pods in the namespaces of the given targets; `cells` says, per edge, which pods
 * are each target's new revision.
 */
export async function stuckPods(
  graph: GraphClient,
  targets: readonly RolloutTarget[],
  indices: readonly number[],
  context: {
    signal: AbortSignal
    cells: ReadonlyMap<string, ReadonlyMap<number, Cell>>
    now: number
    memory?: StuckMemory | undefined
  },
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
  const seenNow = new Set<string>()
  const paged = await graph.forEachPage(
    podQuery(namespaces),
    {
      pageSize: MAX_PODS,
      maxObjects: MAX_PODS,
      signal: context.signal,
      operation: 'read the unready pods of the rollout targets',
    },
    (rows) => {
      for (const row of rows) {
        const edge = edgeOf(row.cluster)
        const pod = row.object
        const owner = pod && ownerOf(pod)
        const matching = owner ? byOwner.get(owner.key) : undefined
        if (!edge || !pod || !owner || !matching) continue
        const found = stuckContainers(pod)
        if (!found || 'problem' in found) continue
        const name = str(at(pod, 'metadata', 'name'))
        if (!persists(found, `${edge}\u0000${name}\u0000${found.reason}`, context, seenNow)) continue
        for (const i of matching) {
          const target = targets[i] as RolloutTarget
          if (target.target.edge !== undefined && target.target.edge !== edge) continue
          if (!ofNewRevision(pod, owner, found.containers, target, context.cells.get(edge)?.get(i))) continue
          let byTarget = stuck.get(edge)
          if (!byTarget) stuck.set(edge, (byTarget = new Map<number, string>()))
          if (!byTarget.has(i)) byTarget.set(i, `pod ${name}: ${stuckText(found)}`)
        }
      }
    },
  )
  // A pull no longer stuck starts over if it sticks again.
  if (context.memory) for (const key of [...context.memory.keys()]) if (!seenNow.has(key)) context.memory.delete(key)
  return { stuck, requests: paged.pages }
}

/** A crash loop past CRASH_RESTARTS restarts; a pull failure seen PULL_PERSISTS_MS ago already. */
function persists(
  found: { reason: string; containers: readonly StuckContainer[] },
  key: string,
  context: { now: number; memory?: StuckMemory | undefined },
  seenNow: Set<string>,
): boolean {
  if (found.reason === 'CrashLoopBackOff') return found.containers.some((c) => c.restarts >= CRASH_RESTARTS)
  seenNow.add(key)
  const first = context.memory?.get(key)
  if (first === undefined) {
    context.memory?.set(key, context.now)
    // Without a memory (one look only) there is nothing to wait for.
    return context.memory === undefined
  }
  return context.now - first >= PULL_PERSISTS_MS
}

/** The pod runs the target's new revision: by its ReplicaSet or revision hash when the workload names it, else by image. */
function ofNewRevision(
  pod: Record<string, unknown>,
  owner: { replicaSet?: string },
  containers: readonly StuckContainer[],
  target: RolloutTarget,
  cell: Cell | undefined,
): boolean {
  if (cell?.newPods?.replicaSet !== undefined) return owner.replicaSet === cell.newPods.replicaSet
  if (cell?.newPods?.revisionHash !== undefined)
    return str(at(pod, 'metadata', 'labels', 'controller-revision-hash')) === cell.newPods.revisionHash
  // The new generation is not observed yet: no pod runs it.
  if (cell?.newPods) return false
  const images = expectedImages(target.expected)
  // A stuck container the manifest names at another image belongs to the old revision.
  return containers.every((c) => !images.has(c.name) || sameImage(images.get(c.name) as string, c.image))
}
