import { describe, expect, it } from 'vitest'
import type { RunDetail } from '../../../../src/hub/schemas.js'
import { detail as runDetail } from '../../fixtures/run.js'
import type { ApproveSettings } from '../../../../src/commands/runs/lifecycle-inputs.js'
import { approvalToResolve, readAfterResolve, StepRefusal } from '../../../../src/commands/runs/approve.js'

const detail = (extra: Partial<RunDetail> = {}): RunDetail =>
  runDetail('PendingApproval', {
    agent: 'ops',
    pending: { inboxID: 'i-1', tool: 'kubectl_apply', args: '{"namespace":"prod"}' },
    ...extra,
  })
const settings: ApproveSettings = {
  runId: 'r1',
  decision: 'approve',
  response: undefined,
  expectTool: undefined,
  approvalId: undefined,
}

function refusal(run: RunDetail, extra: Partial<ApproveSettings> = {}): string {
  try {
    approvalToResolve(run, { ...settings, ...extra })
  } catch (error) {
    expect(error).toBeInstanceOf(StepRefusal)
    return (error as Error).message
  }
  throw new Error('expected a refusal')
}

describe('approvalToResolve', () => {
  it('the pending approval when the run is at the gate (phase in any case) and the checks pass', () => {
    expect(
      approvalToResolve(detail({ phase: 'pendingapproval' }), {
        ...settings,
        expectTool: 'kubectl_apply',
        approvalId: 'i-1',
      }),
    ).toEqual({
      inboxId: 'i-1',
      tool: 'kubectl_apply',
      args: '{"namespace":"prod"}',
    })
  })

  it.each([
    ['Running', 'It may reach the gate later'],
    ['Succeeded', 'It has ended, so there is nothing to approve.'],
    ['Aborted', 'It has ended'],
  ])('refuses a run in %s', (phase, why) => {
    const message = refusal(detail({ phase, pending: undefined }))
    expect(message).toContain(
      `Run r1 of agent "ops" is not waiting for approval (phase "${phase}"): nothing was resolved.`,
    )
    expect(message).toContain(why)
  })

  it('refuses a gate without an inbox id', () => {
    expect(refusal(detail({ pending: { tool: 'x' } }))).toContain('no pending.inboxID')
  })

  it('refuses another tool or another approval, quoting hub text on one short line', () => {
    expect(refusal(detail(), { expectTool: 'helm_upgrade' })).toContain(
      'to call "kubectl_apply", not "helm_upgrade" (`expect-tool`)',
    )
    expect(refusal(detail(), { approvalId: 'i-0' })).toContain('waiting for approval "i-1", not "i-0" (`approval-id`)')
    const hostile = refusal(detail({ pending: { inboxID: 'i-1', tool: `evil\n::error::forged${'x'.repeat(500)}` } }), {
      expectTool: 'kubectl_apply',
    })
    expect(hostile).not.toContain('\n')
    expect(hostile.length).toBeLessThan(600)
  })
})

describe('readAfterResolve', () => {
  const client = (answers: RunDetail[]) => {
    let reads = 0
    return { reads: () => reads, getRun: () => Promise.resolve(answers[Math.min(reads++, answers.length - 1)]!) }
  }
  const noSleep = () => Promise.resolve()

  it('reads again while the hub still shows the gate just resolved', async () => {
    const hub = client([detail(), detail(), detail({ phase: 'Running', pending: undefined })])
    const after = await readAfterResolve(hub, 'r1', 'i-1', new AbortController().signal, noSleep)
    expect(after.phase).toBe('Running')
    expect(hub.reads()).toBe(3)
  })

  it('a new gate is not the one resolved: no second read', async () => {
    const hub = client([detail({ pending: { inboxID: 'i-2', tool: 't' } })])
    expect((await readAfterResolve(hub, 'r1', 'i-1', new AbortController().signal, noSleep)).pending?.inboxID).toBe(
      'i-2',
    )
    expect(hub.reads()).toBe(1)
  })

  it('is bounded when the hub never moves on', async () => {
    const hub = client([detail()])
    await readAfterResolve(hub, 'r1', 'i-1', new AbortController().signal, noSleep)
    expect(hub.reads()).toBe(5)
  })
})
