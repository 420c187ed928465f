/**
 * End to end, how a run ends: Failed, Aborted, the approval gate under each `on-approval`,
 * runs stuck in Pending, each `on-timeout`, and the job being cancelled (SIGTERM) mid-wait.
 * dist/index.js as a child process against the hub emulator over real HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import type { ChildProcess } from 'node:child_process'
import { hubInputs, lines, runStep, until, waitRequests, type ActionOptions, type ActionRun } from './harness.ts'
import { startHubEmulator, type HubEmulator, type RecordedRequest } from '../../emulator/index.ts'

const AGENTS = '/services/providers/agents/api'

let hub: HubEmulator

beforeAll(async () => {
  hub = await startHubEmulator({ maxHoldMs: 300 })
})
afterAll(async () => {
  await hub.close()
})
beforeEach(() => {
  hub.reset()
  // Starts at once and never settles by itself.
  hub.setAgent('endless', { steps: [{ phase: 'Running', afterMs: 0 }] })
})

const act = (extra: Record<string, string>, options: Omit<ActionOptions, 'inputs'> = {}): Promise<ActionRun> =>
  runStep({ inputs: hubInputs(hub, extra), ...options })
const waits = (): RecordedRequest[] => waitRequests(hub)
const cancels = (): RecordedRequest[] => hub.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel'))
const onlyRun = () => {
  expect(hub.runs()).toHaveLength(1)
  return hub.runs()[0]!
}

describe('runs that end badly', () => {
  it('Failed: the step fails with the hub message as an ::error:: line', async () => {
    const result = await act({ agent: 'failing', task: 'summarise' })
    const run = onlyRun()
    expect(result.code).toBe(1)
    expect(lines(result.stdout, '::error::')).toEqual([
      `::error::Run ${run.id} of agent "failing" failed: model credential missing for provider openai`,
    ])
    expect(result.outputs).toMatchObject({
      'run-id': run.id,
      phase: 'Failed',
      settled: 'true',
      reused: 'false',
      output: '',
    })
    expect(result.summary).toContain('## ❌ Agent run: failing — Failed')
    expect(result.summary).toContain(
      '### Message from the hub\n\n```text\nmodel credential missing for provider openai\n```',
    )
  })

  it('Aborted: the step fails with the abort reason', async () => {
    const result = await act({ agent: 'aborting', task: 'summarise' })
    const run = onlyRun()
    expect(result.code).toBe(1)
    expect(lines(result.stdout, '::error::')).toEqual([
      `::error::Run ${run.id} of agent "aborting" was aborted: run exceeded its time limit`,
    ])
    expect(result.outputs).toMatchObject({ 'run-id': run.id, phase: 'Aborted', settled: 'true', output: '' })
    expect(result.summary).toContain('## ❌ Agent run: aborting — Aborted')
  })
})

describe('the approval gate', () => {
  it('`wait`: logs what awaits approval, asks again, and succeeds once approved', async () => {
    // The "human" approves once the action has logged the gate and asks again: the approval
    // waits for the log line, not for a phase seen by the emulator, since under load the run can
    // reach the gate before the action's first /wait arrives. How long the action pauses between
    // asks (growing backoff, no busy loop) is checked with a fake clock in test/unit/run-loop.test.ts.
    let gateWaits = 0
    let approved: boolean | undefined
    let logged = ''
    const gated: HubEmulator = await startHubEmulator({
      maxHoldMs: 300,
      onRequest: (request) => {
        const run = gated.runs()[0]
        if (request.method !== 'GET' || !request.path.endsWith('/wait') || run?.phase !== 'PendingApproval') return
        gateWaits++
        if (logged.includes("awaits a human's approval")) approved ??= gated.approve(run.id)
      },
    })
    onTestFinished(() => gated.close())
    const result = await runStep({
      inputs: hubInputs(gated, { agent: 'approval', task: 'add a PDB to ledger', 'on-approval': 'wait' }),
      onStdout: (text) => (logged += text),
    })
    expect(gated.runs()).toHaveLength(1)
    const run = gated.runs()[0]!
    expect(approved).toBe(true)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(`Run ${run.id} awaits a human's approval to call kubectl_apply`)
    expect(result.stdout).toContain('"namespace": "payments"')
    expect(result.outputs).toMatchObject({ 'run-id': run.id, phase: 'Succeeded', settled: 'true' })
    expect(result.outputs.output).toContain('Applied `PodDisruptionBudget/ledger`')
    expect(run.history.map((h) => h.phase)).toEqual(['Pending', 'Running', 'PendingApproval', 'Running', 'Succeeded'])
    // Asked again during the gate (then approved), and never cancelled the run.
    expect(gateWaits).toBeGreaterThanOrEqual(1)
    expect(gated.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel'))).toEqual([])
  })

  it('`fail`: fails with the run id set and phase PendingApproval, leaving the run on the hub', async () => {
    const result = await act({ agent: 'approval', task: 'add a PDB', 'on-approval': 'fail' })
    const run = onlyRun()
    expect(result.code).toBe(1)
    expect(result.outputs).toMatchObject({ 'run-id': run.id, phase: 'PendingApproval', settled: 'true' })
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(`Run ${run.id} of agent "approval" is waiting for approval to call kubectl_apply`)
    expect(errors[0]).toContain('on-approval is fail')
    expect(run.phase).toBe('PendingApproval')
    expect(cancels()).toEqual([])
    expect(result.summary).toContain('### Waiting for approval')
    // Headed with what is true of the run, not with the step's ❌ as if the run had failed.
    expect(result.summary).toContain('## ⏸️ Agent run: approval — waiting for approval')
  })

  it('`succeed`: passes with phase PendingApproval', async () => {
    const result = await act({ agent: 'approval', task: 'add a PDB', 'on-approval': 'succeed' })
    const run = onlyRun()
    expect(result.code).toBe(0)
    expect(lines(result.stdout, '::error::')).toEqual([])
    expect(result.outputs).toMatchObject({ 'run-id': run.id, phase: 'PendingApproval', settled: 'true', output: '' })
    expect(result.stdout).toContain('on-approval is succeed')
    expect(run.phase).toBe('PendingApproval')
    // The step passes, but the run did not succeed: no ✅ over it.
    expect(result.summary).toContain('## ⏸️ Agent run: approval — waiting for approval')
    expect(result.summary).not.toContain('✅')
  })
})

describe('runs stuck in Pending', () => {
  it('fails after pending-timeout-seconds naming budget, credential and suspension', async () => {
    const result = await act({ agent: 'stuck', task: 'anything', 'pending-timeout-seconds': '1' })
    const run = onlyRun()
    expect(result.code).toBe(1)
    expect(result.outputs).toMatchObject({ 'run-id': run.id, phase: 'Pending', settled: 'false' })
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('pending-timeout-seconds (1 s)')
    expect(errors[0]).toMatch(/budget/)
    expect(errors[0]).toMatch(/credential/)
    expect(errors[0]).toMatch(/suspended/i)
    expect(run.phase).toBe('Pending')
  })

  it('says the agent is Suspended when it is', async () => {
    const result = await act({ agent: 'suspended', task: 'anything', 'pending-timeout-seconds': '1' })
    expect(result.code).toBe(1)
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('agent "suspended" is Suspended')
    expect(result.outputs).toMatchObject({ phase: 'Pending', settled: 'false' })
  })
})

describe('on-timeout', () => {
  it('`fail`: exit 1, says the run continues on the hub, and does not cancel it', async () => {
    const result = await act({ agent: 'endless', task: 'forever', 'timeout-seconds': '1', 'on-timeout': 'fail' })
    const run = onlyRun()
    expect(result.code).toBe(1)
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('did not settle within timeout-seconds (1 s)')
    expect(errors[0]).toContain('continues on the hub')
    // the phase last read: Running once a wait answered within the 1 s budget, which a loaded
    // machine may not manage after the workspace check and the start (then the start's Pending)
    expect(result.outputs).toMatchObject({ 'run-id': run.id, settled: 'false' })
    expect(['Pending', 'Running']).toContain(result.outputs.phase)
    expect(cancels()).toEqual([])
    expect(run.phase).toBe('Running')
    for (const wait of waits()) expect(wait.query.timeoutSeconds).toBe('1')
  })

  it('`warn`: exit 0 with a ::warning:: and the run left running', async () => {
    const result = await act({ agent: 'stuck', task: 'forever', 'timeout-seconds': '1', 'on-timeout': 'warn' })
    const run = onlyRun()
    expect(result.code).toBe(0)
    expect(lines(result.stdout, '::error::')).toEqual([])
    const warnings = lines(result.stdout, '::warning::')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('did not settle within timeout-seconds (1 s)')
    expect(warnings[0]).toContain('continues on the hub')
    expect(result.outputs).toMatchObject({ 'run-id': run.id, settled: 'false' })
    expect(cancels()).toEqual([])
    expect(run.phase).toBe('Pending')
  })

  it('`cancel`: exit 1, a cancel reaches the hub and the run ends Aborted', async () => {
    const result = await act({ agent: 'endless', task: 'forever', 'timeout-seconds': '1', 'on-timeout': 'cancel' })
    const run = onlyRun()
    expect(result.code).toBe(1)
    expect(cancels().map((c) => c.path)).toEqual([`${AGENTS}/runs/${run.id}/cancel`])
    expect(run.phase).toBe('Aborted')
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('did not settle within timeout-seconds (1 s)')
    expect(errors[0]).toContain('cancelled on the hub')
    expect(result.outputs['run-id']).toBe(run.id)
  })
})

describe('the job is cancelled (SIGTERM) while waiting', () => {
  /**
   * Start the action, send SIGTERM once it is long-polling, and count the long-polls sent by
   * then. "Promptly" is counted, not timed: after the signal at most the poll already on the
   * wire, and the process ends by itself (the 20 s guard would SIGKILL it).
   */
  async function cancelMidWait(
    extra: Record<string, string>,
  ): Promise<{ result: ActionRun; waitsAtSignal: number | undefined }> {
    let seen = ''
    let waitsAtSignal: number | undefined
    let triggered = false
    const result = await act(
      { agent: 'endless', task: 'long job', ...extra },
      {
        killAfterMs: 20_000,
        onStdout: (text: string, child: ChildProcess) => {
          seen += text
          if (triggered || !/Run \S+ of agent "endless" started/.test(seen)) return
          triggered = true
          void until(() => waits().length > 0, 'the action long-polls').then(() => {
            waitsAtSignal = waits().length
            child.kill('SIGTERM')
          })
        },
      },
    )
    return { result, waitsAtSignal }
  }

  it('default (detach): exits promptly with the run id, and the hub gets no cancel', async () => {
    const { result, waitsAtSignal } = await cancelMidWait({})
    const run = onlyRun()
    expect(waitsAtSignal).toBeGreaterThan(0)
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    expect(waits().length).toBeLessThanOrEqual(waitsAtSignal! + 1)
    expect(result.outputs['run-id']).toBe(run.id)
    expect(result.stdout).toContain(run.id)
    expect(result.stdout).toContain('Received SIGTERM')
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('on-cancel: detach')
    expect(cancels()).toEqual([])
    expect(run.phase).toBe('Running')
  })

  it('`on-cancel: cancel`: exits promptly and cancels the run on the hub', async () => {
    const { result, waitsAtSignal } = await cancelMidWait({ 'on-cancel': 'cancel' })
    const run = onlyRun()
    expect(waitsAtSignal).toBeGreaterThan(0)
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    expect(waits().length).toBeLessThanOrEqual(waitsAtSignal! + 1)
    expect(result.outputs['run-id']).toBe(run.id)
    expect(cancels().map((c) => c.path)).toEqual([`${AGENTS}/runs/${run.id}/cancel`])
    expect(run.phase).toBe('Aborted')
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('cancelled on the hub')
  })
})
