/**
 * The wait: read the fleet, update each edge × target cell, log what changed, decide; else
 * sleep, backing off from a few seconds to half a minute, until `timeout-seconds` is spent.
 * The graph has no watch (docs/hub-facts.md, "What the graph knows"), so polling is the only way; the
 * clock and the sleep are injected, so tests and the benchmark run it on fake time.
 * Each edge × target cell latches once current: a later brief dip (a pod restarting on one edge
 * of a hundred) does not undo it, a failure does (./latch.ts). A target latched on every watched
 * edge is not read again while others lag, but everything is read once more before passing.
 */
import { clockTime } from './clock-time.js'
import { collectGarbage } from './heap.js'
import { judgeCell, type CellRules } from './latch.js'
import type { Cell, CellState, TrackedCell } from './cell.js'
import { worse, type Snapshot } from './observe.js'
import type { RolloutTarget } from './targets.js'
import { ABSENT_GRACE_MS, decide, fastFailure, type Decision } from './verdict.js'
import type { Quorum } from './inputs.js'
import { renderError } from '../../errors.js'
import { BudgetSpentError } from '../../hub/transport-errors.js'
import type { Clock } from '../../http/clock.js'

const FIRST_POLL_MS = 2_000
const MAX_POLL_MS = 30_000
const BACKOFF = 1.5
/**
 * The last look is taken this long before the deadline: the deadline is the step's one budget,
 * and a request cannot start where it ends, so a look timed for the deadline would never be sent.
 */
const FINAL_LOOK_MS = 1_000
/** A look of more requests than this read enough rows to be worth a collection after it (./heap.ts). */
const LARGE_LOOK_REQUESTS = 20
/** Change lines logged per poll; the rest are counted (the result file keeps every one). */
const MAX_LOG_LINES_PER_POLL = 40
/**
 * Observations kept for the result file: the first look of a large gate changes every cell, and
 * 50,000 kept (then written out) took tens of MB at 1,000 targets × 50 edges; the rest are counted.
 */
const MAX_OBSERVATIONS = 10_000

export type { TrackedCell } from './cell.js'

export interface EdgeTrack {
  edge: string
  /** Per target, in the targets' order; undefined where the target names another edge. */
  cells: (TrackedCell | undefined)[]
  state: CellState
  /** When its state or a reason last changed during this step (ms since the epoch). */
  changedAt: number | undefined
  /** Engaged at some poll of this step. */
  engagedOnce: boolean
  /** When every target on it was latched current (ms since the epoch); undefined while not. */
  latchedAt?: number | undefined
}

interface Observation {
  at: number
  edge: string
  /** The target's label; absent for a change of the edge's own state. */
  target?: string | undefined
  state: CellState
  reason: string
}

export interface RolloutOutcome extends Decision {
  edges: EdgeTrack[]
  complete: boolean
  polls: number
  requests: number
  startedAt: number
  endedAt: number
  warnings: string[]
  observations: Observation[]
  observationsDropped: number
}

export interface PollOptions {
  targets: readonly RolloutTarget[]
  /** The edges the user named; undefined: every engaged edge, as they come. */
  named: readonly string[] | undefined
  quorum: Quorum
  /** When the wait ends (ms since epoch, on `clock`): the step's one budget, less what the step keeps back. */
  deadline: number
  /** One look at the fleet; `pick` chooses, from the engaged edges, the targets to read. */
  read: (signal: AbortSignal, pick: (engaged: readonly string[]) => readonly number[]) => Promise<Snapshot>
  clock: Clock
  signal: AbortSignal
  log: (line: string) => void
  /** The rules the step adds: evidence of the release for `targets` targets (omitted: none needed). */
  rules?: CellRules | undefined
  /** How long a target may be on no engaged edge before the gate calls it a wrong name. */
  absentGraceMs?: number | undefined
  /** After each look, the edges as they now stand (`deployment-environment` writes their statuses). */
  onLook?: ((edges: readonly EdgeTrack[]) => Promise<void>) | undefined
}

