import { MockAgent } from 'undici'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import {
  HubAuthError,
  HubConnectionError,
  HubDeadlineError,
  HubError,
  HubNotFoundError,
  HubProtocolError,
  HubRequestError,
  HubServerError,
} from '../../../src/hub/errors.js'
import type { JsonRequest } from '../../../src/hub/request.js'
import { HubTransport } from '../../../src/hub/transport.js'
import { BudgetSpentError } from '../../../src/hub/transport-errors.js'
import { Budget } from '../../../src/http/budget.js'
import { VERSION } from '../../../src/version.js'
import { redact } from '../../../src/redact.js'

const ORIGIN = 'https://hub.example.com'
const TOKEN = 'tok_S3cr3tValue_abc123'
const ORG = '11111111-2222-3333-4444-555555555555'
const WS = '66666666-7777-8888-9999-000000000000'
const JSON_HEADERS = { headers: { 'content-type': 'application/json' } }
const RUN_PATH = '/services/providers/agents/api/runs/r1'

const Run = z.object({ id: z.string(), phase: z.string() })
const RUN = { id: 'r1', phase: 'Running' }

let mockAgent: MockAgent | undefined
afterEach(async () => {
  vi.useRealTimers()
  await mockAgent?.close()
  mockAgent = undefined
})

function setup(base = ORIGIN, clusterId?: string) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  mockAgent = agent
  const logs: string[] = []
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {})
  const transport = new HubTransport({
    baseUrl: new URL(base),
    token: TOKEN,
    org: ORG,
    workspace: WS,
    clusterId,
    dispatcher: agent,
    sleep,
    log: (line) => logs.push(line),
  })
  return { agent, pool: agent.get(new URL(base).origin), logs, sleep, transport }
}

function getRun(extra: Partial<JsonRequest<z.infer<typeof Run>>> = {}): JsonRequest<z.infer<typeof Run>> {
  return {
    method: 'GET',
    path: RUN_PATH,
    schema: Run,
    operation: 'read run r1',
    subject: 'run r1',
    repeatable: true,
    ...extra,
  }
}

