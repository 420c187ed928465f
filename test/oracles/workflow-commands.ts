/**
 * A test-only port of the GitHub Actions runner's workflow-command parser, to judge what an
 * action's stdout would make the runner do. Ported from actions/runner:
 * - src/Runner.Common/ActionCommand.cs — `TryParseV2` (the line, `TrimStart()`ed, starts with
 *   `::`; command name up to the first space or the next `::`; `k=v,k=v` properties; data after
 *   the second `::`) and `TryParse` (the legacy form: `##[` anywhere in the line, command info up
 *   to the next `]`, `;`-separated properties, data after the `]`), with their unescaping;
 * - src/Runner.Worker/ActionCommandManager.cs — `TryProcessCommand`: V2 first, then V1; only
 *   registered names (case-insensitive); `stop-commands` switches every command off until a
 *   command named by its token; `add-mask` is never echoed;
 * - the secret masker: a line is printed with every mask registered before it replaced by `***`.
 * Lines are split as .NET's `ReadLine` does: on `\r\n`, `\r` and `\n`.
 *
 * API: `readWorkflowCommands(stdout)` → every line with the command it issued (if any), whether
 * commands were stopped, the masks in force and the text a reader sees; `exposedLines(view,
 * secret)` → the lines where the secret is shown in clear; `fakedFormatting(view)` → lines the log
 * viewer would draw as an error, a fold or a section though no command made them.
 */
import { DOTNET_WHITESPACE, foldCase, indexOf, startsWith, type Collation } from './dotnet-strings.ts'

/** Commands the runner registers by default (plus `stop-commands`). */
const RUNNER_COMMANDS: readonly string[] = [
  'stop-commands',
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
]

/** Commands whose own line is not echoed (ActionCommandManager `OmitEcho`). */
const OMIT_ECHO = new Set(['add-mask', 'debug', 'warning', 'error', 'notice'])

export interface WorkflowCommand {
  /** The command name as written (the runner compares it without case). */
  name: string
  form: '::' | '##['
  properties: Record<string, string>
  data: string
  /** Index of the line in `RunnerView.lines`. */
  line: number
}

export interface RunnerLine {
  /** The line as the action wrote it. */
  text: string
  /** The command this line issued, when the runner executed one. */
  command?: WorkflowCommand
  /** Commands were stopped when the line arrived (and it was not the resume token). */
  stopped: boolean
  /** Masks in force when the line was printed. */
  masks: readonly string[]
  /** What a reader sees for this line, masks applied ('' when the runner prints nothing). */
  shown: string
}

export interface RunnerView {
  lines: RunnerLine[]
  /** Every command the runner executed, in order (stop-commands and its resume token included). */
  commands: WorkflowCommand[]
  /** Every mask registered by the end. */
  masks: string[]
  /** Commands were still stopped at the end of the output. */
  stoppedAtEnd: boolean
}

export interface ReadOptions {
  /** 'ordinal' (default) compares code units; 'icu' skips default-ignorable code points in `StartsWith`/`IndexOf`, as .NET does with ICU. */
  collation?: Collation
}

export function readWorkflowCommands(stdout: string, options: ReadOptions = {}): RunnerView {
  const collation = options.collation ?? 'ordinal'
  const registered = new Set(RUNNER_COMMANDS.map(foldCase))
  const texts = stdout.split(/\r\n|\r|\n/)
  if (texts.at(-1) === '') texts.pop()
  const view: RunnerView = { lines: [], commands: [], masks: [], stoppedAtEnd: false }
  let stopToken: string | undefined
  let echo = false

  texts.forEach((text, index) => {
    const masks = [...view.masks]
    const line: RunnerLine = { text, stopped: stopToken !== undefined, masks, shown: mask(text, masks) }
    view.lines.push(line)
    const parsed = text ? (parseV2(text, registered, collation) ?? parseV1(text, registered, collation)) : undefined
    if (!parsed) return
    const command: WorkflowCommand = { ...parsed, line: index }
    // Folded as the runner compares names, then lower-cased to match the known names below.
    const name = foldCase(command.name).toLowerCase()
    if (stopToken !== undefined) {
      if (foldCase(command.name) !== foldCase(stopToken)) return
      registered.delete(foldCase(command.name))
      stopToken = undefined
      line.stopped = false
      accept(line, command, text)
      return
    }
    if (name === 'stop-commands') {
      stopToken = command.data
      registered.add(foldCase(command.data))
      accept(line, command, text)
      return
    }
    if (name === 'add-mask' && command.data.trim()) view.masks.push(command.data)
    if (name === 'echo')
      echo =
        command.data.trim().toUpperCase() === 'ON' ? true : command.data.trim().toUpperCase() === 'OFF' ? false : echo
    accept(line, command, shownFor(name, command, text, echo))
  })
  view.stoppedAtEnd = stopToken !== undefined
  return view

  function accept(line: RunnerLine, command: WorkflowCommand, shown: string): void {
    line.command = command
    line.shown = mask(shown, line.masks)
    view.commands.push(command)
  }
}

/** Lines where the secret is shown in clear: printed, and no mask in force hid it. */
export function exposedLines(view: RunnerView, secret: string): RunnerLine[] {
  return view.lines.filter((line) => line.shown.includes(secret))
}

/**
 * What GitHub's log viewer draws as its own formatting, not as text: a printed line that starts
 * with one of these in brackets after `##` (a red error, a fold, a section header). The runner
 * prints such lines for the commands it runs; any other line that starts so is faked.
 */
