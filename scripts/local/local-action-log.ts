/**
 * What `npm run local` makes of @github/local-action's stdout, so that it reads like the demo: local-action
 * frames the action's log with an ASCII banner and its configuration and action.yml as tables hundreds of
 * columns wide, and prints each @actions/core call as a workflow command the runner never prints (`::info::…`,
 * `::set-output name=…::…`). This gives back what the runner would have read from the action (core.info
 * writes its text as is, annotations escape their newlines, outputs go to a file), for renderRunnerLog to show
 * as GitHub's log viewer does, and the outputs the action set. Pure: text in, parts out.
 */

export interface LocalActionRun {
  /** Whether local-action got as far as running the action: if not, `preamble` is all it said. */
  ran: boolean
  /** What local-action printed before the action ran (banner, configuration, action.yml's inputs and outputs). */
  preamble: string[]
  /** The action's stdout as the runner would have read it. */
  runnerLog: string
  /** The outputs the action set, by name, the last value of each. */
  outputs: Record<string, string>
  /** Whether local-action has printed its closing outputs table (the action has ended). */
  ended: boolean
  /** What local-action printed after its outputs table, the table itself left out. */
  after: string[]
}

/** The title lines local-action frames its stages with (`printTitle`), each between two rules of `=`. */
const RUNNING = /^\s*Running Action\s*$/
const OUTPUTS = /^\s*Action Outputs\s*$/
const RULE = /^=+$/
/** A line local-action's core stubs print for one call: the command, its properties (unescaped: a title may hold `:`), its text. */
const CORE_CALL = /^::(info|debug|error|warning|notice|group|endgroup|set-output)((?: .*?)?)::(.*)$/
/** console.table's frame and rows, and the line local-action prints instead when nothing was set. */
const TABLE = /^[┌│├└]|^No outputs were set!$/

/**
 * local-action's stdout so far, as complete lines. While the action runs, a last rule of `=` and a last blank
 * line are held back: they may open the "Action Outputs" title, so that every later reading extends the runner
 * log, never rewrites it.
 */
export function readLocalAction(stdout: string): LocalActionRun {
  const lines = stdout.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const start = lines.findIndex((line) => RUNNING.test(line))
  if (start < 0) return { ran: false, preamble: lines, runnerLog: '', outputs: {}, ended: false, after: [] }
  const end = lines.findIndex((line, at) => at > start && OUTPUTS.test(line))
  // local-action prints a blank line under each title
  const from = lines[start + 2] === '' ? start + 3 : start + 2
  const running = lines.slice(from, end < 0 ? undefined : end - 1)
  if (end < 0 && RULE.test(running.at(-1) ?? '')) running.pop()
  // and the blank line local-action prints before that title, which is not the action's
  if (running.at(-1) === '') running.pop()
  const { log, outputs } = untangle(running)
  return {
    ran: true,
    preamble: lines.slice(0, start - 1),
    runnerLog: log.map((line) => `${line}\n`).join(''),
    outputs,
    ended: end >= 0,
    after: end < 0 ? [] : lines.slice(end + 2).filter((line) => line !== '' && !TABLE.test(line)),
  }
}

/**
 * Each core call is a line of local-action's, followed by the further lines of a multi-line text. The runner
 * would have read core.info's text as is, an annotation's newlines escaped (%0A), and an output not at all.
 */
function untangle(lines: string[]): { log: string[]; outputs: Record<string, string> } {
  const log: string[] = []
  const outputs: Record<string, string> = {}
  let call: { name: string; properties: string; text: string[] } | undefined
  const finish = (): void => {
    if (!call) return
    const { name, properties, text } = call
    call = undefined
    if (name === 'set-output') outputs[/name=([^,]*)/.exec(properties)?.[1] ?? ''] = text.join('\n')
    else if (name === 'info') log.push(...text)
    else if (name === 'group' || name === 'endgroup') log.push(`::${name}::${text[0]}`, ...text.slice(1))
    else log.push(`::${name}${properties}::${escapeData(text.join('\n'))}`)
  }
  for (const line of lines) {
    const match = CORE_CALL.exec(line)
    if (match) {
      finish()
      call = { name: match[1]!, properties: match[2]!, text: [match[3]!] }
    } else if (call) call.text.push(line)
    else log.push(line)
  }
  finish()
  return { log, outputs }
}

/** As @actions/core escapes a command's data, so that a multi-line annotation stays one command. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
}
