/**
 * The workflow commands the step speaks, imported as `workflow` (not `core`: it is not
 * @actions/core, and a reader must not take a call to it for one that skips redaction).
 * The runner's side, on @actions/core: inputs, outputs, secrets, state, groups and annotations
 * go through core. What is ours on top: every secret redacted (in its encoded forms too, by
 * src/redact.ts) from logs, outputs, the summary and files; untrusted text neutralised before core writes it to
 * stdout (core escapes line breaks in command data but not a line-start `::` in a plain log line,
 * nor `##[`), its invisible format characters shown in the log and the summary as `<U+202E>`
 * (showFormatCharacters); and GitHub's size caps for outputs and the step summary. The verdict a
 * step returns is applied here too (applyVerdict), the one place a step's outcome meets the runner.
 */
import { randomUUID } from 'node:crypto'
import { appendFileSync, statSync } from 'node:fs'
import { EOL } from 'node:os'
import * as core from '@actions/core'
import { ZERO_WIDTH_SPACE, showFormatCharacters } from '../markdown/format.js'
import { formatBytes } from '../units.js'
import { redact, registerSecret } from '../redact.js'

/** Where an annotation points (core's properties): a file, a line, a title. */
export type AnnotationProperties = core.AnnotationProperties

/**
 * Ask the runner to mask a value in every later log line, and register it with the one
 * redactor (src/redact.ts), which this module applies to everything it writes: outputs, the
 * summary and files are not masked by the runner, and the log's text may hold an encoded form.
 */
export function setSecret(value: string): void {
  if (!value) return
  core.setSecret(value)
  registerSecret(value)
}

/** GitHub's limit per step output ("1 MB"), read as decimal megabytes to be safe either way. @internal */
export const OUTPUT_LIMIT_BYTES = 1_000_000
/** GitHub refuses a step summary over 1 MiB, and the whole summary of the step is then lost. @internal */
export const GITHUB_SUMMARY_LIMIT_BYTES = 1024 * 1024

/** Each output's last value written, so the same value is written once. */
const written = new Map<string, string>()

/**
 * Set a step output. A value over GitHub's limit per output is cut to fit, with a note at its
 * end (and a warning in the log) that says where the whole value is: `wholeIn`, by default the
 * result file named by the `result-file` output.
 */
export function setOutput(name: string, value: string, options: { wholeIn?: string } = {}): void {
  value = redact(value)
  // GITHUB_OUTPUT is appended to: a value written early (the run id, as soon as the run exists,
  // for an `if: cancelled()` step) is not written again when the step ends with the same one.
  if (written.get(name) === value) return
  written.set(name, value)
  const size = Buffer.byteLength(value, 'utf8')
  if (size > OUTPUT_LIMIT_BYTES) {
    const wholeIn = options.wholeIn ?? 'the result file (output `result-file`)'
    const note = `${EOL}${EOL}[hub-action: output \`${name}\` was cut to GitHub's limit of 1 MB per output; the whole value (${formatBytes(size)}) is in ${wholeIn}.]`
    value = clipUtf8(value, OUTPUT_LIMIT_BYTES - Buffer.byteLength(note, 'utf8')) + note
    warning(
      `Output \`${name}\` is ${formatBytes(size)}, over GitHub's limit of 1 MB per output: it was cut, and the whole value is in ${wholeIn}.`,
    )
  }
  // Without an output file core prints a `set-output` command: its data must not hold `##[`.
  core.setOutput(name, process.env.GITHUB_OUTPUT ? value : breakLegacyCommands(value))
}

/**
 * Append markdown to the job summary; false when there is no summary file (not on a runner).
 * A last resort against GitHub's 1 MiB limit for a step's summary (the renderers fit their own
 * budgets first): what would pass it is cut at a line, an open code fence is closed, and a note
 * says where the whole report is. Steps call writeSummary; tests call this directly. @internal
 */
export function appendSummary(markdown: string): boolean {
  const file = process.env.GITHUB_STEP_SUMMARY
  if (!file) return false
  let text = showFormatCharacters(redact(markdown))
  if (!text.endsWith(EOL)) text += EOL
  const room = GITHUB_SUMMARY_LIMIT_BYTES - sizeOf(file)
  const size = Buffer.byteLength(text, 'utf8')
  if (size > room) {
    const note = `${EOL}> [!WARNING]${EOL}> This summary was cut to stay under GitHub's limit of 1 MiB per step summary. The whole report is in the result file (output \`result-file\`).${EOL}`
    text =
      room > Buffer.byteLength(note, 'utf8') + 16
        ? cutMarkdown(text, room - Buffer.byteLength(note, 'utf8')) + note
        : ''
    warning(
      `The job summary would pass GitHub's limit of 1 MiB per step (${formatBytes(size)} more to write, room for ${formatBytes(Math.max(0, room))}): it was cut. The whole report is in the result file (output \`result-file\`).`,
    )
    if (!text) return true
  }
  appendFileSync(file, text, 'utf8')
  return true
}

/**
 * A plain log line. Lines here may carry names from the hub or a pull request, so none of
 * them may start a workflow command (see neutraliseCommands).
 */
export function info(message: string): void {
  core.info(neutraliseCommands(showFormatCharacters(redact(message))))
}

export function debug(message: string): void {
  core.debug(commandData(message))
}

export function notice(message: string, properties: AnnotationProperties = {}): void {
  core.notice(commandData(message), annotation(properties))
}

export function warning(message: string, properties: AnnotationProperties = {}): void {
  core.warning(commandData(message), annotation(properties))
}

