// The rollout fleet's scenarios (rollouts.ts plays them): for each, which edges there are and
// what each edge shows over time, as tracks of keyframes built by rollout-workloads.ts and its siblings.
import type { FleetObject } from './fleet.ts'
import { largeEdgeName } from './large-fleet.ts'
import { namespace, type PodImages } from './rollout-objects.ts'
import type { DeploymentPlan, Keyframe } from './rollout-workloads.ts'
import { deploymentRollout } from './rollout-workloads.ts'
import { statefulSetRollout } from './rollout-statefulsets.ts'
import { jobRollout } from './rollout-jobs.ts'
import { APPLIED_EDGES, appliedTracks } from './rollout-applied-fleet.ts'
import { TIME_SCENARIOS, timeTimeline, type TimeScenario } from './rollout-fleet-time.ts'

/** One thing on one edge over time: nothing before its first keyframe. */
type Track = { edge: string; frames: Keyframe[] }
/** An edge is engaged from instant 0; one that disconnects sends nothing from `disconnectAt` on. */
export type EdgePlan = { name: string; disconnectAt?: number }
export type Timeline = { edges: EdgePlan[]; tracks: Track[] }

export const ROLLOUT_SCENARIOS = [
  'converging',
  'deadline',
  'disconnect',
  'stale-generation',
  'statefulset-partition',
  'crashloop',
  'unsynced-kind',
  'env-change',
  'paused',
  'release-job',
  'statefulset-ondelete',
  'no-edges',
  'large',
  'applied',
  ...TIME_SCENARIOS,
] as const
export type RolloutScenario = (typeof ROLLOUT_SCENARIOS)[number]

export type LargeRolloutOptions = {
  /** Deployments `bench/app-NNN` on every edge; default 100. */
  targets?: number
  /** Edges `edge-00`…; default 20. */
  edges?: number
  /** Every rollout is complete by then (ms); default 120 000. */
  durationMs?: number
  /** Default 2. */
  replicas?: number
}

export const ROLLOUT_EDGES = ['prod-eu', 'prod-us', 'staging'] as const
type Edge = (typeof ROLLOUT_EDGES)[number]

const version = (v: string): PodImages => ({ app: `registry/web:${v}`, init: `registry/web-migrate:${v}` })
const WEB = {
  namespace: 'shop',
  name: 'web',
  replicas: 3,
  from: version('1.4'),
  to: version('1.5'),
  labels: { team: 'shop' },
}
/** `converging`: each edge applies 1.5 at its own time and takes its own pace per pod. */
const SPEEDS: Record<Edge, { startAt: number; stepMs: number }> = {
  'prod-eu': { startAt: 0, stepMs: 5_000 }, // complete at 16 s
  'prod-us': { startAt: 10_000, stepMs: 10_000 }, // complete at 41 s
  staging: { startAt: 20_000, stepMs: 20_000 }, // complete at 81 s
}

function webOn(edge: Edge, over: Partial<DeploymentPlan> = {}, base: Partial<DeploymentPlan> = {}): Track {
  return { edge, frames: deploymentRollout({ edge, ...WEB, ...SPEEDS[edge], ...base, ...over }) }
}

function webEverywhere(
  over: Partial<Record<Edge, Partial<DeploymentPlan>>> = {},
  base: Partial<DeploymentPlan> = {},
): Track[] {
  return ROLLOUT_EDGES.map((edge) => webOn(edge, over[edge], base))
}

const staticTrack = (o: FleetObject): Track => ({
  edge: o.edge,
  frames: [{ at: Number.NEGATIVE_INFINITY, objects: () => [o] }],
})
const namespaces = (name: string, edges: readonly string[]): Track[] =>
  edges.map((edge) => staticTrack(namespace(edge, name)))
const threeEdges = (): EdgePlan[] => ROLLOUT_EDGES.map((name) => ({ name }))