function postRun(extra: Partial<JsonRequest<z.infer<typeof Run>>> = {}): JsonRequest<z.infer<typeof Run>> {
  return {
    method: 'POST',
    path: '/services/providers/agents/api/agents/triage/runs',
    body: { task: 'x', wait: 0 },
    schema: Run,
    operation: 'start a run of agent "triage"',
    subject: 'agent "triage"',
    repeatable: false,
    ...extra,
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('HubTransport headers and URL', () => {
  it('sends exactly the identity headers on a GET, and no content-type', async () => {
    const { pool, transport, agent } = setup()
    let seen: Record<string, string> = {}
    pool
      .intercept({
        path: RUN_PATH,
        method: 'GET',
        headers: (headers) => {
          seen = headers
          return true
        },
      })
      .reply(200, RUN, JSON_HEADERS)
    const response = await transport.call(getRun())
    expect(response).toEqual({ status: 200, data: RUN })
    expect(seen['authorization']).toBe(`Bearer ${TOKEN}`)
    expect(seen['x-hub-org']).toBe(ORG)
    expect(seen['x-hub-workspace']).toBe(WS)
    expect(seen['user-agent']).toBe(`hub-action/${VERSION}`)
    expect(seen['accept']).toBe('application/json')
    expect(seen).not.toHaveProperty('content-type')
    for (const forbidden of ['x-hub-tenant', 'x-hub-cluster', 'x-hub-user']) expect(seen).not.toHaveProperty(forbidden)
    agent.assertNoPendingInterceptors()
  })

  it('sends content-type and the JSON body on a POST with a body', async () => {
    const { pool, transport } = setup(ORIGIN, 'edge-7')
    let seen: Record<string, string> = {}
    let sentBody = ''
    pool
      .intercept({
        path: '/services/providers/agents/api/agents/triage/runs',
        method: 'POST',
        headers: (headers) => {
          seen = headers
          return true
        },
        body: (body) => {
          sentBody = body
          return true
        },
      })
      .reply(202, { id: 'r1', phase: 'Pending' }, JSON_HEADERS)
    const response = await transport.call(postRun())
    expect(response.status).toBe(202)
    expect(seen['content-type']).toBe('application/json')
    expect(JSON.parse(sentBody)).toEqual({ task: 'x', wait: 0 })
    // the cluster id selects a route; it is never sent as a header
    for (const forbidden of ['x-hub-tenant', 'x-hub-cluster', 'x-hub-user']) expect(seen).not.toHaveProperty(forbidden)
  })

  it('a POST without a body has no content-type', async () => {
    const { pool, transport } = setup()
    let seen: Record<string, string> = {}
    pool
      .intercept({
        path: `${RUN_PATH}/cancel`,
        method: 'POST',
        headers: (headers) => {
          seen = headers
          return true
        },
      })
      .reply(202, { id: 'r1', cancelling: true }, JSON_HEADERS)
    await transport.call({
      method: 'POST',
      path: `${RUN_PATH}/cancel`,
      schema: z.unknown(),
      operation: 'cancel run r1',
      repeatable: true,
    })
    expect(seen['authorization']).toBe(`Bearer ${TOKEN}`)
    expect(seen).not.toHaveProperty('content-type')
  })

  it.each([`${ORIGIN}/hub`, `${ORIGIN}/hub/`, `${ORIGIN}/hub//`])(
    'keeps the base URL path prefix (%s)',
    async (base) => {
      const { pool, transport, agent } = setup(base)
      pool.intercept({ path: `/hub${RUN_PATH}`, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
      await expect(transport.call(getRun())).resolves.toEqual({ status: 200, data: RUN })
      agent.assertNoPendingInterceptors()
    },
  )

  it('adds the query string', async () => {
    const { pool, transport, agent } = setup()
    pool.intercept({ path: `${RUN_PATH}/wait?timeoutSeconds=50`, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    await transport.call(getRun({ path: `${RUN_PATH}/wait`, query: { timeoutSeconds: '50' } }))
    agent.assertNoPendingInterceptors()
  })
})

describe('HubTransport retries', () => {
  it('retries a 503 and returns the following 200', async () => {
    const { pool, transport, agent, sleep, logs } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(503, 'provider not ready: agents', { headers: { 'content-type': 'text/plain' } })
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    const response = await transport.call(getRun())
    expect(response).toEqual({ status: 200, data: RUN })
    expect(sleep).toHaveBeenCalledTimes(1)
    const delay = sleep.mock.calls[0]?.[0] ?? -1
    expect(delay).toBeGreaterThanOrEqual(150)
    expect(delay).toBeLessThanOrEqual(300)
    expect(logs).toHaveLength(1)
    expect(logs[0]).toContain(`GET ${RUN_PATH} answered 503; retry 1/4`)
    agent.assertNoPendingInterceptors()
  })

  it('passes the Retry-After delay (seconds) to sleep', async () => {
    const { pool, transport, sleep } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(429, 'too many', { headers: { 'retry-after': '7' } })
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    await transport.call(getRun())
    expect(sleep).toHaveBeenCalledTimes(1)
    expect(sleep.mock.calls[0]?.[0]).toBe(7_000)
  })

  it('passes the Retry-After delay (HTTP date) to sleep', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2025-03-01T12:00:00Z'))
    const { pool, transport, sleep } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(503, '', { headers: { 'retry-after': 'Sat, 01 Mar 2025 12:00:20 GMT' } })
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    await transport.call(getRun())
    expect(sleep.mock.calls.map((call) => call[0])).toEqual([20_000])
  })

  it('a Retry-After beyond a minute stops at once', async () => {
    const { pool, transport, sleep, agent } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(429, 'later', { headers: { 'retry-after': '3600' } })
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubServerError)
    expect((error as HubError).status).toBe(429)
    expect(sleep).not.toHaveBeenCalled()
    agent.assertNoPendingInterceptors()
  })

  it('gives up after maxAttempts (5) with the last failure', async () => {
    const { pool, transport, sleep, agent, logs } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(502, 'provider upstream error').times(5)
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubServerError)
    expect((error as HubError).status).toBe(502)
    expect(sleep).toHaveBeenCalledTimes(4)
    expect(logs.map((line) => /retry (\d)\/4/.exec(line)?.[1])).toEqual(['1', '2', '3', '4'])
    agent.assertNoPendingInterceptors()
  })

  it('does not retry a non-repeatable POST on 503', async () => {
    const { pool, transport, sleep } = setup()
    pool
      .intercept({ path: '/services/providers/agents/api/agents/triage/runs', method: 'POST' })
      .reply(503, 'provider not ready: agents')
    pool
      .intercept({ path: '/services/providers/agents/api/agents/triage/runs', method: 'POST' })
      .reply(202, RUN, JSON_HEADERS)
    const error = await rejection(transport.call(postRun()))
    expect(error).toBeInstanceOf(HubServerError)
    expect((error as HubError).status).toBe(503)
    expect(sleep).not.toHaveBeenCalled()
    expect(mockAgent?.pendingInterceptors()).toHaveLength(1)
  })

  it('does not retry a non-repeatable POST on a connection error', async () => {
    const { pool, transport, sleep } = setup()
    pool
      .intercept({ path: '/services/providers/agents/api/agents/triage/runs', method: 'POST' })
      .replyWithError(new Error('socket hang up'))
    pool
      .intercept({ path: '/services/providers/agents/api/agents/triage/runs', method: 'POST' })
      .reply(202, RUN, JSON_HEADERS)
    const error = await rejection(transport.call(postRun()))
    expect(error).toBeInstanceOf(HubConnectionError)
    expect((error as HubError).message).toContain('hub.example.com')
    expect((error as HubError).status).toBeUndefined()
    expect(sleep).not.toHaveBeenCalled()
    expect(mockAgent?.pendingInterceptors()).toHaveLength(1)
  })

  it('retries a repeatable request after a connection error', async () => {
    const { pool, transport, sleep, agent, logs } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .replyWithError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    await expect(transport.call(getRun())).resolves.toEqual({ status: 200, data: RUN })
    expect(sleep).toHaveBeenCalledTimes(1)
    expect(logs[0]).toContain('lost its connection')
    agent.assertNoPendingInterceptors()
  })

  it.each([
    ['ECONNREFUSED', 'was refused a connection (nothing listening)'],
    ['UND_ERR_CONNECT_TIMEOUT', 'got no answer in time'],
    ['EHOSTUNREACH', 'got no answer (EHOSTUNREACH)'],
  ])('logs a %s retry as what happened, not as a lost connection', async (code, said) => {
    const { pool, transport, agent, logs } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).replyWithError(Object.assign(new Error('connect'), { code }))
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    await expect(transport.call(getRun())).resolves.toEqual({ status: 200, data: RUN })
    expect(logs[0]).toContain(`GET ${RUN_PATH} ${said}; retry 1`)
    agent.assertNoPendingInterceptors()
  })

  it('does not retry a DNS failure even when repeatable', async () => {
    const { pool, transport, sleep } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .replyWithError(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }))
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubConnectionError)
    expect((error as Error).message).toContain('could not be resolved')
    expect(sleep).not.toHaveBeenCalled()
  })

  it('a refused connection on loopback names the emulator to start, with the port; elsewhere it does not', async () => {
    const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    const local = setup('http://127.0.0.1:8787')
    local.pool.intercept({ path: RUN_PATH, method: 'GET' }).replyWithError(refused()).times(5)
    const error = (await rejection(local.transport.call(getRun()))) as HubConnectionError
    expect(error.message).toContain(
      'The connection to 127.0.0.1:8787 was refused (ECONNREFUSED): nothing listens there.',
    )
    expect(error.message).toContain(
      'start the hub emulator first, in another terminal: `npm run emulator -- --port 8787`',
    )
    await mockAgent?.close()
    const remote = setup()
    remote.pool.intercept({ path: RUN_PATH, method: 'GET' }).replyWithError(refused()).times(5)
    const far = (await rejection(remote.transport.call(getRun()))) as HubConnectionError
    expect(far.message).toContain('was refused (ECONNREFUSED)')
    expect(far.message).not.toContain('emulator')
  })

  it('a certificate for other names names them and `hub-url`, not NODE_EXTRA_CA_CERTS; it is not retried', async () => {
    const { pool, transport, sleep } = setup('https://10.0.0.7:8443')
    const mismatch = Object.assign(new Error("Hostname/IP does not match certificate's altnames"), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      cert: { subject: { CN: 'hub' }, subjectaltname: 'DNS:hub.corp.example, DNS:*.corp.example, IP Address:10.0.0.8' },
    })
    pool.intercept({ path: RUN_PATH, method: 'GET' }).replyWithError(mismatch)
    const error = (await rejection(transport.call(getRun()))) as HubConnectionError
    expect(error.message).toContain(
      "The TLS certificate of 10.0.0.7:8443 does not name 10.0.0.7 (ERR_TLS_CERT_ALTNAME_INVALID): it is for hub.corp.example, *.corp.example, 10.0.0.8. Set `hub-url` to the hub's URL with a host the certificate names (e.g. https://hub.corp.example:8443).",
    )
    expect(error.message).not.toContain('point NODE_EXTRA_CA_CERTS')
    expect(sleep).not.toHaveBeenCalled()
  })

  it('a POST that may not be repeated says it may have been done only when it may have been sent', async () => {
    const unsure = 'The hub may have created the run before the answer was lost.'
    for (const [code, said] of [
      ['ECONNREFUSED', false],
      ['ENOTFOUND', false],
      ['ECONNRESET', true],
    ] as const) {
      const { pool, transport } = setup()
      pool
        .intercept({ path: '/services/providers/agents/api/agents/triage/runs', method: 'POST' })
        .replyWithError(Object.assign(new Error(code), { code }))
      const error = (await rejection(transport.call(postRun({ unsureDelivery: unsure })))) as HubConnectionError
      expect(error.message.includes(unsure), code).toBe(said)
      await mockAgent?.close()
      mockAgent = undefined
    }
  })

  it('certificate names that are not host names are left out', async () => {
    const { pool, transport } = setup()
    const mismatch = Object.assign(new Error('altnames'), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      cert: { subjectaltname: 'DNS:evil\n::error::x, URI:https://x' },
    })
    pool.intercept({ path: RUN_PATH, method: 'GET' }).replyWithError(mismatch)
    const error = (await rejection(transport.call(getRun()))) as HubConnectionError
    expect(error.message).toContain('(ERR_TLS_CERT_ALTNAME_INVALID): it names other hosts. Set `hub-url`')
    expect(error.message).not.toContain('evil')
  })

  it('does not retry a 400', async () => {
    const { pool, transport, sleep } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(400, JSON.stringify({ kind: 'Status', reason: 'BadRequest', message: 'bad', code: 400 }), JSON_HEADERS)
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubRequestError)
    expect((error as HubError).status).toBe(400)
    expect(sleep).not.toHaveBeenCalled()
    expect(mockAgent?.pendingInterceptors()).toHaveLength(1)
  })
})

