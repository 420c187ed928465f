/**
 * The workflows users copy (examples/*.yml) and the step lists of the docs, checked against
 * action.yml: every input a step of this action gives is declared, and every
 * `steps.<id>.outputs.<name>` read from such a step is an output the action declares.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { exampleWorkflows, shownWorkflows, workflowText, type Workflow } from './fixtures/workflows.js'

const THIS_ACTION = 'acme/hub-action@'
const action = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, unknown>
  outputs: Record<string, unknown>
}

/** Inputs not in action.yml and outputs it does not declare, as `job: what`. */
function againstAction(text: string): string[] {
  const problems: string[] = []
  for (const [jobName, job] of Object.entries((parse(text) as Workflow).jobs ?? {})) {
    const ours = new Set(
      (job.steps ?? []).filter((step) => step.uses?.startsWith(THIS_ACTION) && step.id).map((step) => step.id),
    )
    for (const step of job.steps ?? []) {
      if (step.uses?.startsWith(THIS_ACTION))
        for (const input of Object.keys(step.with ?? {}))
          if (!(input in action.inputs)) problems.push(`${jobName}: input ${input}`)
    }
    for (const match of JSON.stringify(job).matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g))
      if (ours.has(match[1]) && !(String(match[2]) in action.outputs)) problems.push(`${jobName}: output ${match[2]}`)
  }
  return problems
}

describe('examples/ and the docs against action.yml', () => {
  it('has a complete workflow for each recipe', () => {
    expect(exampleWorkflows.map((source) => source.name)).toEqual(
      expect.arrayContaining([
        'examples/first-run.yml',
        'examples/approval-review.yml',
        'examples/rollout-gate.yml',
        'examples/matrix.yml',
      ]),
    )
    // The collect half of the fork split runs no hub step: it holds no secret.
    for (const source of exampleWorkflows.filter((example) => example.name !== 'examples/fork-impact-collect.yml'))
      expect(source.text, source.name).toContain(THIS_ACTION)
  })

  it.each(shownWorkflows.map((source) => [source.name, workflowText(source)]))(
    '%s gives only inputs and reads only outputs that action.yml declares',
    (_, text) => {
      expect(againstAction(text)).toEqual([])
    },
  )

  it('catches an undeclared input and output (the check is really judging)', () => {
    const wrong = `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: acme/hub-action@v1\n        id: x\n        with:\n          agnet: typo\n      - run: echo "$V"\n        env:\n          V: \${{ steps.x.outputs.phaze }}\n`
    expect(againstAction(wrong)).toEqual(['a: input agnet', 'a: output phaze'])
  })
})
