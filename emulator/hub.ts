// Hub emulator: a real HTTP server on 127.0.0.1 that behaves like the hub proxy
// (docs/hub-facts.md, "The hub in front") with the agents provider (docs/hub-facts.md, "Agents provider") mounted under `agents`.
// Other providers can be mounted with `providers` / `mount()`, and non-provider
// paths (e.g. /services/mcpserver/...) with `extraRoutes`. Its options and handle are in hub-types.ts.
import http from 'node:http'
import { createAgentsProvider, DEFAULT_AGENTS } from './agents.ts'
import { createDemoFleet, createGraphProvider, createMcpHandler } from './graph/index.ts'
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
import type { ExtraRoute, Fault, HubEmulator, HubEmulatorOptions, ProviderState, RecordedRequest } from './hub-types.ts'

export { DEFAULT_AGENTS } from './agents.ts'
export { sendJson, sendText } from './http.ts'
export type { EmulatorRequest, ProviderHandler, Tenant } from './provider.ts'
export type { ExtraRoute, Fault, HubEmulator, HubEmulatorOptions, RecordedRequest } from './hub-types.ts'

export const DEFAULT_TOKEN = 'hub-test-token-0123456789abcdef'
const DEFAULT_SERVICE_ACCOUNT_TOKEN = 'hub-sa-token-fedcba9876543210'
const DEFAULT_ORG = '3f6c1a2e-8b4d-4e7a-9c15-2d7e0b9a4f61'
export const DEFAULT_WORKSPACE = '9a2b7c4d-1e3f-4a5b-8c6d-7e8f9a0b1c2d'
const DEFAULT_PERSONAL_ORG = 'e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9'
const DEFAULT_USER = 'ci-user@example.com'
const DEFAULT_SERVICE_ACCOUNT_USER = 'system:serviceaccount:hub-action'
const DEFAULT_CLUSTER_ID = 'c-7f3a9e'

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

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