describe('HubTransport answers it cannot use', () => {
  it('an HTML 200 is a protocol error', async () => {
    const { pool, transport } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(200, '<!doctype html><html></html>', { headers: { 'content-type': 'text/html' } })
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubProtocolError)
    expect((error as HubError).status).toBe(200)
    expect((error as Error).message).toContain('an HTML page instead of JSON')
    expect((error as Error).message).not.toContain('<html')
  })

  it('a 200 without JSON content type is a protocol error', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, 'hello', { headers: { 'content-type': 'text/plain' } })
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubProtocolError)
    expect((error as Error).message).toContain('a text/plain instead of JSON')
  })

  it('broken JSON is a protocol error', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, '{"id":', JSON_HEADERS)
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubProtocolError)
    expect((error as Error).message).toContain('not valid JSON')
  })

  it('JSON failing the schema is a protocol error naming the field', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, { id: 'r1', phase: 42 }, JSON_HEADERS)
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubProtocolError)
    expect((error as HubError).status).toBe(200)
    expect((error as Error).message).toContain('phase:')
    expect((error as Error).message).not.toContain('id:')
  })
})

describe('HubTransport never shows the token', () => {
  it('redacts the token from a 401 body that echoes it', async () => {
    const { pool, transport, logs } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(401, `invalid token ${TOKEN}`, { headers: { 'content-type': 'text/plain' } })
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubAuthError)
    const message = (error as Error).message
    expect(message).not.toContain(TOKEN)
    expect(message).toContain('invalid token ***')
    expect(String(error)).not.toContain(TOKEN)
    expect((error as Error).stack ?? '').not.toContain(TOKEN)
    expect(logs.join('\n')).not.toContain(TOKEN)
  })

  it('redacts the token after retries of a 503 that echoes it, in logs and in the error', async () => {
    const { pool, transport, logs } = setup()
    const body = JSON.stringify({
      kind: 'Status',
      reason: 'ServiceUnavailable',
      message: `upstream said Authorization: Bearer ${TOKEN}`,
      code: 503,
    })
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(503, body, JSON_HEADERS).times(5)
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubServerError)
    expect((error as Error).message).not.toContain(TOKEN)
    expect((error as Error).message).toContain('Bearer ***')
    expect(logs).toHaveLength(4)
    for (const line of logs) expect(line).not.toContain(TOKEN)
  })

  it('the redactor hides the token and any Bearer credential', () => {
    setup()
    expect(redact(`a ${TOKEN} b`)).toBe('a *** b')
    expect(redact('Authorization: Bearer other.jwt.value')).toBe('Authorization: Bearer ***')
  })

  it('a connection error message does not hold the token', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).replyWithError(new Error(`failed with ${TOKEN}`))
    const error = await rejection(transport.call(getRun({ repeatable: false })))
    expect(error).toBeInstanceOf(HubConnectionError)
    expect((error as Error).message).not.toContain(TOKEN)
  })
})

