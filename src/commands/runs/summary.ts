/**
 * RunResult → markdown for the job summary. Pure: the publisher writes it.
 *
 * Size: the whole summary fits SUMMARY_BYTE_BUDGET. Each untrusted part has a cap of its own
 * (hub message, approval arguments, sources, each step's cells, the steps table); the agent's
 * output gets what is left. When anything is cut, a note says the result file holds all of it.
 * Loaded on demand: it pulls in the markdown parser.
 */
import type { RunOutcome, ShownRun } from './seen.js'
import { costLine, runCost, stepDetails } from './cost.js'
import { structuredSection } from './structured-summary.js'
import type { Verdict } from '../../runner/workflow.js'
import { fingerprint } from '../../runner/context.js'
import { ChildRunSchema, canonicalPhase, type RunDetail } from '../../hub/schemas.js'
import { stepsSection, type Clip } from './summary-steps.js'
import {
  SUMMARY_BYTE_BUDGET,
  byteLength,
  clipBytes,
  clipCharacters,
  code,
  fenced,
  inline,
  showFormatCharacters,
  table,
} from '../../markdown/format.js'
import { formatCount, formatDuration, formatUsd } from '../../units.js'
import { jsonTextForDisplay } from '../../markdown/json-text.js'
import { untrustedMarkdown } from '../../markdown/untrusted.js'

/** Characters of the agent's answer handed to the parser; more could never fit the budget. */
const OUTPUT_SOURCE_CHARS = 200_000
const LIMITS = {
  name: 200,
  verdict: 2_000,
  message: 64 * 1024,
  approvalArgs: 64 * 1024,
  sourcesList: 32 * 1024,
  source: 2_000,
  children: 50,
}
const ICON: Record<Verdict['status'], string> = { pass: '✅', warn: '⚠️', fail: '❌' }

interface RunSummaryOptions {
  /** Path of the result file, named in the note when something had to be cut. */
  resultFile?: string | undefined
  /** Whole summary budget in bytes (tests use small ones). */
  budget?: number
}

/** A few lines of what agents write: headings, emphasis, code, links, lists, a table, a quote. */
const WARM_UP_SAMPLE =
  '## A\n\nSome *text* with `code`, **bold** and a [link](https://example.com).\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n```\ncode\n```\n'

/**
 * Render a small answer once and throw it away: V8 compiles each of marked's expressions on its
 * first use, and publish.ts calls this while the hub holds a wait, so that work is not done
 * between the run settling and the step ending.
 */
export function warmUp(): void {
  untrustedMarkdown(WARM_UP_SAMPLE)
}

/**
 * The agent's answer as the job summary shows it (output `output-markdown`): markdown the action
 * wrote, with no raw HTML, no @mention that notifies, no image that loads, links only to http(s)
 * and mailto, invisible characters shown; for recipes that publish the answer (release notes).
 */
export function cleanOutput(text: string): string {
  return showFormatCharacters(untrustedMarkdown(text, { maxBytes: CLEAN_OUTPUT_BYTES }).markdown)
}
/** Under GitHub's 1 MB per output, with room for what showing invisible characters adds. */
const CLEAN_OUTPUT_BYTES = 768 * 1024