export const VIEWER_FORMATS: readonly string[] = [
  'error',
  'warning',
  'notice',
  'debug',
  'group',
  'endgroup',
  'section',
  'command',
]
const VIEWER_FORMAT = new RegExp(`^\\s*##\\[(${VIEWER_FORMATS.join('|')})\\]`, 'i')

/** Lines the viewer would draw as formatting though no command the runner ran made them. */
export function fakedFormatting(view: RunnerView): RunnerLine[] {
  return view.lines.filter(
    (line) => line.command === undefined && line.shown.split('\n').some((shown) => VIEWER_FORMAT.test(shown)),
  )
}

/** The log as a reader sees it: each line's shown text, masks applied. */
export function shownLog(view: RunnerView): string {
  return view.lines.map((line) => line.shown).join('\n')
}

function shownFor(name: string, command: WorkflowCommand, text: string, echo: boolean): string {
  const echoed = echo && !OMIT_ECHO.has(name) ? `${text}\n` : ''
  switch (name) {
    case 'group':
      return `${echoed}##[group]${command.data}`
    case 'endgroup':
      return `${echoed}##[endgroup]`
    case 'warning':
    case 'error':
    case 'notice':
    case 'debug':
      // The annotation's message reaches the log (debug only with step debugging on: counted anyway).
      return `##[${name}]${command.data}`
    default:
      return echoed.trimEnd()
  }
}

function parseV2(
  message: string,
  registered: Set<string>,
  collation: Collation,
): Omit<WorkflowCommand, 'line'> | undefined {
  const trimmed = message.replace(DOTNET_WHITESPACE, '')
  if (!startsWith(trimmed, '::', collation)) return undefined
  const end = indexOf(trimmed, '::', 2, collation)
  if (end < 0) return undefined
  const info = trimmed.slice(2, end)
  const space = info.indexOf(' ')
  const name = space < 0 ? info : info.slice(0, space)
  if (!name || !registered.has(foldCase(name))) return undefined
  const properties: Record<string, string> = {}
  if (space > 0) {
    for (const entry of info
      .slice(space + 1)
      .trim()
      .split(','))
      addProperty(properties, entry, unescapeProperty)
  }
  return { name, form: '::', properties, data: unescapeData(trimmed.slice(end + 2)) }
}

function parseV1(
  message: string,
  registered: Set<string>,
  collation: Collation,
): Omit<WorkflowCommand, 'line'> | undefined {
  const prefix = indexOf(message, '##[', 0, collation)
  if (prefix < 0) return undefined
  const bracket = message.indexOf(']', prefix)
  if (bracket < 0) return undefined
  const info = message.slice(prefix + 3, bracket)
  const space = info.indexOf(' ')
  const name = space < 0 ? info : info.slice(0, space)
  if (!name || !registered.has(foldCase(name))) return undefined
  const properties: Record<string, string> = {}
  if (space > 0) {
    for (const entry of info.slice(space + 1).split(';')) addProperty(properties, entry, unescapeV1)
  }
  return { name, form: '##[', properties, data: unescapeV1(message.slice(bracket + 1)) }
}

function addProperty(properties: Record<string, string>, entry: string, unescape: (text: string) => string): void {
  const at = entry.indexOf('=')
  if (at <= 0 || at === entry.length - 1) return
  properties[entry.slice(0, at)] = unescape(entry.slice(at + 1))
}

function replaceAll(text: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  return pairs.reduce((out, [escaped, plain]) => out.split(escaped).join(plain), text)
}

const unescapeData = (text: string) =>
  replaceAll(text, [
    ['%0D', '\r'],
    ['%0A', '\n'],
    ['%25', '%'],
  ])
const unescapeProperty = (text: string) =>
  replaceAll(text, [
    ['%0D', '\r'],
    ['%0A', '\n'],
    ['%3A', ':'],
    ['%2C', ','],
    ['%25', '%'],
  ])
const unescapeV1 = (text: string) =>
  replaceAll(text, [
    ['%3B', ';'],
    ['%0D', '\r'],
    ['%0A', '\n'],
    ['%5D', ']'],
    ['%25', '%'],
  ])

function mask(text: string, masks: readonly string[]): string {
  let out = text
  for (const value of [...masks].sort((a, b) => b.length - a.length)) out = out.split(value).join('***')
  return out
}

/** Commands an action writes itself, always at the start of a line in the `::` form. */
const ACTION_VOCABULARY = new Set([
  'add-mask',
  'stop-commands',
  'group',
  'endgroup',
  'warning',
  'error',
  'notice',
  'debug',
])
const RESUME_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * The commands in `view` that untrusted text issued, for tests that plant text starting with
 * `marker`: any command in the legacy form or not at column 0 (an action writes neither), a
 * name outside the action's vocabulary, a stop or resume token that is not a random UUID, and an
 * `add-mask` or a command whose data carries or starts with the marker.
 */
export function injectedCommands(view: RunnerView, marker: string): WorkflowCommand[] {
  const resumeTokens = new Set(
    view.commands.filter((c) => c.name.toLowerCase() === 'stop-commands').map((c) => foldCase(c.data)),
  )
  return view.commands.filter((command) => {
    const text = view.lines[command.line]?.text ?? ''
    const name = command.name.toLowerCase()
    if (command.form !== '::' || !text.startsWith('::')) return true
    if (resumeTokens.has(foldCase(command.name))) return !RESUME_TOKEN.test(command.name)
    if (!ACTION_VOCABULARY.has(name)) return true
    if (name === 'stop-commands') return !RESUME_TOKEN.test(command.data)
    if (name === 'add-mask') return command.data.includes(marker)
    return command.data.startsWith(marker)
  })
}
