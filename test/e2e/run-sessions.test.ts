/**
 * End to end, keys and sessions (issue 34, items 2 and 3). The session of a run follows the key
 * the hub sees: the same key, the same session, so a second "Run workflow" on the same commit
 * with `idempotency-key: auto` attaches to the first run (its session is the one this step
 * derives); a new key (a re-run attempt after a failure, another step) a new session, so nothing
 * of a failed run's conversation or another step's is replayed into the next run. And a session
 * id is never printed or stored whole: anyone who knows one can write the history the hub
 * replays into its next run, and logs, summaries and result files are read by many.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { fingerprintOf, hubInputs, runAction, useHubEmulator, type ActionRun } from './harness.ts'
import { readWorkflowCommands, shownLog } from '../oracles/workflow-commands.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })

async function act(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
  const result = await runAction({ inputs: { ...hubInputs(hub), agent: 'quick', task: 'Same task', ...inputs }, env })
  onTestFinished(() => result.cleanup())
  return result
}

const sessionOf = (result: ActionRun): string => String(hub.run(result.outputs['run-id'] ?? '')?.sessionId)

/** Every place a reader of the job sees: the log as shown, the summary, the outputs, every file written. */
function seen(result: ActionRun): string {
  return [
    shownLog(readWorkflowCommands(result.stdout)),
    result.stderr,
    result.summary,
    ...Object.values(result.outputs),
    ...Object.values(result.files),
  ].join('\n')
}

describe('the same key, the same session', () => {
  it('a second "Run workflow" on the same commit (another run id) with key `auto` attaches to the first run', async () => {
    const first = await act({}, { GITHUB_RUN_ID: '5001' })
    expect(first.code).toBe(0)
    const second = await act({}, { GITHUB_RUN_ID: '5002' })
    expect(second.stdout).not.toContain("is not this step's run")
    expect(second.code).toBe(0)
    expect(second.outputs.reused).toBe('true')
    expect(second.outputs['run-id']).toBe(first.outputs['run-id'])
    expect(hub.runs()).toHaveLength(1)
  })

  it('a re-run attempt after a failed run starts a fresh run in a session of its own', async () => {
    const first = await act({ agent: 'failing' })
    expect(first.code).toBe(1)
    const again = await act({ agent: 'failing' }, { GITHUB_RUN_ATTEMPT: '2' })
    expect(again.outputs['run-id']).not.toBe(first.outputs['run-id'])
    expect(hub.runs()).toHaveLength(2)
    expect(sessionOf(again)).not.toBe(sessionOf(first))
  })

  it('two steps of one job (another task each) run in two sessions', async () => {
    const one = await act({ task: 'First step' })
    const two = await act({ task: 'Second step' })
    expect([one.code, two.code]).toEqual([0, 0])
    expect(sessionOf(one)).not.toBe(sessionOf(two))
  })
})

describe('a session id is never shown or stored whole', () => {
  it('not in the log, the summary, the outputs or the result file: a fingerprint at most', async () => {
    const result = await act({})
    expect(result.code).toBe(0)
    const session = sessionOf(result)
    expect(session).toMatch(/^gha-/)
    expect(seen(result)).not.toContain(session)
    expect(result.summary).toContain(fingerprintOf(session))
  })

  it('nor a session the workflow named', async () => {
    const result = await act({ 'session-id': 'team-review-2026' })
    expect(result.code).toBe(0)
    expect(sessionOf(result)).toBe('team-review-2026')
    expect(seen(result)).not.toContain('team-review-2026')
  })
})
