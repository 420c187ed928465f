import { MockAgent } from 'undici'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { FollowedRun } from '../../../src/commands/runs/followed-run.js'
import { runAgent } from '../../../src/commands/runs/step.js'
import { AgentsClient, MAX_WAIT_SECONDS } from '../../../src/hub/agents.js'
import { HubNotFoundError, HubServerError } from '../../../src/hub/errors.js'
import { HubTransport } from '../../../src/hub/transport.js'
import type { RunSettings } from '../../../src/commands/runs/run-inputs.js'

const ORIGIN = 'https://hub.example.com'
const ORG = '11111111-2222-3333-4444-555555555555'
const WS = '66666666-7777-8888-9999-000000000000'
const JSON_HEADERS = { headers: { 'content-type': 'application/json' } }
const USER = '/services/providers/agents/api'
const S2S = '/services/providers/agents/s2s/clusters/edge-7'

function detail(phase: string, extra: Record<string, unknown> = {}) {
  return { id: 'r1', phase, inputTokens: 1, outputTokens: 2, usdMicros: 3, steps: [], children: [], ...extra }
}

let mockAgent: MockAgent | undefined
afterEach(async () => {
  await mockAgent?.close()
  mockAgent = undefined
})

function setup(clusterId?: string) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  mockAgent = agent
  const sleep = vi.fn(async () => {})
  const transport = new HubTransport({
    baseUrl: new URL(ORIGIN),
    token: 'tok',
    org: ORG,
    workspace: WS,
    clusterId,
    dispatcher: agent,
    sleep,
  })
  return { agent, pool: agent.get(ORIGIN), sleep, client: new AgentsClient(transport, clusterId) }
}

/** The agents provider's own 404 for a run it does not know. */
const notFound = (id: string) =>
  JSON.stringify({ kind: 'Status', reason: 'NotFound', message: `run "${id}" not found`, code: 404 })

function captureBody(into: { body?: unknown }) {
  return (text: string) => {
    into.body = JSON.parse(text)
    return true
  }
}

