/**
 * End to end, the free preflight and the messages that must agree with the outputs: whoami
 * before the first start (an empty workspace stops before any run is created), the request count
 * of a run that settles in 3 s with it, a Suspended agent's reason in the Pending diagnosis, and
 * a run out of time at the approval gate.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, useHubEmulator } from './fixtures/hub-session.ts'
import { runAction, type ActionRun } from './action-process.ts'

const hub = useHubEmulator()
const AGENTS = '/services/providers/agents'

async function act(extra: Record<string, string>): Promise<ActionRun> {
  const result = await runAction({ inputs: { ...hubInputs(hub), 'idempotency-key': 'none', ...extra } })
  onTestFinished(() => result.cleanup())
  return result
}

const calls = (): string[] => hub.requests.map((r) => `${r.method} ${r.path.replace(AGENTS, '')}`)

describe('preflight', () => {
  it('an org the user is not a member of (empty workspace in whoami) stops before any run is created', async () => {
    const result = await act({ agent: 'quick', task: 'hi', org: '00000000-0000-4000-8000-000000000000' })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      'the hub resolved this token to no workspace (GET /api/whoami answered an empty workspaceUUID)',
    )
    expect(result.stdout).toContain('No run was created.')
    expect(calls()).toEqual(['GET /api/whoami'])
    expect(hub.runs()).toHaveLength(0)
  })

  it('a run that settles in 3 s costs 3 requests: whoami, start, one held wait', async () => {
    const result = await act({ agent: 'slow', task: 'three seconds' })
    expect(result.code).toBe(0)
    expect(calls().map((call) => call.replace(/[0-9a-f-]{36}/, '{id}'))).toEqual([
      'GET /api/whoami',
      'POST /api/agents/slow/runs',
      'GET /api/runs/{id}/wait',
    ])
  })

  it("a Suspended agent's reason is in the Pending diagnosis", async () => {
    hub.setAgent('asleep', {
      suspended: true,
      suspendedReason: 'monthly budget exhausted',
      steps: [{ phase: 'Pending', afterMs: 0 }],
    })
    const result = await act({ agent: 'asleep', task: 'hi', 'pending-timeout-seconds': '1' })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      'The hub says agent "asleep" is Suspended (monthly budget exhausted): resume the agent on the hub.',
    )
  })
})

describe('the approval gate', () => {
  it('out of time while a human decides: settled, and the message says a human must approve or deny', async () => {
    const result = await act({ agent: 'approval', task: 'apply it', 'timeout-seconds': '2' })
    expect(result.code).toBe(1)
    expect(result.outputs.settled).toBe('true')
    expect(result.outputs.phase).toBe('PendingApproval')
    const error = result.stdout.split('\n').find((line) => line.startsWith('::error::')) ?? ''
    expect(error).toContain("is waiting for a human's approval to call kubectl_apply")
    expect(error).toContain('A human must approve or deny it on the hub (or with command: approve).')
    expect(error).not.toContain('did not settle')
    expect(error).not.toContain('Raise timeout-seconds')
  })
})
