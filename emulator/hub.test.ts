import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import net from 'node:net'
import { startHubEmulator } from './hub.ts'
import type { HubEmulator } from './hub.ts'

interface Reply {
  status: number
  contentType: string
  headers: Headers
  text: string
  json: any
}

async function call(
  emu: HubEmulator,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<Reply> {
  const h: Record<string, string> = headers ?? emu.headers()
  const init: RequestInit = { method, headers: body === undefined ? h : { ...h, 'Content-Type': 'application/json' } }
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
  const res = await fetch(emu.url + path, init)
  const text = await res.text()
  const contentType = res.headers.get('content-type') ?? ''
  return {
    status: res.status,
    contentType,
    headers: res.headers,
    text,
    json: contentType.includes('application/json') ? JSON.parse(text) : undefined,
  }
}

const A = '/services/providers/agents'

/**
 * Fake the clock the emulator runs on (run steps, holds, fault delays, Date), so durations are
 * exact and nothing sleeps; requests still cross real loopback sockets.
 */
function fakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
}

/** Event-loop turns (no clock): enough for a loopback request or answer to arrive. */
async function turns(count = 20): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve))
}

/** Resolves once `emulator` has received `count` requests and handled what it can without time passing. */
async function received(emulator: HubEmulator, count: number): Promise<void> {
  for (let i = 0; emulator.requests.length < count; i++) {
    if (i > 10_000) throw new Error(`the emulator received ${emulator.requests.length} requests, expected ${count}`)
    await turns(1)
  }
  await turns()
}

/** A promise's outcome, readable without awaiting it. */
function track<T>(promise: Promise<T>): { done: boolean; value?: T } {
  const state: { done: boolean; value?: T } = { done: false }
  void promise.then((value) => Object.assign(state, { done: true, value }))
  return state
}

/** Advance the fake clock by `ms`, then let any answer it released arrive. */
async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms)
  await turns()
}

let emu: HubEmulator

