/**
 * End to end, `command: wait` and `command: cancel` on runs started by an earlier step, and the
 * service-account route's lack of cancel refused before any request (issue 9).
 * dist/index.js as a child process against the hub emulator over real HTTP.
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
const creates = () => hub.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/runs'))
const cancels = () => hub.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel'))

/** Step one of a workflow: start a run and do not wait for it. */
async function startWithoutWaiting(agent: string): Promise<string> {
  const started = await act({ agent, task: 'Add a PodDisruptionBudget', 'timeout-seconds': '0' })
  expect(started.code).toBe(0)
  const runId = started.outputs['run-id'] ?? ''
  expect(runId).not.toBe('')
  return runId
}

describe('command: wait', () => {
  it('attaches to a run started with timeout 0 and waits for it like run: gate logged, then Succeeded with output and summary', async () => {
    const runId = await startWithoutWaiting('approval')
    hub.requests.length = 0
    let approved = false
    const result = await act(
      { command: 'wait', 'run-id': runId, 'timeout-seconds': '60' },
      {
        onStdout: (text) => {
          // A human approves on the hub while the step waits at the gate (on-approval: wait).
          if (!approved && text.includes('awaits a human')) approved = hub.approve(runId)
        },
        killAfterMs: 30_000,
      },
    )
    expect(result.code).toBe(0)
    expect(approved).toBe(true)
    expect(result.stdout).toContain(`Run ${runId} of agent "approval" attached (given by \`run-id\`)`)
    expect(result.stdout).toContain(`::notice::Run ${runId} of agent "approval" succeeded.`)
    expect(result.outputs).toMatchObject({
      'run-id': runId,
      phase: 'Succeeded',
      settled: 'true',
      reused: 'false',
      'approval-id': '',
    })
    expect(result.outputs.output).toContain('Applied `PodDisruptionBudget/ledger`')
    expect(result.summary).toContain('## ✅ Agent run: approval — Succeeded')
    // Nothing started: the workspace proof, one read, then long-polls of that run.
    expect(creates()).toHaveLength(0)
    expect(hub.runs()).toHaveLength(1)
    expect(hub.requests[0]).toMatchObject({ method: 'GET', path: '/services/providers/agents/api/whoami' })
    expect(hub.requests[1]).toMatchObject({ method: 'GET', path: `/services/providers/agents/api/runs/${runId}` })
    expect(hub.requests.slice(2).every((r) => r.path === `/services/providers/agents/api/runs/${runId}/wait`)).toBe(
      true,
    )
  })

  it('applies the same policies: on-timeout cancel cancels the attached run', async () => {
    const runId = await startWithoutWaiting('endless')
    const result = await act({ command: 'wait', 'run-id': runId, 'timeout-seconds': '1', 'on-timeout': 'cancel' })
    expect(result.code).toBe(1)
    expect(errors(result)).toEqual([
      `::error::Run ${runId} of agent "endless" did not settle within timeout-seconds (1 s); last phase Running. It was cancelled on the hub (on-timeout: cancel): read back Aborted.`,
    ])
    expect(hub.run(runId)?.phase).toBe('Aborted')
  })

  it('a run id the hub does not know fails the step and starts nothing', async () => {
    const result = await act({ command: 'wait', 'run-id': 'no-such-run' })
    expect(result.code).toBe(1)
    expect(errors(result)[0]).toContain('Could not read run no-such-run (hub answered 404 NotFound')
    expect(creates()).toHaveLength(0)
  })
})

describe('command: cancel', () => {
  it('on the user route: cancelling, then already-ended on a second cancel', async () => {
    const runId = await startWithoutWaiting('endless')
    const first = await act({ command: 'cancel', 'run-id': runId })
    expect(first.code).toBe(0)
    expect(first.outputs).toMatchObject({ 'run-id': runId, 'cancel-result': 'cancelling' })
    expect(first.stdout).toContain(
      `::notice::Run ${runId} was cancelled on the hub (command: cancel): read back Aborted.`,
    )
    expect(first.outputs.phase).toBe('Aborted')
    expect(first.summary).toContain(`## Cancel run \`${runId}\`: cancelling, read back \`Aborted\``)
    expect(hub.run(runId)).toMatchObject({ phase: 'Aborted', message: 'cancelled by user' })

    const second = await act({ command: 'cancel', 'run-id': runId })
    expect(second.code).toBe(0)
    expect(second.outputs['cancel-result']).toBe('already-ended')
    expect(second.stdout).toContain(`::notice::Run ${runId} had already ended: there was nothing to cancel.`)
    expect(cancels()).toHaveLength(2)
  })

  it('the hub accepting without cancelling (cancelling: false) while the run reads Running fails, saying it may still finish', async () => {
    const runId = await startWithoutWaiting('endless')
    hub.addFault({
      method: 'POST',
      path: /\/cancel$/,
      status: 202,
      body: JSON.stringify({ id: runId, cancelling: false }),
      contentType: 'application/json',
    })
    const result = await act({ command: 'cancel', 'run-id': runId })
    expect(result.code).toBe(1)
    expect(result.outputs).toMatchObject({ 'cancel-result': 'not-cancelling', phase: 'Running' })
    expect(errors(result)[0]).toContain(
      `::error::Run ${runId}: The hub accepted the cancel (command: cancel; cancelling: false), but the run still reads Running 4 s later. The hub is not cancelling it here: it may be executing on another replica and may still finish`,
    )
  })

  it('on the service-account route: refused before any request, saying why', async () => {
    const result = await act({
      command: 'cancel',
      'run-id': 'r-1',
      token: hub.serviceAccountToken,
      'cluster-id': hub.clusterId,
    })
    expect(result.code).toBe(1)
    expect(errors(result)).toHaveLength(1)
    expect(errors(result)[0]).toContain('Invalid input: Input `cluster-id`: `command: cancel` cannot work there')
    expect(errors(result)[0]).toContain('has no cancel')
    expect(hub.requests).toHaveLength(0)
  })
})

describe('the service-account route has no cancel (issue 9)', () => {
  it.each([
    ['on-timeout', { 'on-timeout': 'cancel' }],
    ['on-cancel', { 'on-cancel': 'cancel' }],
  ])('run with cluster-id and %s: cancel is an input error, and no run is started', async (name, extra) => {
    const result = await act({
      agent: 'endless',
      task: 'Check',
      token: hub.serviceAccountToken,
      'cluster-id': hub.clusterId,
      ...extra,
    })
    expect(result.code).toBe(1)
    expect(errors(result)).toEqual([
      expect.stringContaining(`Invalid input: Input \`${name}\`: "cancel" cannot work with \`cluster-id\``),
    ])
    expect(hub.requests).toHaveLength(0)
  })

  it('run with cluster-id and on-timeout warn still works there', async () => {
    const result = await act({
      agent: 'quick',
      task: 'Check',
      token: hub.serviceAccountToken,
      'cluster-id': hub.clusterId,
      'on-timeout': 'warn',
    })
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
  })
})
