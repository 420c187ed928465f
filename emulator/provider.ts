// What the hub emulator hands a provider (agents.ts, graph/, a test's own): apart from hub.ts so
// that providers need not import the hub that mounts them.
import type http from 'node:http'

/** Tenant resolved by the hub for an authenticated request. */
export interface Tenant {
  org: string
  /** null when the org/workspace headers were ignored (silent fallback to the personal org). */
  workspace: string | null
  user: string
  serviceAccount: boolean
}

export interface EmulatorRequest {
  method: string
  /** Path after /services/providers/{name} (still percent-encoded), '/' at least. */
  path: string
  /** Full URL path, e.g. /services/providers/agents/api/runs/x */
  fullPath: string
  query: URLSearchParams
  /** Lower-case keys. Client-sent x-hub-user/-tenant/-cluster are replaced by the hub's own. */
  headers: Record<string, string>
  body: Buffer
  /** Parsed body when it is valid JSON, else undefined. */
  json?: unknown
  tenant: Tenant
}

export type ProviderHandler = (req: EmulatorRequest, res: http.ServerResponse) => void | Promise<void>
