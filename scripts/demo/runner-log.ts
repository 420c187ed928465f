/**
 * A step's stdout shown the way GitHub's log viewer shows it, not as the raw workflow commands
 * the runner reads: `::add-mask::` values become *** on every later line, `::group::` blocks fold
 * to one line, `::stop-commands::` pauses command processing until its token comes back (both
 * lines hidden),
 * annotations read "Warning: …", and debug, echo and file-command lines are hidden.
 * What the runner does with each line (which commands run, which masks hide what) comes from the
 * tests' port of the runner's own parser; this module only lays it out. Pure: text in, lines out.
 */
import { readWorkflowCommands } from '../../test/oracles/workflow-commands.ts'
import { PLAIN, type Style } from './style.ts'

export interface RunnerLogOptions {
  style?: Style
  /** Show the lines of these groups (by title) under their title instead of folding them. */
  expand?: (title: string) => boolean
}

const ANNOTATIONS: Record<string, { label: string; mark: string; tone: keyof Style }> = {
  error: { label: 'Error', mark: '✖', tone: 'error' },
  warning: { label: 'Warning', mark: '⚠', tone: 'warning' },
  notice: { label: 'Notice', mark: 'ℹ', tone: 'notice' },
}

export function renderRunnerLog(log: string, options: RunnerLogOptions = {}): string[] {
  const style = options.style ?? PLAIN
  const out: string[] = []
  let group: { title: string; lines: string[] } | undefined

  const emit = (line: string): void => {
    if (group) group.lines.push(line)
    else out.push(line)
  }
  const closeGroup = (): void => {
    if (!group) return
    const { title, lines } = group
    group = undefined
    if (options.expand?.(title)) {
      out.push(`${style.bold('▾')} ${title}`, ...lines.map((line) => `  ${line}`))
    } else {
      const count = lines.length === 1 ? '1 line' : `${lines.length} lines`
      out.push(`${style.bold('▸')} ${title}${lines.length > 0 ? ` ${style.dim(`(${count}, folded)`)}` : ''}`)
    }
  }

  let resumeToken: string | undefined
  for (const line of readWorkflowCommands(log).lines) {
    const command = line.stopped ? undefined : line.command
    const name = command?.name.toLowerCase() ?? ''
    const annotation = ANNOTATIONS[name]
    const hide = (text: string): string => mask(text, line.masks)
    if (name === 'stop-commands' || (resumeToken !== undefined && name === resumeToken)) {
      // the runner prints both lines, but they mean nothing to a reader: hidden
      resumeToken = name === 'stop-commands' ? command?.data.toLowerCase() : undefined
    } else if (!command) {
      for (const shown of line.shown.split('\n')) emit(shown)
    } else if (name === 'group') {
      closeGroup()
      group = { title: hide(command.data), lines: [] }
    } else if (name === 'endgroup') {
      closeGroup()
    } else if (annotation) {
      const { file, line: at, title } = command.properties
      const where = file ? style.dim(` (${hide(file)}${at ? `:${at}` : ''})`) : ''
      const [first = '', ...rest] = hide(command.data).split(/\r?\n/)
      emit(
        `${style[annotation.tone](`${annotation.mark} ${annotation.label}:`)} ${title ? `${hide(title)}: ` : ''}${first}${where}`,
      )
      for (const more of rest) emit(`  ${more}`)
    } else if (line.shown && name !== 'debug') {
      // a command the runner echoes (echo on): the echo is what the log shows
      for (const shown of line.shown.split('\n')) emit(shown)
    }
    // add-mask, set-output …: no line in the log; debug only when step debugging is on
  }
  closeGroup()
  return out
}

/** Every mask replaced by ***, longest first so that a secret containing another is hidden whole. */
function mask(text: string, masks: readonly string[]): string {
  return [...masks].sort((a, b) => b.length - a.length).reduce((shown, secret) => shown.split(secret).join('***'), text)
}