describe('AgentsClient on the user route', () => {
  it('startRun posts task, wait 0, sessionId and idempotencyKey', async () => {
    const { pool, client, agent } = setup()
    const seen: { body?: unknown } = {}
    pool
      .intercept({ path: `${USER}/agents/triage/runs`, method: 'POST', body: captureBody(seen) })
      .reply(202, { runId: 'r1', phase: 'Pending' }, JSON_HEADERS)
    const created = await client.startRun({
      agent: 'triage',
      task: 'Check pods',
      sessionId: 'gha-s-1',
      idempotencyKey: 'gha-k',
    })
    expect(created).toEqual({ runId: 'r1', phase: 'Pending' })
    expect(seen.body).toEqual({ task: 'Check pods', wait: 0, sessionId: 'gha-s-1', idempotencyKey: 'gha-k' })
    agent.assertNoPendingInterceptors()
  })

  it('startRun leaves idempotencyKey (and sessionId) out when not set', async () => {
    const { pool, client } = setup()
    const seen: { body?: unknown } = {}
    pool
      .intercept({ path: `${USER}/agents/triage/runs`, method: 'POST', body: captureBody(seen) })
      .reply(202, { runId: 'r1', phase: 'Pending' }, JSON_HEADERS)
    await client.startRun({ agent: 'triage', task: 'Check pods', sessionId: 'gha-s-1' })
    expect(seen.body).toEqual({ task: 'Check pods', wait: 0, sessionId: 'gha-s-1' })
    expect(seen.body).not.toHaveProperty('idempotencyKey')

    const second: { body?: unknown } = {}
    pool
      .intercept({ path: `${USER}/agents/triage/runs`, method: 'POST', body: captureBody(second) })
      .reply(202, { runId: 'r2', phase: 'Pending' }, JSON_HEADERS)
    await client.startRun({ agent: 'triage', task: 't', idempotencyKey: '' })
    expect(second.body).toEqual({ task: 't', wait: 0 })
  })

  it('startRun without a key is not retried on 503; with a key it is', async () => {
    const { pool, client, sleep } = setup()
    pool.intercept({ path: `${USER}/agents/triage/runs`, method: 'POST' }).reply(503, 'provider not ready: agents')
    await expect(client.startRun({ agent: 'triage', task: 't' })).rejects.toBeInstanceOf(HubServerError)
    expect(sleep).not.toHaveBeenCalled()

    pool.intercept({ path: `${USER}/agents/triage/runs`, method: 'POST' }).reply(503, 'provider not ready: agents')
    pool
      .intercept({ path: `${USER}/agents/triage/runs`, method: 'POST' })
      .reply(
        200,
        { runId: 'r9', phase: 'Succeeded', reused: true, run: detail('Succeeded', { id: 'r9' }) },
        JSON_HEADERS,
      )
    const created = await client.startRun({ agent: 'triage', task: 't', idempotencyKey: 'k' })
    expect(created.runId).toBe('r9')
    expect(created.reused).toBe(true)
    expect(created.run?.phase).toBe('Succeeded')
    expect(sleep).toHaveBeenCalledTimes(1)
  })

  it('waitRun long-polls /runs/{id}/wait with timeoutSeconds and fills defaults', async () => {
    const { pool, client, agent } = setup()
    pool
      .intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(200, { id: 'r1', phase: 'Running', usdMicros: 0, newField: 'tolerated' }, JSON_HEADERS)
    const run = await client.waitRun('r1', 50)
    expect(run.phase).toBe('Running')
    expect(run.steps).toEqual([])
    expect(run.children).toEqual([])
    expect(run.inputTokens).toBe(0)
    expect(run['newField']).toBe('tolerated')
    agent.assertNoPendingInterceptors()
  })

  it.each([
    [0, 1],
    [-5, 1],
    [0.2, 1],
    [12.3, 13],
    [300, 300],
    [301, 300],
    [10_000, 300],
  ])('waitRun clamps a hold of %s s to timeoutSeconds=%s', async (hold, expected) => {
    const { pool, client, agent } = setup()
    pool
      .intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=${expected}`, method: 'GET' })
      .reply(200, detail('Running'), JSON_HEADERS)
    await client.waitRun('r1', hold)
    agent.assertNoPendingInterceptors()
    expect(MAX_WAIT_SECONDS).toBe(300)
  })

  it('getRun reads /runs/{id} and encodes the id', async () => {
    const { pool, client, agent } = setup()
    pool
      .intercept({ path: `${USER}/runs/a%2Fb`, method: 'GET' })
      .reply(200, detail('Succeeded', { id: 'a/b' }), JSON_HEADERS)
    const run = await client.getRun('a/b')
    expect(run.id).toBe('a/b')
    agent.assertNoPendingInterceptors()
  })

  it('getRun 404 is a not-found error naming the run', async () => {
    const { pool, client } = setup()
    pool
      .intercept({ path: `${USER}/runs/r404`, method: 'GET' })
      .reply(
        404,
        JSON.stringify({ kind: 'Status', reason: 'NotFound', message: 'run not found', code: 404 }),
        JSON_HEADERS,
      )
    const error = await client.getRun('r404').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect((error as Error).message).toContain('Run r404 was not found')
  })

  it('cancelRun: 202 → cancelling, 409 → already-settled', async () => {
    const { pool, client, agent } = setup()
    pool
      .intercept({ path: `${USER}/runs/r1/cancel`, method: 'POST' })
      .reply(202, { id: 'r1', cancelling: true }, JSON_HEADERS)
    await expect(client.cancelRun('r1')).resolves.toBe('cancelling')
    pool
      .intercept({ path: `${USER}/runs/r1/cancel`, method: 'POST' })
      .reply(
        409,
        JSON.stringify({ kind: 'Status', reason: 'Conflict', message: 'run already terminal', code: 409 }),
        JSON_HEADERS,
      )
    await expect(client.cancelRun('r1')).resolves.toBe('already-settled')
    agent.assertNoPendingInterceptors()
  })

  it('cancelRun 404 fails', async () => {
    const { pool, client } = setup()
    pool.intercept({ path: `${USER}/runs/r1/cancel`, method: 'POST' }).reply(404, 'run not found')
    await expect(client.cancelRun('r1')).rejects.toBeInstanceOf(HubNotFoundError)
  })

  it('getAgent reads /agents/{name}', async () => {
    const { pool, client, agent } = setup()
    pool
      .intercept({ path: `${USER}/agents/triage`, method: 'GET' })
      .reply(200, { metadata: { name: 'triage' }, status: { phase: 'Suspended' } }, JSON_HEADERS)
    const read = await client.getAgent('triage')
    expect(read.status?.phase).toBe('Suspended')
    expect(client.canReadAgents).toBe(true)
    agent.assertNoPendingInterceptors()
  })
})

describe('AgentsClient on the service-account route', () => {
  it('every run call goes through /s2s/clusters/{id}/…', async () => {
    const { pool, client, agent } = setup('edge-7')
    const seen: { body?: unknown } = {}
    pool
      .intercept({ path: `${S2S}/agents/triage/runs`, method: 'POST', body: captureBody(seen) })
      .reply(202, { runId: 'r1', phase: 'Pending' }, JSON_HEADERS)
    pool
      .intercept({ path: `${S2S}/runs/r1/wait?timeoutSeconds=30`, method: 'GET' })
      .reply(200, detail('Running'), JSON_HEADERS)
    pool.intercept({ path: `${S2S}/runs/r1`, method: 'GET' }).reply(200, detail('Running'), JSON_HEADERS)

    await client.startRun({ agent: 'triage', task: 'Check', sessionId: 's', idempotencyKey: 'k' })
    expect(seen.body).toEqual({ task: 'Check', wait: 0, sessionId: 's', idempotencyKey: 'k' })
    await client.waitRun('r1', 30)
    await client.getRun('r1')
    agent.assertNoPendingInterceptors()
  })

  it('has no cancel and no inbox: both refuse before any request (the route would answer a text 404)', async () => {
    const { client } = setup('edge-7')
    await expect(client.cancelRun('r1')).rejects.toThrow('the service-account route has no cancel')
    await expect(client.resolveApproval('i1', 'approve', undefined)).rejects.toThrow(
      'the service-account route has no inbox',
    )
  })

  it('encodes the cluster id', async () => {
    const { pool, client, agent } = setup('a b')
    pool
      .intercept({ path: '/services/providers/agents/s2s/clusters/a%20b/runs/r1', method: 'GET' })
      .reply(200, detail('Running'), JSON_HEADERS)
    await client.getRun('r1')
    agent.assertNoPendingInterceptors()
  })

  it('cannot read agents; getAgent still uses the user route', async () => {
    const { pool, client, agent } = setup('edge-7')
    expect(client.canReadAgents).toBe(false)
    pool
      .intercept({ path: `${USER}/agents/triage`, method: 'GET' })
      .reply(200, { status: { phase: 'Ready' } }, JSON_HEADERS)
    await client.getAgent('triage')
    agent.assertNoPendingInterceptors()
  })
})

describe('FollowedRun: the same-key race recovery (docs/hub-facts.md, "Agents provider")', () => {
  const START = { agent: 'triage', task: 'Check pods', sessionId: 's', idempotencyKey: 'gha-k' }

  /** Replies to start requests; `bodies()` are those the hub saw, from the mock's call history. */
  function starts(agent: MockAgent, pool: ReturnType<typeof setup>['pool']) {
    agent.enableCallHistory()
    const bodies = () =>
      (agent.getCallHistory()?.calls() ?? [])
        .filter((call) => call.method === 'POST')
        .map((call) => JSON.parse(String(call.body)) as unknown)
    const reply = (status: number, body: object) =>
      pool.intercept({ path: `${USER}/agents/triage/runs`, method: 'POST' }).reply(status, body, JSON_HEADERS)
    return { bodies, reply }
  }

  it('a keyed run this step created that 404s on its first wait is asked for once more, and the stored run is followed', async () => {
    const { pool, client, agent } = setup()
    const post = starts(agent, pool)
    const log = vi.fn()
    post.reply(202, { runId: 'lost', phase: 'Pending' })
    const created = await client.startRun(START)
    const followed = FollowedRun.started(client, START, created, log)

    pool
      .intercept({ path: `${USER}/runs/lost/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(404, notFound('lost'), JSON_HEADERS)
    post.reply(200, { runId: 'kept', phase: 'Running', reused: true, run: detail('Running', { id: 'kept' }) })
    const first = await followed.wait(50)
    expect(first).toMatchObject({ id: 'kept', phase: 'Running' })
    expect(followed.runId).toBe('kept')
    expect(followed.reused).toBe(true)
    // The same start again, the same key, and no inline wait.
    expect(post.bodies()).toEqual([
      { task: 'Check pods', wait: 0, sessionId: 's', idempotencyKey: 'gha-k' },
      { task: 'Check pods', wait: 0, sessionId: 's', idempotencyKey: 'gha-k' },
    ])
    expect(log).toHaveBeenCalledTimes(1)
    expect(log).toHaveBeenCalledWith(
      "Run lost is unknown to the hub: another job started the same task with the same idempotency key at the same moment, and the hub kept that job's run kept; following it instead.",
    )

    pool
      .intercept({ path: `${USER}/runs/kept/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(200, detail('Succeeded', { id: 'kept' }), JSON_HEADERS)
    await expect(followed.wait(50)).resolves.toMatchObject({ id: 'kept', phase: 'Succeeded' })
    agent.assertNoPendingInterceptors()
  })

  it('recovers on the first read too, and waits on the returned run when its answer carries no detail', async () => {
    const { pool, client, agent } = setup()
    const post = starts(agent, pool)
    const followed = FollowedRun.started(client, START, { runId: 'lost', phase: 'Pending' }, vi.fn())
    pool.intercept({ path: `${USER}/runs/lost`, method: 'GET' }).reply(404, notFound('lost'), JSON_HEADERS)
    post.reply(202, { runId: 'fresh', phase: 'Pending' })
    pool
      .intercept({ path: `${USER}/runs/fresh`, method: 'GET' })
      .reply(200, detail('Pending', { id: 'fresh' }), JSON_HEADERS)
    await expect(followed.read()).resolves.toMatchObject({ id: 'fresh' })
    expect(post.bodies()).toHaveLength(1)
    expect(followed.reused).toBe(false)
    agent.assertNoPendingInterceptors()
  })

  it('a second 404 is the existing not-found error, and nothing is asked a third time', async () => {
    const { pool, client, agent } = setup()
    const post = starts(agent, pool)
    const followed = FollowedRun.started(client, START, { runId: 'lost', phase: 'Pending' }, vi.fn())
    pool
      .intercept({ path: `${USER}/runs/lost/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(404, notFound('lost'), JSON_HEADERS)
    post.reply(200, { runId: 'ghost', phase: 'Pending', reused: true })
    pool
      .intercept({ path: `${USER}/runs/ghost/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(404, notFound('ghost'), JSON_HEADERS)
    const error = await followed.wait(50).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect((error as Error).message).toContain('Run ghost was not found in workspace')
    expect(post.bodies()).toHaveLength(1)

    pool
      .intercept({ path: `${USER}/runs/ghost/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(404, notFound('ghost'), JSON_HEADERS)
    await expect(followed.wait(50)).rejects.toBeInstanceOf(HubNotFoundError)
    expect(post.bodies()).toHaveLength(1)
    agent.assertNoPendingInterceptors()
  })

  it('a run the hub has already answered for is never re-created on a later 404', async () => {
    const { pool, client, agent } = setup()
    const post = starts(agent, pool)
    const followed = FollowedRun.started(client, START, { runId: 'r1', phase: 'Pending' }, vi.fn())
    pool
      .intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(200, detail('Running'), JSON_HEADERS)
    pool
      .intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(404, notFound('r1'), JSON_HEADERS)
    await followed.wait(50)
    await expect(followed.wait(50)).rejects.toBeInstanceOf(HubNotFoundError)
    expect(post.bodies()).toEqual([])
    agent.assertNoPendingInterceptors()
  })

  it('a user-given run id, a run started without a key, and an attached (reused) run are never re-created', async () => {
    const cases = [
      (client: AgentsClient) => FollowedRun.given(client, 'r1'),
      (client: AgentsClient) =>
        FollowedRun.started(
          client,
          { agent: 'triage', task: 'Check pods' },
          { runId: 'r1', phase: 'Pending' },
          vi.fn(),
        ),
      (client: AgentsClient) =>
        FollowedRun.started(
          client,
          START,
          { runId: 'r1', phase: 'Running', reused: true, run: detail('Running') },
          vi.fn(),
        ),
    ]
    for (const make of cases) {
      const { pool, client, agent } = setup()
      const post = starts(agent, pool)
      const followed = make(client)
      pool
        .intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=50`, method: 'GET' })
        .reply(404, notFound('r1'), JSON_HEADERS)
      pool.intercept({ path: `${USER}/runs/r1`, method: 'GET' }).reply(404, notFound('r1'), JSON_HEADERS)
      await expect(followed.wait(50)).rejects.toThrow('Run r1 was not found in workspace')
      await expect(followed.read()).rejects.toBeInstanceOf(HubNotFoundError)
      expect(post.bodies()).toEqual([])
      expect(followed.runId).toBe('r1')
      agent.assertNoPendingInterceptors()
      if (make !== cases.at(-1)) await agent.close() // afterEach closes the last one
    }
  })

  it('a plain-text 404 (no such route) is not the race; an outage keeps the recovery for the next answer', async () => {
    const { pool, client, agent } = setup()
    const post = starts(agent, pool)
    const followed = FollowedRun.started(client, START, { runId: 'r1', phase: 'Pending' }, vi.fn())
    pool.intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=50`, method: 'GET' }).reply(404, '404 page not found')
    await expect(followed.wait(50)).rejects.toBeInstanceOf(HubNotFoundError)
    expect(post.bodies()).toEqual([])

    pool.intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=50`, method: 'GET' }).reply(500, 'internal error')
    await expect(followed.wait(50)).rejects.toBeInstanceOf(HubServerError)
    pool
      .intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=50`, method: 'GET' })
      .reply(404, notFound('r1'), JSON_HEADERS)
    post.reply(200, { runId: 'kept', phase: 'Succeeded', reused: true, run: detail('Succeeded', { id: 'kept' }) })
    await expect(followed.wait(50)).resolves.toMatchObject({ id: 'kept' })
    expect(post.bodies()).toHaveLength(1)
    agent.assertNoPendingInterceptors()
  })
})

describe('runAgent over the transport: a leg that lost the same-key race', () => {
  const settings: RunSettings = {
    agent: 'triage',
    task: 'Check pods',
    idempotencyKey: 'gha-k',
    idempotencyKeySource: 'auto',
    sessionId: 's',
    timeoutSeconds: 600,
    onTimeout: 'fail',
    onApproval: 'wait',
    pendingTimeoutSeconds: 300,
    onCancel: 'detach',
    liveSteps: true,
    allowEmptyOutput: false,
  }
  const events = () => ({ created: vi.fn(), progress: vi.fn(), awaitingApproval: vi.fn(), info: vi.fn() })

  it('ends with the stored run in 4 requests, and says so in one log line', async () => {
    const { pool, client, agent } = setup()
    agent.enableCallHistory()
    pool
      .intercept({ path: `${USER}/agents/triage/runs`, method: 'POST' })
      .reply(202, { runId: 'lost', phase: 'Pending' }, JSON_HEADERS)
    pool
      .intercept({ path: `${USER}/runs/lost/wait?timeoutSeconds=10`, method: 'GET' })
      .reply(404, notFound('lost'), JSON_HEADERS)
    pool.intercept({ path: `${USER}/agents/triage/runs`, method: 'POST' }).reply(
      200,
      {
        runId: 'kept',
        phase: 'Running',
        reused: true,
        run: detail('Running', { id: 'kept', input: 'Check pods', sessionID: 's' }),
      },
      JSON_HEADERS,
    )
    pool
      .intercept({ path: `${USER}/runs/kept/wait?timeoutSeconds=10`, method: 'GET' })
      .reply(200, detail('Succeeded', { id: 'kept', output: 'ok' }), JSON_HEADERS)
    const seen = events()
    const result = await runAgent(settings, { client, events: seen }, new AbortController().signal)
    expect(result).toMatchObject({ runId: 'kept', reused: true, outcome: 'succeeded', phase: 'Succeeded' })
    expect(
      agent
        .getCallHistory()
        ?.calls()
        .map((call) => `${call.method} ${call.path}`),
    ).toEqual([
      `POST ${USER}/agents/triage/runs`,
      `GET ${USER}/runs/lost/wait`,
      `POST ${USER}/agents/triage/runs`,
      `GET ${USER}/runs/kept/wait`,
    ])
    expect(seen.info).toHaveBeenCalledTimes(1)
    expect(seen.info.mock.calls[0]?.[0]).toMatch(
      /^Run lost is unknown to the hub: another job started the same task .* run kept; following it instead\.$/,
    )
    agent.assertNoPendingInterceptors()
  })

  it('without a key the 404 is the existing error and no second run is started', async () => {
    const { pool, client, agent } = setup()
    agent.enableCallHistory()
    pool
      .intercept({ path: `${USER}/agents/triage/runs`, method: 'POST' })
      .reply(202, { runId: 'r1', phase: 'Pending' }, JSON_HEADERS)
    pool
      .intercept({ path: `${USER}/runs/r1/wait?timeoutSeconds=10`, method: 'GET' })
      .reply(404, notFound('r1'), JSON_HEADERS)
    const run = runAgent(
      { ...settings, idempotencyKey: undefined, idempotencyKeySource: 'none' },
      { client, events: events() },
      new AbortController().signal,
    )
    await expect(run).rejects.toThrow('Run r1 was not found in workspace')
    expect(
      agent
        .getCallHistory()
        ?.calls()
        .filter((call) => call.method === 'POST'),
    ).toHaveLength(1)
    agent.assertNoPendingInterceptors()
  })
})
