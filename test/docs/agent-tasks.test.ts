/**
 * What the workflows users are shown (examples/, and the README's and docs/' blocks) put into an agent's `task`. An agent reads its whole task as
 * instructions, whatever the quoting, so a recipe may put ids and counts there, never text a pull
 * request, the graph or another agent wrote (`report`, `output`, `approval-args`, titles, names):
 * a manifest named `ignore prior instructions; …` would become part of an agent's instructions.
 * Names the hub controls count as text too: an object or edge name is a valid Kubernetes name and
 * can still read as a sentence (`ignore-previous-instructions-and-…`), so `lagging` is not an id.
 */
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { shownWorkflows } from './fixtures/workflows.js'

interface Step {
  uses?: string
  env?: Record<string, unknown>
  with?: Record<string, unknown>
}
interface Job {
  env?: Record<string, unknown>
  outputs?: Record<string, unknown>
  steps?: Step[]
}

/**
 * Expressions that are ids and counts. A ref name is chosen by whoever may push and holds no
 * spaces; every other `github.*` text (titles, bodies, branch names of forks) is not here.
 * A matrix value is the workflow author's own list.
 */
const IDS_AND_COUNTS = [
  /^github\.(sha|repository|ref_name|run_id|run_attempt)$/,
  /^github\.event\.pull_request\.(number|head\.sha|base\.sha)$/,
  /^matrix\.[\w-]+$/,
  /^steps\.[\w-]+\.outputs\.(targets-count|upstream-count|downstream-count|associated-count|count|run-id|phase|settled|rollout-state|current-count|in-progress-count|failed-count|not-reporting-count)$/,
]

interface TaskUse {
  where: string
  expression: string
}

/** Every expression an action step's `task` reads, `env.X` and `needs.J.outputs.X` followed to what they hold. */
function taskExpressions(workflowText: string, where: string): TaskUse[] {
  const parsed: unknown = parse(workflowText)
  const jobs: Job[] = Array.isArray(parsed)
    ? [{ steps: parsed as Step[] }]
    : parsed && typeof parsed === 'object' && 'jobs' in parsed
      ? Object.values((parsed as { jobs: Record<string, Job> }).jobs)
      : []
  const workflowEnv = (parsed as { env?: Record<string, unknown> } | null)?.env ?? {}
  const jobOutputs = (parsed as { jobs?: Record<string, Job> } | null)?.jobs ?? {}
  return jobs.flatMap((job) =>
    (job.steps ?? [])
      .filter((step) => step.uses?.startsWith('acme/hub-action@') && step.with?.task !== undefined)
      .flatMap((step) => {
        const env = { ...workflowEnv, ...job.env, ...step.env }
        const follow = (text: string, seen: Set<string>): string[] =>
          [...text.matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)].flatMap(([, expression = '']) => {
            const needed = /^needs\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression)
            const fromJob = needed ? jobOutputs[needed[1] ?? '']?.outputs?.[needed[2] ?? ''] : undefined
            if (typeof fromJob === 'string' && !seen.has(expression))
              return follow(fromJob, new Set([...seen, expression]))
            const name = /^env\.([\w-]+)$/.exec(expression)?.[1]
            const value = name === undefined || seen.has(name) ? undefined : env[name]
            if (name === undefined || typeof value !== 'string') return [expression]
            return follow(value, new Set([...seen, name]))
          })
        return follow(String(step.with?.task), new Set()).map((expression) => ({ where, expression }))
      }),
  )
}

const shownTasks: TaskUse[] = shownWorkflows.flatMap((source) => taskExpressions(source.text, source.name))

const untrusted = (uses: TaskUse[]) =>
  uses.filter((use) => !IDS_AND_COUNTS.some((allowed) => allowed.test(use.expression)))

describe("Shown workflows: an agent's task", () => {
  it('finds the tasks it should judge (examples/impact-review.yml among them)', () => {
    expect(shownTasks.length).toBeGreaterThanOrEqual(5)
    expect(shownTasks.map((use) => use.where)).toContain('examples/impact-review.yml')
    expect(shownTasks.map((use) => use.expression)).toContain('steps.impact.outputs.downstream-count')
    expect(shownTasks.map((use) => use.where)).toContain('examples/rollout-gate.yml')
  })

  it('holds ids and counts only: no report, agent output or pull-request text', () => {
    expect(untrusted(shownTasks)).toEqual([])
  })

  it('catches the report passed through env (the checker is really judging)', () => {
    const reportThroughEnv = `
- uses: acme/hub-action@v1
  env:
    IMPACT_REPORT: \${{ steps.impact.outputs.report }}
  with:
    agent: change-reviewer
    task: |
      Review #\${{ github.event.pull_request.number }}.
      \${{ env.IMPACT_REPORT }}
- uses: acme/hub-action@v1
  with:
    task: Fix \${{ github.event.pull_request.title }} after \${{ steps.notes.outputs.output }}
- uses: acme/hub-action@v1
  with:
    task: Triage these objects \${{ steps.gate.outputs.lagging }}
`
    expect(untrusted(taskExpressions(reportThroughEnv, 'sample')).map((use) => use.expression)).toEqual([
      'steps.impact.outputs.report',
      'github.event.pull_request.title',
      'steps.notes.outputs.output',
      'steps.gate.outputs.lagging',
    ])
  })

  it('follows a job output to the step output it holds', () => {
    const acrossJobs = `
jobs:
  gate:
    outputs:
      cells: \${{ steps.gate.outputs.lagging }}
      failed: \${{ steps.gate.outputs.failed-count }}
    steps: []
  triage:
    needs: gate
    steps:
      - uses: acme/hub-action@v1
        with:
          task: \${{ needs.gate.outputs.failed }} failed; \${{ needs.gate.outputs.cells }}
`
    expect(untrusted(taskExpressions(acrossJobs, 'sample')).map((use) => use.expression)).toEqual([
      'steps.gate.outputs.lagging',
    ])
  })
})