export async function pollRollout(options: PollOptions): Promise<RolloutOutcome> {
  const { clock, signal } = options
  const startedAt = clock.now()
  const { deadline } = options
  const tracks = new Map<string, EdgeTrack>()
  const outcome: RolloutOutcome = {
    state: 'timeout',
    message: '',
    tolerated: [],
    edges: [],
    complete: false,
    polls: 0,
    requests: 0,
    startedAt,
    endedAt: startedAt,
    warnings: [],
    observations: [],
    observationsDropped: 0,
  }
  let pause = FIRST_POLL_MS
  const seen = new Set<number>()
  const everything = options.targets.map((_, i) => i)
  let confirming = false
  let decided: Decision | undefined
  for (;;) {
    let snapshot: Snapshot
    try {
      snapshot = await options.read(signal, (engaged) =>
        confirming ? everything : pending(tracks, watchedEdges(tracks, engaged, options), options.targets),
      )
    } catch (error) {
      // The step's one time budget (timeout-seconds) ran out: before this read was sent, the
      // last look stands; inside it (a graph that hangs or drips), that is what the step says.
      // A pass waits for its confirming read, so a budget spent before that read is no pass.
      if (!(error instanceof BudgetSpentError)) throw error
      const last = error.cause === undefined && !confirming ? decided : undefined
      return { ...outcome, ...(last ?? { state: 'timeout', message: renderError(error), tolerated: [] }) }
    }
    const now = clock.now()
    outcome.polls++
    outcome.requests += snapshot.requests
    outcome.complete = snapshot.complete
    for (const warning of snapshot.warnings) if (!outcome.warnings.includes(warning)) outcome.warnings.push(warning)
    const changes = update(tracks, snapshot, options, now)
    record(outcome, changes, options.log)
    // a large look leaves its rows as garbage: collect it before the next look adds more
    if (snapshot.requests > LARGE_LOOK_REQUESTS) collectGarbage()
    outcome.edges = [...tracks.values()]
    await options.onLook?.(outcome.edges)
    for (const i of snapshot.read)
      if (outcome.edges.some((t) => t.cells[i] && !t.cells[i].absent && t.cells[i].state !== 'not-reporting'))
        seen.add(i)
    const decision =
      fastFailure({
        edges: outcome.edges,
        snapshot,
        named: options.named,
        targets: options.targets,
        seen,
        first: outcome.polls === 1,
        elapsedMs: now - startedAt,
        graceMs: options.absentGraceMs ?? ABSENT_GRACE_MS,
      }) ?? decide(outcome.edges, options.quorum, snapshot.complete)
    outcome.endedAt = now
    // Latched cells were not all read at this look: read everything once more before passing.
    if (decision.state === 'current' && everything.some((i) => !snapshot.read.has(i)) && !confirming) {
      confirming = true
      options.log('Every target is latched current: reading everything once more before passing.')
      continue
    }
    confirming = false
    decided = decision
    if (decision.state !== 'timeout') return { ...outcome, ...decision }
    const remaining = deadline - now
    if (remaining <= FINAL_LOOK_MS) return { ...outcome, ...decision }
    await clock.sleep(Math.min(pause, remaining - FINAL_LOOK_MS), signal)
    if (signal.aborted) throw signal.reason
    pause = Math.min(MAX_POLL_MS, pause * BACKOFF)
  }
}

/** The named edges, else every engaged or earlier seen edge a target applies to. */
function watchedEdges(
  tracks: ReadonlyMap<string, EdgeTrack>,
  engaged: readonly string[],
  options: Pick<PollOptions, 'named' | 'targets'>,
): readonly string[] {
  return options.named ?? defaultEdges(tracks, engaged, options.targets)
}

/** Targets not yet current on every watched edge they apply to: what this look must read. */
function pending(
  tracks: ReadonlyMap<string, EdgeTrack>,
  watched: readonly string[],
  targets: readonly RolloutTarget[],
): number[] {
  return targets.flatMap((target, i) => {
    const settled = watched.every(
      (edge) =>
        (target.target.edge !== undefined && target.target.edge !== edge) ||
        tracks.get(edge)?.cells[i]?.state === 'current',
    )
    return settled ? [] : [i]
  })
}

