// Hub emulator: a real HTTP server on 127.0.0.1 that behaves like the hub proxy
// (docs/hub-facts.md, "The hub in front") with the agents provider (docs/hub-facts.md, "Agents provider") mounted under `agents`.
// Other providers can be mounted with `providers` / `mount()`, and non-provider
// paths (e.g. /services/mcpserver/...) with `extraRoutes`.
import http from 'node:http'
import { createAgentsProvider, DEFAULT_AGENTS } from './agents.ts'
import type { AgentScript, AgentsProvider, RunRecord } from './agents.ts'
import { createDemoFleet, createGraphProvider, createMcpHandler, type Fleet } from './graph/index.ts'
import {
  createFaultQueue,
  headerMap,
  listenLocal,
  loseResponse,
  readBody,
  resetSocket,
  sendStatus,
  sendText,
} from './http.ts'
import type { EmulatorRequest, ProviderHandler, Tenant } from './provider.ts'

export { DEFAULT_AGENTS } from './agents.ts'
export { sendJson, sendText } from './http.ts'
export type { EmulatorRequest, ProviderHandler, Tenant } from './provider.ts'

export const DEFAULT_TOKEN = 'hub-test-token-0123456789abcdef'
const DEFAULT_SERVICE_ACCOUNT_TOKEN = 'hub-sa-token-fedcba9876543210'
const DEFAULT_ORG = '3f6c1a2e-8b4d-4e7a-9c15-2d7e0b9a4f61'
export const DEFAULT_WORKSPACE = '9a2b7c4d-1e3f-4a5b-8c6d-7e8f9a0b1c2d'
const DEFAULT_PERSONAL_ORG = 'e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9'
const DEFAULT_USER = 'ci-user@example.com'
const DEFAULT_SERVICE_ACCOUNT_USER = 'system:serviceaccount:hub-action'
const DEFAULT_CLUSTER_ID = 'c-7f3a9e'

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface ExtraRoute {
  /** Matched as a prefix of the URL path. */
  prefix: string
  /** `tenant` is the hub's resolution (undefined when auth is false and no valid token was sent). */
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tenant?: Tenant) => void | Promise<void>
  /** Default true: the hub answers 401 plain text unless a valid bearer token is sent. */
  auth?: boolean
}

export interface Fault {
  method?: string
  /** string: substring of the URL path; RegExp: tested against the URL path (no query). */
  path?: string | RegExp
  /** How many matching requests this fault consumes (default 1; Infinity allowed). */
  times?: number
  /** Answer with this status instead of handling the request. */
  status?: number
  retryAfter?: string
  body?: string
  contentType?: string
  /** Destroy the socket (TCP reset) without answering. */
  reset?: boolean
  /** Delay before handling (or before the faulty answer). */
  delayMs?: number
  /** Handle the request fully (e.g. create the run), then destroy the socket without answering. */
  loseResponse?: boolean
  /** Label written to RecordedRequest.fault (default: derived from the fields). */
  name?: string
}

export interface RecordedRequest {
  method: string
  /** URL path without the query. */
  path: string
  query: Record<string, string>
  /** Raw request target (path + query). */
  url: string
  /** Lower-case keys, as sent by the client. */
  headers: Record<string, string>
  body: string
  /** Date.now() when the request arrived. */
  at: number
  /** Set when a fault was applied to this request (e.g. 'status 503', 'reset', 'loseResponse', 'delay 100ms'). */
  fault?: string
}

type ProviderState = 'ready' | 'notReady' | 'unreachable'

