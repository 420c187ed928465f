/**
 * End to end, examples/approval-review.yml as written: the workflow is read from the file users
 * copy, and both jobs' steps run in order as dist/index.js processes against the hub emulator — job `propose` starts
 * the run on the service-account route, stops at the approval gate and sets its outputs; its token
 * cannot resolve the approval (the hub refuses service-account tokens on the user routes); job
 * `apply` (in the GitHub Environment whose reviewers are the approval, the only holder of a user
 * token) approves with those outputs and waits for the run to end. The `${{ }}` expressions are
 * evaluated from the emulator's values and the earlier job's outputs; any other expression fails
 * the test, so the recipe cannot drift from what the action does.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { parse } from 'yaml'
import { ROOT, runAction, type ActionRun } from './action-process.ts'
import { errorLines } from './harness.ts'
import { DEFAULT_AGENTS, startHubEmulator, type HubEmulator } from '../../emulator/index.ts'

interface Step {
  id?: string
  uses?: string
  with?: Record<string, unknown>
}
interface Job {
  needs?: string
  if?: string
  environment?: string
  outputs?: Record<string, string>
  steps: Step[]
}

const RECIPE = 'examples/approval-review.yml'

function recipe(): { jobs: Record<string, Job> } {
  return parse(readFileSync(`${ROOT}/${RECIPE}`, 'utf8')) as { jobs: Record<string, Job> }
}

let hub: HubEmulator

beforeAll(async () => {
  hub = await startHubEmulator({ maxHoldMs: 300 })
})
afterAll(async () => {
  await hub.close()
})

/** Replace each `${{ … }}` through `lookup`; an expression it does not know is a test failure. */
function evaluate(text: string, lookup: (expression: string) => string | undefined): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_whole, expression: string) => {
    const value = lookup(expression)
    if (value === undefined) throw new Error(`the recipe uses \${{ ${expression} }}, which this test does not know`)
    return value
  })
}

function contextOf(stepOutputs: Record<string, Record<string, string>>, needs: Record<string, Record<string, string>>) {
  const values: Record<string, string> = {
    // The repository's secret: a service-account token, which the hub refuses on the inbox.
    'secrets.HUB_SA_TOKEN': hub.serviceAccountToken,
    'vars.HUB_CLUSTER_ID': hub.clusterId,
    // The environment's secret: a user token of a member of the workspace.
    'secrets.HUB_APPROVER_TOKEN': hub.token,
    'vars.HUB_ORG_ID': hub.org,
    'vars.HUB_WORKSPACE_ID': hub.workspace,
    // The recipe's hub is a repository variable; this test points it at the emulator.
    'vars.HUB_URL': hub.url,
  }
  return (expression: string): string | undefined => {
    if (expression in values) return values[expression]
    const step = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression)
    if (step) return stepOutputs[step[1] ?? '']?.[step[2] ?? '']
    const need = /^needs\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression)
    if (need) return needs[need[1] ?? '']?.[need[2] ?? '']
    return undefined
  }
}

/** A step's inputs, its expressions evaluated; the recipe's hub (`vars.HUB_URL`) is the emulator. */
function inputsOf(step: Step, lookup: (expression: string) => string | undefined): Record<string, string> {
  const inputs = Object.fromEntries(
    Object.entries(step.with ?? {}).map(([name, value]) => [name, evaluate(String(value), lookup)]),
  )
  return inputs
}

async function runInputs(inputs: Record<string, string>): Promise<ActionRun> {
  const result = await runAction({ inputs, killAfterMs: 60_000 })
  onTestFinished(() => result.cleanup())
  return result
}

/** Run one job's action steps in order; returns the job's outputs. */
async function runJob(
  job: Job,
  needs: Record<string, Record<string, string>>,
): Promise<{ outputs: Record<string, string>; runs: ActionRun[] }> {
  const stepOutputs: Record<string, Record<string, string>> = {}
  const runs: ActionRun[] = []
  for (const step of job.steps) {
    expect(step.uses).toMatch(/^acme\/hub-action@/)
    const result = await runInputs(inputsOf(step, contextOf(stepOutputs, needs)))
    runs.push(result)
    if (step.id) stepOutputs[step.id] = result.outputs
  }
  const lookup = contextOf(stepOutputs, needs)
  const outputs = Object.fromEntries(
    Object.entries(job.outputs ?? {}).map(([name, value]) => [name, evaluate(value, lookup)]),
  )
  return { outputs, runs }
}

/** Every `secrets.X` a job's steps read. */
function secretsOf(job: Job): string[] {
  const text = JSON.stringify(job.steps)
  return [...new Set([...text.matchAll(/secrets\.([\w-]+)/g)].map((match) => match[1] ?? ''))]
}