beforeAll(async () => {
  emu = await startHubEmulator({
    providers: {
      echo: (req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(
          JSON.stringify({
            path: req.path,
            query: req.query.get('q'),
            headers: req.headers,
            tenant: req.tenant,
            json: req.json,
          }),
        )
      },
    },
    extraRoutes: [
      {
        prefix: '/services/mcpserver/',
        handler: (req, res, body, tenant) => {
          res.writeHead(200, { 'Content-Type': 'application/json' })
          res.end(JSON.stringify({ url: req.url, body: body.toString(), workspace: tenant?.workspace }))
        },
      },
    ],
  })
})
afterAll(async () => {
  await emu.close()
})
beforeEach(() => {
  emu.reset()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('hub proxy and auth', () => {
  it('binds to 127.0.0.1 only', () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('rejects a missing, lowercase or wrong bearer with 401 plain text', async () => {
    const base = { 'X-Hub-Org': emu.org, 'X-Hub-Workspace': emu.workspace }
    for (const auth of [undefined, `bearer ${emu.token}`, `Bearer wrong`, emu.token]) {
      const r = await call(
        emu,
        'GET',
        `${A}/api/whoami`,
        undefined,
        auth === undefined ? base : { ...base, Authorization: auth },
      )
      expect(r.status).toBe(401)
      expect(r.contentType).toMatch(/^text\/plain/)
    }
    expect(emu.requests).toHaveLength(4)
  })

  it('falls back silently to the personal org for malformed or non-member headers', async () => {
    const variants: Array<Record<string, string>> = [
      { 'X-Hub-Org': 'my-org' },
      { 'X-Hub-Workspace': '00000000-0000-4000-8000-000000000000' },
      { 'X-Hub-Org': '' },
    ]
    for (const extra of variants) {
      const r = await call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'hi' }, emu.headers(extra))
      expect(r.status).toBe(400)
      expect(r.json).toEqual({ kind: 'Status', reason: 'BadRequest', message: 'a workspace is required', code: 400 })
    }
    const who = await call(emu, 'GET', `${A}/api/whoami`, undefined, emu.headers({ 'X-Hub-Org': 'nope' }))
    expect(who.json).toEqual({
      tenantPath: emu.personalOrg,
      clusterID: '',
      orgUUID: emu.personalOrg,
      workspaceUUID: '',
      user: emu.user,
      hasToken: true,
    })
    expect(emu.runs()).toHaveLength(0)
  })

  it('compares UUIDs exactly: the membership in upper case is another workspace, so the fallback (docs/hub-facts.md, "Memberships and the workspace proof")', async () => {
    const r = await call(
      emu,
      'GET',
      `${A}/api/whoami`,
      undefined,
      emu.headers({ 'X-Hub-Org': emu.org.toUpperCase(), 'X-Hub-Workspace': emu.workspace.toUpperCase() }),
    )
    expect(r.json).toEqual({
      tenantPath: emu.personalOrg,
      clusterID: '',
      orgUUID: emu.personalOrg,
      workspaceUUID: '',
      user: emu.user,
      hasToken: true,
    })
    const own = await call(emu, 'GET', `${A}/api/whoami`)
    expect(own.json).toMatchObject({ clusterID: emu.clusterId, workspaceUUID: emu.workspace })
  })

  it('refuses the service-account token on normal routes', async () => {
    const r = await call(
      emu,
      'POST',
      `${A}/api/agents/quick/runs`,
      { task: 'x' },
      emu.headers({ Authorization: `Bearer ${emu.serviceAccountToken}` }),
    )
    expect(r.status).toBe(401)
    expect(r.json.reason).toBe('Unauthorized')
  })

  it('a service-account token reads the pending approval on its route and cannot resolve it: the inbox is a user route (401)', async () => {
    const sa = emu.headers({ Authorization: `Bearer ${emu.serviceAccountToken}` })
    const base = `${A}/s2s/clusters/${emu.clusterId}`
    const started = await call(emu, 'POST', `${base}/agents/approval/runs`, { task: 'add a PDB', wait: 5 }, sa)
    const inboxID = started.json.run.pending.inboxID as string
    expect(started.json.run).toMatchObject({ phase: 'PendingApproval', pending: { inboxID, tool: 'kubectl_apply' } })
    expect((await call(emu, 'GET', `${base}/runs/${started.json.runId}`, undefined, sa)).json.pending).toMatchObject({
      inboxID,
      tool: 'kubectl_apply',
    })
    expect(
      (await call(emu, 'GET', `${base}/runs/${started.json.runId}/wait?timeoutSeconds=1`, undefined, sa)).json.pending
        .inboxID,
    ).toBe(inboxID)
    for (const [method, path, body] of [
      ['GET', `${A}/api/inbox?state=pending`, undefined],
      ['POST', `${A}/api/inbox/${inboxID}/resolve`, { decision: 'approve' }],
      ['GET', `${A}/api/runs/${started.json.runId}`, undefined],
    ] as const) {
      const refused = await call(emu, method, path, body, sa)
      expect([refused.status, refused.json.kind, refused.json.reason]).toEqual([401, 'Status', 'Unauthorized'])
    }
    expect(emu.agents.inbox()).toEqual([expect.objectContaining({ id: inboxID, state: 'pending', resolutions: 0 })])
    expect(emu.run(started.json.runId)?.phase).toBe('PendingApproval')
    // A member's user token resolves it, and the run resumes under that user.
    const resolved = await call(emu, 'POST', `${A}/api/inbox/${inboxID}/resolve`, { decision: 'approve' })
    expect(resolved.json).toMatchObject({ state: 'resolved', resolvedBy: emu.user })
  })

  it('answers hub errors in plain text: unknown provider, not ready, unreachable, unknown path', async () => {
    let r = await call(emu, 'GET', '/services/providers/nope/api/x')
    expect([r.status, r.text, r.contentType]).toEqual([404, 'provider not found: nope\n', 'text/plain; charset=utf-8'])
    emu.setProviderState('agents', 'notReady')
    r = await call(emu, 'GET', `${A}/api/whoami`)
    expect([r.status, r.text]).toEqual([503, 'provider not ready: agents\n'])
    emu.setProviderState('agents', 'unreachable')
    r = await call(emu, 'GET', `${A}/api/whoami`)
    expect([r.status, r.text]).toEqual([502, 'provider upstream error\n'])
    emu.setProviderState('agents', 'ready')
    r = await call(emu, 'GET', `${A}/api/nothing/here`)
    expect([r.status, r.text]).toEqual([404, '404 page not found\n'])
    r = await call(emu, 'GET', '/elsewhere')
    expect(r.status).toBe(404)
    r = await call(emu, 'GET', `${A}/api/agents/quick/runs`)
    expect(r.status).toBe(405)
  })

  it('mounts extra providers, strips client-sent tenant headers and keeps the query', async () => {
    const r = await call(
      emu,
      'POST',
      '/services/providers/echo/api/x?q=1',
      { a: 1 },
      emu.headers({ 'X-Hub-Tenant': 'evil', 'X-Hub-User': 'root' }),
    )
    expect(r.json.path).toBe('/api/x')
    expect(r.json.query).toBe('1')
    expect(r.json.json).toEqual({ a: 1 })
    expect(r.json.headers['x-hub-tenant']).toBe(`${emu.org}/${emu.workspace}`)
    expect(r.json.headers['x-hub-user']).toBe(emu.user)
    expect(r.json.tenant).toEqual({ org: emu.org, workspace: emu.workspace, user: emu.user, serviceAccount: false })
    // the request log keeps what the client really sent
    expect(emu.requests[0]?.headers['x-hub-tenant']).toBe('evil')
  })

  it('routes extraRoutes with hub auth', async () => {
    let r = await call(emu, 'POST', '/services/mcpserver/ws/mcp', '{"jsonrpc":"2.0"}')
    expect(r.json).toEqual({ url: '/services/mcpserver/ws/mcp', body: '{"jsonrpc":"2.0"}', workspace: emu.workspace })
    r = await call(emu, 'POST', '/services/mcpserver/ws/mcp', '{}', {})
    expect(r.status).toBe(401)
  })

  it('records every request with lower-case headers, body, query and time', async () => {
    const t0 = Date.now()
    await call(emu, 'POST', `${A}/api/agents/quick/runs?x=1`, { task: 'record me', idempotencyKey: 'k' })
    const [rec] = emu.requests
    expect(rec).toMatchObject({
      method: 'POST',
      path: `${A}/api/agents/quick/runs`,
      query: { x: '1' },
      url: `${A}/api/agents/quick/runs?x=1`,
    })
    expect(JSON.parse(rec!.body)).toEqual({ task: 'record me', idempotencyKey: 'k' })
    expect(rec!.headers.authorization).toBe(`Bearer ${emu.token}`)
    expect(rec!.headers['x-hub-org']).toBe(emu.org)
    expect(rec!.headers['content-type']).toBe('application/json')
    expect(rec!.at).toBeGreaterThanOrEqual(t0)
    const elsewhere = Object.entries(rec!.headers).filter(([k, v]) => k !== 'authorization' && v.includes(emu.token))
    expect(elsewhere).toEqual([])
  })
})

describe('agents provider: runs', () => {
  it('wait 0 → 202 Pending, and records sessionId / idempotencyKey', async () => {
    const r = await call(emu, 'POST', `${A}/api/agents/stuck/runs`, {
      task: '  do it  ',
      sessionId: 's-1',
      idempotencyKey: ' k-1 ',
      wait: 0,
    })
    expect(r.status).toBe(202)
    expect(r.json).toEqual({ runId: expect.any(String), phase: 'Pending' })
    expect(emu.runs()).toEqual([
      expect.objectContaining({
        id: r.json.runId,
        agent: 'stuck',
        task: 'do it',
        sessionId: 's-1',
        idempotencyKey: 'k-1',
        phase: 'Pending',
      }),
    ])
    const d = await call(emu, 'GET', `${A}/api/runs/${r.json.runId}`)
    expect(d.json).toMatchObject({
      id: r.json.runId,
      agent: 'stuck',
      sessionID: 's-1',
      trigger: 'api',
      phase: 'Pending',
      input: 'do it',
      steps: [],
      children: [],
    })
    expect(d.json.message).toBeUndefined()
  })

  it('quick: inline wait → 200 with the full run detail', async () => {
    fakeClock()
    const answer = call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'Are payments pods healthy?', wait: 10 })
    await received(emu, 1)
    await advance(200) // Running at 50 ms, Succeeded 150 ms later
    const r = await answer
    expect(r.status).toBe(200)
    expect(r.json.phase).toBe('Succeeded')
    const run = r.json.run
    expect(run).toMatchObject({
      id: r.json.runId,
      agent: 'quick',
      trigger: 'api',
      phase: 'Succeeded',
      hasOutput: true,
      children: [],
    })
    expect(run.sessionID).toBeUndefined()
    expect(run.output).toContain('Are payments pods healthy?')
    expect(run.sources.length).toBeGreaterThan(0)
    expect(run.steps.length).toBeGreaterThanOrEqual(2)
    expect(run.usdMicros).toBeGreaterThan(0)
    for (const k of ['createdAt', 'startedAt', 'finishedAt']) expect(Date.parse(run[k])).not.toBeNaN()
    expect(run.durationMS).toBe(150)
  })

  it('failing and aborting settle with their message and no output', async () => {
    const f = await call(emu, 'POST', `${A}/api/agents/failing/runs`, { task: 'x', wait: 5 })
    expect(f.json.run).toMatchObject({
      phase: 'Failed',
      message: 'model credential missing for provider openai',
      hasOutput: false,
    })
    expect(f.json.run.output).toBeUndefined()
    const a = await call(emu, 'POST', `${A}/api/agents/aborting/runs`, { task: 'x', wait: 5 })
    expect(a.json.run).toMatchObject({ phase: 'Aborted', message: 'run exceeded its time limit' })
  })

  it('approval: PendingApproval is settled, /wait returns at once, approve() resumes', async () => {
    const r = await call(emu, 'POST', `${A}/api/agents/approval/runs`, { task: 'add a PDB', wait: 5 })
    expect(r.status).toBe(200)
    expect(r.json.run.phase).toBe('PendingApproval')
    expect(r.json.run.pending).toMatchObject({
      inboxID: expect.any(String),
      tool: 'kubectl_apply',
      args: expect.any(String),
    })
    const id = r.json.runId
    // At once: the answer comes with the clock stopped (a hold would need 30 s of it).
    fakeClock()
    const w = await call(emu, 'GET', `${A}/api/runs/${id}/wait?timeoutSeconds=30`)
    vi.useRealTimers()
    expect(w.json.phase).toBe('PendingApproval')
    expect(emu.approve(id)).toBe(true)
    expect(emu.run(id)?.phase).toBe('Running')
    const done = await call(emu, 'GET', `${A}/api/runs/${id}/wait?timeoutSeconds=30`)
    expect(done.json.phase).toBe('Succeeded')
    expect(done.json.pending).toBeUndefined()
    expect(done.json.steps.map((s: any) => s.outcome)).toEqual(['ok', 'ok'])
    expect(emu.run(id)?.history.map((h) => h.phase)).toEqual([
      'Pending',
      'Running',
      'PendingApproval',
      'Running',
      'Succeeded',
    ])
  })

  it('inbox: lists pending items; resolve approve/deny resumes the run, answer does not; no check that the item is still pending; no s2s form', async () => {
    const start = async () =>
      (await call(emu, 'POST', `${A}/api/agents/approval/runs`, { task: 'add a PDB', wait: 5 })).json
    const approved = await start()
    const listed = await call(emu, 'GET', `${A}/api/inbox?state=pending`)
    expect(listed.json.items).toEqual([
      expect.objectContaining({
        id: approved.run.pending.inboxID,
        runID: approved.runId,
        tool: 'kubectl_apply',
        state: 'pending',
      }),
    ])
    const ok = await call(emu, 'POST', `${A}/api/inbox/${approved.run.pending.inboxID}/resolve`, {
      decision: 'approve',
    })
    expect(ok.status).toBe(200)
    expect(ok.json).toMatchObject({ state: 'resolved', decision: 'approve', resolvedBy: emu.user })
    expect((await call(emu, 'GET', `${A}/api/runs/${approved.runId}/wait?timeoutSeconds=5`)).json.phase).toBe(
      'Succeeded',
    )
    const again = await call(emu, 'POST', `${A}/api/inbox/${approved.run.pending.inboxID}/resolve`, {
      decision: 'deny',
    })
    expect(again.status).toBe(200)
    expect(emu.agents.inbox()[0]).toMatchObject({ decision: 'deny', resolutions: 2 })

    const denied = await start()
    await call(emu, 'POST', `${A}/api/inbox/${denied.run.pending.inboxID}/resolve`, {
      decision: 'deny',
      response: 'not today',
    })
    const afterDeny = (await call(emu, 'GET', `${A}/api/runs/${denied.runId}/wait?timeoutSeconds=5`)).json
    expect(afterDeny.steps.at(-1)).toMatchObject({ tool: 'kubectl_apply', outcome: 'denied', error: 'not today' })

    const answered = await start()
    await call(emu, 'POST', `${A}/api/inbox/${answered.run.pending.inboxID}/resolve`, {
      decision: 'answer',
      response: 'use staging',
    })
    // `answer` marks the item and never moves the run (docs/hub-facts.md, "Answers and approvals").
    const afterAnswer = (await call(emu, 'GET', `${A}/api/runs/${answered.runId}`)).json
    expect(afterAnswer).toMatchObject({ phase: 'PendingApproval', pending: { inboxID: answered.run.pending.inboxID } })
    expect(emu.agents.inbox().find((i) => i.id === answered.run.pending.inboxID)).toMatchObject({
      state: 'resolved',
      decision: 'answer',
    })

    expect((await call(emu, 'POST', `${A}/api/inbox/nope/resolve`, { decision: 'approve' })).status).toBe(404)
    expect(
      (await call(emu, 'POST', `${A}/api/inbox/${answered.run.pending.inboxID}/resolve`, { decision: 'maybe' })).status,
    ).toBe(400)
    const sa = emu.headers({ Authorization: `Bearer ${emu.serviceAccountToken}` })
    const s2s = await call(
      emu,
      'POST',
      `${A}/s2s/clusters/${emu.clusterId}/inbox/${answered.run.pending.inboxID}/resolve`,
      { decision: 'approve' },
      sa,
    )
    expect(s2s.status).toBe(404)
    expect(s2s.contentType).toMatch(/^text\/plain/)
  })

  it('approveAfterMs approves by itself', async () => {
    emu.setAgent('auto', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
        { phase: 'Succeeded', afterMs: 20 },
      ],
      approveAfterMs: 50,
      output: 'ok',
    })
    fakeClock()
    const r = await call(emu, 'POST', `${A}/api/agents/auto/runs`, { task: 'x' })
    await advance(69) // PendingApproval at 20 ms, approved 50 ms later
    expect(emu.run(r.json.runId)?.phase).toBe('PendingApproval')
    await advance(1)
    expect(emu.run(r.json.runId)?.phase).toBe('Running')
    await advance(20)
    expect(emu.run(r.json.runId)?.phase).toBe('Succeeded')
  })

  it('suspended agent: status Suspended and runs stay Pending', async () => {
    const a = await call(emu, 'GET', `${A}/api/agents/suspended`)
    expect(a.json).toMatchObject({
      apiVersion: 'agents.hub.sh/v1alpha1',
      kind: 'Agent',
      metadata: { name: 'suspended' },
      status: { phase: 'Suspended' },
    })
    expect((await call(emu, 'GET', `${A}/api/agents/quick`)).json.status.phase).toBe('Ready')
    expect((await call(emu, 'GET', `${A}/api/agents/ghost`)).json).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      code: 404,
    })
    fakeClock()
    const r = await call(emu, 'POST', `${A}/api/agents/suspended/runs`, { task: 'x' })
    await advance(60_000)
    const d = await call(emu, 'GET', `${A}/api/runs/${r.json.runId}`)
    expect(d.json.phase).toBe('Pending')
  })

  it('stores each tool step as its call ends, serves children and a suspended reason', async () => {
    emu.setAgent('stepper', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 700 },
      ],
      toolSteps: [
        { tool: 'first', outcome: 'ok', durationMS: 20, endsAfterMs: 50 },
        { tool: 'second', outcome: 'ok', durationMS: 20, endsAfterMs: 450 },
      ],
      children: [{ id: 'c1', agent: 'helper', phase: 'Running' }],
    })
    fakeClock()
    const r = await call(emu, 'POST', `${A}/api/agents/stepper/runs`, { task: 'x' })
    await advance(250)
    const mid = await call(emu, 'GET', `${A}/api/runs/${r.json.runId}`)
    expect([mid.json.phase, mid.json.steps.map((s: { tool: string }) => s.tool)]).toEqual(['Running', ['first']])
    expect(mid.json.children).toEqual([{ id: 'c1', agent: 'helper', phase: 'Running' }])
    const waiting = track(call(emu, 'GET', `${A}/api/runs/${r.json.runId}/wait?timeoutSeconds=5`))
    await received(emu, emu.requests.length)
    await advance(500)
    for (let i = 0; !waiting.done && i < 1000; i++) await turns(1)
    const done = waiting.value!
    expect([done.json.phase, done.json.steps.map((s: { tool: string }) => s.tool)]).toEqual([
      'Succeeded',
      ['first', 'second'],
    ])
    expect(emu.run(r.json.runId)?.stepsStored.map((s) => s.tool)).toEqual(['first', 'second'])

    emu.setAgent('held', {
      suspended: true,
      suspendedReason: 'budget exhausted',
      steps: [{ phase: 'Pending', afterMs: 0 }],
    })
    expect((await call(emu, 'GET', `${A}/api/agents/held`)).json.status).toEqual({
      phase: 'Suspended',
      suspendedReason: 'budget exhausted',
    })
  })

  it('idempotency: same key reuses the run at once, whatever the task; scope includes the agent', async () => {
    const first = await call(emu, 'POST', `${A}/api/agents/stuck/runs`, { task: 'one', idempotencyKey: 'key-1' })
    const again = await call(emu, 'POST', `${A}/api/agents/stuck/runs`, {
      task: 'two',
      idempotencyKey: ' key-1 ',
      wait: 60,
    })
    expect(again.status).toBe(200)
    expect(again.json).toMatchObject({ runId: first.json.runId, phase: 'Pending', reused: true, run: { input: 'one' } })
    const other = await call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'one', idempotencyKey: 'key-1' })
    expect(other.json.runId).not.toBe(first.json.runId)
    const noKey = await call(emu, 'POST', `${A}/api/agents/stuck/runs`, { task: 'one' })
    expect(noKey.json.runId).not.toBe(first.json.runId)
    expect(emu.runs()).toHaveLength(3)
  })

  it('validates the body: blank task, fractional wait, bad JSON, unknown agent', async () => {
    for (const body of [{ task: '   ' }, {}, { task: 'x', wait: 1.5 }, { task: 'x', wait: '5' }, 'not json']) {
      const r = await call(emu, 'POST', `${A}/api/agents/quick/runs`, body)
      expect(r.status).toBe(400)
      expect(r.json).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 })
    }
    const u = await call(emu, 'POST', `${A}/api/agents/ghost/runs`, { task: 'x' })
    expect(u.status).toBe(404)
    expect(u.contentType).toBe('application/json')
    expect(u.json).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 })
    expect(emu.runs()).toHaveLength(0)
  })

  it('/wait resolves in the same tick the run settles', async () => {
    emu.setAgent('timed', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 250 },
      ],
      output: 'done',
    })
    fakeClock()
    const r = await call(emu, 'POST', `${A}/api/agents/timed/runs`, { task: 'x' })
    const wait = track(call(emu, 'GET', `${A}/api/runs/${r.json.runId}/wait?timeoutSeconds=5`))
    await received(emu, 2)
    await advance(249)
    expect(wait.done).toBe(false)
    // The step that settles the run answers the wait: no further time passes.
    await advance(1)
    expect(wait.done).toBe(true)
    expect(wait.value?.status).toBe(200)
    expect(wait.value?.json.phase).toBe('Succeeded')
  })

  it('/wait honours timeoutSeconds and answers 200 with the unsettled run', async () => {
    fakeClock()
    const r = await call(emu, 'POST', `${A}/api/agents/stuck/runs`, { task: 'x' })
    const wait = track(call(emu, 'GET', `${A}/api/runs/${r.json.runId}/wait?timeoutSeconds=1`))
    await received(emu, 2)
    await advance(999)
    expect(wait.done).toBe(false)
    await advance(1)
    expect(wait.done).toBe(true)
    expect(wait.value?.status).toBe(200)
    expect(wait.value?.json.phase).toBe('Pending')
  })

  it('inline wait that runs out → 202 Running (constant)', async () => {
    const capped = await startHubEmulator({ maxHoldMs: 150 })
    try {
      fakeClock()
      const start = track(call(capped, 'POST', `${A}/api/agents/stuck/runs`, { task: 'x', wait: 120 }))
      await received(capped, 1)
      await advance(149)
      expect(start.done).toBe(false)
      await advance(1)
      expect(start.done).toBe(true)
      const r = start.value!
      expect(r.status).toBe(202)
      expect(r.json).toEqual({ runId: expect.any(String), phase: 'Running' })
      expect(capped.run(r.json.runId)?.phase).toBe('Pending')
    } finally {
      await capped.close()
    }
  })

  it('maxHoldMs caps /wait; bad timeoutSeconds falls back to the default (not 0)', async () => {
    const capped = await startHubEmulator({ maxHoldMs: 200 })
    try {
      fakeClock()
      const r = await call(capped, 'POST', `${A}/api/agents/stuck/runs`, { task: 'x' })
      for (const [index, q] of ['60', '-3', '1.5', 'abc', '0'].entries()) {
        const wait = track(call(capped, 'GET', `${A}/api/runs/${r.json.runId}/wait?timeoutSeconds=${q}`))
        await received(capped, index + 2)
        await advance(199)
        expect(wait.done, `timeoutSeconds=${q} answered before the 200 ms cap`).toBe(false)
        await advance(1)
        expect(wait.done, `timeoutSeconds=${q} still held at the 200 ms cap`).toBe(true)
        expect(wait.value?.status).toBe(200)
      }
    } finally {
      await capped.close()
    }
  })

  it('cancel: 202 then Aborted "cancelled by user"; 409 when terminal; 404 unknown; ends held waits', async () => {
    const r = await call(emu, 'POST', `${A}/api/agents/stuck/runs`, { task: 'x' })
    const id = r.json.runId
    const held = call(emu, 'GET', `${A}/api/runs/${id}/wait?timeoutSeconds=30`)
    await received(emu, 2)
    const c = await call(emu, 'POST', `${A}/api/runs/${id}/cancel`)
    expect(c.status).toBe(202)
    expect(c.json).toEqual({ id, cancelling: true })
    const w = await held
    expect(w.json).toMatchObject({ phase: 'Aborted', message: 'cancelled by user' })
    const again = await call(emu, 'POST', `${A}/api/runs/${id}/cancel`)
    expect(again.status).toBe(409)
    expect(again.json.reason).toBe('Conflict')
    const unknown = await call(emu, 'POST', `${A}/api/runs/nope/cancel`)
    expect(unknown.status).toBe(404)
    expect((await call(emu, 'GET', `${A}/api/runs/nope`)).json.reason).toBe('NotFound')
  })

  it('clips output at 256 KiB with a marker', async () => {
    emu.setAgent('big', { steps: [{ phase: 'Succeeded', afterMs: 0 }], output: 'x'.repeat(300 * 1024) })
    const r = await call(emu, 'POST', `${A}/api/agents/big/runs`, { task: 'x', wait: 1 })
    expect(r.json.run.output.endsWith('…[truncated]')).toBe(true)
    expect(r.json.run.output.length).toBe(256 * 1024 + '…[truncated]'.length)
  })

  it('hostile agent output carries the markup the client must neutralise', async () => {
    const r = await call(emu, 'POST', `${A}/api/agents/hostile/runs`, { task: 'x', wait: 5 })
    const out: string = r.json.run.output
    for (const s of [
      '<script>alert(1)</script>',
      'onerror=',
      '@octocat',
      '<!-- hub-action:',
      '</details>',
      '](javascript:',
    ])
      expect(out).toContain(s)
    expect(r.json.run.steps[0].tool).toBe('<b>html</b>')
  })

  it('s2s route: service-account token by cluster id; unknown cluster → 403; bad token → 403; no cancel', async () => {
    const sa = emu.headers({ Authorization: `Bearer ${emu.serviceAccountToken}` })
    const base = `${A}/s2s/clusters/${emu.clusterId}`
    const r = await call(emu, 'POST', `${base}/agents/quick/runs`, { task: 'x', wait: 5 }, sa)
    expect(r.status).toBe(200)
    expect((await call(emu, 'GET', `${base}/runs/${r.json.runId}`, undefined, sa)).json.phase).toBe('Succeeded')
    expect(
      (await call(emu, 'GET', `${base}/runs/${r.json.runId}/wait?timeoutSeconds=1`, undefined, sa)).json.phase,
    ).toBe('Succeeded')
    expect((await call(emu, 'GET', `${base}/runs/${r.json.runId}`)).status).toBe(200) // user token too
    const bad = await call(emu, 'POST', `${A}/s2s/clusters/c-unknown/agents/quick/runs`, { task: 'x' }, sa)
    expect(bad.status).toBe(403)
    expect(bad.json.reason).toBe('Forbidden')
    const badToken = await call(
      emu,
      'POST',
      `${base}/agents/quick/runs`,
      { task: 'x' },
      { Authorization: 'Bearer not-a-token' },
    )
    expect(badToken.status).toBe(403)
    const cancel = await call(emu, 'POST', `${base}/runs/${r.json.runId}/cancel`, undefined, sa)
    expect(cancel.status).toBe(404)
    expect(cancel.contentType).toMatch(/^text\/plain/)
    // headers don't matter on s2s: the cluster id picks the workspace
    const noHdr = await call(
      emu,
      'POST',
      `${base}/agents/stuck/runs`,
      { task: 'x' },
      { Authorization: `Bearer ${emu.serviceAccountToken}` },
    )
    expect(noHdr.status).toBe(202)
  })
})