export function scenarioTimeline(scenario: RolloutScenario, large: LargeRolloutOptions): Timeline {
  const ns = namespaces('shop', ROLLOUT_EDGES)
  switch (scenario) {
    case 'converging':
      return { edges: threeEdges(), tracks: [...ns, ...webEverywhere()] }
    case 'deadline':
      // prod-us: the new pod cannot be scheduled; 60 s after the controller saw 1.5 (at 71 s)
      // Progressing turns False, ProgressDeadlineExceeded, and stays so. Old pods keep serving.
      return {
        edges: threeEdges(),
        tracks: [...ns, ...webEverywhere({ 'prod-us': { stuck: 'unschedulable', progressDeadlineSeconds: 60 } })],
      }
    case 'disconnect':
      // staging stops at 45 s with one new pod of three ready; its rows look live until 135 s.
      return {
        edges: [{ name: 'prod-eu' }, { name: 'prod-us' }, { name: 'staging', disconnectAt: 45_000 }],
        tracks: [...ns, ...webEverywhere()],
      }
    case 'stale-generation':
      // prod-us: 1.5 is applied at 10 s but its controller observes it only at 70 s: meanwhile
      // generation 2 ≠ observedGeneration 1 while the three old pods are all ready. Complete at 101 s.
      return { edges: threeEdges(), tracks: [...ns, ...webEverywhere({ 'prod-us': { observeMs: 60_000 } })] }
    case 'statefulset-partition': {
      // StatefulSet shop/db 2.0 → 2.1: prod-eu with partition 2 updates db-2 only (complete at
      // 21 s and split for good); prod-us (41 s) and staging (61 s) roll every pod.
      const db = {
        namespace: 'shop',
        name: 'db',
        replicas: 3,
        from: dbVersion('2.0'),
        to: dbVersion('2.1'),
        startAt: 0,
      }
      const plans = {
        'prod-eu': { partition: 2, stepMs: 10_000 },
        'prod-us': { partition: 0, stepMs: 6_000 },
        staging: { partition: 0, stepMs: 10_000 },
      }
      return {
        edges: threeEdges(),
        tracks: [
          ...ns,
          ...ROLLOUT_EDGES.map((edge) => ({ edge, frames: statefulSetRollout({ edge, ...db, ...plans[edge] }) })),
        ],
      }
    }
    case 'crashloop':
      // staging: the new pod's container crash-loops from 41 s (restartCount climbing), so the
      // Deployment waits with one unavailable replica; its deadline (600 s) passes at 621 s.
      return { edges: threeEdges(), tracks: [...ns, ...webEverywhere({ staging: { stuck: 'crashloop' } })] }
    case 'unsynced-kind':
      // The target is HelmRelease shop/web (helm.toolkit.fluxcd.io/v2): not synced by default, so it
      // never appears. The Deployment it renders converges as in `converging`.
      return {
        edges: threeEdges(),
        tracks: [
          ...ns,
          ...webEverywhere(
            {},
            {
              labels: {
                team: 'shop',
                'app.kubernetes.io/managed-by': 'Helm',
                'helm.toolkit.fluxcd.io/name': 'web',
                'helm.toolkit.fluxcd.io/namespace': 'shop',
              },
              annotations: { 'meta.helm.sh/release-name': 'web', 'meta.helm.sh/release-namespace': 'shop' },
            },
          ),
        ],
      }
    case 'env-change': {
      // Only LOG_LEVEL changes (info → debug), the images stay 1.5: each edge rolls at its
      // `converging` pace. A gate comparing images alone would pass at instant 0.
      const env = (level: string): PodImages => ({ ...version('1.5'), env: { LOG_LEVEL: level } })
      return { edges: threeEdges(), tracks: [...ns, ...webEverywhere({}, { from: env('info'), to: env('debug') })] }
    }
    case 'paused':
      // prod-us applies 1.5 paused (spec.paused): its controller observes it and rolls nothing.
      return { edges: threeEdges(), tracks: [...ns, ...webEverywhere({ 'prod-us': { paused: true } })] }
    case 'release-job': {
      // Job shop/migrate-1-5, created by the release on each edge: complete at 20 s, 35 s and 60 s.
      const runs: Record<Edge, { startAt: number; runMs: number }> = {
        'prod-eu': { startAt: 0, runMs: 20_000 },
        'prod-us': { startAt: 5_000, runMs: 30_000 },
        staging: { startAt: 10_000, runMs: 50_000 },
      }
      const job = {
        namespace: 'shop',
        name: 'migrate-1-5',
        replicas: 1,
        images: version('1.5'),
        outcome: 'complete' as const,
      }
      return {
        edges: threeEdges(),
        tracks: [
          ...ns,
          ...ROLLOUT_EDGES.map((edge) => ({ edge, frames: jobRollout({ edge, ...job, ...runs[edge] }) })),
        ],
      }
    }
    case 'statefulset-ondelete': {
      // StatefulSet shop/db 2.0 → 2.1 with updateStrategy OnDelete: applied at 0 s on every edge;
      // an operator deletes the pods one by one on prod-eu (from 10 s) and prod-us (from 30 s);
      // nobody does on staging, so it keeps 2.0 pods under a 2.1 template for good.
      const db = {
        namespace: 'shop',
        name: 'db',
        replicas: 3,
        from: dbVersion('2.0'),
        to: dbVersion('2.1'),
        startAt: 0,
        partition: 0,
        stepMs: 5_000,
      }
      const deleteFrom: Record<Edge, number | undefined> = { 'prod-eu': 10_000, 'prod-us': 30_000, staging: undefined }
      const onDelete = (edge: Edge) => ({ deleteFrom: deleteFrom[edge] })
      return {
        edges: threeEdges(),
        tracks: [
          ...ns,
          ...ROLLOUT_EDGES.map((edge) => ({
            edge,
            frames: statefulSetRollout({ edge, ...db, onDelete: onDelete(edge) }),
          })),
        ],
      }
    }
    case 'no-edges':
      // A workspace with no engaged edge (or the wrong workspace): nothing to read.
      return { edges: [], tracks: [] }
    case 'large':
      return largeTimeline(large)
    case 'applied':
      // objects as the API server stores applied manifests (./rollout-applied-fleet.ts says which fact each pins)
      return {
        edges: Object.keys(APPLIED_EDGES).map((name) => ({ name })),
        tracks: [...namespaces('shop', Object.keys(APPLIED_EDGES)), ...appliedTracks()],
      }
    default:
      return timeTimeline(scenario satisfies TimeScenario)
  }
}

