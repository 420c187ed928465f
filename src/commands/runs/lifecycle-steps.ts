/**
 * The later commands of a run's life, as steps: `wait` attaches to a run, `cancel` cancels it,
 * `approve` resolves its approval and then (unless `timeout-seconds` is 0) waits like `wait`.
 * Each reads the hub through the agents client and publishes through the same publisher as `run`;
 * the plans are the requests a dry run shows for each.
 */
import { cancelFate, runVerdict } from './verdict.js'
import { readBackAfterCancel } from './loop.js'
import { canonicalPhase, isTerminal } from '../../hub/schemas.js'
import { AgentsClient } from '../../hub/agents.js'
import type { RunDetail } from '../../hub/schemas.js'
import type { HubTransport } from '../../hub/transport.js'
import type { CommonSettings } from '../../settings/settings.js'
import type { ApproveStepSettings, AttachSettings, CancelStepSettings, WaitStepSettings } from './lifecycle-inputs.js'
import type { Verdict } from '../../runner/workflow.js'
import { publishRun, runEventsToLog } from './publish.js'
import { jsonTextForDisplay } from '../../markdown/json-text.js'
import { code, inline } from '../../markdown/format.js'
import * as workflow from '../../runner/workflow.js'
import { approvalToResolve, quoteHubText, readAfterResolve, unpinnedApprovalWarning } from './approve.js'
import { attachedRunSettings, attachToRun } from './attach.js'
import { firstHoldSeconds } from './pacing.js'
import { planned, type Plan, type PlannedRequest } from '../command.js'
import { checkWorkspace } from '../../hub/workspace-check.js'

/** Characters of the approved call's arguments written to the log. */
const ARGS_LOG_CHARS = 64 * 1024

export async function waitStep(
  settings: WaitStepSettings,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const client = new AgentsClient(transport, settings.hub.clusterId)
  await checkRunWorkspace(settings, client, signal)
  const detail = await client.getRun(settings.wait.runId, signal)
  return followRun(settings, settings.wait, detail, client, transport, signal)
}

/**
 * Cancel, then read the run back for a few seconds and report the phase read (docs/hub-facts.md,
 * "Cancelling a run"). The rule (docs/commands.md, "cancel"): the step passes when the run reads
 * ended (or had ended), and fails when it still reads Pending, Running or PendingApproval after
 * the read-back, or cannot be read back: the hub's answer alone proves nothing.
 */
export async function cancelStep(
  settings: CancelStepSettings,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const { runId } = settings.cancel
  workflow.setOutput('run-id', runId)
  const client = new AgentsClient(transport, settings.hub.clusterId)
  await checkRunWorkspace(settings, client, signal)
  const answer = await client.requestCancel(runId, { signal })
  const result = answer === 'already-settled' ? 'already-ended' : answer
  workflow.setOutput('cancel-result', result)
  const read =
    answer === 'already-settled'
      ? undefined
      : await readBackAfterCancel(client, runId, transport.budget.clock.sleep, signal)
  const phase = read && canonicalPhase(read.phase)
  if (phase) workflow.setOutput('phase', phase)
  const ended = answer === 'already-settled' || (phase !== undefined && isTerminal(phase))
  const fate = cancelFate(answer, phase, 'command: cancel', `Run ${runId}`)
  const verdict: Verdict =
    answer === 'already-settled'
      ? { status: 'pass', message: `Run ${runId} had already ended: there was nothing to cancel.` }
      : { status: ended ? 'pass' : 'fail', message: ended && phase === 'Aborted' ? fate : `Run ${runId}: ${fate}` }
  workflow.writeSummary(
    `## Cancel run ${code(runId)}: ${result}${phase ? `, read back ${code(phase)}` : ''}\n\n${inline(verdict.message)}\n`,
  )
  return verdict
}

export async function approveStep(
  settings: ApproveStepSettings,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const { approve, wait } = settings
  const client = new AgentsClient(transport, settings.hub.clusterId)
  workflow.setOutput('run-id', approve.runId)
  await checkRunWorkspace(settings, client, signal)
  const unpinned = unpinnedApprovalWarning(approve)
  if (unpinned) workflow.warning(unpinned)
  const pending = approvalToResolve(await client.getRun(approve.runId, signal), approve)
  workflow.info(
    `Resolving approval ${pending.inboxId} of run ${approve.runId} (tool ${quoteHubText(pending.tool)}) with decision ${approve.decision}.`,
  )
  if (pending.args !== undefined)
    workflow.logUntrusted('Arguments of the call:', jsonTextForDisplay(pending.args, ARGS_LOG_CHARS))
  await client.resolveApproval(pending.inboxId, approve.decision, approve.response, signal)
  const resolved = `Approval ${pending.inboxId} of run ${approve.runId} was resolved (${approve.decision})`
  if (wait.timeoutSeconds === 0) {
    return { status: 'pass', message: `${resolved}; not waiting for the run because timeout-seconds is 0.` }
  }
  workflow.info(`${resolved}; waiting for the run.`)
  const detail = await readAfterResolve(client, approve.runId, pending.inboxId, signal, transport.budget.clock.sleep)
  return followRun(settings, wait, detail, client, transport, signal)
}

/**
 * On the user route, the workspace is proven (whoami) before the run is touched: a run id is
 * looked up in the workspace the headers name (docs/hub-facts.md, "Memberships and the workspace
 * proof"). The service-account route has no whoami; its cluster id names the workspace.
 */
async function checkRunWorkspace(settings: CommonSettings, client: AgentsClient, signal: AbortSignal): Promise<void> {
  if (!client.canReadAgents) return
  await checkWorkspace(client, settings.hub, 'lifecycle', { signal, log: workflow.info })
}

/** The wait loop on the run just read, then its verdict and outputs, as `run` publishes them. */
async function followRun(
  settings: CommonSettings,
  wait: AttachSettings,
  detail: RunDetail,
  client: AgentsClient,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const runSettings = attachedRunSettings(wait, detail)
  const events = runEventsToLog(runSettings, transport.budget, { attached: true })
  let result
  try {
    result = await attachToRun(runSettings, wait.runId, detail, client, { events, budget: transport.budget }, signal)
  } finally {
    events.finish()
  }
  const verdict = runVerdict(result, runSettings)
  await publishRun(result, verdict, settings.runner)
  return verdict
}

export function waitPlan(settings: WaitStepSettings | ApproveStepSettings, transport: HubTransport): Plan {
  const agents = new AgentsClient(transport, settings.hub.clusterId)
  const { runId, timeoutSeconds, liveSteps } = settings.wait
  const requests = [
    ...workspacePreflight(agents, transport),
    planned(transport, agents.getRunCall(runId), 'read the run'),
  ]
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

export function cancelPlan(settings: CancelStepSettings, transport: HubTransport): Plan {
  const agents = new AgentsClient(transport, settings.hub.clusterId)
  const { runId } = settings.cancel
  return {
    requests: [
      ...workspacePreflight(agents, transport),
      planned(transport, agents.cancelCall(runId), 'cancel the run'),
      planned(
        transport,
        agents.getRunCall(runId),
        'read the run back, a few times over about 4 s until it reads ended: the step passes only on an ended run',
      ),
    ],
  }
}

function workspacePreflight(agents: AgentsClient, transport: HubTransport): PlannedRequest[] {
  if (!agents.canReadAgents) return []
  return [
    planned(
      transport,
      agents.whoamiCall(),
      'preflight: the step goes on only when whoami echoes the workspace with a non-empty clusterID',
    ),
  ]
}
