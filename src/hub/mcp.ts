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
import { z } from 'zod'
import { redact, redactValue } from '../redact.js'
import { VERSION } from '../version.js'
import {
  HubAuthError,
  HubConnectionError,
  HubDeadlineError,
  HubError,
  HubNotFoundError,
  HubProtocolError,
  HubRequestError,
  HubServerError,
  type HubErrorInit,
} from './errors.js'
import { hubFailure, type FailureContext } from './errors.js'
import { BodyCapError, errorCode, headerValue } from './http.js'
import { formatBytes } from '../markdown/format.js'
import type { RetryPolicy } from './retry.js'
import type { HubTransport, RefusedAnswer, ResponseLimits, StreamAnswer } from './transport.js'

export interface McpClientOptions {
  /** The whole endpoint URL (input `mcp-url`), as the hub publishes it; never built here. */
  url: URL
  /**
   * The hub's transport: its token (renewed on a 401 like any hub call), org and workspace
   * headers, retries, caps and redaction. MCP keeps only its own protocol here.
   */
  transport: HubTransport
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
const MCP_PROTOCOL_VERSION = '2025-06-18'
/** What a server may answer in `initialize` (§4); the client reads all of them the same way. */
const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']
const IMPACT_TOOL = 'graph__graph_impact'

/**
 * One call's budget. Before forwarding, the aggregate may spend 8 s on instructions and 8 s on
 * discovery; the forwarded call times out after 15 s today and 90 s after a pending hub change
 * (§4, §5). 110 s covers the longer one with room for the handshake.
 */
const CALL_BUDGET_MS = 110_000
/**
 * Tool calls are read-only, so a lost connection, a gateway error or a 429 may be tried again
 * (decideRetry, as for hub calls); fewer and shorter waits than hub calls: a step asks many.
 */
const MCP_RETRY_POLICY: RetryPolicy = Object.freeze({ maxAttempts: 3, baseDelayMs: 300, maxDelayMs: 2_000, maxRetryAfterMs: 10_000 })
/** A provider that failed discovery for one request has no tools; the next request usually has them. */
const UNKNOWN_TOOL_RETRY_MS = 500
/** The hub caps tool output at 256 KiB (§5); an answer far bigger than that is not the tool's. */
const ANSWER_LIMITS: ResponseLimits = Object.freeze({
  name: 'an MCP answer',
  maxBytes: 4 * 1024 * 1024,
  hint: "Reading stopped at the cap. Something other than the hub's MCP tool answered, or the server streamed without end: check `mcp-url` and any proxy in between.",
})
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

type Answer = RefusedAnswer | { kind: 'response'; response: RpcResponse; sessionId: string | undefined } | { kind: 'accepted' }

/** What every request of one tool call shares: the deadline, the caller's signal, the log label. */
interface Budget {
  deadline: number
  signal: AbortSignal | undefined
  label: string
}

interface Outgoing {
  method: string
  id?: number
  params?: unknown
}

export class McpGraphClient {
  private readonly url: URL
  private readonly transport: HubTransport
  private readonly timeoutMs: number
  private readonly log: (message: string) => void
  private nextId = 1
  /** The handshake under way or done; undefined while the server has not asked for one. */
  private session: Promise<Session> | undefined
  /** The handshake is tried at most once per 400 without a session: a server that refuses it keeps refusing. */
  private handshakeRefused: HubError | undefined
  private closing: Promise<void> | undefined

