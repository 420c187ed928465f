// Graph provider request handler (mounted by the hub emulator under
// /services/providers/graph). Behaviour per docs/hub-facts.md, "Graph queries".

import type * as http from 'node:http'
import type { Fleet } from './fleet.ts'
import type { ExecuteOptions, QueryStatus } from './query.ts'
import { QueryBodyError, QueryValidationError, executeQuery, tenantSeesFleet } from './query.ts'
import { setFleetStore, warmIndex } from './relations.ts'
import { sendJson as sendJsonAnswer, sendText } from '../http.ts'

export type GraphTenant = { org: string; workspace: string; user: string }

type GraphRequest = {
  method: string
  /** Path after `/services/providers/graph`, e.g. `/api/query`. */
  path: string
  query: URLSearchParams
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  /** Body already parsed by the caller, when it did so (a parse failure should leave it undefined). */
  json?: unknown
  tenant: GraphTenant | null
}

export type GraphProviderOptions = ExecuteOptions & {
  /** Called after each successful query (for tests and counters). */
  onQuery?: (spec: unknown, status: QueryStatus) => void
  /** Build the fleet's indexes when the provider is created (default true). */
  warm?: boolean
}

export type GraphProvider = (req: GraphRequest, res: http.ServerResponse) => void

const PORTAL_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Hub</title><link rel="stylesheet" href="/assets/index.css"></head>
<body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div><script type="module" src="/assets/index.js"></script></body>
</html>
`

export { sendText }

/** The graph provider writes its JSON value without a trailing newline. */
export function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  sendJsonAnswer(res, status, value, { newline: false })
}

function sendHtml(res: http.ServerResponse, method: string): void {
  res.writeHead(200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(PORTAL_HTML)),
  })
  res.end(method === 'HEAD' ? undefined : PORTAL_HTML)
}

function normalizePath(p: string): string {
  let path = p.split('?')[0] ?? ''
  if (!path.startsWith('/')) path = `/${path}`
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '')
  return path
}

export function createGraphProvider(fleet: Fleet, opts: GraphProviderOptions = {}): GraphProvider {
  const execOpts: ExecuteOptions = {}
  if (opts.workspace !== undefined) execOpts.workspace = opts.workspace
  if (opts.workspacePath !== undefined) execOpts.workspacePath = opts.workspacePath
  if (opts.storeDriver !== undefined) execOpts.storeDriver = opts.storeDriver
  setFleetStore(fleet, opts.storeDriver)
  if (opts.warm ?? true) warmIndex(fleet)

  return (req, res) => {
    fleet.sync?.()
    const method = req.method.toUpperCase()
    const path = normalizePath(req.path)

    if (path === '/api/query') {
      if (method !== 'POST') return sendText(res, 405, 'Method Not Allowed', { Allow: 'POST' })
      if (!req.tenant) return sendText(res, 401, 'missing tenant identity')
      let raw: unknown
      if (req.json !== undefined) raw = req.json
      else {
        const text = req.body.toString('utf8')
        if (text.trim() === '') return sendText(res, 400, 'invalid QuerySpec body: EOF')
        try {
          raw = JSON.parse(text)
        } catch (err) {
          return sendText(res, 400, `invalid QuerySpec body: ${(err as Error).message}`)
        }
      }
      let status: QueryStatus
      try {
        status = executeQuery(fleet, raw, req.tenant, execOpts)
      } catch (err) {
        if (err instanceof QueryBodyError) return sendText(res, 400, `invalid QuerySpec body: ${err.message}`)
        if (err instanceof QueryValidationError) return sendText(res, 400, `query failed: validation: ${err.message}`)
        return sendText(res, 500, 'query failed: internal error')
      }
      opts.onQuery?.(raw, status)
      return sendJson(res, 200, status)
    }

    // Only a provider that names its store serves its status (unset: an older one, the portal's HTML).
    // No tenant needed; `engagedEdges` counts what this replica syncs, for every tenant.
    if (path === '/api/status' && opts.storeDriver !== undefined && (method === 'GET' || method === 'HEAD')) {
      return sendJson(res, 200, { storeDriver: opts.storeDriver, engagedEdges: fleet.edges.length })
    }

    if (path === '/api/edges') {
      if (method !== 'GET' && method !== 'HEAD') return sendText(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' })
      if (!req.tenant) return sendText(res, 401, 'missing tenant identity')
      const edges = tenantSeesFleet(fleet, req.tenant, execOpts) ? [...fleet.edges].sort() : []
      return sendJson(res, 200, { edges })
    }

    // The portal's catch-all: any other GET path answers the SPA's HTML with 200.
    if (method === 'GET' || method === 'HEAD') return sendHtml(res, method)
    return sendText(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' })
  }
}
