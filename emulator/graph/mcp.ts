// MCP aggregate endpoint of the hub emulator (docs/hub-facts.md, "MCP"): Streamable
// HTTP, JSON-RPC 2.0 over POST, answers as SSE; stateless like the hub, or with the
// MCP specification's session lifecycle (`sessions`). Exposes the graph provider's
// tools `graph__graph_impact` and `graph__graph_query`. Bad arguments come back
// wrapped with code 0, and a URL with the cluster id finds nothing, as on the hub.

import type * as http from 'node:http'
import type { Fleet } from './fleet.ts'
import type { ExecuteOptions, ObjectResult, QuerySpec, QueryStatus, Tenant } from './query.ts'
import { QueryBodyError, QueryValidationError, edgeOfCluster, executeQuery } from './query.ts'
import { relationDirection } from './relations.ts'
import { sendJson, sendText } from './handler.ts'

const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const
const LATEST_PROTOCOL_VERSION = '2025-06-18'
const MCP_PATH_RE = /^\/services\/mcpserver\/(.+)\/apis\/hub\.sh\/v1alpha1\/mcpservers\/default\/mcp\/?$/

// ---------------------------------------------------------------------------
// Impact: the query the real tool runs, and the classification of its result

export type ImpactInput = {
  kind: string
  name: string
  edge?: string
  group?: string
  namespace?: string
  maxDepth?: number
}

type ImpactRef = { edge?: string; group?: string; kind: string; namespace?: string; name: string; relation: string }

export type ImpactResult = {
  object: Omit<ImpactRef, 'relation'>
  found: boolean
  impactedBy: ImpactRef[] | null
  impacts: ImpactRef[] | null
  associated: ImpactRef[] | null
  summary: string
}

const IMPACT_DEFAULT_MAX_DEPTH = 5
const IMPACT_RELATIONS = [
  'descendants+',
  'references',
  'selects',
  'selected-by',
  'owners',
  'linked+',
  'grouped',
  'namespace',
  'namespaced',
] as const

/** The QuerySpec the impact tool runs (docs/hub-facts.md, "Impact"). */
export function buildImpactQuery(input: ImpactInput): QuerySpec {
  const filter: NonNullable<NonNullable<QuerySpec['filter']>['objects']>[number] = {
    groupKind: { apiGroup: input.group ?? '', kind: input.kind },
    name: input.name,
  }
  if (input.namespace) filter.namespace = input.namespace
  const related = {
    id: true,
    cluster: true,
    object: { kind: true, apiVersion: true, metadata: { name: true, namespace: true } },
  }
  const relations: NonNullable<NonNullable<QuerySpec['objects']>['relations']> = {}
  for (const r of IMPACT_RELATIONS)
    relations[r] = r === 'namespaced' ? { limit: 200, objects: related } : { objects: related }
  const spec: QuerySpec = {
    filter: { objects: [filter] },
    maxDepth: input.maxDepth ?? IMPACT_DEFAULT_MAX_DEPTH,
    objects: { id: true, cluster: true, relations },
  }
  if (input.edge) spec.cluster = { name: input.edge }
  return spec
}

function refOf(r: ObjectResult, relation: string): ImpactRef {
  const o = (r.object ?? {}) as { kind?: string; apiVersion?: string; metadata?: { name?: string; namespace?: string } }
  const ref: ImpactRef = { kind: o.kind ?? '', name: o.metadata?.name ?? '', relation }
  if (r.cluster) ref.edge = edgeOfCluster(r.cluster)
  const av = o.apiVersion ?? ''
  if (av.includes('/')) ref.group = av.slice(0, av.indexOf('/'))
  if (o.metadata?.namespace) ref.namespace = o.metadata.namespace
  // stable key order: edge, group, kind, namespace, name, relation
  const out: ImpactRef = {} as ImpactRef
  if (ref.edge !== undefined) out.edge = ref.edge
  if (ref.group !== undefined) out.group = ref.group
  out.kind = ref.kind
  if (ref.namespace !== undefined) out.namespace = ref.namespace
  out.name = ref.name
  out.relation = ref.relation
  return out
}