  constructor(options: McpClientOptions) {
    this.url = options.url
    this.transport = options.transport
    this.timeoutMs = options.timeoutMs ?? CALL_BUDGET_MS
    this.log = options.log ?? (() => {})
    // The session ends before the transport's connections close, whoever closes first.
    this.transport.onClose(() => this.close())
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

  /** End the session, if the server gave one (a failure here changes nothing). The transport's owner closes the connections. */
  close(): Promise<void> {
    this.closing ??= this.endSession()
    return this.closing
  }

  private async endSession(): Promise<void> {
    const session = await this.session?.catch(() => undefined)
    this.session = undefined
    if (!session?.id) return
    try {
      await this.transport.stream({
        method: 'DELETE',
        url: this.url,
        headers: this.headers(session),
        operation: 'end the MCP session',
        timeoutMs: CLOSE_TIMEOUT_MS,
        repeatable: false,
        limits: ANSWER_LIMITS,
        // 405: the server does not let clients end sessions, which the specification allows.
        returnStatus: [404, 405],
        policy: { ...MCP_RETRY_POLICY, maxAttempts: 1 },
        urlInput: 'mcp-url',
      })
    } catch (error) {
      this.log(
        error instanceof HubError && error.status !== undefined
          ? `MCP: ending the session answered ${error.status}; the server will expire it.`
          : 'MCP: the session could not be ended; the server will expire it.',
      )
    }
  }

  /** `tools/call` with the lifecycle; the transport retries; returns the tool's structured output. */
  private async callTool(name: string, args: unknown, operation: string, signal?: AbortSignal): Promise<unknown> {
    const budget: Budget = { deadline: this.transport.clock() + this.timeoutMs, signal, label: `MCP: ${name}` }
    let renewed = false
    let retriedUnknownTool = false
    try {
      for (;;) {
        const session = await this.session?.catch(() => undefined)
        const request = { method: 'tools/call', id: this.nextId++, params: { name, arguments: args } }
        const answer = await this.exchange(request, operation, budget, session)
        if (answer.kind === 'response') {
          const error = answer.response.error
          if (error && isUnknownTool(error) && !retriedUnknownTool) {
            retriedUnknownTool = true
            this.log(`MCP: the endpoint does not list ${name} for this request (its provider may have failed discovery); trying once more.`)
            await this.transport.pause(UNKNOWN_TOOL_RETRY_MS, signal)
            if (signal?.aborted) throw signal.reason
            continue
          }
          return this.toolOutput(answer.response, name, operation)
        }
        if (answer.kind === 'accepted') throw this.malformed(operation, 202, 'an acknowledgement without an answer to the call')
        if (answer.status === 400 && !session && !this.handshakeRefused) {
          // Not the hub's stateless endpoint: a server that follows the specification's lifecycle.
          await this.startSession(operation, budget, answer)
          continue
        }
        if (answer.status === 404 && session?.id && !renewed) {
          // The session ended on the server (restart, expiry): the specification says start a new one.
          renewed = true
          this.log('MCP: the server no longer knows our session (404); starting a new one.')
          await this.startSession(operation, budget, answer, session)
          continue
        }
        throw this.refusal(answer, operation, session)
      }
    } catch (error) {
      if (!(error instanceof HubError)) throw error
      if (!(error instanceof HubDeadlineError)) throw this.transport.redactError(error)
      // A failure whose retry the budget cannot cover (a refusal, a refused connection) is that
      // failure; an attempt cut by the budget, or none left to make, is the budget.
      const last = error.cause
      if (last instanceof HubError && !cutByTimeout(last.cause)) throw last
      throw this.timeoutFailure(operation, last ?? error)
    }
  }

  /**
   * Start a session (or replace `stale`), shared by every call in flight. A handshake the
   * server refuses is reported together with the 400 that asked for it.
   */
  private async startSession(operation: string, budget: Budget, cause: RefusedAnswer, stale?: Session): Promise<void> {
    const seen = this.session
    const current = seen ? await seen.catch(() => undefined) : undefined
    // Another call already started a session, or replaced the stale one: use that.
    if (current && current !== stale) return
    if (this.session === seen && !this.handshakeRefused) {
      this.session = this.handshake(operation, budget).catch((error: unknown) => {
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
  private async handshake(operation: string, budget: Budget): Promise<Session> {
    const what = `${operation} (MCP initialize)`
    const init = await this.exchange(
      {
        method: 'initialize',
        id: this.nextId++,
        params: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'hub-action', version: VERSION } },
      },
      what,
      budget,
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
        hubMessage: clip(`protocol version ${redact(protocolVersion)}`, 100),
        hint: `The MCP server at \`mcp-url\` speaks a protocol version this action does not (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}): use the MCP server URL the hub publishes, or update the action.`,
      })
    }
    const id = init.sessionId
    if (id !== undefined && !SESSION_ID_RE.test(id))
      throw this.malformed(what, 200, 'an Mcp-Session-Id header with characters the specification does not allow')
    const session: Session = { id, protocolVersion }
    const ready = await this.exchange({ method: 'notifications/initialized' }, what, budget, session)
    if (ready.kind === 'refused') throw this.refusal(ready, what, session)
    this.log(`MCP: the server asked for a session; using ${id ? 'one' : 'none (it keeps no state)'} with protocol ${protocolVersion}.`)
    return session
  }

  /** MCP's own headers; the transport adds the token, org, workspace and user agent. */
  private headers(session: Session | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      // Streamable HTTP: the server answers 400 unless both are acceptable.
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': session?.protocolVersion ?? MCP_PROTOCOL_VERSION,
    }
    if (session?.id) headers['mcp-session-id'] = session.id
    return headers
  }

