/**
 * What a hub client asks of the transport: a request to the hub's API paths or to a URL the hub
 * published (the MCP endpoint), typed by how its answer is read (JSON or a message stream); and
 * the headers and URL it is sent with, which dry runs print without sending.
 */
import type * as z from '../zod.js'
import { VERSION } from '../version.js'
import type { HubError } from './errors.js'
import type { BodyLimits } from '../http/wire.js'
import type { RetryPolicy } from '../http/retry.js'
import type { ReadAnswer } from '../http/sse.js'

export interface HubIdentity {
  baseUrl: URL
  token: string
  org: string
  workspace: string
  clusterId?: string | undefined
}

/** What a body may be when the hub answers with its own limits (docs/hub-facts.md, "Agents provider", "Limits"). */
export interface ResponseLimits extends BodyLimits {
  /** What the user can do when the cap is passed. */
  hint: string
}

/** A refused HTTP answer: its status, type, first 64 KiB (redacted) and Retry-After. */
export interface RefusedAnswer {
  kind: 'refused'
  status: number
  contentType: string
  body: string
  retryAfter: string | undefined
}

/** What `stream` returns: a 2xx answer as read, or a refusal the caller handles itself. */
export type StreamAnswer<T> = ReadAnswer<T> | RefusedAnswer

/** What `call` returns. */
export interface HubResponse<T> {
  status: number
  /** Parsed body for 2xx; undefined for an accepted non-2xx status. */
  data: T | undefined
}

/**
 * What every request to the hub says, whatever its answer is read as. A request is sent as a
 * JsonRequest (`call`) or a StreamRequest (`stream`): each names only the readings it can do.
 */
export interface HubRequest {
  method: 'GET' | 'POST' | 'DELETE'
  /** Below the base URL, starting with /services/. */
  path?: string
  /** Instead of `path`: a whole URL the hub published (the MCP endpoint), used as given. */
  url?: URL
  /** Added to `path`'s URL. */
  query?: Record<string, string>
  /** Added to (or replacing) the identity headers: accept, protocol headers. */
  headers?: Record<string, string>
  body?: unknown
  /** Verb phrase for messages: `start a run of agent "triage"`. */
  operation: string
  /** What a 404 is about: `agent "triage"`. */
  subject?: string
  /** Ceiling for one attempt, body included. Long-polls pass their hold plus slack. */
  timeoutMs?: number
  /**
   * When the caller's time budget ends (ms since epoch): no attempt, body reading included,
   * outlives it and no retry starts after it; then HubDeadlineError.
   */
  deadline?: number | undefined
  /** Sent even when the step's time budget has run out (a cancel because it ran out): its own ceiling alone. */
  outlivesBudget?: boolean | undefined
  signal?: AbortSignal | undefined
  /** May the hub see this request twice? GETs may; a POST only when it is idempotent. */
  repeatable: boolean
  /** Said when a request that may not be repeated lost its answer: what may have happened. */
  unsureDelivery?: string
  /** Caps of a successful body, with what the user can do when one is passed. */
  limits?: ResponseLimits
  /** Retry transient failures until the deadline rather than `maxAttempts` times (waits). */
  retryUntilDeadline?: boolean
  policy?: RetryPolicy
  /** Opens the retry log lines: `MCP: graph__graph_impact`. */
  label?: string
  /** The input that names the URL, for connection hints. */
  urlInput?: string
}

/** A request whose JSON answer `schema` reads (and checks): what `call` takes. A refusal always fails it. */
export interface JsonRequest<T> extends HubRequest {
  schema: z.core.$ZodType<T>
  /** Statuses that answer the call rather than fail it (cancel's 409 "already settled"), without data. */
  acceptStatus?: readonly number[]
}

/**
 * A request whose answer is read message by message, from an event stream or one JSON body
 * (MCP): what `stream` takes. The caller keeps its protocol, refusals included.
 */
export interface StreamRequest<T> extends HubRequest {
  limits: ResponseLimits
  /** Reads one message (an event's data, or the whole JSON body); the first it returns ends the reading. Absent: the body is not read. */
  pick?: ((message: string, status: number) => T | undefined) | undefined
  /** Refused statuses the caller handles itself (its protocol's 400 and 404): returned, redacted, not retried. */
  returnStatus?: readonly number[]
  /** The caller's reading of a refusal (hints naming its inputs); the body is already redacted. */
  refusal?: (answer: RefusedAnswer) => HubError
}

/** Where a request goes: its own URL, or its path (and query) below the base URL. */
export function requestUrl(identity: HubIdentity, request: Pick<HubRequest, 'path' | 'url' | 'query'>): URL {
  if (request.url) return request.url
  if (request.path === undefined) throw new Error('a hub request names a path or a URL')
  const prefix = identity.baseUrl.pathname.replace(/\/+$/, '')
  const url = new URL(prefix + request.path, identity.baseUrl)
  for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, value)
  return url
}

/** The headers and body as sent: the identity's, then the request's own headers. */
export function prepareRequest(
  identity: HubIdentity,
  request: Pick<HubRequest, 'body' | 'headers'>,
): { headers: Record<string, string>; body: string | undefined } {
  const headers: Record<string, string> = {
    authorization: `Bearer ${identity.token}`,
    'x-hub-org': identity.org,
    'x-hub-workspace': identity.workspace,
    accept: 'application/json',
    'user-agent': `hub-action/${VERSION}`,
    ...request.headers,
  }
  let body: string | undefined
  if (request.body !== undefined) {
    body = JSON.stringify(request.body)
    headers['content-type'] = 'application/json'
  }
  return { headers, body }
}
