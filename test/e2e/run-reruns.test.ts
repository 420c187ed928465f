/**
 * End to end, re-runs with `idempotency-key: auto`: a re-run attaches to a run that succeeded
 * (no duplicate work), and a re-run attempt (GITHUB_RUN_ATTEMPT > 1) whose key returns a run that
 * failed starts a fresh run under that attempt's own key (derived with the token, like the first:
 * not one a reader of the first attempt's log could compute), and says so.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, useHubEmulator } from './fixtures/hub-session.ts'
import { runAction, type ActionRun } from './action-process.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })

async function act(agent: string, attempt: string): Promise<ActionRun> {
  const result = await runAction({
    inputs: { ...hubInputs(hub), agent, task: 'Same task each attempt' },
    env: { GITHUB_RUN_ATTEMPT: attempt },
  })
  onTestFinished(() => result.cleanup())
  return result
}

const keyOf = (result: ActionRun): string =>
  String(
    (JSON.parse(result.files[result.outputs['result-file'] ?? ''] ?? '{}') as { idempotencyKey?: string })
      .idempotencyKey,
  )

const keysSent = (): string[] =>
  hub.requests
    .filter((r) => r.method === 'POST')
    .map((r) => String((JSON.parse(r.body ?? '{}') as { idempotencyKey?: string }).idempotencyKey))

describe('re-runs', () => {
  it('a re-run after success attaches to the first run: no new run', async () => {
    const first = await act('quick', '1')
    expect(first.code).toBe(0)
    const again = await act('quick', '2')
    expect(again.code).toBe(0)
    expect(hub.runs()).toHaveLength(1)
    expect(again.outputs['run-id']).toBe(first.outputs['run-id'])
    expect(again.outputs.reused).toBe('true')
    expect(again.stdout).not.toContain('fresh run')
  })

  it("a re-run attempt after a failure starts a fresh run under the attempt's own key, and says so", async () => {
    const first = await act('failing', '1')
    expect(first.code).toBe(1)
    const key = keyOf(first)
    expect(key).toMatch(/^gha-/)
    const again = await act('failing', '2')
    expect(hub.runs()).toHaveLength(2)
    expect(again.outputs['run-id']).not.toBe(first.outputs['run-id'])
    expect(again.outputs.reused).toBe('false')
    const fresh = keyOf(again)
    expect(fresh).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(fresh).not.toBe(key)
    expect(fresh).not.toContain(key)
    expect(keysSent()).toEqual([key, key, fresh])
    expect(again.stdout).toContain(
      `Idempotency key ${key} returned run ${first.outputs['run-id']}, which ended Failed; this is re-run attempt 2, so a fresh run started under key ${fresh}, in a session of its own, instead of attaching to it.`,
    )
    // A second re-run attempt finds that fresh run under the same key: the key of an attempt is stable too.
    const third = await act('failing', '2')
    expect(third.outputs['run-id']).toBe(again.outputs['run-id'])
  })
})
