// Timelines of one workload on one edge, as keyframes of the objects the graph would hold:
// a Deployment (with its ReplicaSets and Pods) rolling from one pod template to another the way
// the controller does it (docs/hub-facts.md, "What the graph knows"); the StatefulSet's is in
// rollout-statefulsets.ts, on the same keyframes and fold.
import type { FleetObject } from './fleet.ts'
import type { PodImages, PodState, Workload } from './rollout-objects.ts'
import {
  CREATED_AT,
  counts,
  iso,
  meta,
  nameHash,
  ownerRef,
  pod,
  podTemplate,
  resourceVersion,
  templateHash,
  uidOf,
} from './rollout-objects.ts'

/** The objects of one track from `at` until the next keyframe (built when first shown). */
export type Keyframe = { at: number; objects: () => FleetObject[] }

export type RolloutPlan = Workload & {
  from: PodImages
  to: PodImages
  /** When the new template is applied (metadata.generation 1 → 2). */
  startAt: number
  /** How long the controller takes to observe it (status.observedGeneration 1 → 2); default 1 s. */
  observeMs?: number
  /** How long a new pod takes from creation to ready. */
  stepMs: number
}

export type DeploymentPlan = RolloutPlan & {
  /** The first new pod never becomes ready: it cannot be scheduled, or its container crash-loops. */
  stuck?: 'unschedulable' | 'crashloop'
  /** spec.progressDeadlineSeconds (the API server's default is 600). */
  progressDeadlineSeconds?: number
  /** Applied paused (spec.paused): the controller observes the new template and rolls out nothing. */
  paused?: boolean
}

type Progress = {
  reason: 'NewReplicaSetAvailable' | 'ReplicaSetUpdated' | 'ProgressDeadlineExceeded' | 'DeploymentPaused'
  at: number
}
type DState = { generation: number; observed: number; oldPods: number; newPods: PodState[]; progress: Progress }

/** Applies each event in time order, keeping every intermediate state as a keyframe. */
export function fold<S>(
  initial: S,
  events: { at: number; apply: (s: S) => S }[],
  render: (s: S, at: number) => FleetObject[],
): Keyframe[] {
  let s = initial
  const states: { at: number; s: S }[] = [{ at: CREATED_AT, s }]
  for (const e of [...events].sort((a, b) => a.at - b.at)) states.push({ at: e.at, s: (s = e.apply(s)) })
  return states.map(({ at, s: state }) => ({ at, objects: () => render(state, at) }))
}

const CRASH_BACKOFF_SECONDS = [10, 20, 40, 80, 160, 300]

/**
 * RollingUpdate with the defaults (maxSurge 25 %, maxUnavailable 25 %): for 3 replicas one new
 * pod at a time; each old pod goes when a new one is ready, so the old pods keep serving.
 */
