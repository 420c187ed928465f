/**
 * `command: run` — start a run, long-poll it until it settles or the budget is spent, and
 * return what happened. One deadline for every request, one abortable loop; the hub holds
 * each wait, so we never sleep while it does, and sleep with backoff only where it answers
 * early (the approval gate, or a hub that does not hold). A short outage is retried by the
 * transport until the deadline. Deciding pass or fail is `runVerdict`'s job, not this loop's.
 */
import { HOLD_SECONDS, type AgentsClient } from '../../hub/agents.js'
import { ActionError, renderError } from '../../errors.js'
import { abortableSleep } from '../../hub/clock.js'
import { HubDeadlineError } from '../../hub/errors.js'
import { canonicalPhase, isSettled, isTerminal } from '../../hub/phases.js'
import { cameBackEarly, earlyWaitPause } from '../../hub/retry.js'
import type { CreateRunResponse, RunDetail } from '../../hub/schemas.js'
import type { Verdict } from '../../runner/publish.js'
import type { RunSettings } from '../../settings/settings.js'
import { holdSecondsFor, StepTracker, type NumberedStep } from './live-steps.js'
import { checkWorkspace, diagnosePending, type HubScope } from './preflight.js'
import { freshKeyForRerun, rerunNotice } from './rerun.js'
import { FollowedRun } from './followed-run.js'

/** @internal */
export type RunOutcome =
  | 'succeeded'
  | 'failed'
  | 'aborted'
  /** Stopped at the approval gate because `on-approval` is `fail` or `succeed`. */
  | 'awaiting-approval'
  | 'timed-out'
  | 'pending-too-long'
  | 'interrupted'
  /** `timeout-seconds: 0`: started (or attached) and not waited for. */
  | 'started'

export interface RunResult {
  agent: string
  runId: string
  reused: boolean
  /** Canonical spelling (PascalCase) whatever case the hub used. */
  phase: string
  settled: boolean
  outcome: RunOutcome
  /** The last run detail the hub sent, if any. */
  detail: RunDetail | undefined
  waitedMs: number
  cancel: 'cancelling' | 'already-settled' | 'failed' | undefined
  /** Why the agent may be stuck in Pending, when we could tell (agent suspended). */
  pendingDiagnosis?: string | undefined
  idempotencyKey: string | undefined
  sessionId: string
}

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

export interface RunDeps {
  client: AgentsClient
  events: RunEvents
  now?: () => number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** How often progress is reported while waiting. */
  progressEveryMs?: number
  /** Jitter source of the pacing between early waits. */
  random?: () => number
  /**
   * Longest hold while the run is going, with live steps: a finished step shows in the log at most
   * this long after the hub stored it, since only an expired /wait or the settled answer carries
   * new steps. Without live steps holds are HOLD_SECONDS.
   */
  stepsWithinSeconds?: number
  /** The org and workspace asked for; when given on the user route, whoami is checked first. */
  scope?: HubScope
}

/** Pauses between reads at the approval gate; none longer than the live-steps delay. */
const APPROVAL_BACKOFF_MS = [2_000, 4_000, 8_000, 10_000]

