/**
 * The action's surface, written from the command table (src/commands/index.ts) and the common
 * inputs (src/settings/common.ts), so that none of it is a hand list that can drift:
 * action.yml's `inputs:` and `outputs:` (its name, description, branding and `runs:` stay
 * hand-written), docs/reference.md's tables (which commands read each input and set each
 * output) and .env.example's list of commands, and an `INPUT_…` line for every input it lacks.
 * `npm run docs` rewrites them; `--check` (and test/docs/surface.test.ts) fails when one is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { COMMANDS } from '../src/commands/index.ts'
import { DRY_RUN_OUTPUTS, DRY_RUN_RESULT, type OutputDeclaration } from '../src/commands/command.ts'
import { declaredInputs } from '../src/settings/defaults.ts'
import type { InputDeclaration } from '../src/settings/fields.ts'
import { inputReaders, type InputTable } from '../src/settings/settings.ts'
import { updateLayout } from './layout.ts'

const ROOT = join(import.meta.dirname, '..')
const EVERY = 'every command'
const DRY_RUN = 'dry-run: true'

/** The table as the surface sees it: each row's inputs (what the reader reads) and its outputs. */
export type SurfaceTable = InputTable &
  Readonly<Record<string, { outputs: Readonly<Record<string, OutputDeclaration>> }>>

/** The files written, relative to the repository's root. */
export const FILES = { action: 'action.yml', reference: 'docs/reference.md', env: '.env.example' } as const

/** A row whose schema reads an input it does not declare would read it undocumented: refused. */
function checkRows(table: SurfaceTable): void {
  for (const [command, row] of Object.entries(table)) {
    const shape = (row.schema as unknown as { shape?: Record<string, unknown> }).shape
    if (!shape) throw new Error(`the schema of command ${command} is not a zod object: its inputs cannot be checked`)
    const undeclared = Object.keys(shape).filter((name) => !Object.hasOwn(row.inputs, name))
    if (undeclared.length > 0)
      throw new Error(`the ${command} row's schema reads ${undeclared.join(', ')}, which its \`inputs\` do not declare`)
  }
}

/** Every input: name, declaration and the commands that read it (or EVERY), in action.yml's order. */
export function surfaceInputs(
  table: SurfaceTable,
): Array<{ name: string; input: InputDeclaration; readers: string[] }> {
  checkRows(table)
  const readers = inputReaders(table)
  const all = Object.keys(table)
  return [...declaredInputs(table)].map(([name, input]) => {
    const commands = [...(readers.get(name) ?? [])]
    return { name, input, readers: commands.length === all.length ? [EVERY] : commands }
  })
}

/** Output name → the commands that set it, the dry run as `dry-run: true` last. */
export function outputSetters(table: SurfaceTable): Map<string, string[]> {
  const setters = new Map<string, string[]>()
  const rows: Array<[string, readonly string[]]> = [
    ...Object.entries(table).map(([name, row]): [string, readonly string[]] => [name, Object.keys(row.outputs)]),
    [DRY_RUN, DRY_RUN_OUTPUTS],
  ]
  for (const [command, outputs] of rows)
    for (const output of outputs) setters.set(output, [...(setters.get(output) ?? []), command])
  return setters
}

const code = (text: string) => `\`${text}\``

/**
 * Every output: name, description and setters, in the table's order. An output several rows set
 * is declared once (the same declaration); the result file's description lists the schema and
 * version each command writes, the dry run's last.
 */
