/**
 * What the README's workflows put into an agent's `task`. An agent reads its whole task as
 * instructions, whatever the quoting, so a recipe may put ids and counts there, never text a pull
 * request, the graph or another agent wrote (`report`, `output`, `approval-args`, titles, names):
 * a manifest named `ignore prior instructions; …` would become part of an agent's instructions.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

interface Step {
  uses?: string
  env?: Record<string, unknown>
  with?: Record<string, unknown>
}
interface Job {
  env?: Record<string, unknown>
  steps?: Step[]
}

/**
 * Expressions that are ids and counts. A ref name is chosen by whoever may push and holds no
 * spaces; every other `github.*` text (titles, bodies, branch names of forks) is not here.
 * `lagging` is JSON of names checked against Kubernetes' name charset (others withheld) and states.
 */
const IDS_AND_COUNTS = [
  /^github\.(sha|repository|ref_name|run_id|run_attempt)$/,
  /^github\.event\.pull_request\.(number|head\.sha|base\.sha)$/,
  /^steps\.[\w-]+\.outputs\.(targets-count|upstream-count|downstream-count|associated-count|count|run-id|phase|settled|rollout-state|current-count|in-progress-count|failed-count|not-reporting-count|lagging)$/,
]

interface TaskUse {
  where: string
  expression: string
}

/** Every expression an action step's `task` reads, `env.X` followed to what X holds. */
function taskExpressions(workflowText: string, where: string): TaskUse[] {
  const parsed: unknown = parse(workflowText)
  const jobs: Job[] = Array.isArray(parsed)
    ? [{ steps: parsed as Step[] }]
    : parsed && typeof parsed === 'object' && 'jobs' in parsed
      ? Object.values((parsed as { jobs: Record<string, Job> }).jobs)
      : []
  const workflowEnv = (parsed as { env?: Record<string, unknown> } | null)?.env ?? {}
  return jobs.flatMap((job) =>
    (job.steps ?? [])
      .filter((step) => step.uses?.startsWith('acme/hub-action@') && step.with?.task !== undefined)
      .flatMap((step) => {
        const env = { ...workflowEnv, ...job.env, ...step.env }
        const follow = (text: string, seen: Set<string>): string[] =>
          [...text.matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)].flatMap(([, expression = '']) => {
            const name = /^env\.([\w-]+)$/.exec(expression)?.[1]
            const value = name === undefined || seen.has(name) ? undefined : env[name]
            if (name === undefined || typeof value !== 'string') return [expression]
            return follow(value, new Set([...seen, name]))
          })
        return follow(String(step.with?.task), new Set()).map((expression) => ({ where, expression }))
      }),
  )
}

const readmeTasks: TaskUse[] = [...readme.matchAll(/```ya?ml\n([\s\S]*?)```/g)].flatMap((match) =>
  taskExpressions(match[1] ?? '', `README.md:${readme.slice(0, match.index).split('\n').length + 1}`),
)

const untrusted = (uses: TaskUse[]) => uses.filter((use) => !IDS_AND_COUNTS.some((allowed) => allowed.test(use.expression)))

describe("README workflows: an agent's task", () => {
  it('finds the tasks it should judge (recipe c among them)', () => {
    expect(readmeTasks.length).toBeGreaterThanOrEqual(5)
    expect(readmeTasks.map((use) => use.expression)).toContain('steps.impact.outputs.downstream-count')
  })

  it('holds ids and counts only: no report, agent output or pull-request text', () => {
    expect(untrusted(readmeTasks)).toEqual([])
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
`
    expect(untrusted(taskExpressions(reportThroughEnv, 'sample')).map((use) => use.expression)).toEqual([
      'steps.impact.outputs.report',
      'github.event.pull_request.title',
      'steps.notes.outputs.output',
    ])
  })
})