describe('HubTransport acceptStatus', () => {
  it('returns an accepted non-2xx status without data and without retrying', async () => {
    const { pool, transport, sleep, agent } = setup()
    pool
      .intercept({ path: `${RUN_PATH}/cancel`, method: 'POST' })
      .reply(409, 'already terminal', { headers: { 'content-type': 'text/plain' } })
    const response = await transport.call({
      method: 'POST',
      path: `${RUN_PATH}/cancel`,
      schema: z.unknown(),
      operation: 'cancel run r1',
      repeatable: true,
      acceptStatus: [409],
    })
    expect(response).toEqual({ status: 409, data: undefined })
    expect(sleep).not.toHaveBeenCalled()
    agent.assertNoPendingInterceptors()
  })

  it('a status not listed still fails', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: `${RUN_PATH}/cancel`, method: 'POST' }).reply(409, 'conflict')
    const error = await rejection(
      transport.call({
        method: 'POST',
        path: `${RUN_PATH}/cancel`,
        schema: z.unknown(),
        operation: 'cancel run r1',
        repeatable: true,
      }),
    )
    expect(error).toBeInstanceOf(HubRequestError)
  })
})

describe('HubTransport abort', () => {
  it('an already aborted signal rejects with its reason', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    const controller = new AbortController()
    const reason = new Error('received SIGTERM')
    controller.abort(reason)
    await expect(transport.call(getRun({ signal: controller.signal }))).rejects.toBe(reason)
  })

  it('aborting during the retry pause rejects with the reason and stops retrying', async () => {
    const { pool, transport, sleep } = setup()
    const controller = new AbortController()
    const reason = new Error('received SIGINT')
    sleep.mockImplementation(async (_ms: number, signal?: AbortSignal) => {
      expect(signal).toBe(controller.signal)
      controller.abort(reason)
    })
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(503, 'not ready')
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    await expect(transport.call(getRun({ signal: controller.signal }))).rejects.toBe(reason)
    expect(sleep).toHaveBeenCalledTimes(1)
    expect(mockAgent?.pendingInterceptors()).toHaveLength(1)
  })

  it('a per-attempt timeout is a connection error naming the ceiling', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS).delay(2_000)
    const error = await rejection(transport.call(getRun({ timeoutMs: 30, repeatable: false })))
    expect(error).toBeInstanceOf(HubConnectionError)
    expect((error as Error).message).toContain('No answer from hub.example.com within 0 s')
  })
})

