// HTTP routing of the provider's endpoints: the user routes under /api (whoami, agents, runs,
// inbox) and the service-account routes under /s2s/clusters/{clusterId} (create, get, wait).
import type { ProviderHandler, Tenant } from '../provider.ts'
import { sendJson, sendStatus as sendError, sendText } from '../http.ts'
import type { RunEndpoints } from './endpoints.ts'
import type { Inbox } from './inbox.ts'
import type { AgentsState } from './state.ts'
import type { RunViews } from './views.ts'

const RUN_ROUTES = new Set(['create', 'get', 'wait', 'cancel', 'inbox', 'resolve'])

export function createRoutes(
  st: AgentsState,
  views: RunViews,
  endpoints: RunEndpoints,
  inboxItems: Inbox,
): ProviderHandler {
  const { opts, inbox } = st
  const { detail, agentObject } = views
  const { findRun, createRun, waitRun, cancel } = endpoints
  const { resolveItem } = inboxItems
  // Cluster ids the s2s routes cannot map to a workspace yet: the user routes write the mapping.
  const unmapped = new Set(opts.unmappedClusters ?? [])
  const mapWorkspace = (org: string, workspace: string): void => {
    for (const [id, m] of Object.entries(opts.clusters))
      if (m.org === org && m.workspace === workspace) unmapped.delete(id)
  }

  type Route =
    | { kind: 'whoami' }
    | { kind: 'agent'; agent: string }
    | { kind: 'create'; agent: string }
    | { kind: 'get'; id: string }
    | { kind: 'wait'; id: string }
    | { kind: 'cancel'; id: string }
    | { kind: 'inbox' }
    | { kind: 'resolve'; item: string }

  function matchApi(seg: string[]): { route: Route; method: string } | undefined {
    const [a, b, c, d, e] = seg
    if (a !== 'api' || b === undefined) return undefined
    if (b === 'whoami' && seg.length === 2) return { route: { kind: 'whoami' }, method: 'GET' }
    if (b === 'agents' && c) {
      if (seg.length === 3) return { route: { kind: 'agent', agent: c }, method: 'GET' }
      if (seg.length === 4 && d === 'runs') return { route: { kind: 'create', agent: c }, method: 'POST' }
    }
    if (b === 'runs' && c) {
      if (seg.length === 3) return { route: { kind: 'get', id: c }, method: 'GET' }
      if (seg.length === 4 && d === 'wait') return { route: { kind: 'wait', id: c }, method: 'GET' }
      if (seg.length === 4 && d === 'cancel') return { route: { kind: 'cancel', id: c }, method: 'POST' }
    }
    if (b === 'inbox') {
      if (seg.length === 2) return { route: { kind: 'inbox' }, method: 'GET' }
      if (seg.length === 4 && c && d === 'resolve') return { route: { kind: 'resolve', item: c }, method: 'POST' }
    }
    void e
    return undefined
  }

  function matchS2s(seg: string[]): { cluster: string; route: Route; method: string } | undefined {
    const [a, b, cluster, d, x, y] = seg
    if (a !== 's2s' || b !== 'clusters' || !cluster || !d || !x) return undefined
    if (d === 'agents' && seg.length === 6 && y === 'runs')
      return { cluster, route: { kind: 'create', agent: x }, method: 'POST' }
    if (d === 'runs') {
      if (seg.length === 5) return { cluster, route: { kind: 'get', id: x }, method: 'GET' }
      if (seg.length === 6 && y === 'wait') return { cluster, route: { kind: 'wait', id: x }, method: 'GET' }
      // No cancel here: the provider registers only create, get and wait on this route.
    }
    return undefined
  }

  const handler: ProviderHandler = async (req, res) => {
    let seg: string[]
    try {
      seg = req.path
        .split('/')
        .slice(1)
        .map((s) => decodeURIComponent(s))
    } catch {
      sendText(res, 400, 'invalid URL escape')
      return
    }
    const tenant: Tenant = req.tenant
    let matched: { route: Route; method: string } | undefined
    let scope: { org: string; workspace: string } | undefined

    const s2s = matchS2s(seg)
    if (s2s) {
      matched = s2s
      if (req.method !== s2s.method) {
        sendText(res, 405, 'Method Not Allowed')
        return
      }
      const mapped = opts.clusters[s2s.cluster]
      // Reads check the mapping first: a cluster id nobody mapped, mistyped or not, is a 409
      // there (docs/hub-facts.md, "Service-account route"); a create answers 403 or 503.
      if (!mapped && s2s.route.kind !== 'create') {
        sendError(
          res,
          409,
          'Conflict',
          `workspace ${s2s.cluster} is not mapped yet — open the agents UI in it once, then retry`,
        )
        return
      }
      if (!mapped) {
        if (opts.unknownClusterStatus === 503)
          sendText(res, 503, `locating workspace: no shard serves cluster ${s2s.cluster}`)
        else sendError(res, 403, 'Forbidden', `cluster "${s2s.cluster}" is not accessible with this token`)
        return
      }
      if (unmapped.has(s2s.cluster)) {
        sendError(
          res,
          409,
          'Conflict',
          `workspace ${s2s.cluster} is not mapped yet — open the agents UI in it once, then retry`,
        )
        return
      }
      scope = mapped
    } else {
      matched = matchApi(seg)
      if (!matched) {
        sendText(res, 404, '404 page not found')
        return
      }
      if (req.method !== matched.method) {
        sendText(res, 405, 'Method Not Allowed')
        return
      }
      if (tenant.serviceAccount) {
        sendError(
          res,
          401,
          'Unauthorized',
          'service account tokens are not accepted on this route; use /s2s/clusters/{clusterId}/...',
        )
        return
      }
      if (matched.route.kind === 'whoami') {
        sendJson(res, 200, whoami(tenant))
        return
      }
      if (tenant.workspace === null) {
        sendError(res, 400, 'BadRequest', 'a workspace is required')
        return
      }
      // Admitted by an org-wide membership but no workspace the hub knows: no cluster to act in.
      if (!Object.values(opts.clusters).some((m) => m.org === tenant.org && m.workspace === tenant.workspace)) {
        sendError(res, 400, 'BadRequest', 'no workspace cluster on request')
        return
      }
      scope = { org: tenant.org, workspace: tenant.workspace }
      // Only the user routes that act on runs write the cluster-id mapping; whoami does not
      // (docs/hub-facts.md, "Service-account route").
      if (RUN_ROUTES.has(matched.route.kind)) mapWorkspace(tenant.org, tenant.workspace)
    }

    const route = matched.route
    switch (route.kind) {
      case 'whoami':
        sendJson(res, 200, { org: scope.org, workspace: scope.workspace, user: tenant.user })
        return
      case 'agent': {
        const script = st.agents.get(route.agent)
        if (!script) sendError(res, 404, 'NotFound', `agent "${route.agent}" not found`)
        else sendJson(res, 200, agentObject(route.agent, script, scope))
        return
      }
      case 'create':
        await createRun(req, res, route.agent, scope)
        return
      case 'inbox': {
        const state = req.query.get('state')
        const items = [...inbox.values()].filter((i) => (!state || i.state === state) && findRun(i.runID, scope))
        sendJson(res, 200, { items })
        return
      }
      case 'resolve':
        await resolveItem(req, res, route.item, scope, tenant.user)
        return
      default: {
        const run = findRun(route.id, scope)
        if (!run) {
          sendError(res, 404, 'NotFound', `run "${route.id}" not found`)
          return
        }
        if (route.kind === 'get') sendJson(res, 200, detail(run))
        else if (route.kind === 'wait') await waitRun(req, res, run)
        else cancel(res, run)
      }
    }
  }

  /** `GET /api/whoami` as the hub answers it: an empty workspaceUUID is the personal-org fallback. */
  function whoami(tenant: Tenant): Record<string, unknown> {
    const workspace = tenant.workspace ?? ''
    const clusterID =
      Object.entries(opts.clusters).find(([, m]) => m.org === tenant.org && m.workspace === workspace)?.[0] ?? ''
    return {
      tenantPath: workspace ? `${tenant.org}/${workspace}` : tenant.org,
      clusterID,
      orgUUID: tenant.org,
      workspaceUUID: workspace,
      user: tenant.user,
      hasToken: true,
    }
  }

  return handler
}
