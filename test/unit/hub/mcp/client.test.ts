import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Agent } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  HubAuthError,
  HubConnectionError,
  HubDeadlineError,
  HubError,
  HubNotFoundError,
  HubProtocolError,
  HubRequestError,
  HubServerError,
} from '../../../../src/hub/errors.js'
import { McpGraphClient } from '../../../../src/hub/mcp/client.js'
import type { McpImpactInput } from '../../../../src/hub/mcp/impact.js'
import { SseReader } from '../../../../src/http/sse.js'
import { HubTransport, type TransportOptions } from '../../../../src/hub/transport.js'
import { createDemoFleet, createMcpHandler, parseSse } from '../../../../emulator/index.ts'

const TOKEN = 'tok_Mcp5ecretValue_xyz789'
const ORG = '11111111-2222-3333-4444-555555555555'
const WS = '66666666-7777-8888-9999-000000000000'
const MCP_PATH = `/services/mcpserver/${encodeURIComponent('acme/ws-platform')}/apis/hub.sh/v1alpha1/mcpservers/default/mcp`

const CHECKOUT: McpImpactInput = {
  kind: 'Deployment',
  name: 'checkout',
  group: 'apps',
  namespace: 'shop',
  edge: 'prod-eu',
  maxDepth: 5,
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void
interface Recorded {
  method: string
  url: string
  headers: http.IncomingHttpHeaders
  body: string
}

const servers: http.Server[] = []
let dispatcher: Agent
// The errors the running test saw: none may carry the token (checked after each test, so
// every test checks its own and none depends on another's).
const seenErrors: unknown[] = []

beforeAll(() => {
  dispatcher = new Agent()
})
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
  for (const error of seenErrors.splice(0)) {
    expect(String((error as Error).message)).not.toContain(TOKEN)
    expect(String((error as HubError).hubMessage ?? '')).not.toContain(TOKEN)
  }
})
afterAll(async () => {
  await dispatcher.close()
})

async function serve(handler: Handler): Promise<{ url: URL; requests: Recorded[] }> {
  const requests: Recorded[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('utf8') })
      handler(req, res, body)
    })
  })
  // Keep-alive sockets would hold close() until they time out.
  server.keepAliveTimeout = 1
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: new URL(`http://127.0.0.1:${port}${MCP_PATH}`), requests }
}

/** The emulator's MCP endpoint, as the hub serves it for our tenant. */
function emulator(): Handler {
  return emulatorWith({})
}

function emulatorWith(options: Parameters<typeof createMcpHandler>[1]): Handler {
  const mcp = createMcpHandler(createDemoFleet({ workspace: WS }), { workspace: WS, ...options })
  return (req, res, body) => mcp(req, res, body, { org: ORG, workspace: WS })
}

/** The hub's transport, as the impact step hands it over; the MCP URL is not below its base. */
function transportFor(url: URL, token = TOKEN, extra: Partial<TransportOptions> = {}): HubTransport {
  return new HubTransport({ baseUrl: new URL('/', url), token, org: ORG, workspace: WS, dispatcher, ...extra })
}

function client(url: URL, timeoutMs?: number): McpGraphClient {
  return new McpGraphClient({ url, transport: transportFor(url), ...(timeoutMs === undefined ? {} : { timeoutMs }) })
}

function sse(res: http.ServerResponse, ...messages: unknown[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  res.end(messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join(''))
}

/** Answers every call with `answer(id)` over SSE. */
function fake(answer: (id: unknown) => unknown): Handler {
  return (_req, res, body) => sse(res, answer((JSON.parse(body.toString('utf8')) as { id: unknown }).id))
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise
  } catch (error) {
    seenErrors.push(error)
    return error as Error
  }
  throw new Error('expected a rejection')
}

