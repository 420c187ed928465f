// Rollout scenarios about time (issue 32): what a gate must make of a fleet over several looks.
// Each is a timeline of keyframes per edge, as in rollouts.ts, of objects as the controllers
// write them (docs/hub-facts.md, "What the graph knows"):
// - `stamped`: web 1.4 → 1.5 applied at 20 s on every edge, each version stamped in the label
//   `app.kubernetes.io/version` of the Deployment and its pod template (as Helm charts do);
// - `fix-forward`: release 1.5 crash-loops (env A); at 0 s its fix, same image with env B, is
//   applied and rolls out while the old pods keep crashing until they are replaced;
// - `transient-crash`: web 1.4 → 1.5 at 0 s; on staging the first new pod crashes twice while
//   a migration runs, then comes up; the rollout completes;
// - `flapping`: 100 edges running web 1.5 (stamped), every rollout done; at each second 5 % of
//   the edges show one pod briefly unready (a restart), a different 5 % each second;
// - `ttl-job`: Job shop/migrate-1-5 with ttlSecondsAfterFinished 30, complete at 20 s, 35 s and
//   60 s, and deleted by its TTL 30 s after.
import { createHash } from 'node:crypto'
import type { FleetObject } from './fleet.ts'
import { jobRollout } from './rollout-jobs.ts'
import {
  CREATED_AT,
  counts,
  iso,
  meta,
  namespace,
  nameHash,
  ownerRef,
  pod,
  podTemplate,
  resourceVersion,
  templateHash,
  uidOf,
  type PodImages,
  type PodState,
  type Workload,
} from './rollout-objects.ts'
import type { Keyframe } from './rollout-workloads.ts'

export const TIME_SCENARIOS = ['stamped', 'fix-forward', 'transient-crash', 'flapping', 'ttl-job'] as const
export type TimeScenario = (typeof TIME_SCENARIOS)[number]

type Timeline = { edges: { name: string }[]; tracks: { edge: string; frames: Keyframe[] }[] }

const VERSION_LABEL = 'app.kubernetes.io/version'
const EDGES = ['prod-eu', 'prod-us', 'staging'] as const
const version = (v: string, env?: Record<string, string>): PodImages => ({
  app: `registry/web:${v}`,
  init: `registry/web-migrate:${v}`,
  ...(env ? { env } : {}),
})
const tag = (images: PodImages) => images.app.slice(images.app.lastIndexOf(':') + 1)

type Plan = Workload & { from: PodImages; to: PodImages; stamped?: boolean }
/** generation 2 is the new template; `old` and `fresh` are the pods of the old and new ReplicaSets. */
type DState = { generation: number; observed: number; old: PodState[]; fresh: PodState[] }

const ready = (since: number): PodState => ({ kind: 'ready', since })

