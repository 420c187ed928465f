/** The README's inputs and outputs tables are generated from action.yml and must match it. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { renderTables, updateReadme } from '../../scripts/readme-tables.ts'

const actionYaml = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe('README tables', () => {
  it('are what action.yml generates (run `npm run docs` after changing action.yml)', () => {
    expect(updateReadme(readme, renderTables(actionYaml))).toBe(readme)
  })

  it('name every input and output of action.yml', () => {
    const action = parse(actionYaml) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> }
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) expect(readme).toContain(`| \`${name}\` |`)
  })

  it('a newly added input makes the check fail until the README is regenerated', () => {
    const withNew = actionYaml.replace('inputs:\n', 'inputs:\n  brand-new:\n    description: A new input.\n    default: x\n')
    expect(updateReadme(readme, renderTables(withNew))).not.toBe(readme)
  })
})