describe('McpGraphClient against the emulator', () => {
  it('finds Deployment shop/checkout on prod-eu with upstream and downstream objects', async () => {
    const { url } = await serve(emulator())
    const result = await client(url).impact(CHECKOUT)
    expect(result.found).toBe(true)
    expect(result.object).toEqual({
      edge: 'prod-eu',
      group: 'apps',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'checkout',
    })
    expect(result.upstream.length).toBeGreaterThan(0)
    expect(result.downstream.length).toBeGreaterThan(0)
    expect(result.downstream).toContainEqual(
      expect.objectContaining({ kind: 'ReplicaSet', group: 'apps', relation: 'descendants' }),
    )
    // Core objects come without a group on the wire: normalised to "".
    expect(result.upstream).toContainEqual({
      edge: 'prod-eu',
      group: '',
      kind: 'Namespace',
      name: 'shop',
      relation: 'namespace',
    })
    for (const ref of [...result.upstream, ...result.downstream, ...result.associated]) {
      expect(typeof ref.group).toBe('string')
      expect(ref.relation).not.toMatch(/\+$/)
    }
    expect(result.summary).toContain('Deployment shop/checkout on edge prod-eu')
  })

  it('turns the null lists of a ConfigMap into empty arrays', async () => {
    const { url } = await serve(emulator())
    // feature-flags carries no label a selector holds (checkout-config's app: checkout is selected by the Deployment)
    const result = await client(url).impact({
      kind: 'ConfigMap',
      name: 'feature-flags',
      group: '',
      namespace: 'shop',
      edge: 'prod-eu',
      maxDepth: 5,
    })
    expect(result.found).toBe(true)
    expect(result.object).toEqual({
      edge: 'prod-eu',
      group: '',
      kind: 'ConfigMap',
      namespace: 'shop',
      name: 'feature-flags',
    })
    expect(result.upstream).toEqual([
      { edge: 'prod-eu', group: '', kind: 'Namespace', name: 'shop', relation: 'namespace' },
    ])
    expect(result.downstream).toEqual([])
    expect(result.associated).toEqual([])
  })

  it('reports an object that is not there as found:false', async () => {
    const { url } = await serve(emulator())
    const result = await client(url).impact({ ...CHECKOUT, name: 'no-such-deployment' })
    expect(result).toMatchObject({ found: false, upstream: [], downstream: [], associated: [] })
    expect(result.summary).toMatch(/not found/)
  })

  it('sends one tools/call with the identity and streamable-HTTP headers, and only the accepted keys', async () => {
    const { url, requests } = await serve(emulator())
    await client(url).impact({
      kind: 'Namespace',
      name: 'shop',
      group: '',
      namespace: undefined,
      edge: undefined,
      maxDepth: 3,
    })
    expect(requests).toHaveLength(1)
    const [request] = requests
    expect(request?.method).toBe('POST')
    expect(request?.url).toBe(MCP_PATH)
    const accept = (request?.headers.accept ?? '').split(',').map((type) => type.trim())
    expect(accept).toEqual(expect.arrayContaining(['application/json', 'text/event-stream']))
    expect(request?.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      'x-hub-org': ORG,
      'x-hub-workspace': WS,
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
    })
    expect(request?.headers['mcp-session-id']).toBeUndefined()
    const body = JSON.parse(request?.body ?? '{}') as {
      jsonrpc: string
      method: string
      params: { name: string; arguments: Record<string, unknown> }
    }
    expect(body).toMatchObject({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'graph__graph_impact' } })
    expect(body.params.arguments).toEqual({ kind: 'Namespace', name: 'shop', group: '', maxDepth: 3 })
  })

  it("raises the tool's own failure (isError) as a HubRequestError with its text", async () => {
    const { url } = await serve(emulator())
    const error = await rejection(client(url).impact({ ...CHECKOUT, maxDepth: 21 }))
    expect(error).toBeInstanceOf(HubRequestError)
    expect((error as HubRequestError).hubMessage).toBe('maxDepth 21 exceeds the maximum of 20')
    expect(error.message).toContain('maxDepth 21 exceeds the maximum of 20')
    expect(error.message).toContain('graph__graph_impact')
  })

  it('answers 404 for a path that is not an MCP server', async () => {
    const { url } = await serve(emulator())
    const wrong = new URL(url)
    wrong.pathname = '/services/mcpserver/acme/ws-platform/mcp'
    const error = await rejection(client(wrong).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.message).toContain('404')
    expect(error.message).toContain('`mcp-url`')
  })
})