export async function runAgent(settings: RunSettings, deps: RunDeps, signal: AbortSignal): Promise<RunResult> {
  const now = deps.now ?? Date.now
  const sleep = deps.sleep ?? abortableSleep
  const started = now()
  const deadline = started + settings.timeoutSeconds * 1000
  const pendingCeiling = started + settings.pendingTimeoutSeconds * 1000

  // `timeout-seconds: 0` only starts the run: the start keeps its own per-request ceiling.
  const budget = settings.timeoutSeconds > 0 ? deadline : undefined
  // One whoami before anything is created: it costs a request only on the user route.
  if (deps.scope && deps.client.canReadAgents) await checkWorkspace(deps.client, deps.scope, signal, budget, (line) => deps.events.info(line))
  let start = {
    agent: settings.agent,
    task: settings.task,
    sessionId: settings.sessionId,
    idempotencyKey: settings.idempotencyKey,
    signal,
    deadline: budget,
  }
  let created = await deps.client.startRun(start)
  let idempotencyKey = settings.idempotencyKey
  const freshKey = freshKeyForRerun(settings, created)
  if (freshKey && idempotencyKey) {
    deps.events.info(rerunNotice(created, idempotencyKey, freshKey, settings.runAttempt ?? 1))
    start = { ...start, idempotencyKey: freshKey }
    idempotencyKey = freshKey
    created = await deps.client.startRun(start)
  }
  deps.events.created(created, idempotencyKey)
  // Follows the hub's stored run when this one lost the same-key race (followed-run.ts).
  const followed = FollowedRun.started(deps.client, start, created, (line) => deps.events.info(line))

  const steps = new StepTracker()
  const reportSteps = (from: RunDetail | undefined) => {
    // With live steps off the log shows none of them; the summary and result file list them all.
    if (!settings.liveSteps) return
    const found = steps.takeUnreported(from)
    if (found.length > 0) deps.events.steps?.(found)
  }
  let detail = created.run
  let phase = canonicalPhase(detail?.phase ?? created.phase)
  const result = (outcome: RunOutcome, extra: Partial<RunResult> = {}): RunResult => ({
    agent: settings.agent,
    runId: followed.runId,
    reused: followed.reused,
    phase,
    settled: isSettled(phase),
    outcome,
    detail,
    waitedMs: now() - started,
    cancel: undefined,
    idempotencyKey,
    sessionId: settings.sessionId,
    ...extra,
  })

  if (settings.timeoutSeconds === 0 && !isTerminal(phase)) return result('started')

  const ticker = setInterval(
    () => deps.events.progress({ phase, elapsedMs: now() - started, remainingMs: Math.max(0, deadline - now()) }),
    deps.progressEveryMs ?? 15_000,
  )
  ticker.unref()
  let approvalPolls = 0
  /** Waits in a row that came back before their hold without settling. */
  let earlyWaits = 0
  let lastWaitMs = 0
  const announcedApprovals = new Set<string>()
  try {
    reportSteps(detail)
    for (;;) {
      if (isTerminal(phase)) return result(terminalOutcome(phase))
      if (phase === 'PendingApproval') {
        const key = detail?.pending?.inboxID ?? `${detail?.pending?.tool ?? ''}`
        if (!announcedApprovals.has(key)) {
          announcedApprovals.add(key)
          if (detail) deps.events.awaitingApproval(detail)
        }
        if (settings.onApproval !== 'wait') return result('awaiting-approval')
      } else {
        approvalPolls = 0
      }
      const remaining = deadline - now()
      if (remaining <= 0) return await timedOut()
      if (phase === 'Pending' && now() >= pendingCeiling) {
        return result('pending-too-long', { pendingDiagnosis: await diagnosePending(deps.client, settings.agent, signal, deadline) })
      }

      // The hub answers at once while a human decides, and a broken or hostile hub may
      // answer every wait at once: back off instead of spinning.
      const pause =
        phase === 'PendingApproval'
          ? (APPROVAL_BACKOFF_MS[Math.min(approvalPolls++, APPROVAL_BACKOFF_MS.length - 1)] ?? 15_000)
          : earlyWaitPause(earlyWaits, lastWaitMs, deps.random)
      if (pause > 0) {
        await sleep(Math.min(pause, remaining), signal)
        if (signal.aborted) throw signal.reason
      }
      // With live steps, holds end within LIVE_STEPS_SECONDS so each finished step reaches the log
      // soon after the hub stores it; without, they last HOLD_SECONDS, the idle cut of common proxies.
      const holdSeconds = settings.liveSteps ? Math.min(HOLD_SECONDS, deps.stepsWithinSeconds ?? holdSecondsFor(true)) : holdSecondsFor(false)
      let holdMs = Math.min(deadline - now(), holdSeconds * 1000)
      if (phase === 'Pending') holdMs = Math.min(holdMs, pendingCeiling - now())
      if (holdMs <= 0) continue
      const asked = now()
      detail = await followed.wait(holdMs / 1000, signal, deadline)
      phase = canonicalPhase(detail.phase)
      reportSteps(detail)
      lastWaitMs = now() - asked
      earlyWaits = !isSettled(phase) && cameBackEarly(lastWaitMs, Math.ceil(holdMs / 1000) * 1000) ? earlyWaits + 1 : 0
    }
  } catch (error) {
    // The budget ran out inside a request (a slow or dripping hub, an outage): on-timeout decides.
    if (error instanceof HubDeadlineError && !signal.aborted) return await timedOut()
    if (!signal.aborted) throw error
    const cancel = settings.onCancel === 'cancel' ? await cancelQuietly() : undefined
    return result('interrupted', { cancel })
  } finally {
    clearInterval(ticker)
  }

  async function timedOut(): Promise<RunResult> {
    const cancel = settings.onTimeout === 'cancel' ? await cancelQuietly() : undefined
    return result('timed-out', { cancel })
  }

  async function cancelQuietly(): Promise<RunResult['cancel']> {
    try {
      return await deps.client.cancelRun(followed.runId, 2_000)
    } catch (error) {
      deps.events.info(
        `Could not cancel run ${followed.runId}: ${error instanceof ActionError ? renderError(error as ActionError) : error instanceof Error ? error.message : String(error)}`,
      )
      return 'failed'
    }
  }
}

function terminalOutcome(phase: string): RunOutcome {
  if (phase === 'Succeeded') return 'succeeded'
  if (phase === 'Aborted') return 'aborted'
  return 'failed'
}