  /**
   * One POST through the transport (retries, token renewal, caps, redaction). A request
   * resolves with its JSON-RPC response; a notification with `accepted`; a 400 or 404 (the
   * lifecycle's statuses) with the refused answer.
   */
  private async exchange(message: Outgoing, operation: string, budget: Budget, session: Session | undefined): Promise<Answer> {
    const id = message.id
    const answer: StreamAnswer<RpcResponse> = await this.transport
      .stream<RpcResponse>({
        method: 'POST',
        url: this.url,
        headers: this.headers(session),
        body: { jsonrpc: '2.0', ...message },
        operation,
        timeoutMs: this.timeoutMs,
        deadline: budget.deadline,
        signal: budget.signal,
        repeatable: true,
        limits: ANSWER_LIMITS,
        pick: id === undefined ? undefined : (text, status) => this.match(text, id, operation, status),
        returnStatus: [400, 404],
        refusal: (said) => this.refusal(said, operation, session),
        policy: MCP_RETRY_POLICY,
        label: budget.label,
        urlInput: 'mcp-url',
      })
      .catch((error: unknown) => {
        throw error instanceof HubProtocolError && error.cause instanceof BodyCapError ? this.tooLarge(error, error.cause) : error
      })
    if (answer.kind === 'refused' || answer.kind === 'accepted') return answer
    if (answer.kind === 'message') {
      if (answer.message) return { kind: 'response', response: answer.message, sessionId: headerValue(answer.headers['mcp-session-id']).trim() || undefined }
      throw this.malformed(
        operation,
        answer.status,
        answer.format === 'sse' ? 'an event stream that ended without an answer to the call' : 'JSON without an answer to the call',
      )
    }
    const html = answer.contentType.toLowerCase().includes('html')
    throw new HubProtocolError({
      operation,
      status: answer.status,
      hubMessage: html ? 'an HTML page instead of an MCP answer' : `a ${clip(answer.contentType, 100) || 'body without Content-Type'} instead of an MCP answer`,
      hint: html
        ? '`mcp-url` seems to point at the portal, not the MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).'
        : "Something other than the hub's MCP endpoint answered: check `mcp-url` and any proxy in between.",
    })
  }

  /** The JSON-RPC response with our id in one JSON text (a message or a batch), if any. */
  private match(text: string, id: number, operation: string, status: number): RpcResponse | undefined {
    let json: unknown
    try {
      // Every string the server sends is redacted as it is received, before anything escapes or clips it.
      json = redactValue(JSON.parse(text))
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
      // The text was redacted as a string; parsing may decode escapes that spelled a secret.
      return redactValue(JSON.parse(text))
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
  private refusal(answer: RefusedAnswer, operation: string, session: Session | undefined): HubError {
    const { org, workspace } = this.transport.identity
    const context: FailureContext = { operation, subject: 'the MCP endpoint', org, workspace }
    // JSON-RPC error bodies (what MCP servers send with 400 and 404) carry their text under error.message.
    // The transport redacted the body already (a proxy may echo request headers), before any clip.
    const body = rpcErrorText(answer) ?? answer.body
    const failure = hubFailure({ ...answer, contentType: body === answer.body ? answer.contentType : 'text/plain', body }, context)
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
        `The MCP endpoint at ${this.url.host} refused this token: use a token of a user or service account with access to workspace ${workspace}, and check that \`mcp-url\` belongs to that workspace.`,
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

  private timeoutFailure(operation: string, cause: unknown): HubError {
    return new HubConnectionError({
      operation,
      hint: `No answer from ${this.url.host} within ${Math.round(this.timeoutMs / 1000)} s, the budget of one MCP call: check that the hub is up and reachable from the runner, and that \`mcp-url\` is right.`,
      cause,
    })
  }

  /** The cap in MCP's words: what one MCP answer may be, and what the tool's output is at most. */
  private tooLarge(error: HubProtocolError, cap: BodyCapError): HubProtocolError {
    return new HubProtocolError({
      operation: error.operation,
      status: error.status,
      hubMessage: `an answer larger than ${formatBytes(cap.limits.maxBytes)}, the most this action reads from one MCP answer (the hub's tool output is at most 256 KiB)`,
      hint: ANSWER_LIMITS.hint,
      cause: cap,
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

  /** Server text for a message: redacted by the transport first, then clipped, so a clip never splits a token into view. */
  private said(text: string): string {
    return clip(redact(text))
  }
}

/** The transport aborts an attempt at its ceiling: undici reports that as the signal's TimeoutError or an abort. */
function cutByTimeout(error: unknown): boolean {
  const code = errorCode(error)
  return (
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_ABORTED'
  )
}

function isUnknownTool(error: RpcError): boolean {
  return (error.code === -32602 || error.code === 0) && error.message.toLowerCase().includes('unknown tool')
}

/** The text of a JSON-RPC error body (`{"jsonrpc":"2.0","error":{…},"id":null}`), as MCP servers refuse at the HTTP level. */
function rpcErrorText(answer: RefusedAnswer): string | undefined {
  if (!answer.contentType.toLowerCase().includes('json')) return undefined
  try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: unknown } }
    return typeof parsed.error?.message === 'string' ? redact(parsed.error.message) : undefined
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