export function deploymentRollout(p: DeploymentPlan): Keyframe[] {
  const observed = p.startAt + (p.observeMs ?? 1000)
  const deadlineMs = (p.progressDeadlineSeconds ?? 600) * 1000
  const events: { at: number; apply: (s: DState) => DState }[] = [
    { at: p.startAt, apply: (s) => ({ ...s, generation: 2 }) },
  ]
  if (p.paused)
    events.push({
      at: observed,
      apply: (s) => ({ ...s, observed: 2, progress: { reason: 'DeploymentPaused', at: observed } }),
    })
  else
    events.push({
      at: observed,
      apply: (s) => ({
        ...s,
        observed: 2,
        newPods: [
          p.stuck === 'unschedulable'
            ? { kind: 'unschedulable', since: observed }
            : { kind: 'creating', since: observed },
        ],
        progress: { reason: 'ReplicaSetUpdated', at: observed },
      }),
    })
  if (p.paused) {
    // nothing rolls: the old pods keep serving
  } else if (p.stuck) {
    events.push({
      at: observed + deadlineMs,
      apply: (s) => ({ ...s, progress: { reason: 'ProgressDeadlineExceeded', at: observed + deadlineMs } }),
    })
    if (p.stuck === 'crashloop') {
      // Runs, fails, then waits out a doubling back-off (capped at 5 min): an hour of restarts.
      let failAt = observed + p.stepMs
      for (let n = 1; failAt < observed + 3_600_000; n++) {
        const backoffSeconds = CRASH_BACKOFF_SECONDS[Math.min(n - 1, CRASH_BACKOFF_SECONDS.length - 1)] as number
        const state: PodState = { kind: 'crashloop', since: observed, restarts: n, lastFailAt: failAt, backoffSeconds }
        events.push({ at: failAt, apply: (s) => ({ ...s, newPods: [state] }) })
        failAt += backoffSeconds * 1000 + 2000
      }
    }
  } else {
    for (let i = 1; i <= p.replicas; i++) {
      const at = observed + i * p.stepMs
      events.push({
        at,
        apply: (s) => {
          const newPods: PodState[] = s.newPods.map((x, k) => (k === i - 1 ? { kind: 'ready', since: x.since } : x))
          if (i < p.replicas) newPods.push({ kind: 'creating', since: at })
          return {
            ...s,
            oldPods: p.replicas - i,
            newPods,
            progress: { reason: i === p.replicas ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated', at },
          }
        },
      })
    }
  }
  const initial: DState = {
    generation: 1,
    observed: 1,
    oldPods: p.replicas,
    newPods: [],
    progress: { reason: 'NewReplicaSetAvailable', at: CREATED_AT + 30_000 },
  }
  return fold(initial, events, (s, at) => renderDeployment(p, s, at))
}

function renderDeployment(p: DeploymentPlan, s: DState, at: number): FleetObject[] {
  const oldHash = templateHash(p, p.from)
  const newHash = templateHash(p, p.to)
  const rsName = (hash: string) => `${p.name}-${hash}`
  const newReady = s.newPods.filter((x) => x.kind === 'ready').length
  const available = s.oldPods + newReady
  // Until the controller observes the new template, the status still describes the old one.
  const updated = s.observed === 2 ? s.newPods.length : s.oldPods
  const progressRs = rsName(s.observed === 2 ? newHash : oldHash)
  const progressMessage = {
    NewReplicaSetAvailable: `ReplicaSet "${progressRs}" has successfully progressed.`,
    ReplicaSetUpdated: `ReplicaSet "${progressRs}" is progressing.`,
    ProgressDeadlineExceeded: `ReplicaSet "${progressRs}" has timed out progressing.`,
    DeploymentPaused: 'Deployment is paused',
  }[s.progress.reason]
  const paused = s.progress.reason === 'DeploymentPaused'
  const deadline = s.progress.reason === 'ProgressDeadlineExceeded'
  const deploy: FleetObject = {
    edge: p.edge,
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta({
      name: p.name,
      namespace: p.namespace,
      uid: uidOf(`${p.edge}/${p.namespace}/Deployment/${p.name}`),
      labels: { app: p.name, ...p.labels },
      annotations: { 'deployment.kubernetes.io/revision': String(s.observed), ...p.annotations },
      creationTimestamp: iso(CREATED_AT),
      generation: s.generation,
      resourceVersion: resourceVersion(at, 0),
    }),
    spec: {
      replicas: p.replicas,
      selector: { matchLabels: { app: p.name } },
      template: podTemplate(p, s.generation === 2 ? p.to : p.from),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: p.progressDeadlineSeconds ?? 600,
      ...(p.paused && s.generation === 2 ? { paused: true } : {}),
    },
    status: {
      observedGeneration: s.observed,
      ...counts({
        replicas: s.oldPods + s.newPods.length,
        updatedReplicas: updated,
        readyReplicas: available,
        availableReplicas: available,
        unavailableReplicas: s.newPods.length - newReady,
      }),
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: iso(CREATED_AT + 30_000),
          lastTransitionTime: iso(CREATED_AT + 30_000),
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: deadline ? 'False' : paused ? 'Unknown' : 'True',
          lastUpdateTime: iso(s.progress.at),
          lastTransitionTime: iso(deadline ? s.progress.at : CREATED_AT),
          reason: s.progress.reason,
          message: progressMessage,
        },
      ],
    },
  }
  const replicaSet = (
    hash: string,
    images: PodImages,
    revision: number,
    pods: PodState[],
    replicas: number,
  ): FleetObject[] => {
    const labels = { ...podTemplate(p, images).metadata.labels, 'pod-template-hash': hash }
    const ready = pods.filter((x) => x.kind === 'ready').length
    // Each scale bumps a ReplicaSet's generation: the old one was created at full size, the new one at 1.
    const generation = revision === 1 ? 1 + p.replicas - replicas : replicas
    const rs: FleetObject = {
      edge: p.edge,
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta({
        name: rsName(hash),
        namespace: p.namespace,
        uid: uidOf(`${p.edge}/${p.namespace}/ReplicaSet/${rsName(hash)}`),
        labels,
        annotations: {
          'deployment.kubernetes.io/desired-replicas': String(p.replicas),
          'deployment.kubernetes.io/max-replicas': String(p.replicas + Math.ceil(p.replicas / 4)),
          'deployment.kubernetes.io/revision': String(revision),
        },
        ownerReferences: [ownerRef(deploy)],
        creationTimestamp: iso(revision === 1 ? CREATED_AT : observedAt(p)),
        generation,
        resourceVersion: resourceVersion(at, revision),
      }),
      spec: {
        replicas,
        selector: { matchLabels: { app: p.name, 'pod-template-hash': hash } },
        template: { ...podTemplate(p, images), metadata: { labels } },
      },
      status: {
        replicas: pods.length,
        ...counts({ fullyLabeledReplicas: pods.length, readyReplicas: ready, availableReplicas: ready }),
        observedGeneration: generation,
      },
    }
    const out = [rs]
    // The oldest old pod goes first; new pods are numbered in creation order.
    const offset = revision === 1 ? p.replicas - pods.length : 0
    pods.forEach((state, k) => {
      const n = k + offset
      out.push(
        pod({
          w: p,
          images,
          name: `${rsName(hash)}-${nameHash(`${p.edge}/${hash}/${n}`, 5)}`,
          generateName: `${rsName(hash)}-`,
          labels,
          owner: rs,
          state,
          node: n,
          at,
        }),
      )
    })
    return out
  }
  const oldPods: PodState[] = Array.from({ length: s.oldPods }, () => ({ kind: 'ready', since: CREATED_AT }))
  const out = [deploy, ...replicaSet(oldHash, p.from, 1, oldPods, s.oldPods)]
  if (s.observed === 2) out.push(...replicaSet(newHash, p.to, 2, s.newPods, s.newPods.length))
  return out
}

export function observedAt(p: RolloutPlan): number {
  return p.startAt + (p.observeMs ?? 1000)
}