describe('HubTransport token renewal (short-lived OIDC tokens)', () => {
  function setupRenewing(fresh: string[]) {
    const agent = new MockAgent()
    agent.disableNetConnect()
    mockAgent = agent
    const logs: string[] = []
    const renewToken = vi.fn(async () => fresh.shift() ?? 'no-more-tokens')
    const transport = new HubTransport({
      baseUrl: new URL(ORIGIN),
      token: TOKEN,
      org: ORG,
      workspace: WS,
      dispatcher: agent,
      sleep: async () => {},
      log: (line) => logs.push(line),
      renewToken,
    })
    return { pool: agent.get(ORIGIN), transport, renewToken, logs }
  }

  it('on a 401, asks once for a fresh token and repeats the request with it', async () => {
    const { pool, transport, renewToken, logs } = setupRenewing(['fresh_T0ken_value_987654'])
    pool
      .intercept({ path: RUN_PATH, method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } })
      .reply(401, 'token expired')
    pool
      .intercept({ path: RUN_PATH, method: 'GET', headers: { authorization: 'Bearer fresh_T0ken_value_987654' } })
      .reply(200, { id: 'r1', phase: 'Running' }, { headers: { 'content-type': 'application/json' } })
    const { data } = await transport.call(getRun())
    expect(data).toEqual({ id: 'r1', phase: 'Running' })
    expect(renewToken).toHaveBeenCalledTimes(1)
    expect(transport.identity.token).toBe('fresh_T0ken_value_987654')
    expect(logs.join('\n')).not.toContain('fresh_T0ken_value_987654')
    expect(redact('old tok_S3cr3tValue_abc123 new fresh_T0ken_value_987654')).toBe('old *** new ***')
  })

  it('a second 401 with the fresh token fails with the 401 advice, without asking again', async () => {
    const { pool, transport, renewToken } = setupRenewing(['fresh_T0ken_value_987654', 'another_T0ken_111111'])
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(401, 'unauthorized').times(2)
    await expect(transport.call(getRun())).rejects.toMatchObject({ name: 'HubAuthError', status: 401 })
    expect(renewToken).toHaveBeenCalledTimes(1)
  })
})