export function surfaceOutputs(table: SurfaceTable): Array<{ name: string; description: string; setters: string[] }> {
  const declared = new Map<string, { declaration: OutputDeclaration; by: string }>()
  /** Output name → the result files it points to, by schema and version, with the commands that write each. */
  const results = new Map<string, Map<string, { schema: string; version: number; commands: string[] }>>()
  const rows: Array<[string, Readonly<Record<string, OutputDeclaration>>]> = [
    ...Object.entries(table).map(([name, row]): [string, Readonly<Record<string, OutputDeclaration>>] => [
      name,
      row.outputs,
    ]),
    [DRY_RUN, { 'result-file': DRY_RUN_RESULT }],
  ]
  for (const [command, outputs] of rows)
    for (const [name, declaration] of Object.entries(outputs)) {
      const known = declared.get(name)
      if (known && known.declaration.description !== declaration.description)
        throw new Error(
          `output ${name} is described differently by ${known.by} and ${command}: declare it once and use that declaration in both`,
        )
      if (!known) declared.set(name, { declaration, by: command })
      if (declaration.result) {
        const files = results.get(name) ?? new Map<string, { schema: string; version: number; commands: string[] }>()
        const key = `${declaration.result.schema}@${declaration.result.version}`
        const entry = files.get(key) ?? { ...declaration.result, commands: [] }
        entry.commands.push(command)
        results.set(name, files.set(key, entry))
      }
    }
  const setters = outputSetters(table)
  return [...declared].map(([name, { declaration }]) => {
    const schemas = [...(results.get(name)?.values() ?? [])]
    const description =
      schemas.length === 0
        ? declaration.description
        : `${declaration.description}; its \`schema\` and \`version\` say which: ${schemas
            .map((s) => `${code(s.schema)} version ${s.version} (${s.commands.map(code).join(', ')})`)
            .join(', ')}.`
    return { name, description, setters: setters.get(name) ?? [] }
  })
}

