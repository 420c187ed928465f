/**
 * End to end, `command: approve`: approve, deny and answer resolve the gate a run stopped at and
 * then wait for the run; it refuses, resolving nothing, for a run not at the gate, an unexpected
 * tool, or another approval than the one given. dist/index.js as a child process against the hub
 * emulator over real HTTP.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import {
  errorLines as errors,
  hubInputs,
  runStep,
  useHubEmulator,
  type ActionOptions,
  type ActionRun,
} from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })
beforeEach(() => {
  hub.setAgent('endless', { steps: [{ phase: 'Running', afterMs: 0 }] })
})

async function act(extra: Record<string, string>, options: Omit<ActionOptions, 'inputs'> = {}): Promise<ActionRun> {
  return runStep({ inputs: hubInputs(hub, extra), ...options })
}
const resolves = () => hub.requests.filter((r) => r.method === 'POST' && r.path.includes('/inbox/'))

/** A run of the `approval` agent that stopped the step at its gate (on-approval: succeed). */
async function atTheGate(): Promise<{ runId: string; approvalId: string }> {
  const gate = await act({ agent: 'approval', task: 'Add a PodDisruptionBudget', 'on-approval': 'succeed' })
  expect(gate.code).toBe(0)
  const runId = gate.outputs['run-id'] ?? ''
  const approvalId = gate.outputs['approval-id'] ?? ''
  expect(approvalId).not.toBe('')
  expect(hub.run(runId)?.phase).toBe('PendingApproval')
  return { runId, approvalId }
}

describe('command: approve resolves the gate, then waits', () => {
  it('approve: the call is made and the run ends Succeeded', async () => {
    const { runId, approvalId } = await atTheGate()
    const result = await act({
      command: 'approve',
      'run-id': runId,
      'approval-id': approvalId,
      'expect-tool': 'kubectl_apply',
    })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      `Resolving approval ${approvalId} of run ${runId} (tool "kubectl_apply") with decision approve.`,
    )
    expect(result.stdout).toContain('"namespace": "payments"')
    expect(result.stdout).toContain(`::notice::Run ${runId} of agent "approval" succeeded.`)
    expect(result.outputs).toMatchObject({ 'run-id': runId, phase: 'Succeeded', 'approval-id': '' })
    expect(hub.agents.inbox()).toEqual([
      expect.objectContaining({ id: approvalId, decision: 'approve', resolvedBy: hub.user, resolutions: 1 }),
    ])
    expect(resolves().map((r) => JSON.parse(r.body))).toEqual([{ decision: 'approve' }])
    const steps = (hub.runDetail(runId)?.steps ?? []) as Array<{ tool: string; outcome: string }>
    expect(steps.at(-1)).toMatchObject({ tool: 'kubectl_apply', outcome: 'ok' })
  })

  it('deny: the call is denied with the response, and the step follows the run to its end', async () => {
    const { runId } = await atTheGate()
    const result = await act({
      command: 'approve',
      'run-id': runId,
      decision: 'deny',
      response: 'Not during the freeze.',
    })
    expect(result.code).toBe(0)
    expect(resolves().map((r) => JSON.parse(r.body))).toEqual([
      { decision: 'deny', response: 'Not during the freeze.' },
    ])
    const steps = (hub.runDetail(runId)?.steps ?? []) as Array<{ tool: string; outcome: string; error?: string }>
    expect(steps.at(-1)).toMatchObject({ tool: 'kubectl_apply', outcome: 'denied', error: 'Not during the freeze.' })
    expect(result.outputs.phase).toBe('Succeeded')
  })

  it('answer: refused at an approval, which an answer never moves (docs/hub-facts.md, "Answers and approvals")', async () => {
    const { runId } = await atTheGate()
    const result = await act({
      command: 'approve',
      'run-id': runId,
      decision: 'answer',
      response: 'Use minAvailable: 1 instead.',
    })
    expect(result.code).toBe(1)
    expect(errors(result)[0]).toContain('`decision: answer` never moves a run at an approval')
    expect(resolves()).toHaveLength(0)
    expect(hub.run(runId)?.phase).toBe('PendingApproval')
  })

  it('timeout-seconds 0: resolves and returns without waiting', async () => {
    const { runId, approvalId } = await atTheGate()
    hub.requests.length = 0
    const result = await act({ command: 'approve', 'run-id': runId, 'timeout-seconds': '0' })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      `::notice::Approval ${approvalId} of run ${runId} was resolved (approve); not waiting for the run because timeout-seconds is 0.`,
    )
    // whoami (the workspace proof), the run, the resolve.
    expect(hub.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'POST'])
  })
})

describe('command: approve refuses, resolving nothing', () => {
  it('a run that is not waiting for approval', async () => {
    const started = await act({ agent: 'endless', task: 'Check', 'timeout-seconds': '0' })
    const runId = started.outputs['run-id'] ?? ''
    const result = await act({ command: 'approve', 'run-id': runId })
    expect(result.code).toBe(1)
    expect(errors(result)).toEqual([
      `::error::Run ${runId} of agent "endless" is not waiting for approval (phase "Running"): nothing was resolved. It may reach the gate later: stop at it first with \`on-approval: succeed\` (in \`run\` or \`wait\`), then approve.`,
    ])
    expect(resolves()).toHaveLength(0)
  })

  it('a pending call to another tool than expect-tool', async () => {
    const { runId } = await atTheGate()
    const result = await act({ command: 'approve', 'run-id': runId, 'expect-tool': 'helm_upgrade' })
    expect(result.code).toBe(1)
    expect(errors(result)[0]).toContain(
      `Run ${runId} of agent "approval" is waiting for approval to call "kubectl_apply", not "helm_upgrade" (\`expect-tool\`): nothing was resolved.`,
    )
    expect(resolves()).toHaveLength(0)
    expect(hub.run(runId)?.phase).toBe('PendingApproval')
  })

  it('another approval than approval-id (the run moved on since the reviewer saw it)', async () => {
    const { runId, approvalId } = await atTheGate()
    const result = await act({ command: 'approve', 'run-id': runId, 'approval-id': 'an-older-approval' })
    expect(result.code).toBe(1)
    expect(errors(result)[0]).toContain(
      `is waiting for approval "${approvalId}", not "an-older-approval" (\`approval-id\`)`,
    )
    expect(resolves()).toHaveLength(0)
  })

  it('approve on the service-account route: an input error before any request', async () => {
    const result = await act({
      command: 'approve',
      'run-id': 'r-1',
      token: hub.serviceAccountToken,
      'cluster-id': hub.clusterId,
    })
    expect(result.code).toBe(1)
    expect(errors(result)[0]).toContain('Input `cluster-id`: `command: approve` cannot work there')
    expect(hub.requests).toHaveLength(0)
  })
})