describe('HubTransport body caps', () => {
  const tiny = { name: 'a test answer', maxBytes: 64, maxValues: 10, maxDepth: 4, hint: 'Ask for less.' }

  it('a body past the byte cap fails with the cap and the endpoint named, not as a connection failure', async () => {
    const { pool, transport, sleep } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(200, JSON.stringify({ id: 'r1', phase: 'Running', output: 'x'.repeat(200) }), JSON_HEADERS)
    const error = await rejection(transport.call(getRun({ limits: tiny })))
    expect(error).toBeInstanceOf(HubProtocolError)
    expect((error as Error).message).toContain('a body larger than 64 bytes (the cap for a test answer)')
    expect((error as Error).message).toContain(`for GET ${RUN_PATH}`)
    expect((error as Error).message).toContain('Ask for less.')
    expect(sleep).not.toHaveBeenCalled()
  })

  it('a declared Content-Length past the cap is refused before reading', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, JSON.stringify(RUN), {
      headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024 * 1024) },
    })
    await expect(transport.call(getRun({ limits: tiny }))).rejects.toThrow('a body larger than 64 bytes')
  })

  it('too many JSON values or too deep a nesting is refused before JSON.parse builds it', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, `{"x":[${'{},'.repeat(12)}{}]}`, JSON_HEADERS)
    await expect(transport.call(getRun({ limits: tiny }))).rejects.toThrow('more than 10 JSON values')
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, `{"x":[[[[[1]]]]]}`, JSON_HEADERS)
    await expect(transport.call(getRun({ limits: tiny }))).rejects.toThrow('nested deeper than 4 levels')
  })

  it('brackets and commas inside strings are not counted', async () => {
    const { pool, transport } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(200, JSON.stringify({ id: 'r1', phase: '[[[[[,,,,,,,,,,,,\\"{{{{' }), JSON_HEADERS)
    const { data } = await transport.call(getRun({ limits: tiny }))
    expect(data?.phase).toBe('[[[[[,,,,,,,,,,,,\\"{{{{')
  })

  it('an error body is read only as far as it is quoted: a huge one still gives the status and advice', async () => {
    const { pool, transport } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(400, `bad request: ${'z'.repeat(200 * 1024)}`, { headers: { 'content-type': 'text/plain' } })
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(HubRequestError)
    expect((error as HubError).hubMessage?.length).toBeLessThanOrEqual(501)
  })
})

