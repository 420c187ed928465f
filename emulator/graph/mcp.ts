// MCP aggregate endpoint of the hub emulator (docs/hub-facts.md, "MCP"): Streamable
// HTTP, JSON-RPC 2.0 over POST, answers as SSE; stateless like the hub, or with the
// MCP specification's session lifecycle (`sessions`). Exposes the graph provider's
// tools `graph__graph_impact` and `graph__graph_query` (mcp-tools.ts, the impact logic
// in mcp-impact.ts).

import type * as http from 'node:http'
import type { Fleet } from './fleet.ts'
import type { ExecuteOptions, Tenant } from './query.ts'
import { sendJson, sendText } from './handler.ts'
import { TOOLS, callGraphTool } from './mcp-tools.ts'

const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const
const LATEST_PROTOCOL_VERSION = '2025-06-18'
const MCP_PATH_RE = /^\/services\/mcpserver\/(.+)\/apis\/hub\.sh\/v1alpha1\/mcpservers\/default\/mcp\/?$/

// ---------------------------------------------------------------------------
// JSON-RPC over Streamable HTTP

type RpcId = string | number | null
type RpcMessage = {
  jsonrpc?: unknown
  id?: unknown
  method?: unknown
  params?: unknown
  result?: unknown
  error?: unknown
}

export type McpOptions = ExecuteOptions & {
  serverName?: string
  serverVersion?: string
  /**
   * Follow the MCP specification's session lifecycle, as other MCP servers and the hub behind
   * another gateway do (docs/hub-facts.md, "MCP"): `initialize` returns an `Mcp-Session-Id`; any other request
   * without it is a 400, with an unknown or ended one a 404; DELETE ends the session.
   * Default false: the hub's aggregate is stateless.
   */
  sessions?: boolean
  /** Write an event with empty `data` before each answer, as 2025-11-25 servers do (docs/hub-facts.md, "MCP"). */
  primingEvents?: boolean
  /** The first N `tools/call`s answer `unknown tool` (-32602), as when discovery failed for that request. */
  unknownToolCalls?: number
}

export type McpHandler = ((
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: Buffer,
  tenant?: Tenant | null,
) => void) & {
  /** End every open session, as a server restart does: the next request with one gets 404. */
  expireSessions(): void
  /** Sessions open now (started by `initialize`, not yet ended by DELETE or expiry). */
  openSessions(): number
}

/** The hub emulator's tenant, or null when the hub found no valid bearer. */
export type HubTenantLike = { org: string; workspace: string | null; user: string } | undefined

/** An `extraRoutes` entry for the hub emulator that mounts this MCP endpoint with options (e.g. session mode). */
export function mcpRoute(
  fleet: Fleet,
  opts: McpOptions = {},
): {
  prefix: string
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tenant?: HubTenantLike) => void
  mcp: McpHandler
} {
  const mcp = createMcpHandler(fleet, opts)
  return {
    prefix: '/services/mcpserver/',
    handler: (req, res, body, tenant) =>
      mcp(req, res, body, tenant ? { org: tenant.org, workspace: tenant.workspace ?? '', user: tenant.user } : null),
    mcp,
  }
}

function headerValue(h: string | string[] | undefined): string {
  return Array.isArray(h) ? h.join(',') : (h ?? '')
}

function acceptsBoth(accept: string): boolean {
  const types = accept.split(',').map((t) => (t.split(';')[0] ?? '').trim().toLowerCase())
  return types.includes('application/json') && types.includes('text/event-stream')
}

function rpcError(id: RpcId, code: number, message: string): unknown {
  return { jsonrpc: '2.0', id, error: { code, message } }
}

function rpcResult(id: RpcId, result: unknown): unknown {
  return { jsonrpc: '2.0', id, result }
}

/** A transport-level refusal the way the MCP SDKs write it: JSON-RPC error, id null, HTTP status. */
function sendRpcRefusal(res: http.ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, rpcError(null, code, message))
}

/** The workspace path in the URL (`/services/mcpserver/{cluster}/…`): the aggregate forwards it as the tenant. */
function clusterOfPath(path: string): string | undefined {
  const raw = MCP_PATH_RE.exec(path)?.[1]
  if (raw === undefined) return undefined
  try {
    return decodeURIComponent(raw)
  } catch {
    return raw
  }
}