export interface HubEmulatorOptions {
  /** Default 0 (ephemeral). Always bound to 127.0.0.1. */
  port?: number
  token?: string
  serviceAccountToken?: string
  /** Membership org / workspace UUIDs (the only valid X-Hub-Org / X-Hub-Workspace pair). */
  org?: string
  workspace?: string
  /** Org used on silent fallback. */
  personalOrg?: string
  /**
   * The user's membership is org-wide (an org administrator): any workspace string under `org` is
   * admitted as sent, existing or not, with no syntax check (docs/hub-facts.md, "Memberships and
   * the workspace proof"). whoami then echoes it with an empty clusterID, the agents routes answer
   * 400 "no workspace cluster on request" and the graph answers nothing.
   */
  orgWideMembership?: boolean
  /** Where runs are kept: `memory` (default) or `postgres`, where a cancelled run stays Running (agents/state.ts). */
  runStore?: 'memory' | 'postgres'
  /** With `runStore: 'postgres'`: the recovery sweep that later fails or resumes a cut run (agents/state.ts). */
  recoverySweep?: { afterMs: number; outcome: 'fail' | 'resume' }
  /** The graph provider's store driver (graph/handler.ts); unset: today's behaviour and no `/api/status` route. */
  storeDriver?: 'sqlite' | 'postgres'
  user?: string
  clusterId?: string
  /**
   * The workspace's cluster id is not mapped yet (nobody opened the agents UI in it): the
   * service-account route answers 409 until a user route is used in the workspace.
   */
  unmappedCluster?: boolean
  /** How the service-account route answers an unknown cluster id: 403 (default) or 503 `locating workspace`. */
  unknownClusterStatus?: 403 | 503
  /** Every run phase the emulator emits is lowercase. */
  lowercasePhases?: boolean
  /** Caps every hold (inline wait and /wait) in ms. */
  maxHoldMs?: number
  /**
   * Turns on the same-key race (docs/hub-facts.md, "Agents provider"): a keyed start stores its run and key this
   * long after its lookup, so concurrent first starts with one key all start a run and only the
   * first is stored; the others' ids 404 (`raceLosers()`). Off when absent or 0.
   */
  idempotencyInsertDelayMs?: number
  /** An older hub whose run details leave out the full task (`input`) and/or the session (`sessionID`). */
  runDetailWithout?: ReadonlyArray<'input' | 'sessionID'>
  /** Merged over DEFAULT_AGENTS. */
  agents?: Record<string, AgentScript>
  /**
   * The graph provider's fleet, mounted with the MCP aggregate endpoint (default: the demo
   * fleet; false: no graph provider, as in a workspace without it).
   */
  fleet?: Fleet | false
  /** Extra providers mounted next to `agents` (same name replaces it). */
  providers?: Record<string, ProviderHandler>
  /** Providers answering 503 `provider not ready: x`. */
  notReadyProviders?: string[]
  extraRoutes?: ExtraRoute[]
  /** Called for each recorded request before it is handled (logging in scripts/emulator.ts; a test acting on the emulator at a given request). */
  onRequest?: (r: RecordedRequest) => void
}

export interface HubEmulator {
  /** http://127.0.0.1:PORT (no trailing slash) */
  url: string
  port: number
  token: string
  serviceAccountToken: string
  org: string
  workspace: string
  personalOrg: string
  user: string
  clusterId: string
  requests: RecordedRequest[]
  agents: AgentsProvider
  /** The graph provider's fleet (undefined when mounted without one). */
  fleet: Fleet | undefined
  /** The MCP aggregate endpoint's URL, as the hub publishes it in its status. */
  mcpUrl: string
  runs(): RunRecord[]
  run(id: string): RunRecord | undefined
  /** Runs the same-key race started and never stored (they executed; their ids 404). */
  raceLosers(): RunRecord[]
  /** Current run detail as the API would return it. */
  runDetail(id: string): Record<string, unknown> | undefined
  approve(runId: string): boolean
  setAgent(name: string, script: AgentScript): void
  addFault(f: Fault): void
  clearFaults(): void
  /** Faults not yet fully consumed. */
  pendingFaults(): Fault[]
  setProviderState(name: string, state: ProviderState): void
  mount(name: string, handler: ProviderHandler): void
  setLowercasePhases(on: boolean): void
  /** Headers that authenticate as the member user (Authorization, X-Hub-Org, X-Hub-Workspace). */
  headers(extra?: Record<string, string>): Record<string, string>
  /** Clear requests (in place), runs, idempotency keys, faults; restore agents and provider states. */
  reset(): void
  close(): Promise<void>
}

