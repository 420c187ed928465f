/**
 * The wait loop: long-poll a run until it settles or the budget is spent, and return what
 * happened. One deadline for every request, one abortable loop; the hub holds each wait, so we
 * never sleep while it does, and sleep with backoff only where it answers early (pacing.ts). A
 * short outage is retried by the transport until the deadline. `run` enters it with the run it
 * started (start.ts), `wait` and `approve` with the run they read (attach.ts). Deciding pass or
 * fail is `runVerdict`'s job (verdict.ts), not this loop's.
 */
import type { AgentsClient, CancelAnswer } from '../../hub/agents.js'
import { ActionError, renderError } from '../../errors.js'
import { HubDeadlineError } from '../../hub/errors.js'
import { Budget } from '../../http/budget.js'
import type { Clock } from '../../http/clock.js'
import { canonicalPhase, isSettled, isTerminal } from '../../hub/schemas.js'
import type { CreateRunResponse, RunDetail } from '../../hub/schemas.js'
import type { RunSettings } from './run-inputs.js'
import type { RunOutcome, RunSeen, RunWaited } from './seen.js'
import { StepTracker, type NumberedStep } from './live-steps.js'
import type { FollowedRun } from './followed-run.js'
import { longestHoldSeconds, nextHoldMs, Pacer, PROGRESS_EVERY_MS } from './pacing.js'
import { HubError } from '../../hub/errors.js'

/** The loop's result: what was read of the run, and what the wait added (./seen.ts). */
export interface RunResult extends RunSeen, RunWaited {}

interface RunProgress {
  phase: string
  elapsedMs: number
  remainingMs: number
}

/** What the loop reports while it works; publish.ts (`runEventsToLog`) wires it to logs and outputs. */
export interface RunEvents {
  /** `idempotencyKey`: the key the run was started or found under, when one was sent. */
  created(created: CreateRunResponse, idempotencyKey?: string): void
  progress(progress: RunProgress): void
  awaitingApproval(detail: RunDetail): void
  info(message: string): void
  /** Steps the agent finished, each once, in order, as soon as a detail lists them (live steps). */
  steps?(found: readonly NumberedStep[]): void
}

export interface LoopDeps {
  client: Pick<AgentsClient, 'cancelRun' | 'getRun' | 'getAgent' | 'canReadAgents'>
  events: RunEvents
  /** The step's one time budget (main.ts): the start and the loop end where it ends, not a moment later. */
  budget?: Budget | undefined
  /** Without `budget` (tests, the bench): the clock of the budget begun when the step starts. */
  clock?: Clock | undefined
  /** How often progress is reported while waiting. */
  progressEveryMs?: number
  /** Jitter source of the pacing between early waits. */
  random?: () => number
  /** Longest hold while the run is going, with live steps (see `longestHoldSeconds`). */
  stepsWithinSeconds?: number
}

/** The run the loop is given: followed from its first detail, under one budget begun at `started`. */
export interface RunInHand {
  followed: FollowedRun
  /** The run's detail as last read (with the start's answer, or the attach's read), if any. */
  detail: RunDetail | undefined
  /** Canonical phase of that read. */
  phase: string
  idempotencyKey: string | undefined
  /** The step's one budget: one deadline, on one clock, for the start and every wait. */
  budget: Budget
}

/** The step's budget, or (tests, the bench) one of `timeout-seconds` begun now on `deps.clock`. */
export function stepBudget(deps: Pick<LoopDeps, 'budget' | 'clock'>, timeoutSeconds: number): Budget {
  return deps.budget ?? new Budget(timeoutSeconds, deps.clock)
}

type LoopSettings = Pick<
  RunSettings,
  | 'agent'
  | 'sessionId'
  | 'timeoutSeconds'
  | 'pendingTimeoutSeconds'
  | 'onTimeout'
  | 'onApproval'
  | 'onCancel'
  | 'liveSteps'
>

