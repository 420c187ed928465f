/**
 * The runner's side of the protocol: inputs from INPUT_* variables, outputs and the job
 * summary through the GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, and workflow commands on
 * stdout. This is what @actions/core does; we speak it directly because @actions/core's OIDC
 * client loads a second HTTP stack at start-up (~50 ms of a ~200 ms cold start, and ~0.4 MB of
 * dist — bench/run.ts). The formats follow the runner's documented file and log commands.
 */
import { randomUUID } from 'node:crypto'
import { appendFileSync, statSync } from 'node:fs'
import { EOL } from 'node:os'

/** Every registered secret in every encoded form it may take in text we write, longest first. */
let redactions: string[] = []

/**
 * Replace every registered secret in text bound for a log, an output, the summary or a file:
 * as written, and in the encoded forms the runner's own masker also hides (JSON-string escaped,
 * also twice; URL-encoded; base64 and base64url at each of the three byte alignments), so a
 * secret that went through an encoder before reaching us is still caught.
 */
export function redact(text: string): string {
  let out = text
  for (const form of redactions) if (out.includes(form)) out = out.split(form).join('***')
  return out
}

/** The forms of a secret to redact. */
function encodedForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1)
  const forms = new Set([secret, json, JSON.stringify(json).slice(1, -1), encodeURIComponent(secret)])
  // Inside a longer base64 text only whole 3-byte groups encode the same way wherever they are.
  const bytes = Buffer.from(secret, 'utf8')
  for (let shift = 0; shift < 3; shift++) {
    const whole = Math.floor((bytes.length - shift) / 3) * 3
    if (whole < 6) continue
    const base64 = bytes.subarray(shift, shift + whole).toString('base64')
    forms.add(base64)
    forms.add(base64.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return [...forms].filter((form) => form.length > 0)
}

export function getInput(name: string, options: { trimWhitespace?: boolean } = {}): string {
  const value = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? ''
  return options.trimWhitespace === false ? value : value.trim()
}

/**
 * Ask the runner to mask a value in every later log line, and redact it ourselves from
 * everything this module writes (outputs and the summary are files the runner does not mask).
 */
export function setSecret(value: string): void {
  if (!value) return
  process.stdout.write(`::add-mask::${escapeData(value)}${EOL}`)
  // Longest first, across secrets, so a longer form is never cut by a shorter one first.
  redactions = [...new Set([...redactions, ...encodedForms(value)])].sort((a, b) => b.length - a.length)
}

/** GitHub's limit per step output ("1 MB"), read as decimal megabytes to be safe either way. */
export const OUTPUT_LIMIT_BYTES = 1_000_000
/** GitHub refuses a step summary over 1 MiB, and the whole summary of the step is then lost. */
export const SUMMARY_LIMIT_BYTES = 1024 * 1024

/**
 * Set a step output. A value over GitHub's limit per output is cut to fit, with a note at its
 * end (and a warning in the log) that says where the whole value is: `wholeIn`, by default the
 * result file named by the `result-file` output.
 */
export function setOutput(name: string, value: string, options: { wholeIn?: string } = {}): void {
  const file = process.env.GITHUB_OUTPUT
  value = redact(value)
  const size = Buffer.byteLength(value, 'utf8')
  if (size > OUTPUT_LIMIT_BYTES) {
    const wholeIn = options.wholeIn ?? 'the result file (output `result-file`)'
    const note = `${EOL}${EOL}[hub-action: output \`${name}\` was cut to GitHub's limit of 1 MB per output; the whole value (${formatBytes(size)}) is in ${wholeIn}.]`
    value = clipUtf8(value, OUTPUT_LIMIT_BYTES - Buffer.byteLength(note, 'utf8')) + note
    warning(`Output \`${name}\` is ${formatBytes(size)}, over GitHub's limit of 1 MB per output: it was cut, and the whole value is in ${wholeIn}.`)
  }
  if (!file) {
    issue('set-output', value, { name })
    return
  }
  const delimiter = `ghadelimiter_${randomUUID()}`
  if (name.includes(delimiter) || value.includes(delimiter)) throw new Error(`Output ${name} contains its own delimiter.`)
  appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8')
}

/**
 * Append markdown to the job summary; false when there is no summary file (not on a runner).
 * A last resort against GitHub's 1 MiB limit for a step's summary (the renderers fit their own
 * budgets first): what would pass it is cut at a line, an open code fence is closed, and a note
 * says where the whole report is.
 */
export function appendSummary(markdown: string): boolean {
  const file = process.env.GITHUB_STEP_SUMMARY
  if (!file) return false
  let text = redact(markdown)
  if (!text.endsWith(EOL)) text += EOL
  const room = SUMMARY_LIMIT_BYTES - sizeOf(file)
  const size = Buffer.byteLength(text, 'utf8')
  if (size > room) {
    const note = `${EOL}> [!WARNING]${EOL}> This summary was cut to stay under GitHub's limit of 1 MiB per step summary. The whole report is in the result file (output \`result-file\`).${EOL}`
    text = room > Buffer.byteLength(note, 'utf8') + 16 ? cutMarkdown(text, room - Buffer.byteLength(note, 'utf8')) + note : ''
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
  process.stdout.write(neutraliseCommands(redact(message)) + EOL)
}

export function debug(message: string): void {
  issue('debug', message)
}

/** Where an annotation shows: a file of the repository and a line, and its title. */
export interface AnnotationProperties {
  file?: string
  line?: number
  title?: string
}

export function notice(message: string, properties: AnnotationProperties = {}): void {
  issue('notice', message, annotationProperties(properties))
}

export function warning(message: string, properties: AnnotationProperties = {}): void {
  issue('warning', message, annotationProperties(properties))
}

function annotationProperties(properties: AnnotationProperties): Record<string, string> {
  const out: Record<string, string> = {}
  if (properties.file !== undefined) out.file = properties.file
  if (properties.line !== undefined) out.line = String(properties.line)
  if (properties.title !== undefined) out.title = properties.title
  return out
}

export function error(message: string): void {
  issue('error', message)
}

/** Fail the step: an error annotation and a non-zero exit code. */
export function setFailed(message: string): void {
  process.exitCode = 1
  error(message)
}

export function startGroup(title: string): void {
  issue('group', title)
}

export function endGroup(): void {
  issue('endgroup', '')
}

/** Print text with workflow commands switched off around it, so it cannot issue any. */
export function infoVerbatim(text: string): void {
  const resume = randomUUID()
  issue('stop-commands', resume)
  // Commands are off until the resume token, so the text is shown exactly as written.
  process.stdout.write(redact(text) + EOL)
  issue(resume, '')
}

/**
 * A `::` where the runner sees a line start: at the start of the text or after a line break, past
 * what .NET's `TrimStart()` strips (Char.IsWhiteSpace; the breaks are the runner's own line ends,
 * so they are not in the run) and past invisible marks a reader cannot see either. Linear: a run
 * of those characters never crosses a line break, so each is scanned once.
 */
const COMMAND_AT_LINE_START = /(^|\r\n|\r|\n)([\t\v\f \u0085\u00a0\u1680\u180e\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]*)::/g
const ZERO_WIDTH_SPACE = '\u200b'

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
export function neutraliseCommands(text: string): string {
  return text.replace(/##\[/g, `##${ZERO_WIDTH_SPACE}[`).replace(COMMAND_AT_LINE_START, `$1$2:${ZERO_WIDTH_SPACE}:`)
}

function issue(command: string, message: string, properties: Record<string, string> = {}): void {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(redact(value))}`)
    .join(',')
  // The data cannot hold a line break (escaped) and a parsed `::` command is never read again as
  // the legacy form; `##[` is broken all the same, for any runner that would.
  const data = escapeData(redact(message)).replace(/##\[/g, `##${ZERO_WIDTH_SPACE}[`)
  process.stdout.write(`::${command}${props ? ` ${props}` : ''}::${data}${EOL}`)
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
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

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`
  return `${bytes} bytes`
}
