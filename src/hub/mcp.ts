/**
 * A small MCP client for the hub's aggregate endpoint (hub-behaviour.md §4) and any MCP
 * server that follows the specification, enough to call `graph__graph_impact`.
 *
 * Lifecycle: the hub's endpoint is stateless, so a call goes out first without `initialize`
 * (one round trip). A server that wants a session answers that with 400; then we do the
 * specification's handshake once (`initialize`, `notifications/initialized`), send the
 * `Mcp-Session-Id` and negotiated `MCP-Protocol-Version` on every later request, start one new
 * session when the server says the old one is gone (404), and end it with DELETE on close.
 * Answers may come as SSE or as plain JSON.
 *
 * We do not use @modelcontextprotocol/sdk here: its client adds ~270 KB minified and ~60 ms of
 * cold start (ajv, zod/v3, zod-to-json-schema) for one request shape, and it talks through
 * global fetch rather than our proxy-aware dispatcher. The e2e tests run this client against a
 * server built from the SDK instead.
 */
import type { Dispatcher } from 'undici'
import { z } from 'zod'
import { VERSION } from '../version.js'
import { HubAuthError, HubConnectionError, HubError, HubNotFoundError, HubProtocolError, HubRequestError, HubServerError, type HubErrorInit } from './errors.js'
import { hubFailure, type FailureContext } from './errors.js'
import { defaultDispatcher, errorCode, headerValue, send } from './http.js'
import { backoffDelay, parseRetryAfter } from './retry.js'
import { BodyCapError, formatBytes, readCapped, type BodyLimits } from './http.js'
import { discard, findInEventStream } from './sse.js'
import { abortableSleep, PERMANENT_CONNECTION_CODES } from './transport.js'

export interface McpClientOptions {
  /** The whole endpoint URL (input `mcp-url`), as the hub publishes it; never built here. */
  url: URL
  token: string
  org: string
  workspace: string
  /** Defaults to an agent that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
  dispatcher?: Dispatcher
  /** Ceiling for one tool call, handshake and retries included. Defaults to CALL_BUDGET_MS. */
  timeoutMs?: number
  /** Where retries and session changes are reported; the text never holds the token. */
  log?: (message: string) => void
}

export interface McpImpactInput {
  kind: string
  name: string
  /** API group; "" for core. */
  group: string
  namespace?: string | undefined
  edge?: string | undefined
  maxDepth: number
}

export interface McpRelated {
  edge?: string
  /** "" for the core group. */
  group: string
  kind: string
  namespace?: string
  name: string
  /** Relation name without the transitive "+". */
  relation: string
}

export interface McpImpactResult {
  found: boolean
  object: Omit<McpRelated, 'relation'>
  /** The tool's `impactedBy`. */
  upstream: McpRelated[]
  /** The tool's `impacts`. */
  downstream: McpRelated[]
  associated: McpRelated[]
  summary: string
}

/** Sent before any handshake, and asked for in `initialize`. */
export const MCP_PROTOCOL_VERSION = '2025-06-18'
/** What a server may answer in `initialize` (§4); the client reads all of them the same way. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']
export const IMPACT_TOOL = 'graph__graph_impact'

/**
 * One call's budget. Before forwarding, the aggregate may spend 8 s on instructions and 8 s on
 * discovery; the forwarded call times out after 15 s today and 90 s after a pending hub change
 * (§4, §5). 110 s covers the longer one with room for the handshake.
 */
export const CALL_BUDGET_MS = 110_000
/** Tool calls are read-only, so a lost connection or a gateway error may be tried again. */
const MAX_ATTEMPTS = 3
const RETRYABLE_STATUS = new Set([502, 503, 504])
const RETRY_POLICY = { maxAttempts: MAX_ATTEMPTS, baseDelayMs: 300, maxDelayMs: 2_000, maxRetryAfterMs: 10_000 }
/** A provider that failed discovery for one request has no tools; the next request usually has them. */
const UNKNOWN_TOOL_RETRY_MS = 500
/** The hub caps tool output at 256 KiB (§5); an answer far bigger than that is not the tool's. */
export const ANSWER_LIMITS: BodyLimits = Object.freeze({ name: 'an MCP answer', maxBytes: 4 * 1024 * 1024 })
/** Refusals end up clipped in a message: the first 64 KiB say all there is. */
const REFUSAL_LIMITS: BodyLimits = Object.freeze({ name: 'an MCP refusal', maxBytes: 64 * 1024 })
/** Ending a session is a courtesy: it must not hold the step up. */
const CLOSE_TIMEOUT_MS = 5_000
/** JSON-RPC "request timed out", as MCP servers use it. */
const RPC_TIMEOUT_CODE = -32001
/** `Mcp-Session-Id` is visible ASCII (MCP specification, Streamable HTTP). */
const SESSION_ID_RE = /^[\x21-\x7e]{1,1024}$/

