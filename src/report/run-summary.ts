/** RunResult → markdown for the job summary. Pure: the publisher writes it. */
import type { RunResult } from '../commands/run.js'
import type { Verdict } from '../commands/run.js'
import { clipCharacters, code, details, fenced, formatDuration, formatUsd, inline, table, untrustedMarkdown, formatCount } from './markdown.js'
import type { RunStep } from '../hub/schemas.js'

const OUTPUT_BUDGET = 200_000
const ICON: Record<Verdict['status'], string> = { pass: '✅', warn: '⚠️', fail: '❌' }

export function renderRunSummary(result: RunResult, verdict: Verdict): string {
  const detail = result.detail
  const sections: string[] = []
  sections.push(`## ${ICON[verdict.status]} Agent run: ${inline(result.agent)} — ${inline(result.phase)}`)
  sections.push(inline(verdict.message))
  if (result.reused) {
    sections.push(
      '> [!NOTE]\n> The hub returned an existing run for this idempotency key (a re-run on the same commit attaches to the first run instead of starting another).',
    )
  }

  const duration = detail?.durationMS ?? spanMs(detail?.startedAt, detail?.finishedAt)
  const facts: Array<[string, string]> = [
    ['Run', code(result.runId)],
    ['Phase', `**${inline(result.phase)}**${result.settled ? '' : ' (not settled)'}`],
    ['Duration', formatDuration(duration)],
    ['Waited', formatDuration(result.waitedMs)],
  ]
  if (detail) {
    facts.push(['Tokens in / out', `${formatCount(detail.inputTokens)} / ${formatCount(detail.outputTokens)}`])
    facts.push(['Cost', formatUsd(detail.usdMicros)])
  }
  sections.push(
    table(
      facts.map(([header], index) => ({ header, cell: (row: string[]) => row[index] ?? '' })),
      [facts.map((fact) => fact[1])],
    ),
  )
  if (result.idempotencyKey) sections.push(`Idempotency key ${code(result.idempotencyKey)}, session ${code(result.sessionId)}.`)

  if (detail?.message && result.outcome !== 'succeeded') {
    sections.push(`### Message from the hub\n\n${fenced(detail.message)}`)
  }
  if (detail?.pending && result.phase === 'PendingApproval') {
    const args = detail.pending.args === undefined ? '' : `\n\n${fenced(JSON.stringify(detail.pending.args, null, 2), 'json')}`
    sections.push(`### Waiting for approval\n\nTool ${code(detail.pending.tool ?? 'unknown')} needs a human's approval on the hub.${args}`)
  }
  if (detail?.output) {
    const clipped = clipCharacters(detail.output, OUTPUT_BUDGET)
    sections.push(`### Output\n\n${untrustedMarkdown(clipped.text, { headingsBelow: 3 })}`)
  }
  if (detail?.sources && detail.sources.length > 0) {
    sections.push(`### Sources\n\n${detail.sources.map((source) => `- ${linkOrText(source)}`).join('\n')}`)
  }
  if (detail && detail.steps.length > 0) {
    sections.push(details(`Steps (${detail.steps.length})`, stepsTable(detail.steps)))
  }
  return `${sections.join('\n\n')}\n`
}

function stepsTable(steps: readonly RunStep[]): string {
  const numbered = steps.map((step, index) => ({ step, number: index + 1 }))
  return table<(typeof numbered)[number]>(
    [
      { header: '#', cell: (row) => String(row.number), align: 'right' },
      { header: 'Tool', cell: (row) => code(row.step.tool) },
      { header: 'Outcome', cell: (row) => inline(row.step.outcome) + (row.step.error ? ` — ${inline(row.step.error)}` : '') },
      { header: 'Duration', cell: (row) => formatDuration(row.step.durationMS), align: 'right' },
    ],
    numbered,
  )
}

function linkOrText(source: string): string {
  try {
    const url = new URL(source)
    if (url.protocol === 'https:' || url.protocol === 'http:') return `<${url.href.replace(/>/g, '%3E')}>`
  } catch {
    // not a URL
  }
  return inline(source)
}

function spanMs(from?: string, to?: string): number | undefined {
  if (!from || !to) return undefined
  const span = Date.parse(to) - Date.parse(from)
  return Number.isFinite(span) ? span : undefined
}