/** An error annotation that does not fail the step by itself (the verdict does). */
export function error(message: string, properties: AnnotationProperties = {}): void {
  core.error(commandData(message), annotation(properties))
}

/** Fail the step: an error annotation and a non-zero exit code. */
export function setFailed(message: string): void {
  core.setFailed(commandData(message))
}

export function startGroup(title: string): void {
  core.startGroup(commandData(title))
}

export function endGroup(): void {
  core.endGroup()
}

/**
 * Print text with workflow commands switched off around it, so it cannot issue any. The log
 * viewer still draws a line starting `##[error]`, `##[group]`, `##[section]`… as its own
 * formatting whether commands run or not, so `##[` is broken here too (a zero-width space).
 */
export function infoVerbatim(text: string): void {
  const resume = randomUUID()
  core.info(`::stop-commands::${resume}`)
  // Commands are off until the resume token, so the text is shown as written but for `##[`.
  core.info(breakLegacyCommands(showFormatCharacters(redact(text))))
  core.info(`::${resume}::`)
}

/** Print text we do not control with workflow commands switched off around it. */
export function logUntrusted(title: string, text: string): void {
  if (title) info(title)
  infoVerbatim(text)
}

export function writeSummary(markdown: string): void {
  if (!appendSummary(markdown)) info('GITHUB_STEP_SUMMARY is not set (not on a runner): the job summary is skipped.')
}

/** A step's outcome and the one sentence that says why; main.ts gives it to the runner. */
export interface Verdict {
  status: 'pass' | 'warn' | 'fail'
  message: string
}

export function applyVerdict(verdict: Verdict): void {
  if (verdict.status === 'fail') setFailed(verdict.message)
  else if (verdict.status === 'warn') warning(verdict.message)
  else notice(verdict.message)
}

/**
 * A `::` where the runner sees a line start: at the start of the text or after a line break, past
 * what .NET's `TrimStart()` strips (Char.IsWhiteSpace; the breaks are the runner's own line ends,
 * so they are not in the run) and past invisible marks a reader cannot see either. Linear: a run
 * of those characters never crosses a line break, so each is scanned once.
 */
const COMMAND_AT_LINE_START =
  /(^|\r\n|\r|\n)([\t\v\f \u0085\u00a0\u1680\u180e\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]*)::/g

/**
 * Make text unable to issue a workflow command on any line the runner splits it into, in either
 * form it parses: a line whose trimmed start is `::` (V2), and `##[` anywhere in a line (the
 * legacy V1 form). A zero-width space goes between the two colons and between `##` and `[`: the
 * text reads the same, and a copy of it shows where it was changed. It is no whitespace to the
 * runner, so its trimming cannot remove it; and should the runner compare with a collation that
 * skips such marks, the one extra character still moves the command name off the offset the
 * parser reads it from (2 after `::`, 3 after `##[`), so no registered name is found there.
 * The one place that does this: every line the action prints goes through it, or through
 * `issue`, whose data cannot hold a line break.
 */
function neutraliseCommands(text: string): string {
  return text.replace(/##\[/g, `##${ZERO_WIDTH_SPACE}[`).replace(COMMAND_AT_LINE_START, `$1$2:${ZERO_WIDTH_SPACE}:`)
}

/**
 * Data for a command core prints: core escapes its line breaks, so no line of it starts anew; a
 * parsed `::` command is never read again as the legacy form, but `##[` is broken all the same,
 * for any runner that would.
 */
function commandData(message: string): string {
  return breakLegacyCommands(showFormatCharacters(redact(message)))
}

function breakLegacyCommands(text: string): string {
  return text.replace(/##\[/g, `##${ZERO_WIDTH_SPACE}[`)
}

/** Annotation properties as core escapes them, with secrets redacted (a title may be untrusted). */
function annotation(properties: AnnotationProperties): AnnotationProperties {
  const out: AnnotationProperties = { ...properties }
  if (properties.title !== undefined) out.title = showFormatCharacters(redact(properties.title))
  if (properties.file !== undefined) out.file = showFormatCharacters(redact(properties.file))
  return out
}

/** The first `maxBytes` bytes of text in UTF-8, never splitting a character. */
function clipUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= maxBytes) return text
  let end = Math.max(0, maxBytes)
  // Back off continuation bytes (10xxxxxx) to the start of the character that does not fit.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}

/** Markdown cut at a line break to at most `maxBytes`, with a code fence left open closed again. */
function cutMarkdown(text: string, maxBytes: number): string {
  const fenceRoom = 16
  let kept = clipUtf8(text, Math.max(0, maxBytes - fenceRoom))
  const lastBreak = kept.lastIndexOf('\n')
  kept = lastBreak >= 0 ? kept.slice(0, lastBreak + 1) : ''
  const open = openFence(kept)
  return open ? `${kept}${open}${EOL}` : kept
}

/** The fence (e.g. "```") that a closing line would need, when the text ends inside a code block. */
function openFence(text: string): string | undefined {
  let open: { char: string; length: number } | undefined
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line)
    if (!fence?.[1]) continue
    const marker = fence[1]
    const char = marker.charAt(0)
    if (!open) {
      if (char === '`' && (fence[2] ?? '').includes('`')) continue
      open = { char, length: marker.length }
    } else if (char === open.char && marker.length >= open.length && !(fence[2] ?? '').trim()) {
      open = undefined
    }
  }
  return open ? open.char.repeat(open.length) : undefined
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}