// ---------------------------------------------------------------------------
// Wire schemas

const RpcId = z.union([z.string(), z.number(), z.null()])
const RpcResponse = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: RpcId,
  result: z.unknown().optional(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
})
type RpcResponse = z.infer<typeof RpcResponse>
type RpcError = NonNullable<RpcResponse['error']>

const InitializeResult = z.looseObject({ protocolVersion: z.string() })

const CallToolResult = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).default([]),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
})

const Ref = z.looseObject({
  edge: z.string().optional(),
  group: z.string().optional(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  relation: z.string(),
})
type Ref = z.infer<typeof Ref>
// Empty lists arrive as null; a server that omits them means the same.
const RefList = z.array(Ref).nullish()
const ImpactOutput = z.looseObject({
  object: Ref.omit({ relation: true }),
  found: z.boolean(),
  impactedBy: RefList,
  impacts: RefList,
  associated: RefList,
  summary: z.string(),
})

// ---------------------------------------------------------------------------

interface Session {
  /** Absent when the server did the handshake but keeps no session (it is stateless after all). */
  id: string | undefined
  protocolVersion: string
}

type Refused = { kind: 'refused'; status: number; contentType: string; body: string; retryAfter: string | undefined }
type Answer = Refused | { kind: 'response'; response: RpcResponse; sessionId: string | undefined } | { kind: 'accepted' }

interface Outgoing {
  method: string
  id?: number
  params?: unknown
}

export class McpGraphClient {
  private readonly url: URL
  private readonly token: string
  private readonly org: string
  private readonly workspace: string
  private readonly dispatcher: Dispatcher
  private readonly ownsDispatcher: boolean
  private readonly timeoutMs: number
  private readonly log: (message: string) => void
  private nextId = 1
  /** The handshake under way or done; undefined while the server has not asked for one. */
  private session: Promise<Session> | undefined
  /** The handshake is tried at most once per 400 without a session: a server that refuses it keeps refusing. */
  private handshakeRefused: HubError | undefined

  constructor(options: McpClientOptions) {
    this.url = options.url
    this.token = options.token
    this.org = options.org
    this.workspace = options.workspace
    this.ownsDispatcher = options.dispatcher === undefined
    this.dispatcher = options.dispatcher ?? defaultDispatcher()
    this.timeoutMs = options.timeoutMs ?? CALL_BUDGET_MS
    this.log = options.log ?? (() => {})
  }

  /** Upstream, downstream and associated objects of one object, from the hub's impact tool. */
  async impact(input: McpImpactInput, signal?: AbortSignal): Promise<McpImpactResult> {
    // Only the keys the tool accepts: it rejects extra ones, and undefined is not "absent" in JSON.
    const args: Record<string, string | number> = { kind: input.kind, name: input.name, group: input.group }
    if (input.namespace !== undefined) args.namespace = input.namespace
    if (input.edge !== undefined) args.edge = input.edge
    args.maxDepth = input.maxDepth

    const where = `${input.namespace ? `${input.namespace}/` : ''}${input.name}`
    const operation = `get the impact of ${input.group ? `${input.kind}.${input.group}` : input.kind} ${where}${input.edge ? ` on edge ${input.edge}` : ''} from the MCP tool ${IMPACT_TOOL}`
    const structured = await this.callTool(IMPACT_TOOL, args, operation, signal)
    const parsed = ImpactOutput.safeParse(structured)
    if (!parsed.success) throw this.unexpected(operation, 'tool output', parsed.error)
    const out = parsed.data
    const { relation: _relation, ...object } = related({ ...out.object, relation: '' })
    return {
      found: out.found,
      object,
      upstream: (out.impactedBy ?? []).map(related),
      downstream: (out.impacts ?? []).map(related),
      associated: (out.associated ?? []).map(related),
      summary: out.summary,
    }
  }

  /** End the session, if the server gave one (a failure here changes nothing), and release the connections. */
  async close(): Promise<void> {
    const session = await this.session?.catch(() => undefined)
    this.session = undefined
    if (session?.id) {
      try {
        const response = await send(this.dispatcher, this.url, {
          method: 'DELETE',
          headers: this.headers(session),
          signal: AbortSignal.timeout(CLOSE_TIMEOUT_MS),
          headersTimeout: 0,
          bodyTimeout: 0,
        })
        discard(response.body)
        // 405: the server does not let clients end sessions, which the specification allows.
        if (response.statusCode >= 400 && response.statusCode !== 405 && response.statusCode !== 404) {
          this.log(`MCP: ending the session answered ${response.statusCode}; the server will expire it.`)
        }
      } catch {
        this.log('MCP: the session could not be ended; the server will expire it.')
      }
    }
    if (this.ownsDispatcher) await this.dispatcher.close()
  }

  /** `tools/call` with the lifecycle and retries; returns the tool's structured output. */
  private async callTool(name: string, args: unknown, operation: string, signal?: AbortSignal): Promise<unknown> {
    const deadline = AbortSignal.timeout(this.timeoutMs)
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline
    const started = Date.now()
    let renewed = false
    let retriedUnknownTool = false

    for (let attempt = 1; ;) {
      let failure: HubError
      let retryAfter: string | undefined
      try {
        const session = await this.session?.catch(() => undefined)
        const request = { method: 'tools/call', id: this.nextId++, params: { name, arguments: args } }
        const answer = await this.exchange(request, operation, combined, session)
        if (answer.kind === 'response') {
          const error = answer.response.error
          if (error && isUnknownTool(error) && !retriedUnknownTool) {
            retriedUnknownTool = true
            this.log(`MCP: the endpoint does not list ${name} for this request (its provider may have failed discovery); trying once more.`)
            await abortableSleep(UNKNOWN_TOOL_RETRY_MS, combined)
            continue
          }
          return this.toolOutput(answer.response, name, operation)
        }
        if (answer.kind === 'accepted') throw this.malformed(operation, 202, 'an acknowledgement without an answer to the call')
        if (answer.status === 400 && !session && !this.handshakeRefused) {
          // Not the hub's stateless endpoint: a server that follows the specification's lifecycle.
          await this.startSession(operation, combined, answer)
          continue
        }
        if (answer.status === 404 && session?.id && !renewed) {
          // The session ended on the server (restart, expiry): the specification says start a new one.
          renewed = true
          this.log('MCP: the server no longer knows our session (404); starting a new one.')
          await this.startSession(operation, combined, answer, session)
          continue
        }
        failure = this.refusal(answer, operation, session)
        if (!RETRYABLE_STATUS.has(answer.status)) throw failure
        retryAfter = answer.retryAfter
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error
        if (error instanceof HubError) throw this.redactError(error)
        if (deadline.aborted) throw this.timeoutFailure(operation, error)
        failure = this.connectionFailure(error, operation)
        if (PERMANENT_CONNECTION_CODES.has(errorCode(error) ?? '')) throw failure
      }
      if (attempt >= MAX_ATTEMPTS) throw failure
      let delayMs = backoffDelay(attempt, RETRY_POLICY, Math.random)
      const asked = retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, Date.now())
      if (asked !== undefined) delayMs = Math.max(asked, 0)
      // A wait the call's budget cannot cover only delays the same failure.
      if (delayMs > RETRY_POLICY.maxRetryAfterMs || Date.now() - started + delayMs >= this.timeoutMs) throw failure
      this.log(
        this.redact(
          `MCP: ${name} ${failure.status ? `answered ${failure.status}` : 'lost its connection'}; retry ${attempt}/${MAX_ATTEMPTS - 1} in ${(delayMs / 1000).toFixed(1)} s`,
        ),
      )
      attempt++
      await abortableSleep(delayMs, combined)
      if (signal?.aborted) throw signal.reason
      if (deadline.aborted) throw this.timeoutFailure(operation, deadline.reason)
    }
  }

  /**
   * Start a session (or replace `stale`), shared by every call in flight. A handshake the
   * server refuses is reported together with the 400 that asked for it.
   */
  private async startSession(operation: string, signal: AbortSignal, cause: Refused, stale?: Session): Promise<void> {
    const seen = this.session
    const current = seen ? await seen.catch(() => undefined) : undefined
    // Another call already started a session, or replaced the stale one: use that.
    if (current && current !== stale) return
    if (this.session === seen && !this.handshakeRefused) {
      this.session = this.handshake(operation, signal).catch((error: unknown) => {
        if (error instanceof HubError) this.handshakeRefused = error
        throw error
      })
    }
    try {
      if (this.handshakeRefused) throw this.handshakeRefused
      await this.session
    } catch (error) {
      if (!(error instanceof HubError)) throw error
      const first = this.refusal(cause, operation, stale)
      throw new HubProtocolError({
        operation,
        status: first.status,
        hubMessage: first.hubMessage,
        hint: `The server asked for an MCP session and the initialize handshake failed too (${error.message}). Check that \`mcp-url\` is the MCP server URL the hub publishes (…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp).`,
        cause: error,
      })
    }
  }

  /** `initialize` then `notifications/initialized` (MCP specification, lifecycle). */
  private async handshake(operation: string, signal: AbortSignal): Promise<Session> {
    const what = `${operation} (MCP initialize)`
    const init = await this.exchange(
      {
        method: 'initialize',
        id: this.nextId++,
        params: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'hub-action', version: VERSION } },
      },
      what,
      signal,
      undefined,
    )
    if (init.kind === 'refused') throw this.refusal(init, what, undefined)
    if (init.kind === 'accepted') throw this.malformed(what, 202, 'an acknowledgement without an answer to initialize')
    if (init.response.error) throw this.rpcFailure(init.response.error, 'initialize', what)
    const parsed = InitializeResult.safeParse(init.response.result)
    if (!parsed.success) throw this.unexpected(what, 'initialize result', parsed.error)
    const protocolVersion = parsed.data.protocolVersion
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
      throw new HubProtocolError({
        operation: what,
        hubMessage: clip(`protocol version ${this.redact(protocolVersion)}`, 100),
        hint: `The MCP server at \`mcp-url\` speaks a protocol version this action does not (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}): use the MCP server URL the hub publishes, or update the action.`,
      })
    }
    const id = init.sessionId
    if (id !== undefined && !SESSION_ID_RE.test(id))
      throw this.malformed(what, 200, 'an Mcp-Session-Id header with characters the specification does not allow')
    const session: Session = { id, protocolVersion }
    const ready = await this.exchange({ method: 'notifications/initialized' }, what, signal, session)
    if (ready.kind === 'refused') throw this.refusal(ready, what, session)
    this.log(`MCP: the server asked for a session; using ${id ? 'one' : 'none (it keeps no state)'} with protocol ${protocolVersion}.`)
    return session
  }

  private headers(session: Session | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      'x-hub-org': this.org,
      'x-hub-workspace': this.workspace,
      // Streamable HTTP: the server answers 400 unless both are acceptable.
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': session?.protocolVersion ?? MCP_PROTOCOL_VERSION,
      'user-agent': `hub-action/${VERSION}`,
    }
    if (session?.id) headers['mcp-session-id'] = session.id
    return headers
  }

  /** One POST. A request resolves with its JSON-RPC response; a notification with `accepted`; or the refused HTTP answer. */
  private async exchange(message: Outgoing, operation: string, signal: AbortSignal, session: Session | undefined): Promise<Answer> {
    const response = await send(this.dispatcher, this.url, {
      method: 'POST',
      headers: { ...this.headers(session), 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      signal,
      // The AbortSignal is the ceiling; undici's own timers must not cut it shorter.
      headersTimeout: 0,
      bodyTimeout: 0,
    })
    const status = response.statusCode
    const contentType = headerValue(response.headers['content-type'])
    if (status < 200 || status >= 300) {
      const body = await readCapped(response.body, REFUSAL_LIMITS, { truncate: true })
      return { kind: 'refused', status, contentType, body, retryAfter: headerValue(response.headers['retry-after']) || undefined }
    }
    if (message.id === undefined) {
      discard(response.body)
      return { kind: 'accepted' }
    }
    const sessionId = headerValue(response.headers['mcp-session-id']).trim() || undefined
    const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
    const id = message.id
    try {
      if (type === 'text/event-stream') {
        // Read events as they come and stop at our answer: a server may hold the stream open.
        const found = await findInEventStream(response.body, ANSWER_LIMITS, (data) => this.match(data, id, operation, status))
        if (found) return { kind: 'response', response: found, sessionId }
        throw this.malformed(operation, status, 'an event stream that ended without an answer to the call')
      }
      if (type === 'application/json' || type.endsWith('+json')) {
        const found = this.match(await readCapped(response.body, ANSWER_LIMITS), id, operation, status)
        if (found) return { kind: 'response', response: found, sessionId }
        throw this.malformed(operation, status, 'JSON without an answer to the call')
      }
    } catch (error) {
      if (error instanceof BodyCapError) throw this.tooLarge(operation, status, error.limits.maxBytes)
      throw error
    }
    discard(response.body)
    const html = type.includes('html')
    throw new HubProtocolError({
      operation,
      status,
      hubMessage: html ? 'an HTML page instead of an MCP answer' : `a ${clip(contentType, 100) || 'body without Content-Type'} instead of an MCP answer`,
      hint: html
        ? '`mcp-url` seems to point at the portal, not the MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).'
        : "Something other than the hub's MCP endpoint answered: check `mcp-url` and any proxy in between.",
    })
  }

  /** The JSON-RPC response with our id in one JSON text (a message or a batch), if any. */
  private match(text: string, id: number, operation: string, status: number): RpcResponse | undefined {
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (cause) {
      throw this.malformed(operation, status, 'a message that is not valid JSON', cause)
    }
    let orphanError: RpcResponse | undefined
    for (const message of Array.isArray(json) ? json : [json]) {
      // Notifications and requests from the server (progress, logging) are not our answer.
      if (!message || typeof message !== 'object' || !('id' in message) || 'method' in message) continue
      const parsed = RpcResponse.safeParse(message)
      if (!parsed.success) throw this.unexpected(operation, 'JSON-RPC response', parsed.error, status)
      const response = parsed.data
      if (response.id === id) return response
      // A server that could not read our id answers with a null one.
      if (response.id === null && response.error) orphanError = response
    }
    return orphanError
  }

  private toolOutput(response: RpcResponse, tool: string, operation: string): unknown {
    if (response.error) throw this.rpcFailure(response.error, tool, operation)
    const parsed = CallToolResult.safeParse(response.result)
    if (!parsed.success) throw this.unexpected(operation, 'tools/call result', parsed.error)
    const result = parsed.data
    const text = result.content.find((part) => part.type === 'text')?.text
    if (result.isError) {
      throw new HubRequestError({
        operation,
        hubMessage: this.said(text?.trim() || 'the tool failed without saying why'),
        hint: 'The graph impact tool refused the request: check the object named in its message (`targets`, `manifests`, `namespace`) and `max-depth` (1 to 20).',
      })
    }
    if (result.structuredContent !== undefined) return result.structuredContent
    // Servers on protocol 2024-11-05 only send the JSON as text.
    if (text === undefined) throw this.malformed(operation, 200, 'a tool result without structuredContent or text')
    try {
      return JSON.parse(text)
    } catch (cause) {
      throw this.malformed(operation, 200, 'a tool result whose text is not JSON', cause)
    }
  }

  /**
   * A JSON-RPC error, read by its code and its text: the aggregate wraps what the provider said
   * (bad arguments included) with code 0 and `provider "graph" tool "graph_impact": …` (§4).
   */
  private rpcFailure(error: RpcError, tool: string, operation: string): HubError {
    const base = { operation, reason: `JSON-RPC ${error.code}`, hubMessage: this.said(error.message) }
    const message = error.message.toLowerCase()
    if (isUnknownTool(error)) {
      return new HubRequestError({
        ...base,
        hint: `The graph provider is not available on this MCP endpoint (it has no tool ${tool}, also when asked again): check that \`mcp-url\` is the MCP server URL of this workspace and that the graph provider is enabled there; a provider that failed discovery has no tools until it recovers.`,
      })
    }
    if (error.code === RPC_TIMEOUT_CODE || /timed? ?out|deadline/.test(message)) {
      return new HubServerError({
        ...base,
        hint: "The graph provider did not answer within the hub's limit for forwarded MCP calls (15 s on today's hubs): try again; a lower `max-depth` makes the query cheaper.",
      })
    }
    if (error.code === -32601) {
      return new HubProtocolError({
        ...base,
        hint: 'The server at `mcp-url` does not offer MCP tools: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).',
      })
    }
    if (error.code === -32700 || error.code === -32600) {
      return new HubProtocolError({
        ...base,
        hint: "The MCP endpoint could not read the request: check that `mcp-url` is the hub's MCP endpoint, and report this with the hub version.",
      })
    }
    if (error.code === -32602 || (error.code === 0 && /invalid (input|param|argument)|unknown field|required|must be|validat/.test(message))) {
      return new HubRequestError({
        ...base,
        hint: 'The graph provider refused the tool arguments: check the target named in its message (`targets`, `manifests`, `namespace`) and `max-depth` (1 to 20); if they look right, the tool on this hub takes other arguments than this action sends: report it with the hub version.',
      })
    }
    if (error.code === 0) {
      return new HubServerError({
        ...base,
        hint: 'The provider behind the MCP endpoint failed while handling the call (its message is above): try again; if it persists, report it to the hub administrators with the time of the failure.',
      })
    }
    return new HubServerError({
      ...base,
      hint: 'The MCP endpoint failed while handling the call: try again; if it persists, report it to the hub administrators with the time of the failure.',
    })
  }

  /** An HTTP refusal in the house wording, with hints that fit MCP (`mcp-url`, never `cluster-id`). */
  private refusal(answer: Refused, operation: string, session: Session | undefined): HubError {
    const context: FailureContext = { operation, subject: 'the MCP endpoint', org: this.org, workspace: this.workspace }
    // JSON-RPC error bodies (what MCP servers send with 400 and 404) carry their text under error.message.
    const body = rpcErrorText(answer) ?? answer.body
    // Redact before the body becomes hubMessage: a proxy may echo request headers.
    const failure = hubFailure({ ...answer, contentType: body === answer.body ? answer.contentType : 'text/plain', body: this.redact(body) }, context)
    const endpoint = `${this.url.host}${this.url.pathname}`
    if (answer.status === 401) {
      return rehint(
        failure,
        `The MCP endpoint at ${this.url.host} refused the token: the hub's aggregate takes any non-empty bearer, so the token was empty or a gateway in front of it refused it. Check \`token\` and \`mcp-url\` (\`cluster-id\` does nothing for the MCP source).`,
        HubAuthError,
      )
    }
    if (answer.status === 403) {
      return rehint(
        failure,
        `The MCP endpoint at ${this.url.host} refused this token: use a token of a user or service account with access to workspace ${this.workspace}, and check that \`mcp-url\` belongs to that workspace.`,
        HubAuthError,
      )
    }
    if (answer.status === 400) {
      const tried = session ? ', also after the MCP initialize handshake' : this.handshakeRefused ? ', and refused the MCP initialize handshake too' : ''
      return rehint(
        failure,
        session?.id
          ? 'The MCP server refused the call within its session: check that `mcp-url` is the MCP server URL the hub publishes, and report this with the server version.'
          : `The MCP endpoint refused the call as sent${tried}: check that \`mcp-url\` is the MCP server URL the hub publishes (…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp). \`cluster-id\`, \`org\` and \`workspace\` do not change what the MCP endpoint accepts.`,
        HubRequestError,
      )
    }
    if (failure instanceof HubNotFoundError) {
      return rehint(
        failure,
        session?.id
          ? `The MCP server at ${endpoint} lost our session again right after a new one was started: check that \`mcp-url\` points at one server (not a pool without shared sessions), and try again.`
          : `No MCP endpoint at ${endpoint}: set \`mcp-url\` to the MCP server URL the hub publishes in its status (…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp), and check that \`org\` and \`workspace\` name that workspace.`,
      )
    }
    if (failure instanceof HubProtocolError) {
      return rehint(
        failure,
        "`mcp-url` seems to point at the portal rather than the hub's MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).",
      )
    }
    return failure
  }

  private connectionFailure(error: unknown, operation: string): HubError {
    const code = errorCode(error)
    const host = this.url.host
    let hint: string
    if (code && code.includes('CERT')) {
      hint = `TLS verification of ${host} failed (${code}): for a hub with a private CA, point NODE_EXTRA_CA_CERTS at the CA bundle in the step's env.`
    } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      hint = `The host ${host} could not be resolved: check \`mcp-url\`, and HTTPS_PROXY/NO_PROXY on self-hosted runners.`
    } else {
      hint = `The connection to ${host} failed${code ? ` (${code})` : ''}: check \`mcp-url\`, the network and any proxy (HTTPS_PROXY/NO_PROXY).`
    }
    return this.redactError(new HubConnectionError({ operation, hint, cause: error }))
  }

  private timeoutFailure(operation: string, cause: unknown): HubError {
    return new HubConnectionError({
      operation,
      hint: `No answer from ${this.url.host} within ${Math.round(this.timeoutMs / 1000)} s, the budget of one MCP call: check that the hub is up and reachable from the runner, and that \`mcp-url\` is right.`,
      cause,
    })
  }

  private tooLarge(operation: string, status: number, capBytes: number): HubProtocolError {
    return new HubProtocolError({
      operation,
      status,
      hubMessage: `an answer larger than ${formatBytes(capBytes)}, the most this action reads from one MCP answer (the hub's tool output is at most 256 KiB)`,
      hint: "Reading stopped at the cap. Something other than the hub's MCP tool answered, or the server streamed without end: check `mcp-url` and any proxy in between.",
    })
  }

  private malformed(operation: string, status: number, what: string, cause?: unknown): HubProtocolError {
    return new HubProtocolError({
      operation,
      status,
      hubMessage: what,
      hint: "The answer was cut or garbled on the way, or `mcp-url` is not the hub's MCP endpoint: try again, and check `mcp-url` and any proxy in between.",
      cause,
    })
  }

  private unexpected(operation: string, what: string, error: z.ZodError, status?: number): HubProtocolError {
    const issues = error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ')
    return new HubProtocolError({
      operation,
      status,
      hubMessage: this.said(`an unexpected ${what} (${issues})`),
      hint: 'The MCP endpoint speaks a different version of the tool than this action expects: check `mcp-url`, and report this with the hub version.',
      cause: error,
    })
  }

  /** Server text for a message: redacted first, then clipped, so a clip never splits a token into view. */
  private said(text: string): string {
    return clip(this.redact(text))
  }

  /** Replace the token, and its JSON- and URL-encoded forms, wherever they might appear in text bound for a log or a message. */
  private redact(text: string): string {
    let out = text
    if (this.token) {
      const forms = new Set([this.token, JSON.stringify(this.token).slice(1, -1), encodeURIComponent(this.token)])
      // Longest first, so a form that contains another is replaced whole.
      for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('***')
    }
    return out.replace(/(Bearer\s+)[^\s"']+/gi, '$1***')
  }

  private redactError<E extends HubError>(error: E): E {
    const redacted = this.redact(error.message)
    if (redacted !== error.message) error.message = redacted
    return error
  }
}

function isUnknownTool(error: RpcError): boolean {
  return (error.code === -32602 || error.code === 0) && error.message.toLowerCase().includes('unknown tool')
}

/** The text of a JSON-RPC error body (`{"jsonrpc":"2.0","error":{…},"id":null}`), as MCP servers refuse at the HTTP level. */
function rpcErrorText(answer: Refused): string | undefined {
  if (!answer.contentType.toLowerCase().includes('json')) return undefined
  try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: unknown } }
    return typeof parsed.error?.message === 'string' ? parsed.error.message : undefined
  } catch {
    return undefined
  }
}

/** Normalise a tool reference: missing group is the core group "", absent keys stay absent. */
function related(ref: Ref): McpRelated {
  const out: McpRelated = { group: ref.group ?? '', kind: ref.kind, name: ref.name, relation: ref.relation }
  if (ref.edge !== undefined) out.edge = ref.edge
  if (ref.namespace !== undefined) out.namespace = ref.namespace
  return out
}

/** The same fields with another hint (HubError's message is built once), as `Kind` or the same class. */
function rehint(error: HubError, hint: string, Kind?: new (init: HubErrorInit) => HubError): HubError {
  const As = Kind ?? (error.constructor as new (init: HubErrorInit) => HubError)
  return new As({
    operation: error.operation,
    status: error.status,
    reason: error.reason,
    hubMessage: error.hubMessage,
    hint,
    cause: error.cause,
  })
}

function clip(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}
