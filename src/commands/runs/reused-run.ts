/**
 * Whether a run the hub handed back for this step's idempotency key (`reused: true`) is this
 * step's run. The hub keys runs by (org, workspace, agent, key) alone: another task under the
 * same key gets the old run back (docs/hub-facts.md, "Starting a run"). So anyone who may start runs
 * in the workspace and knows the key could start a run under it first, with their task or in a
 * session whose history they wrote; the step would publish its answer, and the approval recipe
 * would approve its calls. Hence the key the hub sees is derived with the token, `auto` or not
 * (runner/context.ts): nobody without the token can start a run under it. And whenever a detail
 * carries the task (`input`) and the session (`sessionID`), both must be what the step sent. A
 * detail without them (the session is often left out) is accepted under a key derived with the
 * token, with a line saying so; a key sent as given (with OIDC nothing survives a job to derive
 * it with) can be planted under by anyone who reads it, so a run handed back for it is refused.
 */
import type { StartRun } from '../../hub/agents.js'
import type { RunDetail } from '../../hub/schemas.js'
import { redact } from '../../redact.js'
import { fingerprint } from '../../runner/context.js'
import { quoteHubText, StepRefusal } from './approve.js'

/** What the step sent, and whether its key is one nobody else can compute. */
export interface SentStart extends Pick<StartRun, 'task' | 'sessionId' | 'idempotencyKey'> {
  keyIsSecret: boolean
  /** How messages name the key: the workflow's own, as it wrote it, else the key sent. */
  keyLabel?: string | undefined
}

/**
 * Refuses (throws StepRefusal) when `detail`, the run `runId` the hub returned for `sent`'s key,
 * runs another task or session (checked whenever the detail carries them, reused or not); when
 * `reused`, also when nothing ties it to this step; returns a line to log when it could not be
 * fully checked but is trusted, else undefined.
 */
export function checkReusedRun(sent: SentStart, runId: string, detail: RunDetail, reused = true): string | undefined {
  const key = sent.keyLabel ?? sent.idempotencyKey ?? ''
  // The hub trims the task it stores, and what it sends was redacted as it was received.
  const task = redact(sent.task.trim())
  const session = redact(sent.sessionId ?? '')
  const differences = [
    ...(detail.input !== undefined && detail.input.trim() !== task
      ? [`its task is ${quoteHubText(detail.input)}, not this step's ${quoteHubText(task)}`]
      : []),
    // Session ids are never shown whole (runner/context.ts): their fingerprints tell them apart.
    // No session sent: the hub chose one (its shared default), nothing to compare.
    ...(session !== '' && detail.sessionID !== undefined && detail.sessionID !== session
      ? [
          `its session (${fingerprint(detail.sessionID)}) is not this step's (${session ? fingerprint(session) : 'none'})`,
        ]
      : []),
  ]
  if (differences.length > 0) {
    throw new StepRefusal(
      `Run ${runId}, which the hub returned for idempotency key ${key}, is not this step's run: ${differences.join('; ')}. Its output is not published and nothing of it is approved. Someone who may start runs in this workspace may have started it under this key first, or another step used the key for another task or session: use another \`idempotency-key\`, or \`auto\``,
      'attach to the run for this idempotency key',
    )
  }
  if (!reused) return undefined
  if (!sent.keyIsSecret) {
    throw new StepRefusal(
      `Run ${runId}, which the hub returned for idempotency key ${key}, cannot be told from a run someone else started under it: the key was sent as given (with \`oidc-audience\` no secret lasts from one job to the next to derive it with), and anyone who may start runs in this workspace can read it. Its output is not published and nothing of it is approved. Use \`idempotency-key: auto\` or \`none\`, or a hub token, whose keys are derived with it`,
      'attach to the run for this idempotency key',
    )
  }
  const missing = [
    ...(detail.input === undefined ? ['`input` (the task)'] : []),
    ...(detail.sessionID === undefined ? ['`sessionID`'] : []),
  ]
  if (missing.length === 0) return undefined
  // The hub often leaves `sessionID` out of a run detail (docs/hub-facts.md, "Run detail").
  return `Run ${runId} for idempotency key ${key} is taken as this step's run though the hub's run detail has no ${missing.join(' and ')} to compare: the key the hub sees is derived with the token, so nobody without it can have started a run under it.`
}