describe('McpGraphClient failures', () => {
  it('maps the unknown tool (-32602) of an endpoint without the graph provider to a HubRequestError', async () => {
    const { url } = await serve(
      fake((id) => ({ jsonrpc: '2.0', id, error: { code: -32602, message: 'unknown tool "graph__graph_impact"' } })),
    )
    const error = await rejection(client(url).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubRequestError)
    expect((error as HubError).hint).toMatch(/graph provider is not available on this MCP endpoint/)
    expect((error as HubError).hint).toContain('`mcp-url`')
  })

  it("maps the hub's 15 s forwarding timeout to a HubServerError that says to retry, without retrying it", async () => {
    const { url, requests } = await serve(
      fake((id) => ({ jsonrpc: '2.0', id, error: { code: -32001, message: 'request timed out' } })),
    )
    const error = await rejection(client(url).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubServerError)
    expect((error as HubError).hint).toMatch(/15 s/)
    expect((error as HubError).hint).toMatch(/try again/)
    expect(requests).toHaveLength(1)
  })

  it('maps an HTML 404 (the portal) and a plain-text 404 to HubNotFoundError', async () => {
    const html = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' })
      res.end('<!doctype html><html><body>Not here</body></html>')
    })
    const htmlError = await rejection(client(html.url).impact(CHECKOUT))
    expect(htmlError).toBeInstanceOf(HubNotFoundError)
    expect(htmlError.message).toContain('HTML page')

    const plain = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('404 page not found\n')
    })
    const plainError = await rejection(client(plain.url).impact(CHECKOUT))
    expect(plainError).toBeInstanceOf(HubNotFoundError)
    expect(plainError.message).toContain('404 page not found')
  })

  it('maps a 200 HTML page (the portal) to a HubProtocolError naming `mcp-url`', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<!doctype html><title>Hub</title>')
    })
    const error = await rejection(client(url).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubProtocolError)
    expect(error.message).toContain('`mcp-url`')
  })

  it('maps a 401 to HubAuthError and never repeats the token a server echoes', async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(401, { 'content-type': 'text/plain' })
      res.end(`unauthorized: ${req.headers.authorization}`)
    })
    const error = await rejection(client(url).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubAuthError)
    expect(error.message).not.toContain(TOKEN)
    expect((error as HubError).hubMessage).not.toContain(TOKEN)
  })

  it('keeps the token out of tool and JSON-RPC error texts', async () => {
    const tool = await serve(
      fake((id) => ({
        jsonrpc: '2.0',
        id,
        result: { content: [{ type: 'text', text: `bad token ${TOKEN}` }], isError: true },
      })),
    )
    const toolError = await rejection(client(tool.url).impact(CHECKOUT))
    expect(toolError).toBeInstanceOf(HubRequestError)
    expect(toolError.message).toContain('bad token ***')
    const rpc = await serve(
      fake((id) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: `Bearer ${TOKEN} failed` } })),
    )
    const rpcError = await rejection(client(rpc.url).impact(CHECKOUT))
    expect(rpcError).toBeInstanceOf(HubServerError)
    expect(rpcError.message).not.toContain(TOKEN)
  })

  it('raises HubProtocolError for a garbled event stream and for an unexpected tool output', async () => {
    const garbled = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end('event: message\ndata: {"jsonrpc":"2.0","id":1,"res\n\n')
    })
    expect(await rejection(client(garbled.url).impact(CHECKOUT))).toBeInstanceOf(HubProtocolError)

    const empty = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(': keep-alive\n\n')
    })
    const emptyError = await rejection(client(empty.url).impact(CHECKOUT))
    expect(emptyError).toBeInstanceOf(HubProtocolError)
    expect(emptyError.message).toContain('ended without an answer')

    const shape = await serve(
      fake((id) => ({ jsonrpc: '2.0', id, result: { content: [], structuredContent: { found: 'yes' } } })),
    )
    const shapeError = await rejection(client(shape.url).impact(CHECKOUT))
    expect(shapeError).toBeInstanceOf(HubProtocolError)
    expect(shapeError.message).toMatch(/unexpected tool output/)
  })

  it('retries 503 twice and then succeeds', async () => {
    const mcp = emulator()
    let calls = 0
    const { url, requests } = await serve((req, res, body) => {
      if (++calls <= 2) {
        res.writeHead(503, { 'content-type': 'text/plain' })
        res.end('provider not ready')
        return
      }
      mcp(req, res, body)
    })
    const result = await client(url).impact(CHECKOUT)
    expect(result.found).toBe(true)
    expect(requests).toHaveLength(3)
  })

  it('gives up after two retries of a 502, and does not retry a 500', async () => {
    const bad = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' })
      res.end('bad gateway')
    })
    expect(await rejection(client(bad.url).impact(CHECKOUT))).toBeInstanceOf(HubServerError)
    expect(bad.requests).toHaveLength(3)

    const failing = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end('boom')
    })
    expect(await rejection(client(failing.url).impact(CHECKOUT))).toBeInstanceOf(HubServerError)
    expect(failing.requests).toHaveLength(1)
  })

  it('reports a refused connection as HubConnectionError after retrying', async () => {
    const { url } = await serve(emulator())
    await new Promise((resolve) => servers.pop()?.close(resolve))
    const error = await rejection(client(url).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubConnectionError)
    expect(error.message).toContain('ECONNREFUSED')
  })

  it('times out a call the server never answers, at the end of its budget', async () => {
    const { url } = await serve(() => {})
    // The transport's clock: the budget starts at the first reading, and every later reading is
    // 1 ms before it ends, so the held request is cut after 1 ms of real time, not 1 s.
    const start = Date.now()
    let readings = 0
    const now = () => start + (readings++ === 0 ? 0 : 999)
    const timed = new McpGraphClient({
      url,
      transport: transportFor(url, TOKEN, { now, sleep: async () => {} }),
      timeoutMs: 1_000,
    })
    const error = await rejection(timed.impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubDeadlineError)
    expect(error.message).toContain('within 1 s, the budget of one MCP call')
  })
})

