// The hub emulator's public shape: its options, the handle a test holds, the faults it can plant and
// the requests it records; hub.ts serves it.
import type http from 'node:http'
import type { AgentScript, AgentsProvider, RunRecord } from './agents.ts'
import type { Fleet } from './graph/index.ts'
import type { ProviderHandler, Tenant } from './provider.ts'

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

export type ProviderState = 'ready' | 'notReady' | 'unreachable'

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
