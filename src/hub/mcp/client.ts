/**
 * A small MCP client for the hub's aggregate endpoint (docs/hub-facts.md, "MCP") and any MCP
 * server that follows the specification, enough to call `graph__graph_impact`. It rides on the
 * hub's transport (token renewal, retries, caps, redaction) and keeps only MCP here: the
 * lifecycle (session.ts), JSON-RPC (json-rpc.ts), what failures mean (failures.ts) and the
 * tool itself (impact.ts). Answers may come as SSE or as plain JSON.
 *
 * Why not @modelcontextprotocol/sdk's client: measured here, it adds ~430 KB to dist/ (mostly
 * ajv) and ~120 ms of start-up for one request shape; it always does the full handshake, where
 * the hub's stateless endpoint needs none; and it has no response caps and no deadline shared by
 * the retries of one call. (Its transport does take a `fetch` option, so the proxy-aware
 * dispatcher is not the reason.) The e2e tests run this client against a server built from the SDK.
 */
import * as z from '../../zod.js'
import { redactValue } from '../../redact.js'
import { HubDeadlineError, HubError, HubProtocolError } from '../errors.js'
import { BodyCapError, headerValue } from '../../http/wire.js'
import type { RetryPolicy } from '../../http/retry.js'
import type { HubTransport, RefusedAnswer, StreamAnswer } from '../transport.js'
import {
  ANSWER_LIMITS,
  cutByTimeout,
  deadlineFailure,
  malformed,
  notMcp,
  refusal,
  rpcFailure,
  toolRefused,
  tooLarge,
  unexpected,
} from './failures.js'
import {
  impactArguments,
  impactOperation,
  readImpact,
  IMPACT_TOOL,
  type McpImpactInput,
  type McpImpactResult,
} from './impact.js'
import { findResponse, isUnknownTool, type Answer, type Outgoing, type RpcResponse } from './json-rpc.js'
import { McpSession, mcpHeaders, type Budget, type Session } from './session.js'
import { BudgetSpentError } from '../transport-errors.js'

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

/**
 * One call's budget. Before forwarding, the aggregate may spend 8 s on instructions and 8 s on
 * discovery; the forwarded call times out after 15 s today and 90 s after a pending hub change
 * (docs/hub-facts.md, "MCP", "Limits"). 110 s covers the longer one with room for the handshake.
 */
const CALL_BUDGET_MS = 110_000
/**
 * Tool calls are read-only, so a lost connection, a gateway error or a 429 may be tried again
 * (decideRetry, as for hub calls); fewer and shorter waits than hub calls: a step asks many.
 */
const MCP_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 300,
  maxDelayMs: 2_000,
  maxRetryAfterMs: 10_000,
})
/** A provider that failed discovery for one request has no tools; the next request usually has them. */
const UNKNOWN_TOOL_RETRY_MS = 500
/** Ending a session is a courtesy: it must not hold the step up. */
const CLOSE_TIMEOUT_MS = 5_000

const CallToolResult = z.looseObject({
  content: z._default(z.array(z.looseObject({ type: z.string(), text: z.optional(z.string()) })), []),
  structuredContent: z.optional(z.unknown()),
  isError: z.optional(z.boolean()),
})

export class McpGraphClient {
  private readonly url: URL
  private readonly transport: HubTransport
  private readonly timeoutMs: number
  private readonly log: (message: string) => void
  private readonly session: McpSession
  private nextId = 1
  private closing: Promise<void> | undefined

  constructor(options: McpClientOptions) {
    this.url = options.url
    this.transport = options.transport
    this.timeoutMs = options.timeoutMs ?? CALL_BUDGET_MS
    this.log = options.log ?? (() => {})
    this.session = new McpSession({
      exchange: (message, operation, budget, session) => this.exchange(message, operation, budget, session),
      refusal: (answer, operation, session) => this.refusal(answer, operation, session),
      nextId: () => this.nextId++,
      log: this.log,
    })
    // The session ends before the transport's connections close, whoever closes first.
    this.transport.onClose(() => this.close())
  }

  /** Upstream, downstream and associated objects of one object, from the hub's impact tool. */
  async impact(input: McpImpactInput, signal?: AbortSignal): Promise<McpImpactResult> {
    const operation = impactOperation(input)
    return readImpact(await this.callTool(IMPACT_TOOL, impactArguments(input), operation, signal), operation)
  }

  /** End the session, if the server gave one (a failure here changes nothing). The transport's owner closes the connections. */
  close(): Promise<void> {
    this.closing ??= this.endSession()
    return this.closing
  }

