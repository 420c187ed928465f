/**
 * `command: wait` (and `approve` after it resolves) — attach to a run that exists (started
 * earlier, e.g. with `timeout-seconds: 0`) and wait for it exactly as `run` does: the same loop,
 * entered with the run just read instead of one just started, so every policy (`on-timeout`,
 * `on-approval`, `on-cancel`, the Pending ceiling) and every output stays the same.
 */
import type { AgentsClient } from '../../hub/agents.js'
import { canonicalPhase } from '../../hub/schemas.js'
import type { RunDetail } from '../../hub/schemas.js'
import type { RunSettings } from './run-inputs.js'
import type { AttachSettings } from './lifecycle-inputs.js'
import { FollowedRun } from './followed-run.js'
import { stepBudget, waitForRun, type LoopDeps, type RunResult } from './loop.js'

/** RunSettings for a run this step did not start: no task, key or session of ours. */
export function attachedRunSettings(wait: AttachSettings, detail: RunDetail): RunSettings {
  return {
    // Hub text in every message of the step: one short line.
    agent: (detail.agent ?? 'unknown').replace(/\s+/g, ' ').slice(0, 200),
    task: '',
    idempotencyKey: undefined,
    idempotencyKeySource: 'none',
    sessionId: detail.sessionID ?? '',
    timeoutSeconds: wait.timeoutSeconds,
    onTimeout: wait.onTimeout,
    onApproval: wait.onApproval,
    pendingTimeoutSeconds: wait.pendingTimeoutSeconds,
    onCancel: wait.onCancel,
    liveSteps: wait.liveSteps,
    allowEmptyOutput: wait.allowEmptyOutput,
  }
}

/**
 * The wait loop on run `runId`, read just before (`detail`). A run id the hub did not know has
 * already ended the step at that read (404): an id given by the user is never re-created.
 */
export function attachToRun(
  settings: RunSettings,
  runId: string,
  detail: RunDetail,
  client: AgentsClient,
  deps: Omit<LoopDeps, 'client'>,
  signal: AbortSignal,
): Promise<RunResult> {
  // Never `reused`: that would say an idempotency key matched, and none was sent.
  deps.events.created({ runId, phase: detail.phase, run: detail })
  const run = {
    followed: FollowedRun.given(client, runId),
    detail,
    phase: canonicalPhase(detail.phase),
    idempotencyKey: undefined,
    // The step's budget, begun in main.ts before the run was read, as every request's.
    budget: stepBudget(deps, settings.timeoutSeconds),
  }
  return waitForRun(run, settings, { ...deps, client }, signal)
}