const dbVersion = (v: string): PodImages => ({ app: `registry/db:${v}`, init: `registry/db-migrate:${v}` })

/**
 * `targets` × `edges` Deployments `bench/app-NNN` going from 1.0 to 1.1: each (target, edge)
 * starts in the first 40 % of the duration and takes a deterministic pace (20 to 100 % of what
 * is left per pod) so that completions spread out and all are in by `durationMs`. Changes fall on whole seconds.
 */
function largeTimeline(o: LargeRolloutOptions): Timeline {
  const targets = o.targets ?? 100
  const edges = Array.from({ length: o.edges ?? 20 }, (_, i) => largeEdgeName(i))
  const duration = o.durationMs ?? 120_000
  const replicas = o.replicas ?? 2
  const tick = 1000
  const tracks: Track[] = namespaces('bench', edges)
  for (let t = 0; t < targets; t++) {
    const name = `app-${String(t).padStart(3, '0')}`
    const images = (v: string): PodImages => ({ app: `registry/${name}:${v}`, init: `registry/${name}-migrate:${v}` })
    edges.forEach((edge, e) => {
      const frac = (k: number) => (((t + 1) * 7919 + (e + 1) * 104_729 * k) % 1000) / 1000
      const startAt = Math.floor((frac(1) * duration * 0.4) / tick) * tick
      const room = Math.floor((duration - startAt - tick) / replicas / tick) * tick
      const stepMs = Math.max(tick, Math.floor((room * (0.2 + 0.8 * frac(3))) / tick) * tick)
      const frames = deploymentRollout({
        edge,
        namespace: 'bench',
        name,
        replicas,
        from: images('1.0'),
        to: images('1.1'),
        startAt,
        observeMs: tick,
        stepMs,
      })
      tracks.push({ edge, frames })
    })
  }
  return { edges: edges.map((name) => ({ name })), tracks }
}