/** Applies one snapshot to every watched edge; returns what changed. */
function update(tracks: Map<string, EdgeTrack>, snapshot: Snapshot, options: PollOptions, now: number): Observation[] {
  const watched = watchedEdges(tracks, snapshot.engaged, options)
  const changes: Observation[] = []
  for (const edge of watched) {
    let track = tracks.get(edge)
    if (!track)
      tracks.set(edge, (track = { edge, cells: [], state: 'not-reporting', changedAt: undefined, engagedOnce: false }))
    track.engagedOnce ||= snapshot.engaged.includes(edge)
    const before = track.state
    track.cells = options.targets.map((target, i) => {
      if (target.target.edge !== undefined && target.target.edge !== edge) return undefined
      const previous = track.cells[i]
      const cell = carryOver(
        judgeCell({ index: i, edge, target, snapshot, previous, now, rules: options.rules }),
        previous,
        now,
      )
      if (!previous || previous.state !== cell.state || previous.reason !== cell.reason) {
        changes.push({ at: now, edge, target: target.label, state: cell.state, reason: cell.reason })
        track.changedAt = now
      }
      return cell
    })
    track.state = edgeState(track.cells)
    track.latchedAt = track.state === 'current' ? (track.latchedAt ?? now) : undefined
    if (track.state !== before || track.changedAt === undefined) {
      track.changedAt = now
      changes.push({ at: now, edge, state: track.state, reason: edgeReason(track) })
    }
  }
  return changes
}

/**
 * Every engaged edge, every edge seen before in this step (a vanished one is reported, not
 * dropped), and every edge a target names; an edge no target applies to is not watched.
 */
function defaultEdges(
  tracks: ReadonlyMap<string, EdgeTrack>,
  engaged: readonly string[],
  targets: readonly RolloutTarget[],
): string[] {
  const pinned = targets.map((t) => t.target.edge)
  const everywhere = pinned.includes(undefined)
  const candidates = new Set([
    ...tracks.keys(),
    ...engaged,
    ...pinned.filter((edge): edge is string => edge !== undefined),
  ])
  return [...candidates].filter((edge) => everywhere || pinned.includes(edge)).sort()
}

/** A cell that stops reporting keeps the time it stopped and what it last said (a vanished edge, docs/hub-facts.md, "What the graph knows"). */
function carryOver(cell: TrackedCell, previous: TrackedCell | undefined, now: number): TrackedCell {
  if (cell.state !== 'not-reporting' || !previous) return cell
  if (previous.state === 'not-reporting')
    return previous.last ? { ...previous, reason: goneReason(previous.since ?? now, previous.last, cell) } : cell
  return {
    state: 'not-reporting',
    reason: goneReason(now, previous, cell),
    since: now,
    last: { state: previous.state, reason: previous.reason },
    binding: previous.binding,
  }
}

function goneReason(since: number, last: Cell, now: Cell): string {
  return `not reporting since ${clockTime(since)} (${now.reason}; last ${STATE_WORDS[last.state]}: ${last.reason})`
}

export const STATE_WORDS: Record<CellState, string> = {
  current: 'current',
  'in-progress': 'in progress',
  failed: 'failed',
  'not-reporting': 'not reporting',
}

/** An edge is as bad as its worst target, but a reporting edge in progress is not "not reporting". */
function edgeState(cells: readonly (Cell | undefined)[]): CellState {
  const states = new Set(cells.filter((c): c is Cell => c !== undefined).map((c) => c.state))
  if (states.has('failed')) return 'failed'
  if (states.has('in-progress')) return 'in-progress'
  if (states.has('not-reporting')) return 'not-reporting'
  return states.size > 0 ? 'current' : 'not-reporting'
}

function edgeReason(track: EdgeTrack): string {
  const cells = track.cells.filter((c): c is TrackedCell => c !== undefined)
  const counted = cells.filter((c) => c.state === track.state).length
  const worst = [...cells].sort((a, b) => worse(a.state, b.state))[0]
  if (cells.length === 0) return 'no target for this edge'
  if (track.state === 'current') return `${cells.length} of ${cells.length} target(s) current`
  return `${counted} of ${cells.length} target(s) ${STATE_WORDS[track.state]}${worst ? `; e.g. ${worst.reason}` : ''}`
}

function record(outcome: RolloutOutcome, changes: readonly Observation[], log: (line: string) => void): void {
  let logged = 0
  for (const change of changes) {
    if (outcome.observations.length < MAX_OBSERVATIONS) outcome.observations.push(change)
    else outcome.observationsDropped++
    if (logged++ < MAX_LOG_LINES_PER_POLL) log(changeLine(change))
  }
  if (logged > MAX_LOG_LINES_PER_POLL)
    log(`… and ${logged - MAX_LOG_LINES_PER_POLL} more change(s) at this poll (all in the result file).`)
}

function changeLine(change: Observation): string {
  const subject = change.target ? `${change.edge} · ${change.target}` : `Edge ${change.edge}`
  return `${subject}: ${STATE_WORDS[change.state]} — ${change.reason}`
}
