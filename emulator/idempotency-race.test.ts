// The emulator's same-key race (docs/hub-facts.md, "Agents provider"), against its own HTTP API.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startHubEmulator, type HubEmulator } from './hub.ts'

const RUNS = '/services/providers/agents/api'

let racing: HubEmulator
let plain: HubEmulator

beforeAll(async () => {
  racing = await startHubEmulator({ idempotencyInsertDelayMs: 150 })
  plain = await startHubEmulator()
})
afterAll(async () => {
  await Promise.all([racing.close(), plain.close()])
})
beforeEach(() => {
  racing.reset()
  plain.reset()
})

async function start(hub: HubEmulator, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${hub.url}${RUNS}/agents/quick/runs`, {
    method: 'POST',
    headers: { ...hub.headers(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ task: 'Check pods', idempotencyKey: key, wait: 0 }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

async function read(hub: HubEmulator, runId: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${hub.url}${RUNS}/runs/${runId}`, { headers: hub.headers() })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('idempotencyInsertDelayMs', () => {
  it('lets concurrent first starts with one key all start a run; only the first is stored, the others 404', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => start(racing, 'same-key')))
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202])
    const ids = answers.map((a) => String(a.body.runId))
    expect(new Set(ids).size).toBe(5)

    expect(racing.runs()).toHaveLength(1)
    const stored = racing.runs()[0]!
    expect(ids).toContain(stored.id)
    expect(
      racing
        .raceLosers()
        .map((r) => r.id)
        .sort(),
    ).toEqual(ids.filter((id) => id !== stored.id).sort())

    for (const id of ids) {
      const answer = await read(racing, id)
      if (id === stored.id) expect(answer.status).toBe(200)
      else expect(answer).toMatchObject({ status: 404, body: { kind: 'Status', reason: 'NotFound', code: 404 } })
    }

    // Once stored, the key hands back the stored run at once, as without the race.
    const again = await start(racing, 'same-key')
    expect(again).toMatchObject({ status: 200, body: { runId: stored.id, reused: true } })
    expect(racing.runs()).toHaveLength(1)
  })

  it('never loses a start without a key, nor starts with different keys', async () => {
    const answers = await Promise.all([start(racing, 'a'), start(racing, 'b')])
    expect(answers.map((a) => a.status)).toEqual([202, 202])
    expect(racing.runs()).toHaveLength(2)
    expect(racing.raceLosers()).toEqual([])
  })

  it('is off by default: concurrent starts with one key get one run', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => start(plain, 'same-key')))
    expect(new Set(answers.map((a) => a.body.runId)).size).toBe(1)
    expect(answers.filter((a) => a.body.reused === true)).toHaveLength(4)
    expect(plain.runs()).toHaveLength(1)
    expect(plain.raceLosers()).toEqual([])
  })
})
