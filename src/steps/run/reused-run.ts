/**
 * Whether a run the hub handed back for this step's idempotency key (`reused: true`) is this
 * step's run. The hub keys runs by (org, workspace, agent, key) alone: another task under the
 * same key gets the old run back (docs/hub-facts.md, "Starting a run"). So anyone who may start runs
 * in the workspace and knows the key could start a run under it first, with their task or in a
 * session whose history they wrote; the step would publish its answer, and the approval recipe
 * would approve its calls. The run detail carries the full task (`input`) and the session
 * (`sessionID`): both must be what the step sent. A detail without one (an older hub; the session
 * is often left out) cannot be fully checked: for an automatic key, which nobody without the
 * token can compute (runner/context.ts), that is accepted with a line saying so; a key the
 * workflow chose may be guessable, so such a run is accepted only when its task is there and
 * matches, and refused without it.
 */
import type { StartRun } from '../../hub/agents.js'
import type { RunDetail } from '../../hub/schemas.js'
import { redact } from '../../redact.js'
import { quoteHubText, StepRefusal } from './approve.js'

/** What the step sent, and whether its key is one nobody else can compute. */
export interface SentStart extends Pick<StartRun, 'task' | 'sessionId' | 'idempotencyKey'> {
  keyIsSecret: boolean
}

/**
 * Refuses (throws StepRefusal) when `detail`, the run `runId` the hub returned for `sent`'s key,
 * runs another task or session; returns a line to log when it could not be checked but is
 * trusted, else undefined.
 */
export function checkReusedRun(sent: SentStart, runId: string, detail: RunDetail): string | undefined {
  const key = sent.idempotencyKey ?? ''
  // The hub trims the task it stores, and what it sends was redacted as it was received.
  const task = redact(sent.task.trim())
  const differences = [
    ...(detail.input !== undefined && detail.input.trim() !== task
      ? [`its task is ${quoteHubText(detail.input)}, not this step's ${quoteHubText(task)}`]
      : []),
    ...(detail.sessionID !== undefined && detail.sessionID !== redact(sent.sessionId ?? '')
      ? [
          `its session is ${quoteHubText(detail.sessionID)}, not this step's ${quoteHubText(redact(sent.sessionId ?? ''))}`,
        ]
      : []),
  ]
  if (differences.length > 0) {
    throw new StepRefusal(
      `Run ${runId}, which the hub returned for idempotency key ${key}, is not this step's run: ${differences.join('; ')}. Its output is not published and nothing of it is approved. Someone who may start runs in this workspace may have started it under this key first, or another step used the key for another task or session: use another \`idempotency-key\`, or \`auto\` (derived with the token, so nobody without it can start a run under it)`,
      'attach to the run for this idempotency key',
    )
  }
  const missing = [
    ...(detail.input === undefined ? ['`input` (the task)'] : []),
    ...(detail.sessionID === undefined ? ['`sessionID`'] : []),
  ]
  if (missing.length === 0) return undefined
  // The hub often leaves `sessionID` out of a run detail (docs/hub-facts.md, "Run detail"): the
  // task alone identifies a run under a key of the workflow; without the task nothing does.
  if (!sent.keyIsSecret && detail.input === undefined) {
    throw new StepRefusal(
      `Run ${runId}, which the hub returned for idempotency key ${key}, cannot be checked: the hub's run detail has no ${missing.join(' and ')}, so the step cannot tell it from a run someone else started under this key. Its output is not published and nothing of it is approved. Use \`idempotency-key: auto\` (derived with the token, so nobody without it can start a run under it), or a hub whose run detail carries the task and session`,
      'attach to the run for this idempotency key',
    )
  }
  const why = sent.keyIsSecret
    ? 'the key is derived with the token, so nobody without it can have started a run under it'
    : 'its task is the one this step sent'
  return `Run ${runId} for idempotency key ${key} is taken as this step's run though the hub's run detail has no ${missing.join(' and ')} to compare: ${why}.`
}