describe('McpGraphClient wire tolerance', () => {
  const OUTPUT = {
    object: { kind: 'Namespace', name: 'shop' },
    found: true,
    impactedBy: null,
    impacts: [{ kind: 'ConfigMap', namespace: 'shop', name: 'x', relation: 'namespaced' }],
    associated: null,
    summary: 's',
  }

  it('skips notifications and other ids, and returns while the server holds the stream open', async () => {
    const { url } = await serve((_req, res, body) => {
      const { id } = JSON.parse(body.toString('utf8')) as { id: number }
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write(': comment\n\n')
      res.write(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } })}\n\n`,
      )
      res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: id + 100, result: {} })}\n\n`)
      // Our answer split across writes and lines, with CRLF line ends.
      const frame = `id: 7\r\nevent: message\r\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(OUTPUT) }], structuredContent: OUTPUT } })}\r\n\r\n`
      res.write(frame.slice(0, 40))
      setTimeout(() => res.write(frame.slice(40)), 20)
      // never ends
    })
    const result = await client(url, 5_000).impact({ kind: 'Namespace', name: 'shop', group: '', maxDepth: 5 })
    expect(result.object).toEqual({ group: '', kind: 'Namespace', name: 'shop' })
    expect(result.downstream).toEqual([
      { group: '', kind: 'ConfigMap', namespace: 'shop', name: 'x', relation: 'namespaced' },
    ])
    expect(result.upstream).toEqual([])
  })

  it('accepts a plain application/json answer and a result with text only', async () => {
    const { url } = await serve((_req, res, body) => {
      const { id } = JSON.parse(body.toString('utf8')) as { id: number }
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(OUTPUT) }] } }),
      )
    })
    const result = await client(url).impact({ kind: 'Namespace', name: 'shop', group: '', maxDepth: 5 })
    expect(result.found).toBe(true)
    expect(result.downstream).toHaveLength(1)
  })

  it('parses SSE the way the emulator writes it, across any chunking', () => {
    const messages = [
      { jsonrpc: '2.0', id: 1, result: { text: 'é ✓ multi\nline' } },
      { jsonrpc: '2.0', method: 'n' },
    ]
    const text =
      messages.map((m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`).join('') + 'event: other\ndata: {}\n\n'
    const bytes = Buffer.from(text, 'utf8')
    for (const size of [1, 3, 7, bytes.length]) {
      const reader = new SseReader()
      const out: string[] = []
      for (let i = 0; i < bytes.length; i += size) out.push(...reader.push(bytes.subarray(i, i + size)))
      out.push(...reader.end())
      expect(out.map((data) => JSON.parse(data))).toEqual(parseSse(text).slice(0, 2))
    }
  })
})

describe('McpGraphClient lifecycle', () => {
  /** The emulator in session mode, with any extra options. */
  function sessionEmulator(options: Parameters<typeof createMcpHandler>[1] = {}) {
    const mcp = createMcpHandler(createDemoFleet({ workspace: WS }), { workspace: WS, sessions: true, ...options })
    const handler: Handler = (req, res, body) => mcp(req, res, body, { org: ORG, workspace: WS })
    return { mcp, handler }
  }
  const rpcOf = (r: Recorded) => (r.body ? (JSON.parse(r.body) as { method?: string }).method : undefined)

  it('does the handshake after the 400 that asks for a session, sends the session on every call, and ends it with DELETE on close', async () => {
    const { mcp, handler } = sessionEmulator({ primingEvents: true })
    const { url, requests } = await serve(handler)
    const mcpClient = client(url)
    const [first, second] = await Promise.all([
      mcpClient.impact(CHECKOUT),
      mcpClient.impact({ ...CHECKOUT, edge: 'prod-us' }),
    ])
    expect(first.found && second.found).toBe(true)
    expect(requests.filter((r) => rpcOf(r) === 'initialize')).toHaveLength(1)
    const session = requests.find((r) => r.headers['mcp-session-id'])?.headers['mcp-session-id']
    expect(session).toBe('emulator-session-1')
    for (const call of requests.filter((r) => rpcOf(r) === 'tools/call' && r.headers['mcp-session-id'])) {
      expect(call.headers).toMatchObject({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' })
    }
    expect(mcp.openSessions()).toBe(1)
    await mcpClient.close()
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', headers: { 'mcp-session-id': session } })
    expect(mcp.openSessions()).toBe(0)
  })

  it('ends its session once, before the transport closes its own connections, whichever is closed first', async () => {
    const { mcp, handler } = sessionEmulator()
    const { url, requests } = await serve(handler)
    // A transport with its own dispatcher, as the action runs it: closing it closes the connections.
    const transport = new HubTransport({ baseUrl: new URL('/', url), token: TOKEN, org: ORG, workspace: WS })
    const mcpClient = new McpGraphClient({ url, transport })
    await mcpClient.impact(CHECKOUT)
    expect(mcp.openSessions()).toBe(1)
    await Promise.all([transport.close(), mcpClient.close()])
    expect(requests.filter((r) => r.method === 'DELETE')).toHaveLength(1)
    expect(mcp.openSessions()).toBe(0)
  })

  it('starts one new session when the server forgets it, and fails with a hint when it forgets the new one too', async () => {
    const { mcp, handler } = sessionEmulator()
    const { url, requests } = await serve(handler)
    const mcpClient = client(url)
    await mcpClient.impact(CHECKOUT)
    mcp.expireSessions()
    expect((await mcpClient.impact(CHECKOUT)).found).toBe(true)
    expect(requests.filter((r) => rpcOf(r) === 'initialize')).toHaveLength(2)

    // A server that loses every session at once: one renewal per call, then a clear failure.
    const forgetful: Handler = (req, res, body) => {
      handler(req, res, body)
      if (rpcOf({ body: body.toString('utf8') } as Recorded) === 'notifications/initialized') mcp.expireSessions()
    }
    const other = await serve(forgetful)
    const error = await rejection(client(other.url).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.message).toContain('Session not found')
    expect((error as HubError).hint).toMatch(/lost our session again/)
  })

  it('reports a 400 the handshake cannot cure together with why the handshake failed, and does not try it again', async () => {
    const { url, requests } = await serve((_req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' })
      res.end('Bad Request: no\n')
    })
    const mcpClient = client(url)
    const error = await rejection(mcpClient.impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubProtocolError)
    expect(error.message).toContain('Bad Request: no')
    expect(error.message).toContain('initialize handshake failed too')
    expect(error.message).not.toContain('cluster-id` to')
    const again = await rejection(mcpClient.impact(CHECKOUT))
    expect(again).toBeInstanceOf(HubRequestError)
    expect(again.message).toContain('refused the MCP initialize handshake too')
    expect(requests.filter((r) => rpcOf(r) === 'initialize')).toHaveLength(1)
  })

  it('refuses a server that negotiates a protocol version it does not know', async () => {
    const { url } = await serve((_req, res, body) => {
      const message = JSON.parse(body.toString('utf8')) as { id?: number; method: string }
      if (message.method === 'tools/call') {
        res.writeHead(400, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: 'Bad Request: Server not initialized' },
          }),
        )
        return
      }
      sse(res, {
        jsonrpc: '2.0',
        id: message.id,
        result: { protocolVersion: '2030-01-01', capabilities: {}, serverInfo: { name: 'x', version: '1' } },
      })
    })
    const error = await rejection(client(url).impact(CHECKOUT))
    expect(error.message).toContain('protocol version 2030-01-01')
    expect(error.message).toContain('Bad Request: Server not initialized')
  })

  it('works with a server that answers initialize and calls as plain JSON and keeps no session after all', async () => {
    const mcp = emulator()
    let initialized = false
    const { url, requests } = await serve((req, res, body) => {
      const message = JSON.parse(body.toString('utf8')) as { id?: number; method: string }
      if (message.method === 'initialize') initialized = true
      if (message.method === 'tools/call' && !initialized) {
        res.writeHead(400, { 'content-type': 'text/plain' })
        res.end('initialize first\n')
        return
      }
      if (message.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { protocolVersion: '2025-03-26', capabilities: { tools: {} } },
          }),
        )
        return
      }
      mcp(req, res, body)
    })
    const mcpClient = client(url)
    expect((await mcpClient.impact(CHECKOUT)).found).toBe(true)
    const last = requests.at(-1)
    expect(last?.headers['mcp-protocol-version']).toBe('2025-03-26')
    expect(last?.headers['mcp-session-id']).toBeUndefined()
    await mcpClient.close()
    expect(requests.at(-1)?.method).toBe('POST')
  })
})

