/**
 * End to end, README recipe h as written: the workflow is read from the README, and both jobs'
 * steps run in order as dist/index.js processes against the hub emulator — job `propose` stops at
 * the approval gate and sets its outputs; job `apply` (in the GitHub Environment whose reviewers
 * are the approval) approves with those outputs and waits for the run to end. The `${{ }}`
 * expressions are evaluated from the emulator's values and the earlier job's outputs; any other
 * expression fails the test, so the recipe cannot drift from what the action does.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { parse } from 'yaml'
import { ROOT, runAction, type ActionRun } from './action-process.ts'
import { DEFAULT_AGENTS, startHubEmulator, type HubEmulator } from '../emulator/hub.ts'

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

const HEADING = '### h. Approval through a GitHub Environment review'

function recipe(): { jobs: Record<string, Job> } {
  const readme = readFileSync(`${ROOT}/README.md`, 'utf8')
  const section = readme.slice(readme.indexOf(HEADING))
  const block = /```yaml\n([\s\S]*?)```/.exec(section)
  if (readme.indexOf(HEADING) < 0 || !block?.[1]) throw new Error(`README has no workflow under "${HEADING}"`)
  return parse(block[1]) as { jobs: Record<string, Job> }
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
    'secrets.HUB_TOKEN': hub.token,
    // The environment's secret: in the emulator, a member of the workspace too.
    'secrets.HUB_APPROVER_TOKEN': hub.token,
    'vars.HUB_ORG_ID': hub.org,
    'vars.HUB_WORKSPACE_ID': hub.workspace,
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

/** Run one job's action steps in order; returns the job's outputs. */
async function runJob(job: Job, needs: Record<string, Record<string, string>>): Promise<{ outputs: Record<string, string>; runs: ActionRun[] }> {
  const stepOutputs: Record<string, Record<string, string>> = {}
  const runs: ActionRun[] = []
  for (const step of job.steps) {
    expect(step.uses).toMatch(/^acme\/hub-action@/)
    const lookup = contextOf(stepOutputs, needs)
    const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([name, value]) => [name, evaluate(String(value), lookup)]))
    // The recipe's hub is https://hub.example.com; here it is the emulator.
    inputs['hub-url'] = hub.url
    const result = await runAction({ inputs, killAfterMs: 60_000 })
    onTestFinished(() => result.cleanup())
    runs.push(result)
    if (step.id) stepOutputs[step.id] = result.outputs
  }
  const lookup = contextOf(stepOutputs, needs)
  const outputs = Object.fromEntries(Object.entries(job.outputs ?? {}).map(([name, value]) => [name, evaluate(value, lookup)]))
  return { outputs, runs }
}

describe('README recipe h: approval through a GitHub Environment review', () => {
  it('job propose stops at the gate and shows what is asked; job apply, in the protected environment, approves it and waits to the end', async () => {
    hub.reset()
    const { jobs } = recipe()
    const propose = jobs.propose
    const apply = jobs.apply
    if (!propose || !apply) throw new Error('the recipe needs jobs propose and apply')
    // The reviewers' click is the approval: the approving job must run in an environment.
    expect(apply.environment).toBeTruthy()
    expect(apply.needs).toBe('propose')
    // The recipe's agent, played by the emulator's agent that asks to call kubectl_apply.
    const agentStep = propose.steps.find((step) => step.with?.agent)
    const agent = String(agentStep?.with?.agent)
    hub.setAgent(agent, { ...DEFAULT_AGENTS.approval! })

    const first = await runJob(propose, {})
    const gate = first.runs[0]!
    expect(gate.code).toBe(0)
    expect(gate.outputs).toMatchObject({ phase: 'PendingApproval', 'approval-tool': 'kubectl_apply' })
    expect(JSON.parse(gate.outputs['approval-args'] ?? '')).toMatchObject({ namespace: 'payments' })
    expect(first.outputs['approval-id']).toBe(gate.outputs['approval-id'])
    expect(first.outputs['run-id']).toBe(gate.outputs['run-id'])
    // The job summary shows the reviewers what is being asked: the tool and its arguments.
    expect(gate.summary).toContain('### Waiting for approval')
    expect(gate.summary).toContain('`kubectl_apply`')
    expect(gate.summary).toContain(`(approval \`${gate.outputs['approval-id']}\`): on the hub, or with \`command: approve\``)
    expect(gate.summary).toContain('"namespace": "payments"')

    // `if: needs.propose.outputs.approval-id != ''`: there is something to approve.
    expect(apply.if).toBe("needs.propose.outputs.approval-id != ''")
    const second = await runJob(apply, { propose: first.outputs })
    const approved = second.runs[0]!
    expect(approved.code).toBe(0)
    expect(approved.outputs).toMatchObject({ 'run-id': first.outputs['run-id'], phase: 'Succeeded' })
    expect(approved.summary).toContain('— Succeeded')
    expect(hub.agents.inbox()).toEqual([expect.objectContaining({ id: first.outputs['approval-id'], decision: 'approve', resolutions: 1 })])
    expect(hub.runs()).toHaveLength(1)
  })
})
