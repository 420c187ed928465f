/**
 * Child runs in the emulator (docs/hub-facts.md, "Run detail"): a run's detail lists the
 * summaries of the runs it spawned, each with its own id, parent, phase, tokens and cost, over
 * real loopback HTTP.
 */
import { afterEach, expect, it } from 'vitest'
import { startHubEmulator, type HubEmulator } from './hub.ts'

const A = '/services/providers/agents'
let emu: HubEmulator | undefined
afterEach(async () => {
  await emu?.close()
  emu = undefined
})

const delegating = {
  steps: [
    { phase: 'Pending' as const, afterMs: 0 },
    { phase: 'Running' as const, afterMs: 0 },
    { phase: 'Succeeded' as const, afterMs: 20 },
  ],
  output: 'done',
  inputTokens: 100,
  outputTokens: 10,
  usdMicros: 1_000,
  childRuns: [
    { agent: 'reader', inputTokens: 200, outputTokens: 20, usdMicros: 2_000 },
    { agent: 'writer', phase: 'Failed' as const, inputTokens: 300, outputTokens: 30, usdMicros: 3_000 },
  ],
}

it('lists a run’s child runs with their own tokens and cost once it runs, and none before', async () => {
  emu = await startHubEmulator({ agents: { delegating, idle: { steps: [{ phase: 'Pending', afterMs: 0 }] } } })
  const headers = { ...emu.headers(), 'Content-Type': 'application/json' }
  const start = async (agent: string) =>
    (
      (await (
        await fetch(`${emu!.url}${A}/api/agents/${agent}/runs`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ task: 't', wait: 0 }),
        })
      ).json()) as { runId: string }
    ).runId
  const runId = await start('delegating')
  const detail = (await (
    await fetch(`${emu.url}${A}/api/runs/${runId}/wait?timeoutSeconds=5`, { headers: emu.headers() })
  ).json()) as Record<string, unknown>
  expect(detail).toMatchObject({ phase: 'Succeeded', inputTokens: 100, outputTokens: 10, usdMicros: 1_000 })
  expect(detail.children).toEqual([
    expect.objectContaining({
      id: `${runId}-child-1`,
      agent: 'reader',
      parentRunID: runId,
      phase: 'Succeeded',
      inputTokens: 200,
      outputTokens: 20,
      usdMicros: 2_000,
    }),
    expect.objectContaining({ agent: 'writer', phase: 'Failed', inputTokens: 300, outputTokens: 30, usdMicros: 3_000 }),
  ])

  // A run that never started spawned nothing.
  emu.setAgent('idle', { ...delegating, steps: [{ phase: 'Pending', afterMs: 0 }] })
  const idle = await start('idle')
  const pending = (await (await fetch(`${emu.url}${A}/api/runs/${idle}`, { headers: emu.headers() })).json()) as {
    children: unknown[]
  }
  expect(pending.children).toEqual([])
})
