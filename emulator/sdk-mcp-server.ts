// An MCP server built from the official TypeScript SDK (McpServer + StreamableHTTPServerTransport)
// on 127.0.0.1, exposing `graph__graph_impact` over the same fleet data as the graph emulator.
// It is a real peer for interop tests: the SDK, not our emulator, decides what the wire looks like.
//   stateless: a new server and transport per request, answers as SSE, no session
//   session:   the specification's lifecycle (initialize, Mcp-Session-Id, DELETE), answers as SSE
//   json:      sessions as above, answers as plain application/json (`enableJsonResponse`)
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import type { Fleet } from './graph/fleet.ts'
import { runImpact, type ImpactInput } from './graph/mcp-impact.ts'

export type SdkMcpMode = 'stateless' | 'session' | 'json'

interface SdkMcpRequest {
  method: string
  /** JSON-RPC method of a POST (undefined for other HTTP methods or unreadable bodies). */
  rpcMethod: string | undefined
  sessionId: string | undefined
  protocolVersion: string | undefined
  status: number
  contentType: string
}

export interface SdkMcpServer {
  /** The MCP endpoint URL (any path is served). */
  url: string
  requests: SdkMcpRequest[]
  /** Sessions the server holds now. */
  openSessions(): number
  close(): Promise<void>
}

const MAX_BODY = 1024 * 1024
const MCP_PATH = '/mcp'

function buildServer(fleet: Fleet): McpServer {
  const server = new McpServer({ name: 'sdk-graph', version: '1.0.0' })
  server.registerTool(
    'graph__graph_impact',
    {
      description: 'Impact of one object: what it depends on, what depends on it, and what is linked to it.',
      inputSchema: {
        kind: z.string(),
        name: z.string(),
        edge: z.string().optional(),
        group: z.string().optional(),
        namespace: z.string().optional(),
        maxDepth: z.number().int().min(0).max(20).optional(),
      },
    },
    (args) => {
      const input: ImpactInput = { kind: args.kind, name: args.name }
      if (args.edge !== undefined) input.edge = args.edge
      if (args.group !== undefined) input.group = args.group
      if (args.namespace !== undefined) input.namespace = args.namespace
      if (args.maxDepth) input.maxDepth = args.maxDepth
      const result = runImpact(fleet, input)
      return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result }
    },
  )
  return server
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) req.destroy(new Error('request body too large'))
      else chunks.push(chunk)
    })
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      try {
        resolve(text ? JSON.parse(text) : undefined)
      } catch {
        resolve(undefined)
      }
    })
    req.on('error', reject)
  })
}

function contentTypeOf(headers: unknown): string {
  if (Array.isArray(headers)) {
    // A flat [name, value, name, value…] list.
    const index = headers.findIndex((item, i) => i % 2 === 0 && String(item).toLowerCase() === 'content-type')
    return index === -1 ? '' : String(headers[index + 1])
  }
  const entry = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')
  return entry ? String(entry[1]) : ''
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name]
  return Array.isArray(value) ? value[0] : value
}

export async function startSdkMcpServer(fleet: Fleet, mode: SdkMcpMode): Promise<SdkMcpServer> {
  const requests: SdkMcpRequest[] = []
  const sessions = new Map<string, StreamableHTTPServerTransport>()

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = req.method === 'POST' ? await readJson(req) : undefined
    const sessionId = header(req, 'mcp-session-id')
    const record: SdkMcpRequest = {
      method: req.method ?? '',
      rpcMethod: body && typeof body === 'object' && 'method' in body ? String(body.method) : undefined,
      sessionId,
      protocolVersion: header(req, 'mcp-protocol-version'),
      status: 0,
      contentType: '',
    }
    requests.push(record)
    // The SDK writes its answers through writeHead with the headers in hand (not setHeader): read them there.
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse
    res.writeHead = (...args: unknown[]) => {
      record.status = Number(args[0])
      record.contentType = contentTypeOf(args.find((arg) => typeof arg === 'object' && arg !== null))
      return writeHead(...args)
    }

    if (mode === 'stateless') {
      // The SDK refuses to reuse a stateless transport: one server and transport per request.
      const server = buildServer(fleet)
      // No session id generator: the SDK's stateless mode.
      const transport = new StreamableHTTPServerTransport({})
      res.on('close', () => {
        void transport.close()
        void server.close()
      })
      await server.connect(transport)
      await transport.handleRequest(req, res, body)
      return
    }

    let transport = sessionId ? sessions.get(sessionId) : undefined
    if (!transport && !sessionId && req.method === 'POST' && isInitializeRequest(body)) {
      const server = buildServer(fleet)
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse: mode === 'json',
        onsessioninitialized: (id) => {
          sessions.set(id, created)
        },
      })
      created.onclose = () => {
        if (created.sessionId) sessions.delete(created.sessionId)
        void server.close()
      }
      await server.connect(created)
      transport = created
    }
    if (!transport) {
      // What the SDK's own examples answer: no session id → 400, an unknown one → 404.
      const [status, code, message] = sessionId
        ? [404, -32001, 'Session not found']
        : [400, -32000, 'Bad Request: Mcp-Session-Id header is required']
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }))
      return
    }
    await transport.handleRequest(req, res, body)
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(`sdk server error: ${error instanceof Error ? error.message : String(error)}`)
      } else res.destroy()
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    requests,
    openSessions: () => sessions.size,
    close: async () => {
      await Promise.all([...sessions.values()].map((transport) => transport.close()))
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