/** A YAML scalar as action.yml writes it: plain where YAML reads it back unchanged, else quoted. */
function scalar(text: string): string {
  let plain: unknown
  try {
    plain = (parse(`x: ${text}`) as { x?: unknown } | null)?.x
  } catch {
    plain = undefined
  }
  if (plain === text && text.trim() === text && !/^[`'"]/.test(text)) return text
  if (!text.includes("'")) return `'${text}'`
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

/** action.yml with its `inputs:` and `outputs:` written from the table; the rest as it is. */
export function renderActionYaml(current: string, table: SurfaceTable): string {
  const from = current.indexOf('\ninputs:\n')
  const to = current.indexOf('\nruns:\n')
  if (from < 0 || to < from) throw new Error('action.yml must have `inputs:` and then `runs:` at the top level')
  const lines = ['inputs:']
  for (const { name, input } of surfaceInputs(table))
    lines.push(
      `  ${name}:`,
      `    description: ${scalar(input.description)}`,
      `    required: ${input.required === true}`,
      `    default: ${scalar(input.default)}`,
    )
  lines.push('', 'outputs:')
  for (const { name, description } of surfaceOutputs(table))
    lines.push(`  ${name}:`, `    description: ${scalar(description)}`)
  return `${current.slice(0, from + 1)}${lines.join('\n')}\n${current.slice(to)}`
}

const cell = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim()

const commandList = (commands: readonly string[]) =>
  commands.map((command) => (command === EVERY ? command : code(command))).join(', ')

/** docs/reference.md's two tables. */
export function renderTables(table: SurfaceTable): { inputs: string; outputs: string } {
  const inputs = [
    '| input | required | default | commands | description |',
    '|---|---|---|---|---|',
    ...surfaceInputs(table).map(({ name, input, readers }) => {
      const fallback = input.default === '' ? '' : code(cell(input.default))
      return `| ${code(name)} | ${input.required === true ? 'yes' : 'no'} | ${fallback} | ${commandList(readers)} | ${cell(input.description)} |`
    }),
  ].join('\n')
  const outputs = [
    '| output | commands | description |',
    '|---|---|---|',
    ...surfaceOutputs(table).map(
      ({ name, description, setters }) => `| ${code(name)} | ${commandList(setters)} | ${cell(description)} |`,
    ),
  ].join('\n')
  return { inputs, outputs }
}

export function updateReference(document: string, tables: { inputs: string; outputs: string }): string {
  let out = document
  for (const [name, table] of Object.entries(tables)) {
    const start = `<!-- ${name}:start (generated from src/commands/ by npm run docs) -->`
    const end = `<!-- ${name}:end -->`
    const from = out.indexOf(start)
    const to = out.indexOf(end)
    if (from < 0 || to < from) throw new Error(`docs/reference.md lacks the markers ${start} … ${end}`)
    out = `${out.slice(0, from + start.length)}\n${table}\n${out.slice(to)}`
  }
  return out
}

/** The runner's variable for an input: INPUT_ and the name upper-cased, hyphens kept. */
export const envName = (input: string) => `INPUT_${input.replace(/ /g, '_').toUpperCase()}`

const LIST_HEAD = '# The commands (npm run docs writes this list from the command table):'
const RUNNER_SECTION = '# ── Runner context'

/** `text` as comment lines of at most 100 columns. */
function commentLines(text: string): string[] {
  const lines: string[] = []
  let line = '#'
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > 100 && line !== '#') {
      lines.push(line)
      line = '#'
    }
    line += ` ${word}`
  }
  return [...lines, line]
}

/**
 * .env.example with its list of commands written from the table, and every input it lacks
 * added: a command without a section of its own (`# ── command: <name>`) gets one before the
 * runner's, and an input no line sets goes at the end of the section of the first command that
 * reads it, with its description and default. What the file already says stays as written.
 */
export function renderEnvExample(current: string, table: SurfaceTable): string {
  const lines = current.split('\n')
  const head = lines.indexOf(LIST_HEAD)
  if (head < 0) throw new Error(`.env.example lacks the line "${LIST_HEAD}" above INPUT_COMMAND`)
  let end = head + 1
  while (lines[end]?.startsWith('#   ')) end++
  const width = Math.max(...Object.keys(table).map((name) => name.length))
  lines.splice(
    head + 1,
    end - head - 1,
    ...Object.entries(table).map(([name, row]) => `#   ${name.padEnd(width)}  ${row.summary}`),
  )
  const sectionOf = (command: string) =>
    lines.findIndex((line) => line.startsWith('# ── command:') && new RegExp(`\\b${command}\\b`).test(line))
  for (const command of Object.keys(table)) {
    if (sectionOf(command) >= 0) continue
    const runner = lines.findIndex((line) => line.startsWith(RUNNER_SECTION))
    if (runner < 0) throw new Error(`.env.example lacks its "${RUNNER_SECTION}" section`)
    // as wide as the runner's heading, the others' width
    const title = `# ── command: ${command} `
    lines.splice(runner, 0, title.padEnd(Math.max(lines[runner]?.length ?? 0, title.length + 3), '─'), '', '')
  }
  const set = (name: string) => lines.some((line) => line.startsWith(`${envName(name)}=`))
  for (const { name, input, readers } of surfaceInputs(table)) {
    if (set(name)) continue
    const owner = readers[0]
    if (owner === undefined || owner === EVERY)
      throw new Error(
        `.env.example does not set ${envName(name)}, an input every command reads: add it to its Hub section`,
      )
    const at = sectionOf(owner)
    let last = at + 1
    for (let i = at + 1; i < lines.length && !lines[i]?.startsWith('# ── '); i++) if (lines[i]?.trim()) last = i
    lines.splice(
      last + 1,
      0,
      ...commentLines(input.description),
      `${envName(name)}=${/^\$\{\{/.test(input.default) ? '' : input.default}`,
    )
  }
  return lines.join('\n')
}

/** Each file as the table writes it: path → [current, generated]. */
export function surface(table: SurfaceTable = COMMANDS, root = ROOT): Record<string, [string, string]> {
  const read = (path: string) => readFileSync(join(root, path), 'utf8')
  const action = read(FILES.action)
  const reference = read(FILES.reference)
  const env = read(FILES.env)
  return {
    [FILES.action]: [action, renderActionYaml(action, table)],
    [FILES.reference]: [reference, updateReference(reference, renderTables(table))],
    [FILES.env]: [env, renderEnvExample(env, table)],
  }
}

if (import.meta.main) {
  const stale = Object.entries(surface()).filter(([, [current, generated]]) => current !== generated)
  if (process.argv.includes('--check')) {
    if (stale.length > 0) {
      console.error(
        `${stale.map(([path]) => path).join(', ')} out of date with the command table: run \`npm run docs\` and commit.`,
      )
      process.exit(1)
    }
    console.log(`${Object.values(FILES).join(', ')} match the command table.`)
  } else {
    for (const [path, [, generated]] of stale) writeFileSync(join(ROOT, path), generated)
    console.log(
      stale.length === 0
        ? `${Object.values(FILES).join(', ')} already up to date.`
        : `${stale.map(([path]) => path).join(', ')} written from the command table.`,
    )
  }
  // CONTRIBUTING.md's layout sketch takes its folder lines from the folders' README.md.
  updateLayout(process.argv.includes('--check'))
}
