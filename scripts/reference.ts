/**
 * docs/reference.md's inputs and outputs tables, generated so they cannot drift: names,
 * descriptions, Required and Default from action.yml; which commands read each input and set
 * each output from the code. `npm run docs` rewrites the tables between their markers;
 * `--check` (and test/docs/reference.test.ts) fails when the file is out of date.
 *
 * Inputs: `command` and the common schema's keys in src/settings/settings.ts (read by every
 * command), each command row's schema `.shape` (the rows are `command('name', {…})` in
 * src/commands/<family>/index.ts), and the `raw['…']` inputs a row's checks read besides. Outputs: each command's row in src/commands/index.ts names the outputs its
 * step sets (the compiler holds each list to what its publisher builds).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { parse } from 'yaml'
import { inputReaders as readersInCode } from '../src/settings/settings.ts'
import { COMMANDS, outputSetters } from '../src/commands/index.ts'
import { updateLayout } from './layout.ts'

export { outputSetters }

const ROOT = join(import.meta.dirname, '..')
const REFERENCE = join(ROOT, 'docs', 'reference.md')
const EVERY = 'every command'

interface ActionYaml {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>
  outputs: Record<string, { description: string }>
}

function sourceOf(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.Latest, true)
}

function propertyName(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : name.getText()
}

/** Depth-first over a node and its descendants. */
function visit(node: ts.Node, each: (node: ts.Node) => void): void {
  each(node)
  ts.forEachChild(node, (child) => visit(child, each))
}

/** The keys of `const CommonSchema = z.object({ … })`: the inputs every command reads. */
function commonInputs(): string[] {
  const keys: string[] = []
  visit(sourceOf('src/settings/settings.ts'), (node) => {
    if (
      !ts.isVariableDeclaration(node) ||
      node.name.getText() !== 'CommonSchema' ||
      !node.initializer ||
      !ts.isCallExpression(node.initializer)
    )
      return
    const shape = node.initializer.arguments[0]
    if (shape && ts.isObjectLiteralExpression(shape))
      for (const property of shape.properties) if (property.name) keys.push(propertyName(property.name))
  })
  if (keys.length === 0) throw new Error('src/settings/settings.ts has no `const CommonSchema = z.object({…})`')
  return ['command', ...keys]
}

/** `raw['x']` read in each row (`command('name', {…})` in src/commands/<family>/index.ts): inputs a row's checks read besides its schema. */
function rawReads(): Map<string, string[]> {
  const reads = new Map<string, string[]>()
  const families = readdirSync(join(ROOT, 'src/commands'), { withFileTypes: true }).filter((entry) =>
    entry.isDirectory(),
  )
  for (const family of families) {
    const path = `src/commands/${family.name}/index.ts`
    if (!readdirSync(join(ROOT, 'src/commands', family.name)).includes('index.ts')) continue
    visit(sourceOf(path), (node) => {
      if (!ts.isCallExpression(node) || node.expression.getText() !== 'command') return
      const [name, row] = node.arguments
      if (!name || !ts.isStringLiteral(name) || !row) return
      const names: string[] = []
      visit(row, (inner) => {
        if (
          ts.isElementAccessExpression(inner) &&
          inner.expression.getText() === 'raw' &&
          ts.isStringLiteral(inner.argumentExpression)
        )
          names.push(inner.argumentExpression.text)
      })
      reads.set(name.text, names)
    })
  }
  return reads
}

/**
 * Input name → the commands that read it (or EVERY), as the action itself knows it (its
 * unread-input warning uses the same map). A row whose checks read `raw['x']` without
 * declaring it in `reads` fails here, so the two cannot drift.
 */
export function inputReaders(): Map<string, string[]> {
  const common = commonInputs()
  for (const [command, names] of rawReads()) {
    const row: { reads?: readonly string[] } | undefined = COMMANDS[command as keyof typeof COMMANDS]
    const declared = [...common, ...(row?.reads ?? [])]
    const missing = names.filter((name) => !declared.includes(name as never))
    if (missing.length > 0)
      throw new Error(
        `the ${command} row of src/commands/ reads raw['${missing.join("'], raw['")}']: add it to the row's reads`,
      )
  }
  return new Map(
    [...readersInCode(COMMANDS)].map(([name, commands]) => [name, common.includes(name) ? [EVERY] : [...commands]]),
  )
}

const cell = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim()

/** Commands in the order `command` lists them, `dry-run: true` last. */
const ORDER: readonly string[] = [EVERY, ...Object.keys(COMMANDS), 'dry-run: true']
const commandList = (commands: readonly string[]) =>
  [...commands]
    .sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))
    .map((command) => (command === EVERY ? command : `\`${command}\``))
    .join(', ')

export function renderTables(actionYaml: string): { inputs: string; outputs: string } {
  const action = parse(actionYaml) as ActionYaml
  const readers = inputReaders()
  const setters = outputSetters()
  const inputs = [
    '| input | required | default | commands | description |',
    '|---|---|---|---|---|',
    ...Object.entries(action.inputs).map(([name, input]) => {
      const commands = readers.get(name)
      if (!commands) throw new Error(`action.yml declares input ${name}, which no command reads (src/settings/)`)
      const fallback = input.default === undefined || input.default === '' ? '' : `\`${cell(String(input.default))}\``
      return `| \`${name}\` | ${input.required === true ? 'yes' : 'no'} | ${fallback} | ${commandList(commands)} | ${cell(input.description)} |`
    }),
  ].join('\n')
  const outputs = [
    '| output | commands | description |',
    '|---|---|---|',
    ...Object.entries(action.outputs).map(([name, output]) => {
      const commands = setters.get(name)
      if (!commands) throw new Error(`action.yml declares output ${name}, which no command sets (src/commands/)`)
      return `| \`${name}\` | ${commandList(commands)} | ${cell(output.description)} |`
    }),
  ].join('\n')
  for (const name of readers.keys())
    if (!(name in action.inputs)) throw new Error(`the code reads input ${name}, which action.yml does not declare`)
  for (const name of setters.keys())
    if (!(name in action.outputs)) throw new Error(`the code sets output ${name}, which action.yml does not declare`)
  return { inputs, outputs }
}

export function updateReference(document: string, tables: { inputs: string; outputs: string }): string {
  let out = document
  for (const [name, table] of Object.entries(tables)) {
    const start = `<!-- ${name}:start (generated from action.yml by npm run docs) -->`
    const end = `<!-- ${name}:end -->`
    const from = out.indexOf(start)
    const to = out.indexOf(end)
    if (from < 0 || to < from) throw new Error(`docs/reference.md lacks the markers ${start} … ${end}`)
    out = `${out.slice(0, from + start.length)}\n${table}\n${out.slice(to)}`
  }
  return out
}

if (import.meta.main) {
  const document = readFileSync(REFERENCE, 'utf8')
  const updated = updateReference(document, renderTables(readFileSync(join(ROOT, 'action.yml'), 'utf8')))
  if (process.argv.includes('--check')) {
    if (updated !== document) {
      console.error('docs/reference.md is out of date with action.yml and the code: run `npm run docs` and commit it.')
      process.exit(1)
    }
    console.log('docs/reference.md matches action.yml and the code.')
  } else {
    writeFileSync(REFERENCE, updated)
    console.log(
      updated === document
        ? 'docs/reference.md already up to date.'
        : 'docs/reference.md regenerated from action.yml and the code.',
    )
  }
  // CONTRIBUTING.md's layout sketch takes its folder lines from the folders' README.md.
  updateLayout(process.argv.includes('--check'))
}
