/**
 * A step's stdout shown the way GitHub's log viewer shows it, not as the raw workflow commands
 * the runner reads: `::add-mask::` values become *** on every later line, `::group::` blocks fold
 * to one line, `::stop-commands::` pauses command processing until its token comes back,
 * annotations read "Warning: …", and debug, echo and file-command lines are hidden.
 * Pure: text in, lines out (https://docs.github.com/actions/reference/workflow-commands-for-github-actions).
 */
import { PLAIN, type Style } from './style.ts'

export interface RunnerLogOptions {
  style?: Style
  /** Show the lines of these groups (by title) under their title instead of folding them. */
  expand?: (title: string) => boolean
}

interface Command {
  name: string
  properties: Record<string, string>
  data: string
}

/** `::name key=value,key=value::data`, or undefined when the line is no workflow command. */
export function parseCommand(line: string): Command | undefined {
  const match = /^::([A-Za-z][\w-]*)(?: ([^:]*))?::(.*)$/s.exec(line)
  if (!match) return undefined
  const properties: Record<string, string> = {}
  for (const pair of (match[2] ?? '').split(',')) {
    const at = pair.indexOf('=')
    if (at > 0) properties[pair.slice(0, at).trim()] = unescapeProperty(pair.slice(at + 1))
  }
  return { name: (match[1] ?? '').toLowerCase(), properties, data: unescapeData(match[3] ?? '') }
}

const unescapeData = (text: string): string => text.replace(/%0D/gi, '\r').replace(/%0A/gi, '\n').replace(/%25/g, '%')
const unescapeProperty = (text: string): string => unescapeData(text).replace(/%3A/gi, ':').replace(/%2C/gi, ',')

const ANNOTATIONS: Record<string, { label: string; mark: string; tone: keyof Style }> = {
  error: { label: 'Error', mark: '✖', tone: 'error' },
  warning: { label: 'Warning', mark: '⚠', tone: 'warning' },
  notice: { label: 'Notice', mark: 'ℹ', tone: 'notice' },
}
/** Commands the log viewer never shows as a line (debug only with step debugging on). */
const SILENT = new Set(['add-mask', 'debug', 'echo', 'set-output', 'save-state', 'add-path', 'add-matcher', 'remove-matcher', 'set-env'])

export function renderRunnerLog(log: string, options: RunnerLogOptions = {}): string[] {
  const style = options.style ?? PLAIN
  const masks: string[] = []
  const out: string[] = []
  let group: { title: string; lines: string[] } | undefined
  let resumeToken: string | undefined

  const mask = (text: string): string => masks.reduce((shown, secret) => shown.split(secret).join('***'), text)
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

  for (const raw of log.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n')) {
    if (log === '') break
    if (resumeToken !== undefined) {
      if (raw === `::${resumeToken}::`) resumeToken = undefined
      else emit(mask(raw))
      continue
    }
    const command = parseCommand(raw)
    if (!command) {
      emit(mask(raw))
      continue
    }
    const annotation = ANNOTATIONS[command.name]
    if (command.name === 'add-mask') {
      const secret = command.data.trim()
      if (secret !== '' && !masks.includes(secret)) {
        masks.push(secret)
        // longest first, so that a secret containing another is hidden whole
        masks.sort((a, b) => b.length - a.length)
      }
    } else if (command.name === 'stop-commands') {
      resumeToken = command.data
    } else if (command.name === 'group') {
      closeGroup()
      group = { title: mask(command.data), lines: [] }
    } else if (command.name === 'endgroup') {
      closeGroup()
    } else if (annotation) {
      const { file, line, title } = command.properties
      const where = file ? style.dim(` (${file}${line ? `:${line}` : ''})`) : ''
      const [first = '', ...rest] = mask(command.data).split('\n')
      const paint = style[annotation.tone]
      emit(`${paint(`${annotation.mark} ${annotation.label}:`)} ${title ? `${mask(title)}: ` : ''}${first}${where}`)
      for (const more of rest) emit(`  ${more}`)
    } else if (!SILENT.has(command.name)) {
      // an unknown command is printed as it came, as GitHub does
      emit(mask(raw))
    }
  }
  closeGroup()
  return out
}