describe('McpGraphClient errors of the aggregate', () => {
  it('asks once more after a transient unknown tool, and reports it when it stays unknown', async () => {
    const { url, requests } = await serve(emulatorWith({ unknownToolCalls: 1 }))
    expect((await client(url).impact(CHECKOUT)).found).toBe(true)
    expect(requests).toHaveLength(2)

    const always = await serve(
      fake((id) => ({
        jsonrpc: '2.0',
        id,
        error: { code: 0, message: 'provider "graph": unknown tool "graph__graph_impact"' },
      })),
    )
    const error = await rejection(client(always.url).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubRequestError)
    expect((error as HubError).hint).toMatch(/also when asked again/)
    expect(always.requests).toHaveLength(2)
  })

  it('reads code-0 errors by their text: wrapped bad arguments are the request, anything else the provider', async () => {
    const args = await serve(
      fake((id) => ({
        jsonrpc: '2.0',
        id,
        error: { code: 0, message: 'provider "graph" tool "graph_impact": invalid input: unknown field "cluster"' },
      })),
    )
    const argsError = await rejection(client(args.url).impact(CHECKOUT))
    expect(argsError).toBeInstanceOf(HubRequestError)
    expect(argsError.message).toContain('unknown field "cluster"')
    expect((argsError as HubError).hint).toMatch(/refused the tool arguments/)
    expect(args.requests).toHaveLength(1)

    const slow = await serve(
      fake((id) => ({
        jsonrpc: '2.0',
        id,
        error: { code: 0, message: 'provider "graph" tool "graph_impact": context deadline exceeded' },
      })),
    )
    expect(((await rejection(client(slow.url).impact(CHECKOUT))) as HubError).hint).toMatch(/did not answer within/)

    const broken = await serve(
      fake((id) => ({
        jsonrpc: '2.0',
        id,
        error: { code: 0, message: 'provider "graph" tool "graph_impact": connection refused' },
      })),
    )
    const brokenError = await rejection(client(broken.url).impact(CHECKOUT))
    expect(brokenError).toBeInstanceOf(HubServerError)
    expect((brokenError as HubError).hint).toMatch(/provider behind the MCP endpoint failed/)
  })

  it('gives 401 and 400 hints that fit MCP and never send the user to cluster-id', async () => {
    for (const status of [401, 400]) {
      const { url } = await serve((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/plain' })
        res.end(status === 401 ? 'unauthorized\n' : 'a workspace is required\n')
      })
      const error = (await rejection(client(url).impact(CHECKOUT))) as HubError
      expect(error.message).toContain('`mcp-url`')
      expect(error.message).not.toMatch(/set `cluster-id`/)
      if (status === 401) {
        expect(error).toBeInstanceOf(HubAuthError)
        expect(error.hint).toMatch(/`cluster-id` does nothing for the MCP source/)
      }
    }
  })

  it('stops reading an answer at the cap and names it', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const chunk = Buffer.alloc(1024 * 1024, 0x20)
      for (let i = 0; i < 5; i++) res.write(chunk)
      res.end()
    })
    const error = await rejection(client(url).impact(CHECKOUT))
    expect(error).toBeInstanceOf(HubProtocolError)
    expect(error.message).toContain('larger than 4 MiB')
  })
})

