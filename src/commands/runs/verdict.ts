/** What a run's result means for the step: pass, warn or fail (see `runVerdict`). */
import type { Verdict } from '../../runner/workflow.js'
import type { RunSettings } from './run-inputs.js'
import { CANCEL_READ_BACK_SECONDS, type RunResult } from './loop.js'
import type { CancelAnswer } from '../../hub/agents.js'

/** Pass, warn or fail, and the one sentence that says why. */
export function runVerdict(result: RunResult, settings: RunSettings): Verdict {
  const run = `Run ${result.runId} of agent "${result.agent}"`
  const onHub = 'It continues on the hub; find it by this run id.'
  const hubMessage = result.detail?.message ? `: ${result.detail.message}` : ''
  switch (result.outcome) {
    case 'succeeded':
      // A green check for an agent that answered nothing is the verdict users distrust most.
      if (!settings.allowEmptyOutput && !result.detail?.output?.trim())
        return {
          status: 'fail',
          message: `${run} succeeded but the agent produced no answer (its output is empty). Check the agent and its task on the hub, or set \`allow-empty-output: true\` if an empty answer is expected.`,
        }
      if (result.structured?.error) return schemaMiss(result, run)
      return { status: 'pass', message: `${run} succeeded.` }
    case 'failed':
      return { status: 'fail', message: `${run} failed${hubMessage || ' (the hub gave no message)'}` }
    case 'aborted':
      return { status: 'fail', message: `${run} was aborted${hubMessage || ' (time limit reached or cancelled)'}` }
    case 'awaiting-approval': {
      const tool = result.detail?.pending?.tool ? ` to call ${result.detail.pending.tool}` : ''
      return settings.onApproval === 'succeed'
        ? {
            status: 'pass',
            message: `${run} is waiting for approval${tool}; passing because on-approval is succeed. ${onHub}`,
          }
        : {
            status: 'fail',
            message: `${run} is waiting for approval${tool}; failing because on-approval is fail. A human must approve or deny it on the hub (or with command: approve). ${onHub}`,
          }
    }
    case 'timed-out': {
      if (result.phase === 'PendingApproval') return approvalGateTimeout(result, settings, run, onHub)
      const after = `${run} did not settle within ${result.budget}; last phase ${result.phase}.`
      if (settings.onTimeout === 'warn') return { status: 'warn', message: `${after} ${onHub}` }
      if (settings.onTimeout === 'cancel') {
        const cancelled =
          result.cancel === 'failed' || result.cancel === undefined
            ? `The cancel request failed, so it may continue on the hub; find it by this run id.`
            : cancelFate(result.cancel, result.afterCancel, 'on-timeout: cancel')
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
      const waiting = `The job was cancelled while waiting for ${run}`
      if (result.cancel === 'failed')
        return { status: 'fail', message: `${waiting}; cancelling the run failed, so it continues on the hub.` }
      if (result.cancel === undefined)
        return { status: 'fail', message: `${waiting}; the run continues on the hub (on-cancel: detach).` }
      const fate = cancelFate(result.cancel, result.afterCancel, 'on-cancel: cancel', 'The run')
      return { status: 'fail', message: `${waiting}. ${fate}` }
    }
    case 'started':
      return {
        status: 'pass',
        message: `${run} ${result.reused ? 'already existed (idempotency key matched)' : 'started'}; not waiting because timeout-seconds is 0.`,
      }
  }
}

/** Both answers missed `output-schema`: the first's error is the one named (the second's follows when it differs). */
function schemaMiss(result: RunResult, run: string): Verdict {
  const answer = result.structured
  const asked = answer?.followUpOf ? `, asked once more in the session of run ${answer.followUpOf},` : ''
  const first = answer?.error ?? 'unknown error'
  const second =
    answer?.secondError && answer.secondError !== first
      ? ` The follow-up's answer: ${sentence(answer.secondError)}`
      : ''
  return {
    status: 'fail',
    message: `${run}${asked} did not give an answer that matches output-schema: ${sentence(first)}${second} Make the task or the schema clearer, or check the agent on the hub.`,
  }
}

/** A message that ends with one full stop. */
export function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/**
 * Out of time at the approval gate: the run is settled there (the hub stops holding waits), and
 * no longer timeout would help, only a human's decision.
 */
function approvalGateTimeout(result: RunResult, settings: RunSettings, run: string, onHub: string): Verdict {
  const tool = result.detail?.pending?.tool ? ` to call ${result.detail.pending.tool}` : ''
  const inbox = result.detail?.pending?.inboxID ? ` (inbox item ${result.detail.pending.inboxID})` : ''
  const waiting = `${run} is waiting for a human's approval${tool}${inbox}, and ${result.budget} ran out while it waited.`
  const decide = 'A human must approve or deny it on the hub (or with command: approve).'
  if (settings.onTimeout === 'cancel') {
    const fate =
      result.cancel === 'failed' || result.cancel === undefined
        ? `The cancel request failed, so it still waits on the hub. ${decide}`
        : cancelFate(result.cancel, result.afterCancel, 'on-timeout: cancel')
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

/**
 * What became of a run the step cancelled, from what was read back, never from the cancel's
 * answer alone (docs/hub-facts.md, "Cancelling a run"). One sentence, also for `command: cancel`.
 */
export function cancelFate(answer: CancelAnswer, afterCancel: string | undefined, why: string, subject = 'It'): string {
  if (answer === 'already-settled') return `${subject} had already ended when the cancel arrived.`
  const said = `cancelling: ${answer === 'cancelling'}`
  if (afterCancel === undefined)
    return `The hub accepted the cancel (${why}; ${said}), but the run could not be read back, so how it ends is unknown; find it on the hub by this run id.`
  if (afterCancel === 'Aborted') return `${subject} was cancelled on the hub (${why}): read back Aborted.`
  if (afterCancel === 'Succeeded' || afterCancel === 'Failed')
    return `The hub accepted the cancel (${why}); the run read back ${afterCancel}, so it ended on its own.`
  return `The hub accepted the cancel (${why}; ${said}), but the run still reads ${afterCancel} ${CANCEL_READ_BACK_SECONDS} s later. ${stillGoing(answer)}`
}

/** What the hub may still do with a cancelled run that reads as not ended. */
function stillGoing(answer: CancelAnswer): string {
  const sweep = "about 15 minutes later the hub's recovery sweep either fails it or resumes it from its last checkpoint"
  return answer === 'cancelling'
    ? `On a hub that keeps runs in Postgres a cut run's record stays Running, and ${sweep}. Check the run on the hub, and cancel it there again if it resumes.`
    : `The hub is not cancelling it here: it may be executing on another replica and may still finish, or ${sweep}. Check the run on the hub.`
}
