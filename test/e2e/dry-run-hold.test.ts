/**
 * `dry-run: true` shows the long-poll the step would send, hold included: for `run`, `wait` and
 * `approve`, with `live-steps` on and off, with a `timeout-seconds` shorter than a hold (the hold
 * is cut to the budget) and, for a run just started, a `pending-timeout-seconds` shorter than one.
 * Each hold a dry run shows is compared with the first /wait the same step sends to the emulator;
 * the real step is then stopped with SIGTERM, as a cancelled job is.
 */
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { beforeEach, describe, expect, it } from 'vitest'
import { hubInputs, runStep, until, useHubEmulator, waitRequests } from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })
beforeEach(() => {
  hub.setAgent('endless', { steps: [{ phase: 'Running', afterMs: 0 }] })
  hub.setAgent('queued', { steps: [{ phase: 'Running', afterMs: 600_000 }] })
})

/** The hold (`timeoutSeconds`) of the long-poll a dry run of the step shows. */
async function shownHold(inputs: Record<string, string>): Promise<string | null> {
  const result = await runStep({ inputs: hubInputs(hub, { ...inputs, 'dry-run': 'true' }) })
  expect(result.code).toBe(0)
  const file = JSON.parse(readFileSync(result.outputs['result-file'] ?? '', 'utf8')) as {
    requests: Array<{ method: string; url: string }>
  }
  const waits = file.requests.filter(
    (request) => request.method === 'GET' && new URL(request.url).pathname.endsWith('/wait'),
  )
  expect(waits).toHaveLength(1)
  return new URL(waits[0]?.url ?? '').searchParams.get('timeoutSeconds')
}

/** The hold of the first long-poll the step sends. */
async function sentHold(inputs: Record<string, string>): Promise<string | undefined> {
  const from = hub.requests.length
  let child: ChildProcess | undefined
  const step = runStep({ inputs: hubInputs(hub, inputs), onSpawn: (spawned) => (child = spawned), killAfterMs: 30_000 })
  await until(() => waitRequests(hub, from).length > 0, 'the step sends its first wait', 20_000)
  child?.kill('SIGTERM')
  await step
  return waitRequests(hub, from)[0]?.query.timeoutSeconds
}

const settings = [
  ['live steps (the default)', {}, '10'],
  ['live-steps: false', { 'live-steps': 'false' }, '50'],
  ['live steps, timeout-seconds shorter than a hold', { 'timeout-seconds': '4' }, '4'],
  ['live-steps: false, timeout-seconds shorter than a hold', { 'live-steps': 'false', 'timeout-seconds': '4' }, '4'],
] as const

describe("dry-run shows the hold the step's wait loop asks for", () => {
  it.each(settings)('run, %s', async (_name, extra, hold) => {
    const inputs = { agent: 'endless', task: 'Look around', 'idempotency-key': 'none', ...extra }
    const sent = await sentHold(inputs)
    expect(sent).toBe(hold)
    expect(await shownHold(inputs)).toBe(sent)
  })

  it('run, a pending-timeout-seconds shorter than a hold cuts the first wait of the Pending run', async () => {
    const inputs = { agent: 'queued', task: 'Look around', 'idempotency-key': 'none', 'pending-timeout-seconds': '3' }
    const sent = await sentHold(inputs)
    expect(sent).toBe('3')
    expect(await shownHold(inputs)).toBe(sent)
  })

  it.each(settings)('wait and approve, %s', async (_name, extra, hold) => {
    const started = await runStep({
      inputs: hubInputs(hub, { agent: 'endless', task: 'Look around', 'timeout-seconds': '0' }),
    })
    const runId = started.outputs['run-id'] ?? ''
    expect(runId).not.toBe('')
    const sent = await sentHold({ command: 'wait', 'run-id': runId, ...extra })
    expect(sent).toBe(hold)
    expect(await shownHold({ command: 'wait', 'run-id': runId, ...extra })).toBe(sent)
    // approve waits for the run exactly as wait does once the approval is resolved.
    expect(await shownHold({ command: 'approve', 'run-id': runId, decision: 'approve', ...extra })).toBe(sent)
  })
})
