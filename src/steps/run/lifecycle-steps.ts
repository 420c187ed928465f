/**
 * The later commands of a run's life, as steps: `wait` attaches to a run, `cancel` cancels it,
 * `approve` resolves its approval and then (unless `timeout-seconds` is 0) waits like `wait`.
 * Each reads the hub through the agents client and publishes through the same publisher as `run`;
 * the plans are the requests a dry run shows for each.
 */
import { runVerdict } from './verdict.js'
import { AgentsClient } from '../../hub/agents.js'
import type { RunDetail } from '../../hub/schemas.js'
import { abortableSleep } from '../../http/retry.js'
import type { HubTransport } from '../../hub/transport.js'
import type { Settings, SettingsFor } from '../../settings/settings.js'
import type { AttachSettings } from '../../settings/lifecycle.js'
import type { Verdict } from '../../runner/core.js'
import { publishRun, runEventsToLog } from './publish.js'
import { jsonTextForDisplay } from '../../markdown/json-text.js'
import { code, inline } from '../../markdown/format.js'
import * as core from '../../runner/core.js'
import { approvalToResolve, quoteHubText, readAfterResolve } from './approve.js'
import { attachedRunSettings, attachToRun } from './attach.js'
import { firstHoldSeconds } from './pacing.js'
import { planned, type Plan } from '../command.js'

/** Characters of the approved call's arguments written to the log. */
const ARGS_LOG_CHARS = 64 * 1024

export async function waitStep(
  settings: SettingsFor<'wait'>,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const client = new AgentsClient(transport, settings.hub.clusterId)
  const detail = await client.getRun(settings.wait.runId, signal)
  return followRun(settings, settings.wait, detail, client, signal)
}

export async function cancelStep(
  settings: SettingsFor<'cancel'>,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const { runId } = settings.cancel
  core.setOutput('run-id', runId)
  const answer = await new AgentsClient(transport, settings.hub.clusterId).requestCancel(runId, { signal })
  const result = answer === 'already-settled' ? 'already-ended' : answer
  core.setOutput('cancel-result', result)
  const verdict =
    answer === 'cancelling'
      ? { status: 'pass' as const, message: `Run ${runId} is being cancelled on the hub; it ends Aborted.` }
      : answer === 'already-settled'
        ? { status: 'pass' as const, message: `Run ${runId} had already ended: there was nothing to cancel.` }
        : {
            status: 'warn' as const,
            message: `The hub accepted the cancel of run ${runId} but says it is not cancelling it (cancelling: false): it may be executing on another replica and may still finish. Check the run on the hub.`,
          }
  core.writeSummary(`## Cancel run ${code(runId)}: ${result}\n\n${inline(verdict.message)}\n`)
  return verdict
}

export async function approveStep(
  settings: SettingsFor<'approve'>,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const { approve, wait } = settings
  const client = new AgentsClient(transport, settings.hub.clusterId)
  core.setOutput('run-id', approve.runId)
  const pending = approvalToResolve(await client.getRun(approve.runId, signal), approve)
  core.info(
    `Resolving approval ${pending.inboxId} of run ${approve.runId} (tool ${quoteHubText(pending.tool)}) with decision ${approve.decision}.`,
  )
  if (pending.args !== undefined)
    core.logUntrusted('Arguments of the call:', jsonTextForDisplay(pending.args, ARGS_LOG_CHARS))
  await client.resolveApproval(pending.inboxId, approve.decision, approve.response, signal)
  const resolved = `Approval ${pending.inboxId} of run ${approve.runId} was resolved (${approve.decision})`
  if (wait.timeoutSeconds === 0) {
    return { status: 'pass', message: `${resolved}; not waiting for the run because timeout-seconds is 0.` }
  }
  core.info(`${resolved}; waiting for the run.`)
  const detail = await readAfterResolve(client, approve.runId, pending.inboxId, signal, abortableSleep)
  return followRun(settings, wait, detail, client, signal)
}

/** The wait loop on the run just read, then its verdict and outputs, as `run` publishes them. */
async function followRun(
  settings: Settings,
  wait: AttachSettings,
  detail: RunDetail,
  client: AgentsClient,
  signal: AbortSignal,
): Promise<Verdict> {
  const runSettings = attachedRunSettings(wait, detail)
  const events = runEventsToLog(runSettings, { attached: true })
  let result
  try {
    result = await attachToRun(runSettings, wait.runId, detail, client, { events }, signal)
  } finally {
    events.finish()
  }
  const verdict = runVerdict(result, runSettings)
  await publishRun(result, verdict, settings.runner)
  return verdict
}

export function waitPlan(settings: SettingsFor<'wait'> | SettingsFor<'approve'>, transport: HubTransport): Plan {
  const agents = new AgentsClient(transport, settings.hub.clusterId)
  const { runId, timeoutSeconds, liveSteps } = settings.wait
  const requests = [planned(transport, agents.getRunCall(runId), 'read the run')]
  if (settings.command === 'approve') {
    const { decision, response } = settings.approve
    requests.push(
      planned(
        transport,
        agents.resolveApprovalCall('INBOX_ID', decision, response),
        "resolve the pending approval (INBOX_ID is the run's pending.inboxID), only when the run is at the gate and the call is the expected one",
      ),
    )
  }
  if (timeoutSeconds > 0)
    requests.push(
      planned(
        transport,
        // The loop's first hold on a run past Pending (its phase is known only once it is read).
        agents.waitRunCall(runId, firstHoldSeconds({ liveSteps, timeoutSeconds })),
        `long-poll, repeated until the run settles or ${timeoutSeconds} s pass`,
      ),
    )
  return { requests }
}

export function cancelPlan(settings: SettingsFor<'cancel'>, transport: HubTransport): Plan {
  const agents = new AgentsClient(transport, settings.hub.clusterId)
  return { requests: [planned(transport, agents.cancelCall(settings.cancel.runId), 'cancel the run')] }
}