export function createMcpHandler(fleet: Fleet, opts: McpOptions = {}): McpHandler {
  const execOpts: ExecuteOptions = {}
  if (opts.workspace !== undefined) execOpts.workspace = opts.workspace
  if (opts.workspacePath !== undefined) execOpts.workspacePath = opts.workspacePath
  const workspacePath = opts.workspacePath ?? fleet.workspacePath
  const serverInfo = { name: opts.serverName ?? 'hub-mcp-aggregate', version: opts.serverVersion ?? '0.0.0-emulator' }
  const sessions = new Map<string, { protocolVersion: string }>()
  let sessionCounter = 0
  let unknownToolLeft = opts.unknownToolCalls ?? 0
  let eventCounter = 0
  const toolContext = { fleet, execOpts, workspacePath }

  const handler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tenant?: Tenant | null): void => {
    const url = req.url ?? '/'
    const path = url.split('?')[0] ?? '/'
    if (path.startsWith('/services/mcpserver/') && !MCP_PATH_RE.test(path))
      return sendText(res, 404, '404 page not found')
    if (tenant === null) return sendText(res, 401, 'missing tenant identity')
    const method = (req.method ?? 'GET').toUpperCase()
    const sessionHeader = headerValue(req.headers['mcp-session-id']).trim()

    if (opts.sessions && method === 'DELETE') {
      if (!sessionHeader) return sendRpcRefusal(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required')
      if (!sessions.delete(sessionHeader)) return sendRpcRefusal(res, 404, -32001, 'Session not found')
      res.writeHead(200)
      res.end()
      return
    }
    if (method !== 'POST') {
      const allow = opts.sessions ? 'POST, DELETE' : 'POST'
      return sendText(
        res,
        405,
        `Method Not Allowed: ${opts.sessions ? 'no standalone event stream here' : 'this server is stateless'}; use POST`,
        {
          Allow: allow,
        },
      )
    }
    if (!acceptsBoth(headerValue(req.headers.accept)))
      return sendText(res, 400, "Bad Request: Accept must contain both 'application/json' and 'text/event-stream'")
    const ct = headerValue(req.headers['content-type']).split(';')[0]?.trim().toLowerCase()
    if (ct && ct !== 'application/json')
      return sendText(res, 415, 'Unsupported Media Type: Content-Type must be application/json')
    const pv = headerValue(req.headers['mcp-protocol-version']).trim()
    if (pv && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(pv)) {
      return sendText(
        res,
        400,
        `Bad Request: Unsupported protocol version (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      )
    }

    const reply = (msg: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        ...headers,
      })
      const priming = opts.primingEvents ? `id: ${++eventCounter}\ndata: \n\n` : ''
      res.end(`${priming}event: message\ndata: ${JSON.stringify(msg)}\n\n`)
    }

    let msg: unknown
    try {
      msg = JSON.parse(body.toString('utf8'))
    } catch {
      return reply(rpcError(null, -32700, 'Parse error'))
    }
    if (Array.isArray(msg)) return reply(rpcError(null, -32600, 'Invalid Request: batching is not supported'))
    if (typeof msg !== 'object' || msg === null) return reply(rpcError(null, -32600, 'Invalid Request'))
    const m = msg as RpcMessage
    const hasId = Object.hasOwn(m, 'id') && m.id !== undefined
    const id: RpcId = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null
    if (m.jsonrpc !== '2.0') return reply(rpcError(id, -32600, 'Invalid Request: jsonrpc must be "2.0"'))
    const params = (m.params && typeof m.params === 'object' ? m.params : {}) as Record<string, unknown>

    const initializing = m.method === 'initialize' && hasId
    if (opts.sessions && !initializing) {
      if (!sessionHeader) return sendRpcRefusal(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required')
      if (!sessions.has(sessionHeader)) return sendRpcRefusal(res, 404, -32001, 'Session not found')
    }

    // responses and notifications: accepted, no body
    if (typeof m.method !== 'string' || !hasId) {
      if (typeof m.method !== 'string' && !('result' in m) && !('error' in m))
        return reply(rpcError(id, -32600, 'Invalid Request'))
      res.writeHead(202)
      res.end()
      return
    }
    switch (m.method) {
      case 'initialize': {
        const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : ''
        const protocolVersion = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested)
          ? requested
          : LATEST_PROTOCOL_VERSION
        const headers: Record<string, string> = {}
        if (opts.sessions) {
          const session = `emulator-session-${++sessionCounter}`
          sessions.set(session, { protocolVersion })
          headers['Mcp-Session-Id'] = session
        }
        return reply(rpcResult(id, { protocolVersion, capabilities: { tools: {} }, serverInfo }), headers)
      }
      case 'ping':
        return reply(rpcResult(id, {}))
      case 'tools/list':
        return reply(rpcResult(id, { tools: TOOLS }))
      case 'tools/call': {
        if (typeof params.name !== 'string') return reply(rpcError(id, -32602, 'invalid params: missing tool name'))
        if (unknownToolLeft > 0) {
          unknownToolLeft--
          return reply(rpcError(id, -32602, `unknown tool "${params.name}"`))
        }
        const r = callGraphTool(toolContext, params.name, params.arguments, tenant, clusterOfPath(path))
        if ('rpcError' in r) return reply(rpcError(id, r.rpcError[0], r.rpcError[1]))
        return reply(rpcResult(id, r))
      }
      default:
        return reply(rpcError(id, -32601, `method not found: ${m.method}`))
    }
  }
  return Object.assign(handler, {
    expireSessions: () => sessions.clear(),
    openSessions: () => sessions.size,
  })
}

/** Parses an SSE body of `event: message` frames into JSON-RPC messages (for tests and clients). */
export function parseSse(text: string): unknown[] {
  const out: unknown[] = []
  for (const frame of text.split(/\r?\n\r?\n/)) {
    const data = frame
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n')
    if (data) out.push(JSON.parse(data))
  }
  return out
}