export function timeTimeline(scenario: TimeScenario): Timeline {
  const ns = (edges: readonly string[]) =>
    edges.map((edge) => ({
      edge,
      frames: [{ at: Number.NEGATIVE_INFINITY, objects: () => [namespace(edge, 'shop')] }],
    }))
  const three = EDGES.map((name) => ({ name }))
  const web = (edge: string, over: Partial<Plan> = {}): Plan => ({
    edge,
    namespace: 'shop',
    name: 'web',
    replicas: 3,
    from: version('1.4'),
    to: version('1.5'),
    ...over,
  })
  switch (scenario) {
    case 'stamped':
      return {
        edges: three,
        tracks: [
          ...ns(EDGES),
          ...EDGES.map((edge) => ({ edge, frames: rolling(web(edge, { stamped: true }), 20_000) })),
        ],
      }
    case 'fix-forward':
      return {
        edges: three,
        tracks: [
          ...ns(EDGES),
          ...EDGES.map((edge) => {
            const p = web(edge, { from: version('1.5', { DB_HOST: 'db-old' }), to: version('1.5', { DB_HOST: 'db' }) })
            // the broken release: every old pod crash-looping for minutes already
            const crashing: PodState = {
              kind: 'crashloop',
              since: -600_000,
              restarts: 7,
              lastFailAt: -20_000,
              backoffSeconds: 160,
            }
            return { edge, frames: rolling(p, 0, { old: [crashing, crashing, crashing] }) }
          }),
        ],
      }
    case 'transient-crash':
      return {
        edges: three,
        tracks: [
          ...ns(EDGES),
          ...EDGES.map((edge) => ({ edge, frames: rolling(web(edge), 0, edge === 'staging' ? { crashes: 2 } : {}) })),
        ],
      }
    case 'flapping': {
      const edges = Array.from({ length: 100 }, (_, i) => `flap-${String(i).padStart(2, '0')}`)
      return {
        edges: edges.map((name) => ({ name })),
        tracks: [...ns(edges), ...edges.map((edge) => ({ edge, frames: flapping(web(edge, { stamped: true })) }))],
      }
    }
    case 'ttl-job': {
      const runs = { 'prod-eu': [0, 20_000], 'prod-us': [5_000, 30_000], staging: [10_000, 50_000] } as const
      return {
        edges: three,
        tracks: [
          ...ns(EDGES),
          ...EDGES.map((edge) => ({
            edge,
            frames: jobRollout({
              edge,
              namespace: 'shop',
              name: 'migrate-1-5',
              replicas: 1,
              images: version('1.5'),
              outcome: 'complete',
              startAt: runs[edge][0],
              runMs: runs[edge][1],
              ttlSecondsAfterFinished: 30,
            }),
          })),
        ],
      }
    }
  }
}

/**
 * `to` applied at `startAt`, observed 1 s later; then every 5 s a new pod is created, ready 5 s
 * on, and an old one goes. `crashes`: the first new pod crashes that many times first (10 s,
 * then 20 s of back-off), then comes up.
 */
function rolling(p: Plan, startAt: number, o: { old?: PodState[]; crashes?: number } = {}): Keyframe[] {
  const observedAt = startAt + 1000
  let s: DState = {
    generation: 1,
    observed: 1,
    old: o.old ?? Array.from({ length: p.replicas }, () => ready(CREATED_AT)),
    fresh: [],
  }
  const frames: Keyframe[] = []
  const push = (at: number, next: DState) => {
    const state = (s = next)
    frames.push({ at, objects: () => renderDeployment(p, state, at) })
  }
  push(CREATED_AT, s)
  push(startAt, { ...s, generation: 2 })
  push(observedAt, { ...s, observed: 2 })
  let at = observedAt
  for (let i = 0; i < p.replicas; i++) {
    const since = at
    push(at, { ...s, fresh: [...s.fresh, { kind: 'creating', since }] })
    if (i === 0 && o.crashes) {
      let failAt = at + 5_000
      for (let n = 1; n <= o.crashes; n++) {
        const crash: PodState = {
          kind: 'crashloop',
          since,
          restarts: n,
          lastFailAt: failAt,
          backoffSeconds: 10 * 2 ** (n - 1),
        }
        push(failAt, { ...s, fresh: [crash] })
        failAt += crash.backoffSeconds * 1000 + 2000
      }
      at = failAt
    } else at += 5_000
    push(at, { ...s, old: s.old.slice(1), fresh: s.fresh.map((x, k) => (k === i ? ready(x.since) : x)) })
  }
  return frames
}

/** Done from the start; at each whole second until 10 min, one pod unready on 5 % of the edges. */
function flapping(p: Plan): Keyframe[] {
  const done: DState = {
    generation: 2,
    observed: 2,
    old: [],
    fresh: Array.from({ length: p.replicas }, () => ready(CREATED_AT)),
  }
  const frames: Keyframe[] = [{ at: CREATED_AT, objects: () => renderDeployment(p, done, CREATED_AT) }]
  for (let t = 0; t < 600_000; t += 1000) {
    const dips = (createHash('sha256').update(`${p.edge}/${t}`).digest()[0] as number) < 13 // 13/256: 5 %
    const at = t
    const state: DState = dips ? { ...done, fresh: [{ kind: 'creating', since: at }, ...done.fresh.slice(1)] } : done
    frames.push({ at, objects: () => renderDeployment(p, state, at) })
  }
  return frames
}

