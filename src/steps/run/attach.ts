/**
 * `command: wait` — attach to a run that exists (started earlier, e.g. with `timeout-seconds: 0`)
 * and wait for it exactly as `run` does. The wait loop begins with its start; attaching is the
 * same loop with the start replaced by the read of the given run, so every policy
 * (`on-timeout`, `on-approval`, `on-cancel`, the Pending ceiling) and every output stays the same.
 */
import { runAgent, type RunDeps, type RunResult } from './run-agent.js'
import { AgentsClient, type StartRun } from '../../hub/agents.js'
import type { CreateRunResponse, RunDetail } from '../../hub/schemas.js'
import type { HubTransport } from '../../hub/transport.js'
import type { RunSettings } from '../../settings/settings.js'
import type { AttachSettings } from '../../settings/lifecycle.js'

/** An agents client whose "start" hands back the run already read instead of creating one. */
class AttachedRunClient extends AgentsClient {
  private readonly detail: RunDetail
  private readonly runId: string

  constructor(transport: HubTransport, clusterId: string | undefined, runId: string, detail: RunDetail) {
    super(transport, clusterId)
    this.runId = runId
    this.detail = detail
  }

  override startRun(_start: StartRun): Promise<CreateRunResponse> {
    // Never `reused`: that would say an idempotency key matched, and none was sent.
    return Promise.resolve({ runId: this.runId, phase: this.detail.phase, run: this.detail })
  }
}

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
  }
}

/**
 * The wait loop on a run read just before (`detail`). A run id the hub did not know has already
 * ended the step at that read (404): an id given by the user is never re-created.
 */
export function attachToRun(
  settings: RunSettings,
  detail: RunDetail,
  wait: AttachSettings,
  transport: HubTransport,
  clusterId: string | undefined,
  deps: Omit<RunDeps, 'client'>,
  signal: AbortSignal,
): Promise<RunResult> {
  const client = new AttachedRunClient(transport, clusterId, wait.runId, detail)
  return runAgent(settings, { ...deps, client }, signal)
}
