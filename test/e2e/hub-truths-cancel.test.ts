/**
 * End to end, what a cancel reports (issue 33, item 1): only what was read back, never the cancel's
 * answer alone. On a hub that keeps runs in Postgres, a cut run answers `cancelling: true` and then
 * stays Running (docs/hub-facts.md, "Cancelling a run"); a run parked at an approval answers
 * `cancelling: false` and is Aborted at once. dist/index.js against the hub emulator.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { errorLines as errors, hubInputs, runStep, useHubEmulator } from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300, runStore: 'postgres' })
beforeEach(() => {
  hub.setAgent('endless', { steps: [{ phase: 'Running', afterMs: 0 }] })
})

const act = (extra: Record<string, string>) => runStep({ inputs: hubInputs(hub, extra) })
const reads = (runId: string) => hub.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/runs/${runId}`))

async function started(agent: string, extra: Record<string, string> = {}): Promise<string> {
  const start = await act({ agent, task: 'Add a PodDisruptionBudget', 'timeout-seconds': '0', ...extra })
  expect(start.code).toBe(0)
  return start.outputs['run-id'] ?? ''
}

describe('command: cancel reports the phase it read back', () => {
  it('a cut run that stays Running fails, saying so and what the hub may do next', async () => {
    const runId = await started('endless')
    hub.requests.length = 0
    const result = await act({ command: 'cancel', 'run-id': runId })
    expect(hub.run(runId)?.phase).toBe('Running')
    expect(result.code).toBe(1)
    expect(result.outputs).toMatchObject({ 'cancel-result': 'cancelling', phase: 'Running' })
    const [error] = errors(result)
    expect(error).toContain(
      `Run ${runId}: The hub accepted the cancel (command: cancel; cancelling: true), but the run still reads Running`,
    )
    expect(error).toContain('recovery sweep either fails it or resumes it from its last checkpoint')
    expect(result.stdout).not.toContain('ends Aborted')
    // Read back more than once before it says so.
    expect(reads(runId).length).toBeGreaterThan(1)
  })

  it('a run parked at an approval: cancelling false, read back Aborted, a plain success', async () => {
    const runId = await started('approval', { 'on-approval': 'succeed', 'timeout-seconds': '30' })
    expect(hub.run(runId)?.phase).toBe('PendingApproval')
    const result = await act({ command: 'cancel', 'run-id': runId })
    expect(result.code).toBe(0)
    expect(result.outputs).toMatchObject({ 'cancel-result': 'not-cancelling', phase: 'Aborted' })
    expect(result.stdout).toContain(
      `::notice::Run ${runId} was cancelled on the hub (command: cancel): read back Aborted.`,
    )
    expect(result.stdout).not.toContain('::warning::')
    expect(result.stdout).not.toContain('another replica')
  })
})

describe('on-timeout: cancel says what it read, not "it was cancelled"', () => {
  it('a run still Running after the cancel: the failure says so', async () => {
    const result = await act({ agent: 'endless', task: 'Check', 'timeout-seconds': '1', 'on-timeout': 'cancel' })
    const runId = result.outputs['run-id'] ?? ''
    expect(result.code).toBe(1)
    expect(hub.run(runId)?.phase).toBe('Running')
    const [error] = errors(result)
    expect(error).toContain(
      'The hub accepted the cancel (on-timeout: cancel; cancelling: true), but the run still reads Running',
    )
    expect(error).not.toContain('It was cancelled on the hub')
  })
})