describe('HubTransport deadline (the step budget)', () => {
  it('a deadline already passed sends nothing and says so', async () => {
    const { transport } = setup()
    const error = await rejection(transport.call(getRun({ deadline: Date.now() - 1 })))
    expect(error).toBeInstanceOf(HubDeadlineError)
    expect((error as Error).message).toContain(
      `The time budget ran out before GET ${ORIGIN}${RUN_PATH} could be sent. ${ORIGIN} answered none of this step's requests`,
    )
  })

  it('an attempt is cut at the deadline even when its own timeout is longer', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS).delay(5_000)
    const started = Date.now()
    const error = await rejection(transport.call(getRun({ timeoutMs: 60_000, deadline: started + 150 })))
    expect(error).toBeInstanceOf(HubDeadlineError)
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('with retryUntilDeadline, transient failures are retried past maxAttempts until the hub answers', async () => {
    const { pool, transport, sleep, logs } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(503, 'provider not ready: agents').times(7)
    pool.intercept({ path: RUN_PATH, method: 'GET' }).replyWithError(new Error('socket hang up'))
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    const { data } = await transport.call(getRun({ deadline: Date.now() + 600_000, retryUntilDeadline: true }))
    expect(data).toEqual(RUN)
    expect(sleep).toHaveBeenCalledTimes(8)
    expect(logs[0]).toMatch(/answered 503; retry 1 in \d+\.\d s \(600 s of the time budget left\)/)
  })

  it('a retry that could only start after the deadline ends the call with the last failure quoted', async () => {
    const { pool, transport, sleep } = setup()
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(503, 'provider not ready: agents', { headers: { 'retry-after': '30' } })
    const error = await rejection(transport.call(getRun({ deadline: Date.now() + 5_000, retryUntilDeadline: true })))
    expect(error).toBeInstanceOf(HubDeadlineError)
    expect((error as Error).message).toContain('provider not ready: agents')
    expect(sleep).not.toHaveBeenCalled()
  })

  it('a 4xx is not waited out: it fails at once', async () => {
    const { pool, transport } = setup()
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(404, 'run not found')
    await expect(
      transport.call(getRun({ deadline: Date.now() + 600_000, retryUntilDeadline: true })),
    ).rejects.toBeInstanceOf(HubNotFoundError)
  })
})

