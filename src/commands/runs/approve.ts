/**
 * `command: approve` — resolve the approval a run is waiting for. The hub's only check is
 * workspace membership, it does not check that the item is still pending, and the run resumes
 * under the resolver's token (docs/hub-facts.md, "Agents provider"): so this step checks, just before it resolves,
 * that the run is at the gate, that the pending call is the one the workflow expected
 * (`expect-tool`) and the one a reviewer was shown (`approval-id`), and refuses otherwise.
 */
import type { AgentsClient } from '../../hub/agents.js'
import { canonicalPhase, isTerminal } from '../../hub/schemas.js'
import type { RunDetail } from '../../hub/schemas.js'
import type { ApproveSettings } from './lifecycle-inputs.js'
import { ActionError, type StatementErrorData } from '../../errors.js'
import { clip } from '../../markdown/format.js'

export interface PendingApproval {
  inboxId: string
  tool: string
  args: unknown
}

/**
 * Without `approval-id` or `expect-tool` the step resolves whatever call the run waits for now,
 * which may not be the one anybody reviewed: a warning naming both inputs, or undefined.
 */
export function unpinnedApprovalWarning(settings: ApproveSettings): string | undefined {
  if (settings.approvalId || settings.expectTool) return undefined
  return `\`command: approve\` without \`approval-id\` or \`expect-tool\` resolves whatever call run ${settings.runId} waits for when the step reads it, not necessarily the one a reviewer saw. Pass \`approval-id\` (the output of the step that stopped at the gate) or \`expect-tool\`.`
}

/** The approval to resolve, or a StepRefusal saying why this run's gate is not the expected one. */
export function approvalToResolve(detail: RunDetail, settings: ApproveSettings): PendingApproval {
  const run = `Run ${settings.runId}${detail.agent ? ` of agent ${quoteHubText(detail.agent)}` : ''}`
  const phase = canonicalPhase(detail.phase)
  const inboxId = detail.pending?.inboxID
  if (phase !== 'PendingApproval' || !inboxId) {
    const why = isTerminal(phase)
      ? 'It has ended, so there is nothing to approve.'
      : phase === 'PendingApproval'
        ? 'The hub did not say which approval it waits for (no pending.inboxID); resolve it in the hub.'
        : 'It may reach the gate later: stop at it first with `on-approval: succeed` (in `run` or `wait`), then approve.'
    throw new StepRefusal(
      `${run} is not waiting for approval (phase ${quoteHubText(phase, 40)}): nothing was resolved. ${why}`,
    )
  }
  const tool = detail.pending?.tool ?? ''
  // The hub only marks an approval answered: the run stays at the same gate for good
  // (docs/hub-facts.md, "Answers and approvals"), and every gate a run detail shows is an approval.
  if (settings.decision === 'answer') {
    throw new StepRefusal(
      `${run} waits at approval ${quoteHubText(inboxId)} (a call to ${quoteHubText(tool)}), and \`decision: answer\` never moves a run at an approval: the hub would mark it answered and the run would stay at the same gate. Nothing was resolved. Use \`decision: approve\`, or \`decision: deny\` with your answer as \`response\` (the agent receives it as the reason).`,
    )
  }
  if (settings.approvalId && inboxId !== settings.approvalId) {
    throw new StepRefusal(
      `${run} is waiting for approval ${quoteHubText(inboxId)}, not ${quoteHubText(settings.approvalId)} (\`approval-id\`): the pending call is not the one shown to the reviewer, so nothing was resolved. Re-run the workflow so a reviewer sees the current request.`,
    )
  }
  if (settings.expectTool && tool !== settings.expectTool) {
    throw new StepRefusal(
      `${run} is waiting for approval to call ${quoteHubText(tool)}, not ${quoteHubText(settings.expectTool)} (\`expect-tool\`): nothing was resolved. Review the call in the hub, or change \`expect-tool\` if the workflow expects this tool.`,
    )
  }
  return { inboxId, tool, args: detail.pending?.args }
}

const SETTLE_PAUSES_MS = [250, 500, 1_000, 2_000]

/**
 * The run just after its approval was resolved. The hub resumes the run on its own time, so a
 * read at once may still show the gate just resolved: read again, briefly and a bounded number of
 * times, so `on-approval` then applies to the next gate, not to the one already resolved.
 */
export async function readAfterResolve(
  client: Pick<AgentsClient, 'getRun'>,
  runId: string,
  resolved: string,
  signal: AbortSignal,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
): Promise<RunDetail> {
  let detail = await client.getRun(runId, signal)
  for (const pause of SETTLE_PAUSES_MS) {
    if (canonicalPhase(detail.phase) !== 'PendingApproval' || detail.pending?.inboxID !== resolved) break
    await sleep(pause, signal)
    if (signal.aborted) throw signal.reason
    detail = await client.getRun(runId, signal)
  }
  return detail
}

/** A lifecycle command that declined to act on what the hub showed (nothing was sent to change it). */
export class StepRefusal extends ActionError<StatementErrorData> {
  constructor(statement: string, operation = 'resolve the approval') {
    super({ kind: 'statement', operation, hint: 'see the message', statement })
    this.name = 'StepRefusal'
  }
}

/** Hub text inside one of our messages: quoted, on one line, and short. */
export function quoteHubText(text: string | undefined, max = 200): string {
  return JSON.stringify(clip((text ?? '').replace(/\s+/g, ' '), max))
}