describe('fault injection', () => {
  it('status + Retry-After, consumed once, recorded, nothing created', async () => {
    emu.addFault({ method: 'POST', path: '/runs', status: 503, retryAfter: '2' })
    const a = await call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'x' })
    expect(a.status).toBe(503)
    expect(a.headers.get('retry-after')).toBe('2')
    expect(a.contentType).toMatch(/^text\/plain/)
    const b = await call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'x' })
    expect(b.status).toBe(202)
    expect(emu.requests.map((r) => r.fault)).toEqual(['status 503', undefined])
    expect(emu.runs()).toHaveLength(1)
  })

  it('times, RegExp path, custom body and content type', async () => {
    emu.addFault({
      path: /\/api\/runs\/[^/]+$/,
      times: 2,
      status: 429,
      retryAfter: '0',
      body: '{"kind":"Status","code":429}',
      contentType: 'application/json',
    })
    const r = await call(emu, 'POST', `${A}/api/agents/stuck/runs`, { task: 'x' })
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await call(emu, 'GET', `${A}/api/runs/${r.json.runId}`)).status)
    expect(statuses).toEqual([429, 429, 200])
    expect(emu.pendingFaults()).toHaveLength(0)
  })

  it('reset destroys the socket without answering', async () => {
    emu.addFault({ path: '/runs', reset: true })
    await expect(call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'x' })).rejects.toThrow()
    expect(emu.requests).toHaveLength(1)
    expect(emu.requests[0]?.fault).toBe('reset')
    expect(emu.runs()).toHaveLength(0)
  })

  it('loseResponse creates the run, then drops the answer', async () => {
    emu.addFault({ method: 'POST', path: '/agents/quick/runs', loseResponse: true })
    await expect(
      call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'x', idempotencyKey: 'lost-1' }),
    ).rejects.toThrow()
    expect(emu.runs()).toEqual([expect.objectContaining({ agent: 'quick', idempotencyKey: 'lost-1' })])
    const retry = await call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'x', idempotencyKey: 'lost-1' })
    expect(retry.json.reused).toBe(true)
    expect(retry.json.runId).toBe(emu.runs()[0]?.id)
  })

  it('delayMs delays handling', async () => {
    emu.addFault({ path: '/whoami', delayMs: 150 })
    fakeClock()
    const answer = track(call(emu, 'GET', `${A}/api/whoami`))
    await received(emu, 1)
    await advance(149)
    expect(answer.done).toBe(false)
    await advance(1)
    expect(answer.done).toBe(true)
    expect(answer.value?.status).toBe(200)
    expect(emu.requests[0]?.fault).toBe('delay 150ms')
  })
})