function stamp(labels: Record<string, string>, p: Plan, images: PodImages): Record<string, string> {
  return p.stamped ? { ...labels, [VERSION_LABEL]: tag(images) } : labels
}

/** A Deployment, its ReplicaSets and their pods, as the deployment controller writes them. */
function renderDeployment(p: Plan, s: DState, at: number): FleetObject[] {
  const hash = (images: PodImages) => templateHash(p, images)
  const rsName = (images: PodImages) => `${p.name}-${hash(images)}`
  const template = (images: PodImages) => {
    const t = podTemplate(p, images)
    return { ...t, metadata: { labels: stamp(t.metadata.labels, p, images) } }
  }
  const images = s.generation === 2 ? p.to : p.from
  const newest = s.observed === 2 ? p.to : p.from
  const readyCount = [...s.old, ...s.fresh].filter((x) => x.kind === 'ready').length
  // Settled on one ReplicaSet with every pod ready (before the release too: the old one).
  const done =
    s.observed === s.generation &&
    (s.observed === 2 ? s.old.length === 0 : s.fresh.length === 0) &&
    [...s.old, ...s.fresh].every((x) => x.kind === 'ready')
  const deploy: FleetObject = {
    edge: p.edge,
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta({
      name: p.name,
      namespace: p.namespace,
      uid: uidOf(`${p.edge}/${p.namespace}/Deployment/${p.name}`),
      labels: stamp({ app: p.name }, p, images),
      annotations: { 'deployment.kubernetes.io/revision': String(s.observed) },
      creationTimestamp: iso(CREATED_AT),
      generation: s.generation,
      resourceVersion: resourceVersion(at, 0),
    }),
    spec: {
      replicas: p.replicas,
      selector: { matchLabels: { app: p.name } },
      template: template(images),
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: s.observed,
      ...counts({
        replicas: s.old.length + s.fresh.length,
        updatedReplicas: s.observed === 2 ? s.fresh.length : s.old.length,
        readyReplicas: readyCount,
        availableReplicas: readyCount,
        unavailableReplicas: s.old.length + s.fresh.length - readyCount,
      }),
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
          lastTransitionTime: iso(CREATED_AT),
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: done ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
          message: `ReplicaSet "${rsName(newest)}" ${done ? 'has successfully progressed' : 'is progressing'}.`,
          lastTransitionTime: iso(CREATED_AT),
        },
      ],
    },
  }
  const replicaSet = (rsImages: PodImages, revision: number, pods: PodState[]): FleetObject[] => {
    const labels = { ...template(rsImages).metadata.labels, 'pod-template-hash': hash(rsImages) }
    const name = rsName(rsImages)
    const rs: FleetObject = {
      edge: p.edge,
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta({
        name,
        namespace: p.namespace,
        uid: uidOf(`${p.edge}/${p.namespace}/ReplicaSet/${name}`),
        labels,
        annotations: { 'deployment.kubernetes.io/revision': String(revision) },
        ownerReferences: [ownerRef(deploy)],
        creationTimestamp: iso(CREATED_AT),
        generation: 1,
        resourceVersion: resourceVersion(at, revision),
      }),
      spec: {
        replicas: pods.length,
        selector: { matchLabels: { app: p.name, 'pod-template-hash': hash(rsImages) } },
        template: template(rsImages),
      },
      status: { replicas: pods.length, observedGeneration: 1 },
    }
    return [
      rs,
      ...pods.map((state, n) =>
        pod({
          w: p,
          images: rsImages,
          name: `${name}-${nameHash(`${p.edge}/${name}/${n}`, 5)}`,
          labels,
          owner: rs,
          state,
          node: n,
          at,
        }),
      ),
    ]
  }
  const out = [deploy, ...replicaSet(p.from, 1, s.old)]
  if (s.observed === 2) out.push(...replicaSet(p.to, 2, s.fresh))
  return out
}