/** Sorts the anchor's (first object's) relations into impactedBy / impacts / associated, as the tool does. */
function classifyImpact(status: QueryStatus, input: ImpactInput): ImpactResult {
  const anchor = status.objects?.[0]
  const requested: Omit<ImpactRef, 'relation'> = { kind: input.kind, name: input.name }
  if (input.edge) requested.edge = input.edge
  if (input.group) requested.group = input.group
  if (input.namespace) requested.namespace = input.namespace
  if (!anchor) {
    const where = `${input.namespace ? `${input.namespace}/` : ''}${input.name}`
    return {
      object: requested,
      found: false,
      impactedBy: null,
      impacts: null,
      associated: null,
      summary: `${input.kind} ${where} was not found${input.edge ? ` on edge ${input.edge}` : ''}. The object may not exist, or the fleet sync may still be catching up; an empty result does not prove absence.`,
    }
  }
  const up: ImpactRef[] = []
  const down: ImpactRef[] = []
  const lateral: ImpactRef[] = []
  const seen = new Set<string>()
  for (const [name, list] of Object.entries(anchor.relations ?? {})) {
    const dir = relationDirection(name)
    if (!dir) continue
    const relation = name.endsWith('+') ? name.slice(0, -1) : name
    for (const r of list) {
      const ref = refOf(r, relation)
      const key = JSON.stringify(ref)
      if (seen.has(key)) continue
      seen.add(key)
      ;(dir === 'upstream' ? up : dir === 'downstream' ? down : lateral).push(ref)
    }
  }
  const self = refOf({ ...anchor, object: anchor.object ?? {} }, '')
  const { relation: _drop, ...object } = self
  void _drop
  const where = `${object.namespace ? `${object.namespace}/` : ''}${object.name}`
  const summary = `${object.kind} ${where}${object.edge ? ` on edge ${object.edge}` : ''}: ${up.length} upstream dependenc${up.length === 1 ? 'y' : 'ies'} (impactedBy), ${down.length} downstream dependent${down.length === 1 ? '' : 's'} (impacts), ${lateral.length} associated. Derived from declared relationships only (owner references, spec references, selectors, namespace membership, declared links); runtime traffic is not traced.${status.incomplete ? ' The result was truncated at the row cap.' : ''}`
  return {
    object,
    found: true,
    impactedBy: up.length ? up : null,
    impacts: down.length ? down : null,
    associated: lateral.length ? lateral : null,
    summary,
  }
}

// ---------------------------------------------------------------------------
// Tools

class ToolError extends Error {}

const IMPACT_KEYS = new Set(['kind', 'name', 'edge', 'group', 'namespace', 'maxDepth'])

function parseImpactInput(args: unknown): ImpactInput {
  if (args === undefined || args === null) throw new ToolError('invalid input: kind and name are required')
  if (typeof args !== 'object' || Array.isArray(args)) throw new ToolError('invalid input: arguments must be an object')
  const a = args as Record<string, unknown>
  const extra = Object.keys(a).filter((k) => !IMPACT_KEYS.has(k))
  if (extra.length)
    throw new ToolError(
      `invalid input: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')}`,
    )
  for (const k of ['kind', 'name', 'edge', 'group', 'namespace']) {
    if (a[k] !== undefined && typeof a[k] !== 'string') throw new ToolError(`invalid input: ${k} must be a string`)
  }
  if (!a.kind) throw new ToolError('invalid input: kind is required')
  if (!a.name) throw new ToolError('invalid input: name is required')
  if (a.maxDepth !== undefined && (typeof a.maxDepth !== 'number' || !Number.isInteger(a.maxDepth) || a.maxDepth < 0))
    throw new ToolError('invalid input: maxDepth must be a non-negative integer')
  if (typeof a.maxDepth === 'number' && a.maxDepth > 20)
    throw new ToolError(`maxDepth ${a.maxDepth} exceeds the maximum of 20`)
  const input: ImpactInput = { kind: a.kind as string, name: a.name as string }
  for (const k of ['edge', 'group', 'namespace'] as const) if (typeof a[k] === 'string') input[k] = a[k]
  if (typeof a.maxDepth === 'number' && a.maxDepth > 0) input.maxDepth = a.maxDepth
  return input
}

const REF_SCHEMA = {
  type: 'object',
  properties: {
    edge: { type: 'string' },
    group: { type: 'string' },
    kind: { type: 'string' },
    namespace: { type: 'string' },
    name: { type: 'string' },
    relation: { type: 'string' },
  },
  required: ['kind', 'name', 'relation'],
}

