/**
 * The runner's side of the protocol: inputs from INPUT_* variables, outputs and the job
 * summary through the GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files, and workflow commands on
 * stdout. This is what @actions/core does; we speak it directly because @actions/core's OIDC
 * client loads a second HTTP stack at start-up (~50 ms of a ~200 ms cold start, and ~0.4 MB of
 * dist — bench/run.ts). The formats follow the runner's documented file and log commands.
 */
import { randomUUID } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { EOL } from 'node:os'

const secrets = new Set<string>()

/** Replace every registered secret in text bound for a log, an output, the summary or a file. */
export function redact(text: string): string {
  let out = text
  for (const secret of secrets) out = out.split(secret).join('***')
  return out
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
  secrets.add(value)
}

export function setOutput(name: string, value: string): void {
  const file = process.env.GITHUB_OUTPUT
  value = redact(value)
  if (!file) {
    issue('set-output', value, { name })
    return
  }
  const delimiter = `ghadelimiter_${randomUUID()}`
  if (name.includes(delimiter) || value.includes(delimiter)) throw new Error(`Output ${name} contains its own delimiter.`)
  appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8')
}

/** Append markdown to the job summary; false when there is no summary file (not on a runner). */
export function appendSummary(markdown: string): boolean {
  const file = process.env.GITHUB_STEP_SUMMARY
  if (!file) return false
  const text = redact(markdown)
  appendFileSync(file, text.endsWith(EOL) ? text : text + EOL, 'utf8')
  return true
}

/**
 * A plain log line. Lines here may carry names from the hub or a pull request, so none of
 * them may start a workflow command: a leading "::" is pushed off the line start.
 */
export function info(message: string): void {
  process.stdout.write(redact(message).replace(/^(\s*)::/gm, '$1 ::') + EOL)
}

export function debug(message: string): void {
  issue('debug', message)
}

export function notice(message: string): void {
  issue('notice', message)
}

export function warning(message: string): void {
  issue('warning', message)
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

function issue(command: string, message: string, properties: Record<string, string> = {}): void {
  const props = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',')
  process.stdout.write(`::${command}${props ? ` ${props}` : ''}::${escapeData(redact(message))}${EOL}`)
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')
}
