// A scripted fleet whose objects change over time per edge (issue 20, a fleet rollout gate),
// following docs/hub-facts.md, "What the graph knows": the whole object is stored, with no per-object freshness; a
// disconnected edge's rows look live for about 90 s, then its objects vanish from query results
// and the edge leaves GET /api/edges; custom resources are not synced; clients poll.
//
// Time is ms after the scenario's instant 0, read from an injectable clock: the fleet's own
// (moved by `advance(ms)`) unless `clock` is given. Each read of the graph provider calls
// `fleet.sync()`, which shows each track's keyframe for that instant. The scenarios themselves
// are in rollout-scenarios.ts.
import type { Fleet, FleetObject, FleetOptions } from './fleet.ts'
import { createFleet } from './fleet.ts'
import type { Keyframe } from './rollout-workloads.ts'
import {
  ROLLOUT_SCENARIOS,
  scenarioTimeline,
  type EdgePlan,
  type LargeRolloutOptions,
  type RolloutScenario,
  type Timeline,
} from './rollout-scenarios.ts'

export { ROLLOUT_SCENARIOS, type RolloutScenario } from './rollout-scenarios.ts'

/** The hub marks an edge disconnected after about 90 s without a heartbeat (docs/hub-facts.md, "What the graph knows"). */
export const DISCONNECT_GRACE_MS = 90_000

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