const TOOLS = [
  {
    name: 'graph__graph_impact',
    title: 'Fleet impact of one object',
    description:
      'For one object return upstream dependencies (impactedBy), downstream dependents (impacts) and associated peers, from declared relationships only (owner references, spec references, selectors, namespace membership, declared links). The object is identified by exact edge, group, kind, namespace and name.',
    inputSchema: {
      type: 'object',
      properties: {
        kind: { type: 'string', description: 'Kind, e.g. Deployment (resource and short names accepted)' },
        name: { type: 'string', description: 'Object name' },
        edge: { type: 'string', description: 'Edge (cluster) name; first match across edges when omitted' },
        group: { type: 'string', description: 'API group, "" for core' },
        namespace: { type: 'string', description: 'Namespace; omit for cluster-scoped objects' },
        maxDepth: {
          type: 'integer',
          minimum: 0,
          maximum: 20,
          description: 'Depth of transitive relations (default 5)',
        },
      },
      required: ['kind', 'name'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        object: { type: 'object' },
        found: { type: 'boolean' },
        impactedBy: { type: ['array', 'null'], items: REF_SCHEMA },
        impacts: { type: ['array', 'null'], items: REF_SCHEMA },
        associated: { type: ['array', 'null'], items: REF_SCHEMA },
        summary: { type: 'string' },
      },
      required: ['object', 'found', 'impactedBy', 'impacts', 'associated', 'summary'],
    },
  },
  {
    name: 'graph__graph_query',
    title: 'Query the fleet graph',
    description:
      'Query synchronized resources across workspace edges; filter by kind, namespace or labels; project fields; expand relationships. The QuerySpec goes under "spec".',
    inputSchema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          description:
            'QuerySpec: root, cluster{name}, filter{objects[]}, limit (≤10000), page{cursor}, order[]{field,direction}, count, cursor, maxDepth (≤20), objects (projection)',
          properties: {
            root: { type: 'string', enum: ['objects', 'clusters'] },
            cluster: { type: 'object', properties: { name: { type: 'string' } } },
            filter: { type: 'object', properties: { objects: { type: 'array', items: { type: 'object' } } } },
            limit: { type: 'integer', minimum: 0, maximum: 10000 },
            page: { type: 'object', properties: { first: { type: 'integer' }, cursor: { type: 'string' } } },
            order: {
              type: 'array',
              items: {
                type: 'object',
                properties: { field: { type: 'string' }, direction: { type: 'string', enum: ['Asc', 'Desc'] } },
                required: ['field'],
              },
            },
            count: { type: 'boolean' },
            cursor: { type: 'boolean' },
            maxDepth: { type: 'integer', minimum: 0, maximum: 20 },
            objects: { type: 'object' },
          },
        },
      },
      required: ['spec'],
      additionalProperties: false,
    },
  },
] as const

type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: unknown; isError?: boolean }

function toolOk(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
}

function toolErr(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

function queryErrorText(err: unknown): string {
  if (err instanceof QueryBodyError) return `invalid QuerySpec body: ${err.message}`
  if (err instanceof QueryValidationError) return `query failed: validation: ${err.message}`
  return 'query failed: internal error'
}

/** Runs the impact tool directly (what `graph__graph_impact` returns as structuredContent). */
export function runImpact(
  fleet: Fleet,
  input: ImpactInput,
  tenant?: Tenant | string | null,
  opts: ExecuteOptions = {},
): ImpactResult {
  return classifyImpact(executeQuery(fleet, buildImpactQuery(input), tenant, opts), input)
}

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

  // Graph rows carry the workspace path; a URL with the cluster id instead makes the aggregate
  // forward a tenant no row belongs to, so every tool finds nothing (docs/hub-facts.md, "MCP").
  const callTool = (
    name: string,
    args: unknown,
    tenant: Tenant | null | undefined,
    cluster: string | undefined,
  ): ToolResult | { rpcError: [number, string] } => {
    fleet.sync?.()
    const seesRows = cluster === undefined || cluster === workspacePath
    if (name === 'graph__graph_impact') {
      let input: ImpactInput
      try {
        input = parseImpactInput(args)
      } catch (err) {
        // The aggregate wraps the provider's bad-arguments error with JSON-RPC code 0.
        if (err instanceof ToolError && !err.message.startsWith('maxDepth'))
          return { rpcError: [0, `provider "graph" tool "graph_impact": ${err.message}`] }
        return toolErr((err as Error).message)
      }
      try {
        return toolOk(seesRows ? runImpact(fleet, input, tenant, execOpts) : classifyImpact({}, input))
      } catch (err) {
        return toolErr(queryErrorText(err))
      }
    }
    if (name === 'graph__graph_query') {
      if (args === null || args === undefined || typeof args !== 'object' || Array.isArray(args))
        return {
          rpcError: [0, 'provider "graph" tool "graph_query": invalid input: arguments must be an object with "spec"'],
        }
      const a = args as Record<string, unknown>
      const extra = Object.keys(a).filter((k) => k !== 'spec')
      if (extra.length)
        return {
          rpcError: [
            0,
            `provider "graph" tool "graph_query": invalid input: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')}`,
          ],
        }
      if (a.spec === undefined)
        return { rpcError: [0, 'provider "graph" tool "graph_query": invalid input: spec is required'] }
      try {
        const status = executeQuery(fleet, a.spec, tenant, execOpts)
        return toolOk(seesRows ? status : {})
      } catch (err) {
        return toolErr(queryErrorText(err))
      }
    }
    return { rpcError: [-32602, `unknown tool "${name}"`] }
  }

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
        const r = callTool(params.name, params.arguments, tenant, clusterOfPath(path))
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