/** What was read of the run, with the waiting facts when the step waited for it (./seen.ts). */
export function renderRunSummary(result: ShownRun, verdict: Verdict, options: RunSummaryOptions = {}): string {
  const budget = options.budget ?? SUMMARY_BYTE_BUDGET
  const detail = result.detail
  let cut = false
  const clip = (text: string, max: number) => {
    const clipped = clipCharacters(text, max, ' …(clipped)')
    cut ||= clipped.clipped
    return clipped.text
  }

  const head: string[] = []
  // A run stopped at its approval gate neither passed nor failed, whatever the step's verdict: its heading says so.
  const atGate = result.outcome === 'awaiting-approval' || canonicalPhase(result.phase) === 'PendingApproval'
  head.push(
    `## ${atGate ? '⏸️' : ICON[verdict.status]} Agent run: ${inline(clip(result.agent, LIMITS.name))} — ${atGate ? 'waiting for approval' : inline(clip(result.phase, LIMITS.name))}`,
  )
  // A verdict line that only repeats the heading is left out; the hub's message is shown once, in
  // its own section when there is one, so not in this line.
  const showsHubMessage = Boolean(detail?.message) && outcomeOf(result) !== 'succeeded'
  if (!verdictRepeatsHeading(result, verdict)) {
    head.push(
      inline(
        clip(
          showsHubMessage ? withoutHubMessage(verdict.message, detail?.message ?? '') : verdict.message,
          LIMITS.verdict,
        ),
      ),
    )
  }
  if (result.reused) {
    head.push(
      '> [!NOTE]\n> The hub returned an existing run for this idempotency key (a re-run on the same commit attaches to the first run instead of starting another).',
    )
  }

  const duration = detail?.durationMS ?? spanMs(detail?.startedAt, detail?.finishedAt)
  const facts: Array<[string, string]> = [
    ['Run', code(clip(result.runId, LIMITS.name))],
    ['Phase', `**${inline(clip(result.phase, LIMITS.name))}**${result.settled ? '' : ' (not settled)'}`],
    ['Duration', formatDuration(duration)],
  ]
  if (result.waitedMs !== undefined) facts.push(['Waited', formatDuration(result.waitedMs)])
  // Every run of the step and the children their details list (cost.ts).
  const cost = runCost(stepDetails(result))
  if (cost.runs > 0) {
    facts.push(['Tokens in / out', `${formatCount(cost.inputTokens)} / ${formatCount(cost.outputTokens)}`])
    facts.push(['Cost', formatUsd(cost.usdMicros)])
  }
  head.push(
    table(
      facts.map(([header], index) => ({ header, cell: (row: string[]) => row[index] ?? '' })),
      [facts.map((fact) => fact[1])],
    ),
  )
  if (cost.runs > 0) head.push(costLine(cost))
  if (result.idempotencyKey) {
    head.push(
      // The session only as a fingerprint: whoever knows its id can write the history replayed into it.
      `Idempotency key ${code(clip(result.idempotencyKey, LIMITS.name))}, session ${code(fingerprint(result.sessionId))}.`,
    )
  }

  const body: string[] = []
  if (detail?.message && showsHubMessage) {
    body.push(`### Message from the hub\n\n${fenced(clipBytesNoting(detail.message, LIMITS.message))}`)
  }
  if (detail?.pending && result.phase === 'PendingApproval') {
    const args =
      detail.pending.args === undefined
        ? ''
        : `\n\n${fenced(clipBytesNoting(jsonTextForDisplay(detail.pending.args, LIMITS.approvalArgs), LIMITS.approvalArgs), 'json')}`
    const id = detail.pending.inboxID ? ` (approval ${code(clip(detail.pending.inboxID, LIMITS.name))})` : ''
    body.push(
      `### Waiting for approval\n\nTool ${code(clip(detail.pending.tool ?? 'unknown', LIMITS.name))} needs a human's approval${id}: on the hub, or with \`command: approve\` and this step's \`approval-id\` output.${args}`,
    )
  }
  const tail: string[] = []
  // Sources once: those the agent's answer already names are not listed again.
  const sources = (detail?.sources ?? []).filter((source) => !detail?.output?.includes(source))
  if (sources.length > 0) tail.push(sourcesSection(sources, clip, () => (cut = true)))
  const structured = structuredSection(result.structured, () => (cut = true))
  if (structured) body.push(structured)
  const children = detail ? childrenSection(detail, clip) : ''
  if (children) tail.push(children)
  if (detail && detail.steps.length > 0) tail.push(stepsSection(detail.steps, clip, () => (cut = true)))

  function clipBytesNoting(text: string, max: number): string {
    const clipped = clipBytes(text, max, '\n…(clipped)')
    cut ||= clipped.clipped
    return clipped.text
  }

  // The agent's answer gets what the other sections leave, less room for the note.
  let output: string | undefined
  if (detail?.output) {
    const note = trimmedNote(options.resultFile)
    const others = [...head, ...body, ...tail, note].reduce((sum, section) => sum + byteLength(section) + 2, 0)
    const source = clipCharacters(detail.output, OUTPUT_SOURCE_CHARS, '\n\n…(clipped)')
    const room = Math.max(0, budget - others - byteLength('### Output\n\n') - 1)
    const answer = untrustedMarkdown(source.text, { headingsBelow: 3, maxBytes: room })
    cut ||= source.clipped || answer.clipped
    output = `### Output\n\n${answer.markdown || '_(too long for the job summary: see the result file)_'}`
  }

  const sections = [
    ...head,
    ...(cut ? [trimmedNote(options.resultFile)] : []),
    ...body,
    ...(output ? [output] : []),
    ...tail,
  ]
  return `${sections.join('\n\n')}\n`
}

