// A StatefulSet (with its Pods) rolling from one pod template to another on one edge, as keyframes:
// RollingUpdate with a partition, or OnDelete with an operator deleting pods (docs/hub-facts.md, "What the graph knows").
import type { FleetObject } from './fleet.ts'
import type { PodImages, PodState } from './rollout-objects.ts'
import {
  CREATED_AT,
  counts,
  iso,
  meta,
  pod,
  podTemplate,
  resourceVersion,
  templateHash,
  uidOf,
} from './rollout-objects.ts'
import { fold, observedAt, type Keyframe, type RolloutPlan } from './rollout-workloads.ts'

export type StatefulSetPlan = RolloutPlan & {
  /** spec.updateStrategy.rollingUpdate.partition: only ordinals ≥ partition take the new template. */
  partition: number
  /** updateStrategy OnDelete: the controller replaces nothing; an operator deletes each pod, every `stepMs` from `deleteFrom` (never when undefined). */
  onDelete?: { deleteFrom: number | undefined }
}

type SState = { generation: number; observed: number; pods: { revision: 1 | 2; state: PodState }[] }

/** RollingUpdate, OrderedReady: from the highest ordinal down to the partition, one pod at a time. */
export function statefulSetRollout(p: StatefulSetPlan): Keyframe[] {
  const observed = observedAt(p)
  const events: { at: number; apply: (s: SState) => SState }[] = [
    { at: p.startAt, apply: (s) => ({ ...s, generation: 2 }) },
    { at: observed, apply: (s) => ({ ...s, observed: 2 }) },
  ]
  const set = (s: SState, ordinal: number, revision: 1 | 2, state: PodState): SState => ({
    ...s,
    pods: s.pods.map((x, k) => (k === ordinal ? { revision, state } : x)),
  })
  const from = p.onDelete ? p.onDelete.deleteFrom : observed
  for (
    let ordinal = p.replicas - 1, at = from ?? 0;
    from !== undefined && ordinal >= p.partition;
    ordinal--, at += p.stepMs
  ) {
    const since = at
    const o = ordinal
    events.push({ at, apply: (s) => set(s, o, 2, { kind: 'creating', since }) })
    events.push({ at: at + p.stepMs, apply: (s) => set(s, o, 2, { kind: 'ready', since }) })
  }
  const initial: SState = {
    generation: 1,
    observed: 1,
    pods: Array.from({ length: p.replicas }, () => ({ revision: 1, state: { kind: 'ready', since: CREATED_AT } })),
  }
  return fold(initial, events, (s, at) => renderStatefulSet(p, s, at))
}

function renderStatefulSet(p: StatefulSetPlan, s: SState, at: number): FleetObject[] {
  const revisionName = (images: PodImages) => `${p.name}-${templateHash(p, images)}`
  const oldRev = revisionName(p.from)
  const newRev = revisionName(p.to)
  const updated = s.pods.filter((x) => x.revision === 2).length
  const ready = s.pods.filter((x) => x.state.kind === 'ready').length
  // currentRevision moves to updateRevision only once every pod runs it (never under a partition).
  const allNew = s.observed === 2 && updated === p.replicas
  const sts: FleetObject = {
    edge: p.edge,
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: meta({
      name: p.name,
      namespace: p.namespace,
      uid: uidOf(`${p.edge}/${p.namespace}/StatefulSet/${p.name}`),
      labels: { app: p.name, ...p.labels },
      creationTimestamp: iso(CREATED_AT),
      generation: s.generation,
      resourceVersion: resourceVersion(at, 0),
    }),
    spec: {
      replicas: p.replicas,
      selector: { matchLabels: { app: p.name } },
      serviceName: p.name,
      template: podTemplate(p, s.generation === 2 ? p.to : p.from),
      podManagementPolicy: 'OrderedReady',
      updateStrategy: p.onDelete
        ? { type: 'OnDelete' }
        : { type: 'RollingUpdate', rollingUpdate: { partition: p.partition } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    },
    status: {
      observedGeneration: s.observed,
      replicas: p.replicas,
      ...counts({
        readyReplicas: ready,
        availableReplicas: ready,
        currentReplicas: allNew ? p.replicas : s.pods.length - updated,
        updatedReplicas: s.observed === 2 ? updated : p.replicas,
      }),
      currentRevision: allNew ? newRev : oldRev,
      updateRevision: s.observed === 2 ? newRev : oldRev,
      collisionCount: 0,
    },
  }
  const pods = s.pods.map((x, ordinal) => {
    const images = x.revision === 2 ? p.to : p.from
    const name = `${p.name}-${ordinal}`
    return pod({
      w: p,
      images,
      name,
      labels: {
        ...podTemplate(p, images).metadata.labels,
        'controller-revision-hash': revisionName(images),
        'statefulset.kubernetes.io/pod-name': name,
        'apps.kubernetes.io/pod-index': String(ordinal),
      },
      owner: sts,
      state: x.state,
      node: ordinal,
      at,
    })
  })
  return [sts, ...pods]
}
