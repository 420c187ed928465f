/**
 * How the wait loop paces its requests: how long each wait is held, how long to pause before a
 * wait when the hub answers early, and how often progress is reported. The one place that decides
 * the hold; dry-run asks it too, so the wait it shows is the one the loop sends.
 */
import { HOLD_SECONDS } from '../../hub/agents.js'
import { cameBackEarly, earlyWaitPause } from '../../http/retry.js'

/** A wait is held at most this long, so a finished step reaches the log within it (issue 10: ≤ 10 s). */
const LIVE_STEPS_SECONDS = 10

/** Pauses between reads at the approval gate; none longer than the live-steps delay. */
const APPROVAL_BACKOFF_MS = [2_000, 4_000, 8_000, 10_000]

/** How often progress is reported while waiting, unless the caller says otherwise. */
export const PROGRESS_EVERY_MS = 15_000

/**
 * The longest hold of one wait. Live steps: LIVE_STEPS_SECONDS (or `stepsWithinSeconds`), 6
 * requests a minute per waiting job, since only an expired /wait or the settled answer carries new
 * steps. Off: HOLD_SECONDS (under the 60 s idle cut of common proxies), about 1.2 a minute, for
 * many jobs waiting on one hub. Either way a wait returns as soon as the run settles.
 */
export function longestHoldSeconds(liveSteps: boolean, stepsWithinSeconds?: number): number {
  return liveSteps ? Math.min(HOLD_SECONDS, stepsWithinSeconds ?? LIVE_STEPS_SECONDS) : HOLD_SECONDS
}

/**
 * The hold of the next wait in ms: the longest hold, cut to what is left of the budget and, while
 * the run is Pending, to what is left before the Pending ceiling. Zero or less: no time to wait.
 */
export function nextHoldMs(longestSeconds: number, budgetLeftMs: number, pendingLeftMs?: number): number {
  const hold = Math.min(budgetLeftMs, longestSeconds * 1000)
  return pendingLeftMs === undefined ? hold : Math.min(hold, pendingLeftMs)
}

/**
 * The first wait's hold in seconds, as the loop asks it with the whole budget left; with
 * `pendingTimeoutSeconds`, for a run that is Pending (one just created is).
 */
export function firstHoldSeconds(settings: {
  liveSteps: boolean
  timeoutSeconds: number
  pendingTimeoutSeconds?: number
}): number {
  const pendingLeftMs = settings.pendingTimeoutSeconds === undefined ? undefined : settings.pendingTimeoutSeconds * 1000
  return nextHoldMs(longestHoldSeconds(settings.liveSteps), settings.timeoutSeconds * 1000, pendingLeftMs) / 1000
}

/**
 * The pauses between waits. The hub answers at once while a human decides, and a broken or
 * hostile hub may answer every wait at once: back off instead of spinning.
 */
export class Pacer {
  private readonly random: (() => number) | undefined
  private approvalPolls = 0
  /** Waits in a row that came back before their hold without settling. */
  private earlyWaits = 0
  private lastWaitMs = 0

  constructor(random?: () => number) {
    this.random = random
  }

  /** The pause before the next wait of a run in `phase`; the gate's backoff starts again once the run leaves it. */
  pauseMs(phase: string): number {
    if (phase === 'PendingApproval')
      return APPROVAL_BACKOFF_MS[Math.min(this.approvalPolls++, APPROVAL_BACKOFF_MS.length - 1)] ?? 15_000
    this.approvalPolls = 0
    return earlyWaitPause(this.earlyWaits, this.lastWaitMs, this.random)
  }

  /** A wait that asked for `holdMs` came back after `elapsedMs`, with the run `settled` or not. */
  waited(elapsedMs: number, holdMs: number, settled: boolean): void {
    this.lastWaitMs = elapsedMs
    this.earlyWaits = !settled && cameBackEarly(elapsedMs, Math.ceil(holdMs / 1000) * 1000) ? this.earlyWaits + 1 : 0
  }
}