/**
 * "Run … of agent … succeeded." says only what the heading, the table and "Message from the hub"
 * show; the other verdicts (timed out, waiting for approval, no message …) say more.
 */
function verdictRepeatsHeading(result: ShownRun, verdict: Verdict): boolean {
  const outcome = outcomeOf(result)
  if (outcome === 'succeeded') return verdict.status === 'pass'
  return (outcome === 'failed' || outcome === 'aborted') && Boolean(result.detail?.message)
}

/** How the wait ended; without a wait, how the run ended as read (undefined while it goes on). */
function outcomeOf(result: ShownRun): RunOutcome | undefined {
  if (result.outcome !== undefined) return result.outcome
  const ended = { Succeeded: 'succeeded', Failed: 'failed', Aborted: 'aborted' } as const
  return ended[result.phase as keyof typeof ended]
}

function trimmedNote(resultFile: string | undefined): string {
  const where = resultFile
    ? `the result file ${code(resultFile)} (output \`result-file\`)`
    : 'the result file (output `result-file`)'
  return `> [!NOTE]\n> Parts of this run were cut to keep the job summary under GitHub's 1 MiB limit: ${where} holds all of it.`
}

/** The sources list, whole items only, up to its byte cap; a last item counts those left out. */
function sourcesSection(sources: readonly string[], clip: Clip, noteCut: () => void): string {
  const shown: string[] = []
  let size = 0
  for (const source of sources) {
    const item = `- ${linkOrText(clip(source, LIMITS.source))}`
    if (size + byteLength(item) + 1 > LIMITS.sourcesList) break
    shown.push(item)
    size += byteLength(item) + 1
  }
  if (shown.length < sources.length) {
    noteCut()
    shown.push(`- … and ${formatCount(sources.length - shown.length)} more: the result file lists them all.`)
  }
  return `### Sources\n\n${shown.join('\n')}`
}

function linkOrText(source: string): string {
  try {
    const url = new URL(source)
    if (url.protocol === 'https:' || url.protocol === 'http:')
      return `<${url.href.replace(/[<>\\\s]/g, encodeURIComponent)}>`
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

/** The verdict line without the hub's message, which has a section of its own. */
function withoutHubMessage(message: string, hubMessage: string): string {
  const at = message.indexOf(`: ${hubMessage}`)
  return at < 0
    ? message
    : `${message.slice(0, at)} (the hub's message is below).${message.slice(at + 2 + hubMessage.length)}`
}

/** Runs this one delegated to or spawned, with their phase; the hub lists at most 50. */
function childrenSection(detail: RunDetail, clip: Clip): string {
  const children = detail.children.flatMap((child) => {
    const parsed = ChildRunSchema.safeParse(child)
    return parsed.success ? [parsed.data] : []
  })
  if (children.length === 0) return ''
  const shown = children.slice(0, LIMITS.children)
  const rows = table<(typeof shown)[number]>(
    [
      { header: 'Run', cell: (child) => code(clip(child.id ?? 'unknown', LIMITS.name)) },
      { header: 'Agent', cell: (child) => inline(clip(child.agent ?? 'unknown', LIMITS.name)) },
      { header: 'Phase', cell: (child) => inline(clip(child.phase ?? 'unknown', LIMITS.name)) },
      { header: 'Kind', cell: (child) => inline(clip(child.class ?? child.trigger ?? '', LIMITS.name)) },
    ],
    shown,
  )
  const more =
    children.length > shown.length
      ? `

… and ${formatCount(children.length - shown.length)} more: the result file lists them all.`
      : ''
  return `### Children runs (${formatCount(children.length)})

${rows}${more}`
}