  private async endSession(): Promise<void> {
    const session = await this.session.take()
    if (!session?.id) return
    try {
      await this.transport.stream({
        method: 'DELETE',
        url: this.url,
        headers: mcpHeaders(session),
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
        const session = await this.session.current()
        const request = { method: 'tools/call', id: this.nextId++, params: { name, arguments: args } }
        const answer = await this.exchange(request, operation, budget, session)
        if (answer.kind === 'response') {
          const error = answer.response.error
          if (error && isUnknownTool(error) && !retriedUnknownTool) {
            retriedUnknownTool = true
            this.log(
              `MCP: the endpoint does not list ${name} for this request (its provider may have failed discovery); trying once more.`,
            )
            await this.transport.pause(UNKNOWN_TOOL_RETRY_MS, signal)
            if (signal?.aborted) throw signal.reason
            continue
          }
          return toolOutput(answer.response, name, operation)
        }
        if (answer.kind === 'accepted')
          throw malformed(operation, 202, 'an acknowledgement without an answer to the call')
        if (answer.status === 400 && !session && !this.session.handshakeRefused) {
          // Not the hub's stateless endpoint: a server that follows the specification's lifecycle.
          await this.session.start(operation, budget, answer)
          continue
        }
        if (answer.status === 404 && session?.id && !renewed) {
          // The session ended on the server (restart, expiry): the specification says start a new one.
          renewed = true
          this.log('MCP: the server no longer knows our session (404); starting a new one.')
          await this.session.start(operation, budget, answer, session)
          continue
        }
        throw this.refusal(answer, operation, session)
      }
    } catch (error) {
      // The step's own budget (timeout-seconds) says so itself, not as this call's.
      if (!(error instanceof HubDeadlineError) || error instanceof BudgetSpentError) throw error
      // A failure whose retry the budget cannot cover (a refusal, a refused connection) is that
      // failure; an attempt cut by the budget, or none left to make, is the budget.
      const last = error.cause
      if (last instanceof HubError && !cutByTimeout(last.cause)) throw last
      throw deadlineFailure(operation, this.url, this.timeoutMs, last ?? error)
    }
  }

  /**
   * One POST through the transport (retries, token renewal, caps, redaction). A request
   * resolves with its JSON-RPC response; a notification with `accepted`; a 400 or 404 (the
   * lifecycle's statuses) with the refused answer.
   */
  private async exchange(
    message: Outgoing,
    operation: string,
    budget: Budget,
    session: Session | undefined,
  ): Promise<Answer> {
    const id = message.id
    const answer: StreamAnswer<RpcResponse> = await this.transport
      .stream<RpcResponse>({
        method: 'POST',
        url: this.url,
        headers: mcpHeaders(session),
        body: { jsonrpc: '2.0', ...message },
        operation,
        timeoutMs: this.timeoutMs,
        deadline: budget.deadline,
        signal: budget.signal,
        repeatable: true,
        limits: ANSWER_LIMITS,
        pick: id === undefined ? undefined : (text, status) => pickResponse(text, id, operation, status),
        returnStatus: [400, 404],
        refusal: (said) => this.refusal(said, operation, session),
        policy: MCP_RETRY_POLICY,
        label: budget.label,
        urlInput: 'mcp-url',
      })
      .catch((error: unknown) => {
        throw error instanceof HubProtocolError && error.cause instanceof BodyCapError
          ? tooLarge(error, error.cause)
          : error
      })
    if (answer.kind === 'refused' || answer.kind === 'accepted') return answer
    if (answer.kind === 'message') {
      if (answer.message)
        return {
          kind: 'response',
          response: answer.message,
          sessionId: headerValue(answer.headers['mcp-session-id']).trim() || undefined,
        }
      throw malformed(
        operation,
        answer.status,
        answer.format === 'sse'
          ? 'an event stream that ended without an answer to the call'
          : 'JSON without an answer to the call',
      )
    }
    throw notMcp(operation, answer.status, answer.contentType)
  }

  private refusal(answer: RefusedAnswer, operation: string, session: Session | undefined): HubError {
    const { org, workspace } = this.transport.identity
    return refusal(answer, operation, {
      url: this.url,
      org,
      workspace,
      session,
      handshakeRefused: this.session.handshakeRefused,
    })
  }
}

/** Our JSON-RPC response in one message of the answer, if it is there; a message no server may send is a protocol error. */
function pickResponse(text: string, id: number, operation: string, status: number): RpcResponse | undefined {
  const found = findResponse(text, id)
  if (found.kind === 'not-json') throw malformed(operation, status, 'a message that is not valid JSON', found.cause)
  if (found.kind === 'bad-shape') throw unexpected(operation, 'JSON-RPC response', found.error, status)
  return found.response
}

/** The tool's structured output, or its JSON text on servers of protocol 2024-11-05. */
function toolOutput(response: RpcResponse, tool: string, operation: string): unknown {
  if (response.error) throw rpcFailure(response.error, tool, operation)
  const parsed = CallToolResult.safeParse(response.result)
  if (!parsed.success) throw unexpected(operation, 'tools/call result', parsed.error)
  const result = parsed.data
  const text = result.content.find((part) => part.type === 'text')?.text
  if (result.isError) throw toolRefused(operation, text)
  if (result.structuredContent !== undefined) return result.structuredContent
  if (text === undefined) throw malformed(operation, 200, 'a tool result without structuredContent or text')
  try {
    // The text was redacted as a string; parsing may decode escapes that spelled a secret.
    return redactValue(JSON.parse(text))
  } catch (cause) {
    throw malformed(operation, 200, 'a tool result whose text is not JSON', cause)
  }
}
