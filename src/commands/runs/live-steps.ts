/**
 * Live steps: the hub stores each step as its tool call ends (docs/hub-facts.md, "Agents provider"), so every
 * detail the wait loop receives — a /wait that expired, the settled answer — may list steps the
 * log has not shown yet. Each finished step is reported once, in the hub's order; a step still
 * waiting for approval is not finished, and is reported when it is.
 */
import type { RunDetail, AgentStep } from '../../hub/schemas.js'
import { jsonTextForDisplay } from '../../markdown/json-text.js'
import { clip } from '../../markdown/format.js'
import { formatDuration } from '../../units.js'

export interface NumberedStep {
  step: AgentStep
  /** 1-based position in the run's steps, as the summary's table numbers them. */
  number: number
}

/** Characters of a step's arguments shown in its log line; longer ones are left to the summary. */
const SHORT_ARGS_CHARS = 120
const TOOL_CHARS = 200
const ERROR_CHARS = 500

export class StepTracker {
  private readonly reported = new Set<string>()

  /** The finished steps of `detail` not reported yet, and marks them reported. */
  takeUnreported(detail: RunDetail | undefined): NumberedStep[] {
    const found: NumberedStep[] = []
    for (const [index, step] of (detail?.steps ?? []).entries()) {
      if (step.outcome === 'pending_approval') continue
      // The id when the hub sends one; else the position, which the hub only ever appends to.
      const key = step.id ? `id:${step.id}` : `at:${index}`
      if (this.reported.has(key)) continue
      this.reported.add(key)
      found.push({ step, number: index + 1 })
    }
    return found
  }
}

/**
 * One log line for a step. Untrusted text: line breaks are folded so the step stays one line,
 * each part is clipped, and the caller logs it through the runner's neutralising `info`.
 */
export function stepLogLine({ step, number }: NumberedStep): string {
  const parts = [`Step ${number}: ${clip(oneLine(step.tool), TOOL_CHARS)} ${clip(oneLine(step.outcome), TOOL_CHARS)}`]
  if (step.durationMS !== undefined) parts[0] += ` in ${formatDuration(step.durationMS)}`
  if (step.error) parts.push(`error: ${clip(oneLine(step.error), ERROR_CHARS)}`)
  if (step.args !== undefined) {
    const args = jsonTextForDisplay(step.args, SHORT_ARGS_CHARS + 1, 'compact')
    // Only short arguments: long ones would drown the log, and the summary and result file hold them.
    if (args.length <= SHORT_ARGS_CHARS) parts.push(`args ${oneLine(args)}`)
  }
  return parts.join(' — ')
}

function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029\u0085]+/g, ' ')
}