/** Pass, warn or fail, and the one sentence that says why. */
export function runVerdict(result: RunResult, settings: RunSettings): Verdict {
  const run = `Run ${result.runId} of agent "${result.agent}"`
  const onHub = 'It continues on the hub; find it by this run id.'
  const hubMessage = result.detail?.message ? `: ${result.detail.message}` : ''
  switch (result.outcome) {
    case 'succeeded':
      return { status: 'pass', message: `${run} succeeded.` }
    case 'failed':
      return { status: 'fail', message: `${run} failed${hubMessage || ' (the hub gave no message)'}` }
    case 'aborted':
      return { status: 'fail', message: `${run} was aborted${hubMessage || ' (time limit reached or cancelled)'}` }
    case 'awaiting-approval': {
      const tool = result.detail?.pending?.tool ? ` to call ${result.detail.pending.tool}` : ''
      return settings.onApproval === 'succeed'
        ? { status: 'pass', message: `${run} is waiting for approval${tool}; passing because on-approval is succeed. ${onHub}` }
        : {
            status: 'fail',
            message: `${run} is waiting for approval${tool}; failing because on-approval is fail. A human must approve or deny it on the hub (or with command: approve). ${onHub}`,
          }
    }
    case 'timed-out': {
      if (result.phase === 'PendingApproval') return approvalGateTimeout(result, settings, run, onHub)
      const after = `${run} did not settle within timeout-seconds (${settings.timeoutSeconds} s); last phase ${result.phase}.`
      if (settings.onTimeout === 'warn') return { status: 'warn', message: `${after} ${onHub}` }
      if (settings.onTimeout === 'cancel') {
        const cancelled =
          result.cancel === 'cancelling'
            ? 'It was cancelled on the hub.'
            : result.cancel === 'already-settled'
              ? 'It had already ended when the cancel arrived.'
              : `The cancel request failed, so it may continue on the hub; find it by this run id.`
        return { status: 'fail', message: `${after} ${cancelled}` }
      }
      return { status: 'fail', message: `${after} ${onHub} Raise timeout-seconds, or set on-timeout: warn.` }
    }
    case 'pending-too-long': {
      return {
        status: 'fail',
        message: `${run} stayed Pending for more than pending-timeout-seconds (${settings.pendingTimeoutSeconds} s) and never started.${pendingCauses(result.pendingDiagnosis)} The hub fails such runs after about 15 minutes. ${onHub}`,
      }
    }
    case 'interrupted': {
      const fate =
        result.cancel === 'cancelling'
          ? 'the run was cancelled on the hub (on-cancel: cancel).'
          : result.cancel === 'already-settled'
            ? 'the run had already ended.'
            : result.cancel === 'failed'
              ? 'cancelling the run failed, so it continues on the hub.'
              : 'the run continues on the hub (on-cancel: detach).'
      return { status: 'fail', message: `The job was cancelled while waiting for ${run}; ${fate}` }
    }
    case 'started':
      return {
        status: 'pass',
        message: `${run} ${result.reused ? 'already existed (idempotency key matched)' : 'started'}; not waiting because timeout-seconds is 0.`,
      }
  }
}

/**
 * Out of time at the approval gate: the run is settled there (the hub stops holding waits), and
 * no longer timeout would help, only a human's decision.
 */
function approvalGateTimeout(result: RunResult, settings: RunSettings, run: string, onHub: string): Verdict {
  const tool = result.detail?.pending?.tool ? ` to call ${result.detail.pending.tool}` : ''
  const inbox = result.detail?.pending?.inboxID ? ` (inbox item ${result.detail.pending.inboxID})` : ''
  const waiting = `${run} is waiting for a human's approval${tool}${inbox}, and timeout-seconds (${settings.timeoutSeconds} s) ran out while it waited.`
  const decide = 'A human must approve or deny it on the hub (or with command: approve).'
  if (settings.onTimeout === 'cancel') {
    const fate =
      result.cancel === 'cancelling'
        ? 'It was cancelled on the hub (on-timeout: cancel).'
        : result.cancel === 'already-settled'
          ? 'It had already ended when the cancel arrived.'
          : `The cancel request failed, so it still waits on the hub. ${decide}`
    return { status: 'fail', message: `${waiting} ${fate}` }
  }
  return { status: settings.onTimeout === 'warn' ? 'warn' : 'fail', message: `${waiting} ${decide} ${onHub}` }
}

/**
 * Why a run may sit in Pending, as far as the hub told: a suspended agent is the cause itself;
 * an agent the hub calls Ready rules suspension out, so it is not listed among the causes.
 */
function pendingCauses(diagnosis: string | undefined): string {
  const budgetOrCredential = "the workspace's budget is exhausted or the agent's model credential is missing"
  if (!diagnosis) return ` Likely causes: ${budgetOrCredential}, or the agent is suspended.`
  if (/ is Suspended\b/.test(diagnosis)) return ` The hub says ${diagnosis}: resume the agent on the hub.`
  return ` The hub says ${diagnosis}, so it is not suspended. Likely causes: ${budgetOrCredential}.`
}