// ---------------------------------------------------------------- helpers

function faultLabel(f: Fault): string {
  if (f.name) return f.name
  const parts: string[] = []
  if (f.delayMs) parts.push(`delay ${f.delayMs}ms`)
  if (f.reset) parts.push('reset')
  else if (f.status !== undefined) parts.push(`status ${f.status}`)
  else if (f.loseResponse) parts.push('loseResponse')
  return parts.join(' + ') || 'noop'
}

// ---------------------------------------------------------------- server

export async function startHubEmulator(options: HubEmulatorOptions = {}): Promise<HubEmulator> {
  const token = options.token ?? DEFAULT_TOKEN
  const saToken = options.serviceAccountToken ?? DEFAULT_SERVICE_ACCOUNT_TOKEN
  const org = (options.org ?? DEFAULT_ORG).toLowerCase()
  const workspace = (options.workspace ?? DEFAULT_WORKSPACE).toLowerCase()
  const personalOrg = (options.personalOrg ?? DEFAULT_PERSONAL_ORG).toLowerCase()
  const user = options.user ?? DEFAULT_USER
  const clusterId = options.clusterId ?? DEFAULT_CLUSTER_ID

  const agentsProvider = createAgentsProvider({
    agents: { ...DEFAULT_AGENTS, ...(options.agents ?? {}) },
    lowercasePhases: options.lowercasePhases ?? false,
    ...(options.maxHoldMs !== undefined ? { maxHoldMs: options.maxHoldMs } : {}),
    ...(options.idempotencyInsertDelayMs !== undefined
      ? { idempotencyInsertDelayMs: options.idempotencyInsertDelayMs }
      : {}),
    clusters: { [clusterId]: { org, workspace } },
    ...(options.unknownClusterStatus !== undefined ? { unknownClusterStatus: options.unknownClusterStatus } : {}),
    ...(options.unmappedCluster ? { unmappedClusters: [clusterId] } : {}),
    ...(options.runDetailWithout !== undefined ? { runDetailWithout: options.runDetailWithout } : {}),
    ...(options.runStore !== undefined ? { runStore: options.runStore } : {}),
    ...(options.recoverySweep !== undefined ? { recoverySweep: options.recoverySweep } : {}),
  })

  const fleet = options.fleet === false ? undefined : (options.fleet ?? createDemoFleet({ workspace }))
  const graphProviders: Record<string, ProviderHandler> = {}
  const graphRoutes: ExtraRoute[] = []
  if (fleet) {
    const graph = createGraphProvider(fleet, {
      workspace,
      ...(options.storeDriver !== undefined ? { storeDriver: options.storeDriver } : {}),
    })
    const mcp = createMcpHandler(fleet, { workspace })
    const asGraphTenant = (t: Tenant | undefined) =>
      t ? { org: t.org, workspace: t.workspace ?? '', user: t.user } : null
    // The graph routes identify a user: a service-account token gets the plain-text 401 (docs/hub-facts.md, "What the graph knows").
    graphProviders.graph = (req, res) =>
      graph({ ...req, tenant: req.tenant?.serviceAccount ? null : asGraphTenant(req.tenant) }, res)
    graphRoutes.push({
      prefix: '/services/mcpserver/',
      handler: (req, res, body, tenant) => mcp(req, res, body, asGraphTenant(tenant)),
    })
  }
  const initialProviders: Record<string, ProviderHandler> = {
    agents: agentsProvider.handler,
    ...graphProviders,
    ...(options.providers ?? {}),
  }
  const providers = new Map<string, ProviderHandler>(Object.entries(initialProviders))
  const initialStates = (): Map<string, ProviderState> =>
    new Map((options.notReadyProviders ?? []).map((n) => [n, 'notReady' as const]))
  let providerStates = initialStates()
  const extraRoutes = [...(options.extraRoutes ?? []), ...graphRoutes]

  const requests: RecordedRequest[] = []
  // A string path is a substring of the URL path here; each fault answers once unless `times` says more.
  const faults = createFaultQueue<Fault>({ defaultTimes: 1, pathMatches: (path, url) => url.pathname.includes(path) })
  const timers = new Set<NodeJS.Timeout>()
  let closed = false

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t)
        resolve()
      }, ms)
      t.unref()
      timers.add(t)
    })
  }

  function authenticate(h: http.IncomingHttpHeaders): Tenant | undefined {
    const auth = h.authorization
    if (typeof auth !== 'string' || !auth.startsWith('Bearer ')) return undefined
    const tok = auth.slice('Bearer '.length)
    let serviceAccount: boolean
    if (tok === token) serviceAccount = false
    else if (tok === saToken) serviceAccount = true
    else return undefined
    const who = serviceAccount ? DEFAULT_SERVICE_ACCOUNT_USER : user
    const o = typeof h['x-hub-org'] === 'string' ? h['x-hub-org'] : ''
    const w = typeof h['x-hub-workspace'] === 'string' ? h['x-hub-workspace'] : ''
    // UUIDs are compared exactly: an upper-case spelling is another workspace (docs/hub-facts.md,
    // "Memberships and the workspace proof").
    if (UUID_RE.test(o) && UUID_RE.test(w) && o === org && w === workspace) {
      return { org, workspace, user: who, serviceAccount }
    }
    // An org-wide membership admits any workspace string of the org, unchecked.
    if (options.orgWideMembership && o === org && w !== '') return { org, workspace: w, user: who, serviceAccount }
    // Silent fallback: malformed or non-member org/workspace → personal org, no workspace.
    return { org: personalOrg, workspace: null, user: who, serviceAccount }
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer): Promise<void> {
    const pathname = url.pathname
    const m = /^\/services\/providers\/([^/]+)(\/.*)?$/.exec(pathname)
    if (!m) {
      const extra = extraRoutes.find((r) => pathname.startsWith(r.prefix))
      if (!extra) {
        sendText(res, 404, '404 page not found')
        return
      }
      const tenant = authenticate(req.headers)
      if (extra.auth !== false && !tenant) {
        sendText(res, 401, 'unauthorized: missing or invalid bearer token')
        return
      }
      await extra.handler(req, res, body, tenant)
      return
    }

    const tenant = authenticate(req.headers)
    // The service-account route checks the token itself: a bearer it cannot use is 403, not 401 (docs/hub-facts.md, "Service-account route").
    if (
      !tenant &&
      pathname.startsWith('/services/providers/agents/s2s/') &&
      req.headers.authorization?.startsWith('Bearer ')
    ) {
      sendStatus(res, 403, 'Forbidden', 'token is not valid for this cluster')
      return
    }
    if (!tenant) {
      sendText(res, 401, 'unauthorized: missing or invalid bearer token')
      return
    }
    let name: string
    try {
      name = decodeURIComponent(m[1] ?? '')
    } catch {
      name = m[1] ?? ''
    }
    const provider = providers.get(name)
    if (!provider) {
      sendText(res, 404, `provider not found: ${name}`)
      return
    }
    const state = providerStates.get(name) ?? 'ready'
    if (state === 'notReady') {
      sendText(res, 503, `provider not ready: ${name}`)
      return
    }
    if (state === 'unreachable') {
      sendText(res, 502, 'provider upstream error')
      return
    }

    const headers = headerMap(req.headers)
    delete headers['x-hub-user']
    delete headers['x-hub-tenant']
    delete headers['x-hub-cluster']
    headers['x-hub-user'] = tenant.user
    headers['x-hub-tenant'] = tenant.workspace ? `${tenant.org}/${tenant.workspace}` : tenant.org
    let json: unknown
    if (body.length > 0) {
      try {
        json = JSON.parse(body.toString('utf8'))
      } catch {
        json = undefined
      }
    }
    const ereq: EmulatorRequest = {
      method: req.method ?? 'GET',
      path: m[2] ?? '/',
      fullPath: pathname,
      query: url.searchParams,
      headers,
      body,
      tenant,
    }
    if (json !== undefined) ereq.json = json
    await provider(ereq, res)
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const at = Date.now()
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const { body } = await readBody(req)
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      url: req.url ?? '/',
      headers: headerMap(req.headers),
      body: body.toString('utf8'),
      at,
    }
    requests.push(rec)
    const fault = faults.take(rec.method, url)?.spec
    if (fault) rec.fault = faultLabel(fault)
    try {
      options.onRequest?.(rec)
    } catch {
      // logging must never break the emulator
    }
    if (fault) {
      if (fault.delayMs && fault.delayMs > 0) await sleep(fault.delayMs)
      if (closed || res.destroyed) return
      if (fault.reset) {
        resetSocket(req)
        return
      }
      if (fault.status !== undefined) {
        if (res.destroyed || res.writableEnded) return
        const text = fault.body ?? `${fault.status} ${http.STATUS_CODES[fault.status] ?? ''}`.trim() + '\n'
        const h: Record<string, string | number> = {
          'Content-Type': fault.contentType ?? 'text/plain; charset=utf-8',
          'Content-Length': Buffer.byteLength(text),
        }
        if (fault.retryAfter !== undefined) h['Retry-After'] = fault.retryAfter
        res.writeHead(fault.status, h)
        res.end(text)
        return
      }
      if (fault.loseResponse) loseResponse(req, res)
    }
    await route(req, res, url, body)
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent && !res.destroyed)
        sendText(res, 500, `emulator error: ${err instanceof Error ? err.message : String(err)}`)
      else res.destroy()
    })
  })
  // Long-polls up to 300 s must not be cut by the server's own timeouts.
  server.requestTimeout = 0
  server.keepAliveTimeout = 5_000

  const port = await listenLocal(server, options.port)

  let closing: Promise<void> | undefined
  const emulator: HubEmulator = {
    url: `http://127.0.0.1:${port}`,
    port,
    token,
    serviceAccountToken: saToken,
    org,
    workspace,
    personalOrg,
    user,
    clusterId,
    requests,
    agents: agentsProvider,
    fleet,
    mcpUrl: `http://127.0.0.1:${port}/services/mcpserver/${encodeURIComponent(fleet?.workspacePath ?? 'acme/ws-platform')}/apis/hub.sh/v1alpha1/mcpservers/default/mcp`,
    runs: () => agentsProvider.runs(),
    run: (id) => agentsProvider.run(id),
    raceLosers: () => agentsProvider.raceLosers(),
    runDetail: (id) => agentsProvider.detail(id),
    approve: (id) => agentsProvider.approve(id),
    setAgent: (name, script) => agentsProvider.setAgent(name, script),
    addFault: (f) => {
      faults.add(f)
    },
    clearFaults: () => faults.clear(),
    pendingFaults: () => faults.pending(),
    setProviderState: (name, state) => {
      providerStates.set(name, state)
    },
    mount: (name, handler) => {
      providers.set(name, handler)
    },
    setLowercasePhases: (on) => agentsProvider.setLowercasePhases(on),
    headers: (extra = {}) => ({
      Authorization: `Bearer ${token}`,
      'X-Hub-Org': org,
      'X-Hub-Workspace': workspace,
      ...extra,
    }),
    reset: () => {
      requests.length = 0
      faults.clear()
      providerStates = initialStates()
      agentsProvider.reset()
    },
    close: () => {
      if (closing) return closing
      closed = true
      for (const t of timers) clearTimeout(t)
      timers.clear()
      agentsProvider.close()
      closing = new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
  return emulator
}
