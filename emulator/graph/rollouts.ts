// A scripted fleet whose objects change over time per edge (issue 20, a fleet rollout gate),
// following docs/hub-facts.md, "What the graph knows": the whole object is stored, with no per-object freshness; a
// disconnected edge's rows look live for about 90 s, then its objects vanish from query results
// and the edge leaves GET /api/edges; custom resources are not synced; clients poll.
//
// Time is ms after the scenario's instant 0, read from an injectable clock: the fleet's own
// (moved by `advance(ms)`) unless `clock` is given. Each read of the graph provider calls
// `fleet.sync()`, which shows each track's keyframe for that instant.
import type { Fleet, FleetObject, FleetOptions } from './fleet.ts'
import { createFleet } from './fleet.ts'
import { largeEdgeName } from './large-fleet.ts'
import { namespace, type PodImages } from './rollout-objects.ts'
import type { DeploymentPlan, Keyframe } from './rollout-workloads.ts'
import { deploymentRollout, statefulSetRollout } from './rollout-workloads.ts'
import { jobRollout } from './rollout-jobs.ts'
import { APPLIED_EDGES, appliedTracks } from './rollout-applied-fleet.ts'
import { TIME_SCENARIOS, timeTimeline, type TimeScenario } from './rollout-fleet-time.ts'

/** The hub marks an edge disconnected after about 90 s without a heartbeat (docs/hub-facts.md, "What the graph knows"). */
export const DISCONNECT_GRACE_MS = 90_000

/** One thing on one edge over time: nothing before its first keyframe. */
type Track = { edge: string; frames: Keyframe[] }
/** An edge is engaged from instant 0; one that disconnects sends nothing from `disconnectAt` on. */
type EdgePlan = { name: string; disconnectAt?: number }
type Timeline = { edges: EdgePlan[]; tracks: Track[] }

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

type LargeRolloutOptions = {
  /** Deployments `bench/app-NNN` on every edge; default 100. */
  targets?: number
  /** Edges `edge-00`…; default 20. */
  edges?: number
  /** Every rollout is complete by then (ms); default 120 000. */
  durationMs?: number
  /** Default 2. */
  replicas?: number
}

export type RolloutFleetOptions = FleetOptions & {
  scenario: RolloutScenario
  /** ms after instant 0; without it the fleet keeps its own clock, moved by `advance`. */
  clock?: () => number
  large?: LargeRolloutOptions
}

export type RolloutFleet = Fleet & {
  scenario: RolloutScenario
  timeline: Timeline
  /** The instant of the last change (a keyframe or an edge leaving): nothing changes after it. */
  settledAt: number
  /** The clock's instant. */
  now(): number
  /** Moves the fleet's own clock to `ms` and shows that instant (throws with an injected clock). */
  advance(ms: number): void
  /** Shows the clock's instant; the graph provider calls it before each read. */
  sync(): void
}

/** A clock that reads wall time (or faked Date) from its creation on: for the standalone server. */
export function wallClock(): () => number {
  const start = Date.now()
  return () => Date.now() - start
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

function scenarioTimeline(scenario: RolloutScenario, large: LargeRolloutOptions): Timeline {
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

/** Index of the last keyframe at or before `t` (before `t` when `strict`); -1 when none. */
function frameAt(frames: readonly Keyframe[], t: number, strict: boolean): number {
  for (let i = frames.length - 1; i >= 0; i--) {
    const at = (frames[i] as Keyframe).at
    if (strict ? at < t : at <= t) return i
  }
  return -1
}

export function createRolloutFleet(opts: RolloutFleetOptions): RolloutFleet {
  const timeline = scenarioTimeline(opts.scenario, opts.large ?? {})
  const plans = new Map(timeline.edges.map((e) => [e.name, e]))
  let own = 0
  const clock = opts.clock ?? (() => own)
  const base = createFleet([], { ...opts, edges: timeline.edges.map((e) => e.name) })
  const shown: number[] = timeline.tracks.map(() => -2)
  const built: (FleetObject[] | undefined)[] = timeline.tracks.map(() => undefined)
  let engaged = ''
  let settledAt = 0
  for (const t of timeline.tracks) settledAt = Math.max(settledAt, ...t.frames.map((f) => f.at))
  for (const e of timeline.edges)
    if (e.disconnectAt !== undefined) settledAt = Math.max(settledAt, e.disconnectAt + DISCONNECT_GRACE_MS)

  const fleet: RolloutFleet = Object.assign(base, {
    scenario: opts.scenario,
    timeline,
    settledAt,
    now: clock,
    advance(ms: number): void {
      if (opts.clock)
        throw new Error(
          'advance() moves the rollout fleet’s own clock, but this fleet reads the injected `clock`: move that instead',
        )
      own = ms
      fleet.sync()
    },
    sync(): void {
      const t = clock()
      // Past the grace period the graph disengages the edge: it leaves /api/edges and its rows
      // lose the tenant label, so its objects vanish rather than come back marked stale.
      const live = (e: EdgePlan) => e.disconnectAt === undefined || t < e.disconnectAt + DISCONNECT_GRACE_MS
      const edges = timeline.edges.filter(live).map((e) => e.name)
      let changed = edges.join('\n') !== engaged
      timeline.tracks.forEach((track, i) => {
        const plan = plans.get(track.edge) as EdgePlan
        // A disconnected edge sends no more events: its rows keep the last state before it left.
        const idx = !live(plan)
          ? -1
          : plan.disconnectAt !== undefined && t >= plan.disconnectAt
            ? frameAt(track.frames, plan.disconnectAt, true)
            : frameAt(track.frames, t, false)
        if (idx === shown[i]) return
        shown[i] = idx
        built[i] = undefined
        changed = true
      })
      if (!changed) return
      engaged = edges.join('\n')
      fleet.edges = edges
      const objects: FleetObject[] = []
      timeline.tracks.forEach((track, i) => {
        const idx = shown[i] as number
        if (idx < 0) return
        objects.push(...(built[i] ??= (track.frames[idx] as Keyframe).objects()))
      })
      fleet.objects = objects
      fleet.version++
    },
  })
  fleet.sync()
  return fleet
}

/** Parses `rollout` / `rollout:<scenario>` (the standalone server's `--fleet`); undefined when not one. */
export function parseRolloutFleetArg(arg: string): RolloutScenario | undefined {
  const m = /^rollout(?::(.+))?$/.exec(arg)
  if (!m) return undefined
  const name = m[1] ?? 'converging'
  return (ROLLOUT_SCENARIOS as readonly string[]).includes(name) ? (name as RolloutScenario) : undefined
}
