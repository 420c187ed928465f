/**
 * The README's inputs and outputs tables, generated from action.yml so they cannot drift.
 * `npm run docs` rewrites them between their markers; `--check` (run by the tests) fails
 * when the README is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'

const ROOT = join(import.meta.dirname, '..')

interface ActionYaml {
  inputs: Record<string, { description: string; default?: string; required?: boolean }>
  outputs: Record<string, { description: string }>
}

export function renderTables(actionYaml: string): { inputs: string; outputs: string } {
  const action = parse(actionYaml) as ActionYaml
  const cell = (text: string) =>
    text
      .replace(/\|/g, '\\|')
      .replace(/\s*\n\s*/g, ' ')
      .trim()
  const inputs = [
    '| input | default | description |',
    '|---|---|---|',
    ...Object.entries(action.inputs).map(([name, input]) => {
      const fallback = input.default === undefined || input.default === '' ? '' : `\`${cell(String(input.default))}\``
      return `| \`${name}\` | ${fallback} | ${cell(input.description)} |`
    }),
  ].join('\n')
  const outputs = [
    '| output | description |',
    '|---|---|',
    ...Object.entries(action.outputs).map(([name, output]) => `| \`${name}\` | ${cell(output.description)} |`),
  ].join('\n')
  return { inputs, outputs }
}

export function updateReadme(readme: string, tables: { inputs: string; outputs: string }): string {
  let out = readme
  for (const [name, table] of Object.entries(tables)) {
    const start = `<!-- ${name}:start (generated from action.yml by npm run docs) -->`
    const end = `<!-- ${name}:end -->`
    const from = out.indexOf(start)
    const to = out.indexOf(end)
    if (from < 0 || to < from) throw new Error(`README.md lacks the markers ${start} … ${end}`)
    out = `${out.slice(0, from + start.length)}\n${table}\n${out.slice(to)}`
  }
  return out
}

if (import.meta.main) {
  const readmePath = join(ROOT, 'README.md')
  const readme = readFileSync(readmePath, 'utf8')
  const updated = updateReadme(readme, renderTables(readFileSync(join(ROOT, 'action.yml'), 'utf8')))
  if (process.argv.includes('--check')) {
    if (updated !== readme) {
      console.error('README.md is out of date with action.yml: run `npm run docs` and commit it.')
      process.exit(1)
    }
    console.log('README.md tables match action.yml.')
  } else {
    writeFileSync(readmePath, updated)
    console.log(updated === readme ? 'README.md already up to date.' : 'README.md tables regenerated from action.yml.')
  }
}
