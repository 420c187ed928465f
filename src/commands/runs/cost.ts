/**
 * What a step's runs cost (issue 35): each run's `usdMicros` and tokens plus those of the
 * children its detail lists (docs/hub-facts.md, "Run detail"). No extra request: the detail
 * already carries the children's summaries, at most 50 of them, so a run listing 50 may have
 * more, and the figures then say "at least". A child summary without a figure is counted as
 * not reported, never as zero.
 */
import { ChildRunSchema, type RunDetail } from '../../hub/schemas.js'
import { formatCount, formatUsd } from '../../units.js'

/** The hub lists at most this many children in a run's detail. */
const CHILDREN_LISTED_AT_MOST = 50

export interface RunCost {
  usdMicros: number
  inputTokens: number
  outputTokens: number
  /** Runs counted: the step's own (one, or two after a structured-output retry). */
  runs: number
  /** Children whose cost and tokens were added. */
  children: number
  /** Children listed without a cost or tokens: not in the sums. */
  childrenUnreported: number
  /** A detail listed as many children as the hub lists at most: there may be more. */
  mayHaveMore: boolean
}

/** A count the hub sends, or 0: a negative, fractional or absurd number is not a count. */
function count(value: number | undefined): number {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0 ? value : 0
}

/** Every run detail of the step whose cost counts: earlier answers, then the last. */
export function stepDetails(result: { earlier?: RunDetail[] | undefined; detail: RunDetail | undefined }): RunDetail[] {
  return [...(result.earlier ?? []), ...(result.detail ? [result.detail] : [])]
}

/** The sums over `details` (the step's runs) and their children. */
export function runCost(details: readonly RunDetail[]): RunCost {
  const cost: RunCost = {
    usdMicros: 0,
    inputTokens: 0,
    outputTokens: 0,
    runs: details.length,
    children: 0,
    childrenUnreported: 0,
    mayHaveMore: false,
  }
  for (const detail of details) {
    cost.usdMicros += count(detail.usdMicros)
    cost.inputTokens += count(detail.inputTokens)
    cost.outputTokens += count(detail.outputTokens)
    if (detail.children.length >= CHILDREN_LISTED_AT_MOST) cost.mayHaveMore = true
    for (const child of detail.children) {
      const parsed = ChildRunSchema.safeParse(child)
      const summary = parsed.success ? parsed.data : undefined
      if (
        summary?.usdMicros === undefined &&
        summary?.inputTokens === undefined &&
        summary?.outputTokens === undefined
      ) {
        cost.childrenUnreported++
        continue
      }
      cost.children++
      cost.usdMicros += count(summary.usdMicros)
      cost.inputTokens += count(summary.inputTokens)
      cost.outputTokens += count(summary.outputTokens)
    }
  }
  return cost
}

/** Millionths of a dollar as a decimal string, exact (no float): 4215 → "0.004215", 2_000_000 → "2". @internal */
export function usdDecimal(micros: number): string {
  const whole = Math.floor(micros / 1_000_000)
  const fraction = String(micros % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : String(whole)
}

/** Outputs `cost-usd`, `input-tokens`, `output-tokens`: empty when no detail was read. */
export function costOutputs(cost: RunCost | undefined): Record<'cost-usd' | 'input-tokens' | 'output-tokens', string> {
  if (!cost || cost.runs === 0) return { 'cost-usd': '', 'input-tokens': '', 'output-tokens': '' }
  return {
    'cost-usd': usdDecimal(cost.usdMicros),
    'input-tokens': String(cost.inputTokens),
    'output-tokens': String(cost.outputTokens),
  }
}

/** The one line of what the step's runs cost, and what the sums include. */
export function costLine(cost: RunCost): string {
  const runs = cost.runs > 1 ? `the ${cost.runs} runs (the answer and its output-schema follow-up)` : 'the run'
  const children =
    cost.children === 0
      ? ', no child runs'
      : ` and ${cost.children === 1 ? '1 child run' : `${formatCount(cost.children)} child runs`}`
  const unreported =
    cost.childrenUnreported > 0
      ? ` (${formatCount(cost.childrenUnreported)} more listed without a cost: not counted)`
      : ''
  const more = cost.mayHaveMore ? ' The hub lists at most 50 children, so the real cost may be higher.' : ''
  const atLeast = cost.mayHaveMore ? 'at least ' : ''
  return `Cost ${atLeast}**${formatUsd(cost.usdMicros)}** (output \`cost-usd\` ${usdDecimal(cost.usdMicros)}), tokens in ${formatCount(cost.inputTokens)} / out ${formatCount(cost.outputTokens)}: ${runs}${children}${unreported}.${more}`
}
