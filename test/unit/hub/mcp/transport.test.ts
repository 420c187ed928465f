/**
 * The MCP client rides on the hub's transport: its retry policy (429 and Retry-After), its
 * token renewal (OIDC tokens expire during a step) and its one redaction reach MCP calls.
 */
import { MockAgent } from 'undici'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HubError, HubRequestError } from '../../../../src/hub/errors.js'
import { McpGraphClient } from '../../../../src/hub/mcp/client.js'
import type { McpImpactInput } from '../../../../src/hub/mcp/impact.js'
import { HubTransport } from '../../../../src/hub/transport.js'

const ORIGIN = 'https://hub.example.com'
const MCP_PATH = '/services/mcpserver/acme%2Fws-platform/apis/hub.sh/v1alpha1/mcpservers/default/mcp'
const TOKEN = 'oidc_0ld_T0ken_abc123'
const FRESH = 'oidc_Fr3sh_T0ken_987654'
const ORG = '11111111-2222-3333-4444-555555555555'
const WS = '66666666-7777-8888-9999-000000000000'
const TARGET: McpImpactInput = { kind: 'Namespace', name: 'shop', group: '', maxDepth: 5 }
const OUTPUT = {
  object: { kind: 'Namespace', name: 'shop' },
  found: true,
  impactedBy: null,
  impacts: [],
  associated: null,
  summary: 's',
}

let mockAgent: MockAgent | undefined
afterEach(async () => {
  await mockAgent?.close()
  mockAgent = undefined
})

function setup(renew?: () => Promise<string>) {
  const agent = new MockAgent()
  agent.disableNetConnect()
  mockAgent = agent
  const logs: string[] = []
  const sleep = vi.fn(async (_ms: number, _signal?: AbortSignal) => {})
  const renewToken = renew ? vi.fn(renew) : undefined
  const transport = new HubTransport({
    baseUrl: new URL(ORIGIN),
    token: TOKEN,
    org: ORG,
    workspace: WS,
    dispatcher: agent,
    sleep,
    log: (line) => logs.push(line),
    ...(renewToken ? { renewToken } : {}),
  })
  const client = new McpGraphClient({ url: new URL(ORIGIN + MCP_PATH), transport, log: (line) => logs.push(line) })
  return { pool: agent.get(ORIGIN), agent, client, logs, sleep, renewToken }
}

/** A tools/call answer over SSE, for whatever id the request carried. */
function sseAnswer(result: unknown) {
  return (options: { body?: unknown }) => {
    const { id } = JSON.parse(String(options.body)) as { id: number }
    return `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`
  }
}
const SSE = { headers: { 'content-type': 'text/event-stream' } }
const OK = { content: [{ type: 'text', text: JSON.stringify(OUTPUT) }], structuredContent: OUTPUT }

describe('McpGraphClient on the hub transport', () => {
  it('retries a 429 after the wait its Retry-After asks, as hub calls do', async () => {
    const { pool, agent, client, sleep, logs } = setup()
    pool
      .intercept({ path: MCP_PATH, method: 'POST' })
      .reply(429, 'slow down', { headers: { 'content-type': 'text/plain', 'retry-after': '2' } })
    pool.intercept({ path: MCP_PATH, method: 'POST' }).reply(200, sseAnswer(OK), SSE)
    const result = await client.impact(TARGET)
    expect(result.found).toBe(true)
    expect(sleep).toHaveBeenCalledTimes(1)
    expect(sleep.mock.calls[0]?.[0]).toBe(2_000)
    expect(logs.join('\n')).toContain('MCP: graph__graph_impact answered 429; retry 1/2 in 2.0 s')
    agent.assertNoPendingInterceptors()
  })

  it('fails with the refusal itself when its Retry-After is past the call budget, without waiting', async () => {
    const { pool, agent, sleep } = setup()
    const transport = new HubTransport({
      baseUrl: new URL(ORIGIN),
      token: TOKEN,
      org: ORG,
      workspace: WS,
      dispatcher: agent,
      sleep,
    })
    const client = new McpGraphClient({ url: new URL(ORIGIN + MCP_PATH), transport, timeoutMs: 3_000 })
    pool
      .intercept({ path: MCP_PATH, method: 'POST' })
      .reply(503, 'provider starting', { headers: { 'content-type': 'text/plain', 'retry-after': '5' } })
    const error = await client.impact(TARGET).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'HubServerError', status: 503 })
    expect((error as HubError).message).toContain('provider starting')
    expect(sleep).not.toHaveBeenCalled()
  })

  it('renews an expired OIDC token once on a 401 and repeats the call with the fresh one', async () => {
    const { pool, agent, client, renewToken, logs } = setup(async () => FRESH)
    pool
      .intercept({ path: MCP_PATH, method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } })
      .reply(401, 'token expired', { headers: { 'content-type': 'text/plain' } })
    pool
      .intercept({ path: MCP_PATH, method: 'POST', headers: { authorization: `Bearer ${FRESH}` } })
      .reply(200, sseAnswer(OK), SSE)
    const result = await client.impact(TARGET)
    expect(result.found).toBe(true)
    expect(renewToken).toHaveBeenCalledTimes(1)
    expect(logs.join('\n')).not.toContain(FRESH)
    agent.assertNoPendingInterceptors()
  })

  it('fails with the MCP 401 advice when the fresh token is refused too, renewing only once', async () => {
    const { pool, client, renewToken } = setup(async () => FRESH)
    pool
      .intercept({ path: MCP_PATH, method: 'POST' })
      .reply(401, 'unauthorized', { headers: { 'content-type': 'text/plain' } })
      .times(2)
    const error = await client.impact(TARGET).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'HubAuthError', status: 401 })
    expect((error as HubError).hint).toMatch(/`cluster-id` does nothing for the MCP source/)
    expect(renewToken).toHaveBeenCalledTimes(1)
  })

  it("redacts with the transport's redaction, which knows the renewed token as well as the first", async () => {
    const { pool, client } = setup(async () => FRESH)
    pool
      .intercept({ path: MCP_PATH, method: 'POST' })
      .reply(401, 'token expired', { headers: { 'content-type': 'text/plain' } })
    const text = `refused ${FRESH} and ${TOKEN}`
    pool
      .intercept({ path: MCP_PATH, method: 'POST' })
      .reply(200, sseAnswer({ content: [{ type: 'text', text }], isError: true }), SSE)
    const error = (await client.impact(TARGET).catch((caught: unknown) => caught)) as HubError
    expect(error).toBeInstanceOf(HubRequestError)
    expect(error.hubMessage).toBe('refused *** and ***')
    expect(error.message).not.toContain(FRESH)
  })

  it('redacts a refusal body that echoes the renewed token, before the 500-character clip', async () => {
    const { pool, client } = setup(async () => FRESH)
    pool
      .intercept({ path: MCP_PATH, method: 'POST' })
      .reply(401, 'token expired', { headers: { 'content-type': 'text/plain' } })
    pool
      .intercept({ path: MCP_PATH, method: 'POST' })
      .reply(500, `${'x'.repeat(495)}${FRESH}`, { headers: { 'content-type': 'text/plain' } })
    const error = (await client.impact(TARGET).catch((caught: unknown) => caught)) as HubError
    expect(error.status).toBe(500)
    expect(error.hubMessage).toBe(`${'x'.repeat(495)}***`)
    expect(error.message).not.toContain(FRESH.slice(0, 5))
  })
})