export async function waitForRun(
  run: RunInHand,
  settings: LoopSettings,
  deps: LoopDeps,
  signal: AbortSignal,
): Promise<RunResult> {
  const { followed, budget } = run
  const { now, sleep } = budget.clock
  // None only with `timeout-seconds: 0`, where the loop returns before it would wait.
  const deadline = budget.deadline ?? budget.startedAt
  const pendingCeiling = budget.startedAt + settings.pendingTimeoutSeconds * 1000
  /** What the hub last said of the run; the only state the loop changes besides the pacing. */
  const seen = { detail: run.detail, phase: run.phase }

  const result = (outcome: RunOutcome, extra: Partial<RunResult> = {}): RunResult => ({
    agent: settings.agent,
    runId: followed.runId,
    reused: followed.reused,
    phase: seen.phase,
    settled: isSettled(seen.phase),
    outcome,
    detail: seen.detail,
    waitedMs: budget.spent(),
    budget: budget.named,
    cancel: undefined,
    idempotencyKey: run.idempotencyKey,
    sessionId: settings.sessionId,
    ...extra,
  })
  const cancelQuietly = async (): Promise<Pick<RunResult, 'cancel' | 'afterCancel'>> => {
    let cancel: CancelAnswer
    try {
      cancel = await deps.client.cancelRun(followed.runId, 2_000)
    } catch (error) {
      deps.events.info(
        `Could not cancel run ${followed.runId}: ${error instanceof ActionError ? renderError(error as ActionError) : error instanceof Error ? error.message : String(error)}`,
      )
      return { cancel: 'failed' }
    }
    if (cancel === 'already-settled') return { cancel }
    // The answer does not say how the run ends: read it back (after a job cancel, the job's own
    // signal is spent, so the read-back has its own).
    const read = await readBackAfterCancel(deps.client, followed.runId, sleep, new AbortController().signal)
    return { cancel, afterCancel: read && canonicalPhase(read.phase) }
  }
  const timedOut = async (): Promise<RunResult> =>
    result('timed-out', settings.onTimeout === 'cancel' ? await cancelQuietly() : {})

  if (settings.timeoutSeconds === 0 && !isTerminal(seen.phase)) return result('started')

  const steps = new StepTracker()
  const reportSteps = (from: RunDetail | undefined) => {
    // With live steps off the log shows none of them; the summary and result file list them all.
    if (!settings.liveSteps) return
    const found = steps.takeUnreported(from)
    if (found.length > 0) deps.events.steps?.(found)
  }
  const ticker = setInterval(
    () =>
      deps.events.progress({
        phase: seen.phase,
        elapsedMs: budget.spent(),
        remainingMs: Math.max(0, deadline - now()),
      }),
    deps.progressEveryMs ?? PROGRESS_EVERY_MS,
  )
  ticker.unref()
  const pacer = new Pacer(deps.random)
  const longestHold = longestHoldSeconds(settings.liveSteps, deps.stepsWithinSeconds)
  const announcedApprovals = new Set<string>()
  try {
    reportSteps(seen.detail)
    for (;;) {
      const { phase, detail } = seen
      if (isTerminal(phase)) return result(terminalOutcome(phase))
      if (phase === 'PendingApproval') {
        const key = detail?.pending?.inboxID ?? `${detail?.pending?.tool ?? ''}`
        if (!announcedApprovals.has(key)) {
          announcedApprovals.add(key)
          if (detail) deps.events.awaitingApproval(detail)
        }
        if (settings.onApproval !== 'wait') return result('awaiting-approval')
      }
      const remaining = deadline - now()
      if (remaining <= 0) return await timedOut()
      if (phase === 'Pending' && now() >= pendingCeiling) {
        return result('pending-too-long', {
          pendingDiagnosis: await diagnosePending(deps.client, settings.agent, signal, deadline),
        })
      }

      const pause = pacer.pauseMs(phase)
      if (pause > 0) {
        await sleep(Math.min(pause, remaining), signal)
        if (signal.aborted) throw signal.reason
      }
      const holdMs = nextHoldMs(longestHold, deadline - now(), phase === 'Pending' ? pendingCeiling - now() : undefined)
      if (holdMs <= 0) continue
      const asked = now()
      seen.detail = await followed.wait(holdMs / 1000, signal, deadline)
      seen.phase = canonicalPhase(seen.detail.phase)
      reportSteps(seen.detail)
      pacer.waited(now() - asked, holdMs, isSettled(seen.phase))
    }
  } catch (error) {
    // The budget ran out inside a request (a slow or dripping hub, an outage): on-timeout decides.
    if (error instanceof HubDeadlineError && !signal.aborted) return await timedOut()
    if (!signal.aborted) throw error
    return result('interrupted', settings.onCancel === 'cancel' ? await cancelQuietly() : {})
  } finally {
    clearInterval(ticker)
  }
}

/** Pauses between reads of a run just cancelled: about 4 s in all, then what was read is reported. */
const CANCEL_READ_BACK_PAUSES_MS = [250, 500, 1_000, 2_000]
/** Seconds a cancelled run is read back for, as the messages say. */
export const CANCEL_READ_BACK_SECONDS = 4
const CANCEL_READ_TIMEOUT_MS = 5_000

/**
 * The run as read back after a cancel, until it reads terminal or the pauses are spent; the last
 * detail read, or undefined when no read succeeded. A cancel's answer never says how the run
 * ends: on a Postgres-backed hub a cut run stays Running (docs/hub-facts.md, "Cancelling a run").
 */
export async function readBackAfterCancel(
  client: Pick<AgentsClient, 'getRun'>,
  runId: string,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  signal: AbortSignal,
): Promise<RunDetail | undefined> {
  let detail: RunDetail | undefined
  for (const pause of [0, ...CANCEL_READ_BACK_PAUSES_MS]) {
    if (pause > 0) await sleep(pause, signal)
    if (signal.aborted) return detail
    try {
      // bounded by its own pauses and per-read ceiling, since the cancel may be the budget's end
      detail = await client.getRun(runId, signal, CANCEL_READ_TIMEOUT_MS, true)
    } catch (error) {
      if (error instanceof HubError || signal.aborted) return detail
      throw error
    }
    if (isTerminal(canonicalPhase(detail.phase))) return detail
  }
  return detail
}

function terminalOutcome(phase: string): RunOutcome {
  if (phase === 'Succeeded') return 'succeeded'
  if (phase === 'Aborted') return 'aborted'
  return 'failed'
}

/** Why a run may sit in Pending, from the agent's status; undefined when the hub cannot tell. */
async function diagnosePending(
  client: Pick<AgentsClient, 'getAgent' | 'canReadAgents'>,
  agent: string,
  signal: AbortSignal,
  deadline: number,
): Promise<string | undefined> {
  if (!client.canReadAgents) return undefined
  try {
    const status = (await client.getAgent(agent, signal, deadline)).status
    const phase = status?.phase
    if (!phase) return undefined
    const reason = status.suspendedReason?.trim()
    if (phase.toLowerCase() === 'suspended')
      return `agent "${agent}" is Suspended${reason ? ` (${reason.slice(0, 500)})` : ''}`
    return `agent "${agent}" is ${phase}`
  } catch (error) {
    if (error instanceof HubError) return undefined
    throw error
  }
}
