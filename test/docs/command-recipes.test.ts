/**
 * Each command's section of docs/commands.md links a complete workflow in examples/ that uses
 * that command: a reader who follows "Recipe:" from `wait` must find a `wait` step there, not a
 * workflow about something else.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { exampleWorkflows, type Workflow } from './fixtures/workflows.js'
import { COMMANDS as TABLE } from '../../src/commands/index.ts'

const THIS_ACTION = 'acme/hub-action@'
const COMMANDS = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8')

/** The `## ` sections of docs/commands.md, each by the first code span of its heading (`wait`, `dry-run: true`). */
const sections = COMMANDS.split(/^(?=## )/m)
  .filter((text) => text.startsWith('## '))
  .map((text) => ({ name: /^## `([^`]+)`/.exec(text)?.[1] ?? text.split('\n')[0]!, text }))

/** What a step of this action does, as its section is named: its command, or `dry-run: true`. */
function uses(example: string): Set<string> {
  const source = exampleWorkflows.find((workflow) => workflow.name === example)
  if (!source) return new Set()
  const steps = Object.values((parse(source.text) as Workflow).jobs ?? {}).flatMap((job) => job.steps ?? [])
  const done = new Set<string>()
  for (const step of steps.filter((candidate) => candidate.uses?.startsWith(THIS_ACTION))) {
    const command = step.with?.command
    done.add(typeof command === 'string' ? command : 'run')
    if (step.with?.['dry-run'] === true || step.with?.['dry-run'] === 'true') done.add('dry-run: true')
  }
  return done
}

describe("docs/commands.md's recipes", () => {
  it('finds a section for every command of the table, in its order, and the dry run', () => {
    expect(sections.map((section) => section.name)).toEqual([...Object.keys(TABLE), 'dry-run: true'])
  })

  it.each(sections.map((section) => [section.name, section.text]))(
    '`%s` links an example that uses it, and only such examples',
    (name, text) => {
      const linked = [...text.matchAll(/\]\(\.\.\/(examples\/[\w.-]+\.ya?ml)\)/g)].map((match) => match[1]!)
      expect(linked, `the ${name} section links no example`).not.toEqual([])
      expect(linked.filter((example) => !uses(example).has(name))).toEqual([])
    },
  )

  it('catches a recipe without the command (the check is really judging)', () => {
    expect(uses('examples/rollout-gate.yml').has('wait')).toBe(false)
    expect(uses('examples/rollout-gate.yml').has('rollout')).toBe(true)
  })
})
