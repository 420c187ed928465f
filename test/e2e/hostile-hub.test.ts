/**
 * End to end, a hostile or broken hub (issue 7, classes 4–7 and the clip half of 11):
 * waits answered at once, endless bodies, a drip of a byte a second, an outage during the
 * wait, and a token cut in two by the clip of an error message. dist/index.js as a process
 * against the hub emulator with hostile providers (emulator/hostile.ts) on loopback.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, memoryProbe, runAction, runStep, useHubEmulator, waitRequests, type ActionRun } from './harness.ts'
import {
  drippingWait,
  endlessQueryPage,
  endlessWait,
  instantWait,
  waitOutage,
  type Hostility,
} from '../../emulator/index.ts'

const hub = useHubEmulator({
  agents: {
    'three-seconds': {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 3_000 },
      ],
      output: 'done',
    },
    'eight-seconds': {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 8_000 },
      ],
      output: 'done after the outage',
    },
    endless: { steps: [{ phase: 'Running', afterMs: 0 }] },
  },
})

const MEMORY_LIMIT = 300 * 1024 * 1024

const inputs = (extra: Record<string, string>): Record<string, string> =>
  hubInputs(hub, { task: 'Check payments', ...extra })

function hostile(hostility: Hostility): Hostility {
  onTestFinished(() => hostility.restore())
  return hostility
}

const act = (
  extra: Record<string, string>,
  options: { killAfterMs?: number; env?: Record<string, string> } = {},
): Promise<ActionRun> =>
  runStep({
    inputs: inputs(extra),
    killAfterMs: options.killAfterMs ?? 30_000,
    ...(options.env ? { env: options.env } : {}),
  })

/** Run the action with its memory watched: killed past 300 MB, its peak read when it exits. */
async function actMeasured(
  extra: Record<string, string>,
): Promise<{ result: ActionRun; peak: number | undefined; killedForMemory: boolean }> {
  const probe = memoryProbe()
  onTestFinished(() => probe.cleanup())
  let stopWatch: (() => boolean) | undefined
  const result = await runAction({
    inputs: inputs(extra),
    env: probe.env,
    killAfterMs: 30_000,
    onSpawn: (child) => (stopWatch = child.pid ? probe.watch(child.pid, MEMORY_LIMIT) : undefined),
  })
  onTestFinished(() => result.cleanup())
  const killedForMemory = stopWatch?.() ?? false
  return { result, peak: probe.peakBytes(), killedForMemory }
}

const waits = () => waitRequests(hub)
const errors = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::error::'))
const warnings = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::warning::'))

describe('a hub that answers every wait at once (class 4)', () => {
  it('is asked a handful of times, not a thousand times a second, and the run still succeeds', async () => {
    const answered = hostile(instantWait(hub))
    const result = await act({ agent: 'three-seconds', 'timeout-seconds': '60' })
    expect(errors(result.stdout)).toEqual([])
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    expect(answered.answered).toBeGreaterThan(1)
    // Pacing from 250 ms towards 8 s, jittered: a 3 s run takes well under 20 waits (today: thousands).
    expect(waits().length).toBeLessThanOrEqual(20)
  })
})

describe('a hub that sends bodies without end (class 5)', () => {
  it('an endless run detail: the action stops reading at the cap, names it, and stays under 300 MB', async () => {
    hostile(endlessWait(hub))
    const { result, peak, killedForMemory } = await actMeasured({ agent: 'endless', 'timeout-seconds': '60' })
    expect(killedForMemory).toBe(false)
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    const [error] = errors(result.stdout)
    expect(error).toContain('Could not wait for run')
    expect(error).toContain('8 MiB')
    expect(error).toMatch(/for GET \/services\/providers\/agents\/api\/runs\/[^/]+\/wait/)
    expect(error).not.toContain('connection')
    expect(peak).toBeLessThan(MEMORY_LIMIT)
  })

  it('an endless query page: refused at the cap of one query page, with the advice to lower `limit`', async () => {
    hostile(endlessQueryPage(hub))
    const { result, peak, killedForMemory } = await actMeasured({ command: 'query', query: '{"limit": 1000}' })
    expect(killedForMemory).toBe(false)
    expect(result.code).toBe(1)
    const [error] = errors(result.stdout)
    expect(error).toContain('one query page')
    expect(error).toContain('1,000,000 values')
    expect(error).toContain('`limit`')
    expect(peak).toBeLessThan(MEMORY_LIMIT)
  })
})

describe('one time budget for every request (class 6)', () => {
  it('a wait that drips a byte a second ends at timeout-seconds, and on-timeout: warn applies', async () => {
    hostile(drippingWait(hub))
    const result = await act(
      { agent: 'endless', 'timeout-seconds': '3', 'on-timeout': 'warn' },
      { killAfterMs: 20_000 },
    )
    expect(result.signal).toBeNull()
    expect(errors(result.stdout)).toEqual([])
    expect(result.code).toBe(0)
    expect(warnings(result.stdout).join('\n')).toContain('did not settle within timeout-seconds (3 s)')
    expect(result.outputs['run-id']).toBe(hub.runs()[0]?.id)
    expect(result.outputs.settled).toBe('false')
    // The budget bounds the step, start-up and publishing aside (today: 93 s, then a failure).
    expect(result.exitedAt - result.startedAt).toBeLessThan(8_000)
  })
})

describe('a short outage while waiting (class 7)', () => {
  it('6 s of 503s on the wait are retried until the hub is back, and the run is reported', async () => {
    const outage = waitOutage(hub, 6_000)
    hostile(outage)
    const result = await act({ agent: 'eight-seconds', 'timeout-seconds': '60' })
    expect(errors(result.stdout)).toEqual([])
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    expect(result.stdout).toContain('answered 503; retry')
    expect(result.stdout).toMatch(/s of the time budget left\)/)
    const last = waits().at(-1)
    expect(last?.at).toBeGreaterThanOrEqual(outage.endedAt ?? Infinity)
  })

  it('an outage that outlasts the budget: on-timeout applies, with the run id and last phase as outputs', async () => {
    hostile(waitOutage(hub, 600_000))
    const result = await act({ agent: 'endless', 'timeout-seconds': '4', 'on-timeout': 'warn' })
    expect(errors(result.stdout)).toEqual([])
    expect(result.code).toBe(0)
    expect(warnings(result.stdout).join('\n')).toContain('did not settle within timeout-seconds (4 s)')
    expect(result.outputs['run-id']).toBe(hub.runs()[0]?.id)
    // No wait got through: the last phase the hub reported is the one of the start.
    expect(result.outputs.phase).toBe('Pending')
    expect(result.outputs.settled).toBe('false')
  })
})

describe('redaction comes before the clip (class 11, hub errors)', () => {
  it('a token that straddles the 500-character clip of an error message is not printed in part', async () => {
    // 474 characters, then the token: the clip at 500 keeps its first 26 characters.
    hub.addFault({ method: 'POST', path: /\/runs$/, status: 400, body: `${'a'.repeat(474)}${hub.token} was refused` })
    const result = await act({ agent: 'three-seconds' })
    expect(result.code).toBe(1)
    const [error] = errors(result.stdout)
    expect(error).toContain('***')
    // The action masks its own token first (::add-mask::); nothing else may carry any part of it.
    const stdout = result.stdout
      .split('\n')
      .filter((line) => !line.startsWith('::add-mask::'))
      .join('\n')
    for (const text of [stdout, result.stderr, ...Object.values(result.files)])
      expect(text).not.toContain(hub.token.slice(0, 12))
  })
})