describe('McpGraphClient redaction', () => {
  it('redacts before clipping: a token across the 500-character clip shows no prefix', async () => {
    const text = `${'x'.repeat(490)}${TOKEN} tail`
    const tool = await serve(
      fake((id) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: true } })),
    )
    const error = (await rejection(client(tool.url).impact(CHECKOUT))) as HubError
    expect(error.hubMessage).toBe(`${'x'.repeat(490)}*** tail`)
    expect(error.message).not.toContain(TOKEN.slice(0, 6))
  })

  it('redacts the JSON- and URL-encoded forms of a token with quotes and backslashes', async () => {
    const token = 'tok"with\\odd/chars+=xyz'
    const echoed = [JSON.stringify(token).slice(1, -1), encodeURIComponent(token)].join(' | ')
    const { url } = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(`boom ${echoed}\n`)
    })
    const quoted = new McpGraphClient({ url, transport: transportFor(url, token) })
    const error = await rejection(quoted.impact(CHECKOUT))
    expect(error.message).toContain('boom *** | ***')
    expect(error.message).not.toContain('odd')
  })
})

describe('SseReader', () => {
  it('skips events with empty data, as 2025-11-25 servers send to prime resumption', () => {
    const reader = new SseReader()
    const out = reader.push(
      Buffer.from('id: 1\ndata: \n\nid: 2\nretry: 100\ndata:\n\nevent: message\ndata: {"a":1}\n\n'),
    )
    expect([...out, ...reader.end()]).toEqual(['{"a":1}'])
  })
})