describe('lowercase mode', () => {
  it('emits every phase in lower case', async () => {
    const lc = await startHubEmulator({ lowercasePhases: true })
    try {
      const a = await call(lc, 'POST', `${A}/api/agents/stuck/runs`, { task: 'x' })
      expect(a.json.phase).toBe('pending')
      const b = await call(lc, 'POST', `${A}/api/agents/quick/runs`, { task: 'x', wait: 5 })
      expect([b.json.phase, b.json.run.phase]).toEqual(['succeeded', 'succeeded'])
      const c = await call(lc, 'POST', `${A}/api/agents/approval/runs`, { task: 'x', wait: 5 })
      expect(c.json.run.phase).toBe('pendingapproval')
      expect((await call(lc, 'GET', `${A}/api/agents/suspended`)).json.status.phase).toBe('suspended')
      expect(lc.run(b.json.runId)?.phase).toBe('Succeeded') // records stay PascalCase
    } finally {
      await lc.close()
    }
  })
})

describe('close', () => {
  it('ends held long-polls and frees the port promptly', async () => {
    const e = await startHubEmulator()
    const r = await call(e, 'POST', `${A}/api/agents/stuck/runs`, { task: 'x' })
    const held = call(e, 'GET', `${A}/api/runs/${r.json.runId}/wait?timeoutSeconds=300`).then(
      () => 'answered',
      () => 'dropped',
    )
    await received(e, 2)
    await e.close()
    expect(['answered', 'dropped']).toContain(await held)
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(e.port, '127.0.0.1')
      s.once('connect', () => (s.destroy(), resolve(false)))
      s.once('error', () => resolve(true))
    })
    expect(refused).toBe(true)
  })
})
