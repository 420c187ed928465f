/**
 * `output-schema` (issue 35): the answer's last fenced `json` block, checked against the schema;
 * on a miss, one follow-up run in the first run's session, naming the error. The follow-up has
 * an idempotency key of its own, derived from the first's with the token (commands/runs/run-inputs.ts), so
 * a re-run of the job attaches to the same two runs. Both runs' costs count (`earlier`).
 */
import { oneLine, outputSchemaCheck, type SchemaCheck } from './output-schema.js'
import type { RunSettings } from './run-inputs.js'
import type { Budget } from '../../http/budget.js'
import { waitForRun, type LoopDeps, type RunResult } from './loop.js'
import { startOrAttach, type StartDeps, type StartedRun } from './start.js'

/** An opening fence with the info string `json` (any case), as CommonMark reads one. */
const OPENING = /^ {0,3}(`{3,}|~{3,})[ \t]*json[ \t]*$/i

/** The last fenced ```json block of `output` (its text), or undefined when there is none. @internal */
export function lastJsonBlock(output: string): string | undefined {
  const lines = output.split(/\r?\n/)
  let last: string | undefined
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i] ?? '')
    if (!open?.[1]) continue
    const fence = open[1]
    const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`)
    let end = i + 1
    while (end < lines.length && !closing.test(lines[end] ?? '')) end++
    // An unclosed fence runs to the end of the answer, as CommonMark reads it.
    last = lines.slice(i + 1, end).join('\n')
    i = end
  }
  return last
}

/** The answer's block checked against the schema: its compact JSON, or the error and the block. @internal */
export function checkAnswer(
  output: string,
  check: SchemaCheck,
): { ok: true; value: string } | { ok: false; error: string; block: string | undefined } {
  const block = lastJsonBlock(output)
  if (block === undefined) return { ok: false, error: 'the answer has no fenced `json` block', block }
  let value: unknown
  try {
    value = JSON.parse(block) as unknown
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    return { ok: false, error: oneLine(`the last fenced \`json\` block is not JSON (${why})`), block }
  }
  const wrong = check(value)
  return wrong === undefined ? { ok: true, value: JSON.stringify(value) } : { ok: false, error: wrong, block }
}

/** The task of the follow-up: the error, and the same request for one block at the end. */
function followUpTask(error: string): string {
  return `Your previous answer did not match the required JSON Schema: ${error}. Answer again, ending with a single fenced \`json\` block that matches the schema given before.`
}

/**
 * The first run's result with its schema check, after at most one follow-up run in its session.
 * A run that did not succeed is returned as it is: there is no answer to check.
 */
export async function withStructuredAnswer(
  first: RunResult,
  firstRun: StartedRun,
  settings: RunSettings,
  deps: LoopDeps & Omit<StartDeps, 'client'> & { client: StartDeps['client'] & LoopDeps['client'] },
  signal: AbortSignal,
  budget: Budget,
): Promise<RunResult> {
  if (settings.outputSchema === undefined || first.outcome !== 'succeeded') return first
  const check = outputSchemaCheck(settings.outputSchema)
  const answer = checkAnswer(first.detail?.output ?? '', check)
  if (answer.ok) return { ...first, structured: { value: answer.value } }
  const key = first.idempotencyKey ? settings.followUpKeys?.[first.idempotencyKey] : undefined
  deps.events.info(
    `The answer of run ${first.runId} does not match output-schema (${answer.error}); asking once more in the same session.`,
  )
  const again: RunSettings = {
    ...settings,
    task: followUpTask(answer.error),
    // The first run's session, passed as it is: the follow-up continues that conversation.
    sessionId: firstRun.sessionId,
    idempotencyKey: key,
    idempotencyKeySource: key ? 'explicit' : 'none',
    idempotencyKeyIsSecret: true,
    idempotencyKeyGiven: undefined,
    rerunIdempotencyKey: undefined,
    rerunSessionId: undefined,
    runAttempt: undefined,
  }
  // No second whoami: the first start checked the workspace.
  const secondRun = await startOrAttach(again, { ...deps, scope: undefined }, signal, budget)
  const second = await waitForRun(secondRun, { ...again, sessionId: secondRun.sessionId }, deps, signal)
  const earlier = [...(first.earlier ?? []), ...(first.detail ? [first.detail] : [])]
  const missed = { error: answer.error, block: answer.block, followUpOf: first.runId }
  if (second.outcome !== 'succeeded') return { ...second, earlier, structured: missed }
  const checked = checkAnswer(second.detail?.output ?? '', check)
  if (checked.ok) return { ...second, earlier, structured: { value: checked.value, followUpOf: first.runId } }
  return {
    ...second,
    earlier,
    structured: { ...missed, block: checked.block ?? answer.block, secondError: checked.error },
  }
}
