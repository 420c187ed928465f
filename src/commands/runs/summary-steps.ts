/**
 * The steps section of a run's job summary (./summary.ts): the agent's steps as a table, whole
 * rows only within a byte cap, then each shown step's arguments and result; a last line counts
 * what was left out, which the result file holds.
 */
import type { AgentStep } from '../../hub/schemas.js'
import { byteLength, code, details, inline, table } from '../../markdown/format.js'
import { formatCount, formatDuration } from '../../units.js'
import { jsonTextForDisplay } from '../../markdown/json-text.js'

/** Clips text to a number of characters, noting that something was cut. */
export type Clip = (text: string, max: number) => string

const LIMITS = {
  outcome: 200,
  tool: 200,
  error: 500,
  table: 128 * 1024,
  json: 200,
  calls: 32 * 1024,
}

/** The steps table, whole rows only, up to its byte cap; a last line counts the rows left out. */
export function stepsSection(steps: readonly AgentStep[], clip: Clip, noteCut: () => void): string {
  const rows: Array<{ step: AgentStep; number: number }> = []
  let size = 0
  for (const [index, step] of steps.entries()) {
    const cells = {
      tool: clip(step.tool, LIMITS.tool),
      outcome: clip(step.outcome, LIMITS.outcome),
      error: step.error && clip(step.error, LIMITS.error),
    }
    const row = { step: { ...step, ...cells }, number: index + 1 }
    const rowSize = byteLength(stepsTable([row])) - STEPS_HEADER_BYTES
    if (size + rowSize > LIMITS.table) break
    rows.push(row)
    size += rowSize
  }
  let body = stepsTable(rows)
  const left = steps.length - rows.length
  if (left > 0) {
    noteCut()
    body += `\n\n… and ${formatCount(left)} more ${left === 1 ? 'step' : 'steps'}: the result file lists them all.`
  }
  const calls = stepCalls(rows, noteCut)
  if (calls) body += `\n\n${calls}`
  return details(`Steps (${steps.length})`, body)
}

/**
 * Each shown step's arguments and result, parsed from the JSON text the hub sends (docs/hub-facts.md, "Run detail") and shown
 * as compact JSON, each clipped, the list within its own byte cap.
 */
function stepCalls(rows: ReadonlyArray<{ step: AgentStep; number: number }>, noteCut: () => void): string {
  const lines: string[] = []
  let size = 0
  for (const { step, number } of rows) {
    const parts: string[] = []
    if (step.args !== undefined) parts.push(`arguments ${code(jsonTextForDisplay(step.args, LIMITS.json, 'compact'))}`)
    if (step.result !== undefined) parts.push(`result ${code(jsonTextForDisplay(step.result, LIMITS.json, 'compact'))}`)
    if (parts.length === 0) continue
    const line = `- ${number}: ${parts.join(' → ')}`
    if (size + byteLength(line) + 1 > LIMITS.calls) {
      noteCut()
      lines.push('- … the result file holds the rest.')
      break
    }
    lines.push(line)
    size += byteLength(line) + 1
  }
  return lines.length > 0 ? `Calls:\n\n${lines.join('\n')}` : ''
}

function stepsTable(rows: ReadonlyArray<{ step: AgentStep; number: number }>): string {
  return table<{ step: AgentStep; number: number }>(
    [
      { header: '#', cell: (row) => String(row.number), align: 'right' },
      { header: 'Tool', cell: (row) => code(row.step.tool) },
      {
        header: 'Outcome',
        cell: (row) => inline(row.step.outcome) + (row.step.error ? ` — ${inline(row.step.error)}` : ''),
      },
      { header: 'Duration', cell: (row) => formatDuration(row.step.durationMS), align: 'right' },
    ],
    rows,
  )
}

const STEPS_HEADER_BYTES = byteLength(stepsTable([]))