describe('examples/approval-review.yml: approval through a GitHub Environment review', () => {
  it('propose starts the run on the service-account route and stops at the gate; its token cannot resolve the approval; apply, in the protected environment, approves it and waits to the end', async () => {
    hub.reset()
    const { jobs } = recipe()
    const propose = jobs.propose
    const apply = jobs.apply
    if (!propose || !apply) throw new Error('the recipe needs jobs propose and apply')
    // The reviewers' click is the approval: the approving job must run in an environment, and the
    // user token that can approve must be a secret of that job alone.
    expect(apply.environment).toBeTruthy()
    expect(apply.needs).toBe('propose')
    expect(propose.environment).toBeUndefined()
    expect(secretsOf(propose)).toEqual(['HUB_SA_TOKEN'])
    expect(secretsOf(apply)).toEqual(['HUB_APPROVER_TOKEN'])
    // The recipe's agent, played by the emulator's agent that asks to call kubectl_apply.
    const agentStep = propose.steps.find((step) => step.with?.agent)
    const agent = String(agentStep?.with?.agent)
    hub.setAgent(agent, { ...DEFAULT_AGENTS.approval! })

    const first = await runJob(propose, {})
    const gate = first.runs[0]!
    expect(gate.code).toBe(0)
    // Every request of propose went through the service-account route.
    expect(hub.requests.length).toBeGreaterThan(0)
    expect(
      hub.requests
        .filter((request) => !request.path.includes(`/s2s/clusters/${hub.clusterId}/`))
        .map((request) => request.path),
    ).toEqual([])
    // That route's run detail carries the pending approval: the outputs are set there too.
    expect(gate.outputs).toMatchObject({ phase: 'PendingApproval', 'approval-tool': 'kubectl_apply' })
    expect(gate.outputs['approval-id']).toBe(hub.agents.inbox()[0]?.id)
    expect(JSON.parse(gate.outputs['approval-args'] ?? '')).toMatchObject({ namespace: 'payments' })
    expect(first.outputs['approval-id']).toBe(gate.outputs['approval-id'])
    expect(first.outputs['run-id']).toBe(gate.outputs['run-id'])
    // The job summary shows the reviewers what is being asked: the tool and its arguments.
    expect(gate.summary).toContain('### Waiting for approval')
    expect(gate.summary).toContain('`kubectl_apply`')
    expect(gate.summary).toContain(
      `(approval \`${gate.outputs['approval-id']}\`): on the hub, or with \`command: approve\``,
    )
    expect(gate.summary).toContain('"namespace": "payments"')

    // Whoever holds propose's token (any workflow of the repository) cannot skip the review.
    const approveStep = apply.steps[0]!
    const approveInputs = inputsOf(approveStep, contextOf({}, { propose: first.outputs }))
    const withProposeToken = { ...approveInputs, token: hub.serviceAccountToken }
    // On its own route there is no inbox: refused before any request.
    hub.requests.length = 0
    const onServiceRoute = await runInputs({ ...withProposeToken, 'cluster-id': hub.clusterId })
    expect(onServiceRoute.code).not.toBe(0)
    expect(onServiceRoute.stdout).toContain('`command: approve` cannot work there')
    expect(hub.requests).toEqual([])
    // On the user routes the hub refuses a service-account token (401), the inbox included.
    const onUserRoute = await runInputs(withProposeToken)
    expect(onUserRoute.code).not.toBe(0)
    // The workspace proof is the first request the token is refused on.
    expect(hub.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /services/providers/agents/api/whoami',
    ])
    expect(errorLines(onUserRoute).join('\n')).toContain('401')
    const direct = await fetch(
      `${hub.url}/services/providers/agents/api/inbox/${encodeURIComponent(first.outputs['approval-id'] ?? '')}/resolve`,
      {
        method: 'POST',
        headers: {
          ...hub.headers({ Authorization: `Bearer ${hub.serviceAccountToken}` }),
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ decision: 'approve' }),
      },
    )
    expect(direct.status).toBe(401)
    expect(await direct.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 })
    expect(hub.agents.inbox()).toEqual([
      expect.objectContaining({ id: first.outputs['approval-id'], state: 'pending', resolutions: 0 }),
    ])
    expect(hub.run(first.outputs['run-id'] ?? '')?.phase).toBe('PendingApproval')

    // `if: needs.propose.outputs.approval-id != ''`: there is something to approve.
    expect(apply.if).toBe("needs.propose.outputs.approval-id != ''")
    const second = await runJob(apply, { propose: first.outputs })
    const approved = second.runs[0]!
    expect(approved.code).toBe(0)
    expect(approved.outputs).toMatchObject({ 'run-id': first.outputs['run-id'], phase: 'Succeeded' })
    expect(approved.summary).toContain('— Succeeded')
    // Resolved once, by the environment's user token.
    expect(hub.agents.inbox()).toEqual([
      expect.objectContaining({
        id: first.outputs['approval-id'],
        decision: 'approve',
        resolvedBy: hub.user,
        resolutions: 1,
      }),
    ])
    expect(hub.runs()).toHaveLength(1)
  })
})
