/**
 * End to end, `command: approve` against what the hub does with a decision (issue 33, item 2; issue
 * 34, item 9): `decision: answer` never moves a run waiting at an approval (the hub marks the item
 * answered and the run stays at the same gate: docs/hub-facts.md, "Answers and approvals"), so the
 * step refuses it before resolving; and an approve pinned neither by `approval-id` nor by
 * `expect-tool` warns. dist/index.js against the hub emulator.
 */
import { describe, expect, it } from 'vitest'
import { errorLines as errors, hubInputs, runStep, useHubEmulator } from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })
const act = (extra: Record<string, string>) => runStep({ inputs: hubInputs(hub, extra) })
const resolves = () => hub.requests.filter((r) => r.method === 'POST' && r.path.includes('/inbox/'))

async function atTheGate(): Promise<{ runId: string; approvalId: string }> {
  const gate = await act({ agent: 'approval', task: 'Add a PodDisruptionBudget', 'on-approval': 'succeed' })
  expect(gate.code).toBe(0)
  return { runId: gate.outputs['run-id'] ?? '', approvalId: gate.outputs['approval-id'] ?? '' }
}

describe('decision: answer on a run waiting at an approval', () => {
  it('is refused before anything is resolved, naming the gate and what to use instead', async () => {
    const { runId, approvalId } = await atTheGate()
    const result = await act({
      command: 'approve',
      'run-id': runId,
      'approval-id': approvalId,
      decision: 'answer',
      response: 'Use minAvailable: 1 instead.',
      'timeout-seconds': '5',
    })
    expect(result.code).toBe(1)
    expect(errors(result)).toEqual([
      expect.stringContaining(
        `Run ${runId} of agent "approval" waits at approval "${approvalId}" (a call to "kubectl_apply"), and \`decision: answer\` never moves a run at an approval`,
      ),
    ])
    expect(errors(result)[0]).toContain('Nothing was resolved. Use `decision: approve`, or `decision: deny`')
    expect(resolves()).toHaveLength(0)
    expect(hub.run(runId)?.phase).toBe('PendingApproval')
  })
})

describe('an approve pinned to nothing', () => {
  it('warns, naming approval-id and expect-tool, and still resolves', async () => {
    const { runId } = await atTheGate()
    const result = await act({ command: 'approve', 'run-id': runId, 'timeout-seconds': '0' })
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      `::warning::\`command: approve\` without \`approval-id\` or \`expect-tool\` resolves whatever call run ${runId} waits for`,
    )
    expect(resolves()).toHaveLength(1)
  })

  it('does not warn when approval-id pins the call', async () => {
    const { runId, approvalId } = await atTheGate()
    const result = await act({ command: 'approve', 'run-id': runId, 'approval-id': approvalId, 'timeout-seconds': '0' })
    expect(result.code).toBe(0)
    expect(result.stdout).not.toContain('::warning::')
  })
})