describe("HubTransport and the step's one budget (timeout-seconds)", () => {
  function setupBudget(seconds: number) {
    const agent = new MockAgent()
    agent.disableNetConnect()
    mockAgent = agent
    let now = 1_000_000
    const budget = new Budget(seconds, { now: () => now, sleep: async () => {} })
    const transport = new HubTransport({
      baseUrl: new URL(ORIGIN),
      token: TOKEN,
      org: ORG,
      workspace: WS,
      dispatcher: agent,
      budget,
    })
    return { pool: agent.get(ORIGIN), transport, move: (ms: number) => (now += ms) }
  }

  it('a request without a deadline of its own is bounded by the budget, and the error names timeout-seconds and what was waited on', async () => {
    const { pool, transport, move } = setupBudget(60)
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    await transport.call(getRun())
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(() => {
      move(60_000)
      return { statusCode: 503, data: 'provider not ready: agents' }
    })
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(BudgetSpentError)
    expect((error as Error).message).toContain(
      `The hub's agents provider did not answer within timeout-seconds (60 s), the step's one time budget: it was still waiting for GET ${ORIGIN}${RUN_PATH} (1 min on it).`,
    )
    // The origin answered before: up, and slow.
    expect((error as Error).message).toContain(
      `${ORIGIN} has answered during this step, so it is up but slow to answer this request`,
    )
  })

  it('a budget spent before a request could be sent says so, not that the request was waited on', async () => {
    const { transport, move } = setupBudget(60)
    move(60_000)
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(BudgetSpentError)
    expect((error as Error).message).toContain(
      `timeout-seconds (60 s), the step's one time budget, ran out before GET ${ORIGIN}${RUN_PATH} could be sent`,
    )
    expect((error as Error).message).not.toContain('still waiting')
  })

  it('an origin that never answered is named as likely down or unreachable, with the input to check', async () => {
    const { pool, transport, move } = setupBudget(30)
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .replyWithError(Object.assign(new Error('hold'), { name: 'TimeoutError' }))
    const attempt = transport.call(getRun({ timeoutMs: 10 }))
    move(30_000)
    const error = await rejection(attempt)
    expect(error).toBeInstanceOf(BudgetSpentError)
    expect((error as Error).message).toContain(
      `${ORIGIN} answered none of this step's requests: it is likely down or unreachable from the runner`,
    )
    expect((error as Error).message).toContain(
      '`hub-url` points at a server that accepts connections but is not the hub',
    )
  })

  it('retries stop at the budget: none is made that could only start after it', async () => {
    const { pool, transport } = setupBudget(5)
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(503, 'provider not ready: agents', { headers: { 'retry-after': '30' } })
    const error = await rejection(transport.call(getRun()))
    expect(error).toBeInstanceOf(BudgetSpentError)
    expect((error as Error).message).toContain('provider not ready: agents')
  })

  it("a caller deadline earlier than the budget is the caller's: the old words", async () => {
    const { transport } = setupBudget(60)
    const error = await rejection(transport.call(getRun({ deadline: 0 })))
    expect(error).toBeInstanceOf(HubDeadlineError)
    expect(error).not.toBeInstanceOf(BudgetSpentError)
  })

  it('a request marked outlivesBudget (a cancel because the budget ran out) is still sent', async () => {
    const { pool, transport, move } = setupBudget(1)
    move(5_000)
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(200, RUN, JSON_HEADERS)
    const { data } = await transport.call(getRun({ outlivesBudget: true }))
    expect(data).toEqual(RUN)
  })
})

describe('HubTransport redaction before the clip', () => {
  it('a token cut by the 500-character clip of a message is hidden whole, in JSON and in text bodies', async () => {
    const { pool, transport } = setup()
    const body = `${'a'.repeat(480)}${TOKEN} trailing`
    pool
      .intercept({ path: RUN_PATH, method: 'GET' })
      .reply(400, { kind: 'Status', reason: 'BadRequest', message: body, code: 400 }, JSON_HEADERS)
    pool.intercept({ path: RUN_PATH, method: 'GET' }).reply(400, body, { headers: { 'content-type': 'text/plain' } })
    for (let i = 0; i < 2; i++) {
      const error = (await rejection(transport.call(getRun()))) as HubError
      expect(error.message).not.toContain(TOKEN.slice(0, 8))
      expect(error.hubMessage).not.toContain(TOKEN.slice(0, 8))
      expect(error.message).toContain('***')
    }
  })
})
