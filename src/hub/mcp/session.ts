/**
 * The MCP lifecycle, done only when a server asks for it. The hub's endpoint is stateless, so
 * a call goes out first without `initialize`; a server that wants a session answers that with
 * 400, and then the specification's handshake (`initialize`, `notifications/initialized`) runs
 * once, shared by every call in flight. Its `Mcp-Session-Id` and negotiated
 * `MCP-Protocol-Version` go with every later request.
 */
import * as z from '../../zod.js'
import { VERSION } from '../../version.js'
import { HubError } from '../errors.js'
import type { RefusedAnswer } from '../transport.js'
import { handshakeFailed, malformed, rpcFailure, unexpected, unsupportedProtocol } from './failures.js'
import type { Answer, Outgoing } from './json-rpc.js'

/** Sent before any handshake, and asked for in `initialize`. */
const MCP_PROTOCOL_VERSION = '2025-06-18'
/** What a server may answer in `initialize` (docs/hub-facts.md, "MCP"); the client reads all of them the same way. */
const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']
/** `Mcp-Session-Id` is visible ASCII (MCP specification, Streamable HTTP). */
const SESSION_ID_RE = /^[\x21-\x7e]{1,1024}$/

const InitializeResult = z.looseObject({ protocolVersion: z.string() })

export interface Session {
  /** Absent when the server did the handshake but keeps no session (it is stateless after all). */
  id: string | undefined
  protocolVersion: string
}

/** What every request of one tool call shares: the deadline, the caller's signal, the log label. */
export interface Budget {
  deadline: number
  signal: AbortSignal | undefined
  label: string
}

/** What the lifecycle needs of the client: one POST, its reading of refusals, request ids, the log. */
export interface SessionDeps {
  exchange: (message: Outgoing, operation: string, budget: Budget, session: Session | undefined) => Promise<Answer>
  refusal: (answer: RefusedAnswer, operation: string, session: Session | undefined) => HubError
  nextId: () => number
  log: (message: string) => void
}

/** MCP's own headers; the transport adds the token, org, workspace and user agent. */
export function mcpHeaders(session: Session | undefined): Record<string, string> {
  const headers: Record<string, string> = {
    // Streamable HTTP: the server answers 400 unless both are acceptable.
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': session?.protocolVersion ?? MCP_PROTOCOL_VERSION,
  }
  if (session?.id) headers['mcp-session-id'] = session.id
  return headers
}

export class McpSession {
  private readonly deps: SessionDeps
  /** The handshake under way or done; undefined while the server has not asked for one. */
  private session: Promise<Session> | undefined
  /** The handshake is tried at most once per 400 without a session: a server that refuses it keeps refusing. */
  private refused: HubError | undefined

  constructor(deps: SessionDeps) {
    this.deps = deps
  }

  /** The session in use, if a handshake succeeded. */
  async current(): Promise<Session | undefined> {
    return this.session?.catch(() => undefined)
  }

  get handshakeRefused(): boolean {
    return this.refused !== undefined
  }

  /** The session to end, forgotten here: later calls go without one. */
  async take(): Promise<Session | undefined> {
    const session = await this.current()
    this.session = undefined
    return session
  }

  /**
   * Start a session (or replace `stale`), shared by every call in flight. A handshake the
   * server refuses is reported together with the 400 that asked for it (`cause`).
   */
  async start(operation: string, budget: Budget, cause: RefusedAnswer, stale?: Session): Promise<void> {
    const seen = this.session
    const current = seen ? await seen.catch(() => undefined) : undefined
    // Another call already started a session, or replaced the stale one: use that.
    if (current && current !== stale) return
    if (this.session === seen && !this.refused) {
      this.session = this.handshake(operation, budget).catch((error: unknown) => {
        if (error instanceof HubError) this.refused = error
        throw error
      })
    }
    try {
      if (this.refused) throw this.refused
      await this.session
    } catch (error) {
      if (!(error instanceof HubError)) throw error
      throw handshakeFailed(operation, this.deps.refusal(cause, operation, stale), error)
    }
  }

  /** `initialize` then `notifications/initialized` (MCP specification, lifecycle). */
  private async handshake(operation: string, budget: Budget): Promise<Session> {
    const { exchange, refusal } = this.deps
    const what = `${operation} (MCP initialize)`
    const init = await exchange(
      {
        method: 'initialize',
        id: this.deps.nextId(),
        params: {
          protocolVersion: MCP_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: 'hub-action', version: VERSION },
        },
      },
      what,
      budget,
      undefined,
    )
    if (init.kind === 'refused') throw refusal(init, what, undefined)
    if (init.kind === 'accepted') throw malformed(what, 202, 'an acknowledgement without an answer to initialize')
    if (init.response.error) throw rpcFailure(init.response.error, 'initialize', what)
    const parsed = InitializeResult.safeParse(init.response.result)
    if (!parsed.success) throw unexpected(what, 'initialize result', parsed.error)
    const protocolVersion = parsed.data.protocolVersion
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion))
      throw unsupportedProtocol(what, protocolVersion, SUPPORTED_PROTOCOL_VERSIONS)
    const id = init.sessionId
    if (id !== undefined && !SESSION_ID_RE.test(id))
      throw malformed(what, 200, 'an Mcp-Session-Id header with characters the specification does not allow')
    const session: Session = { id, protocolVersion }
    const ready = await exchange({ method: 'notifications/initialized' }, what, budget, session)
    if (ready.kind === 'refused') throw refusal(ready, what, session)
    this.deps.log(
      `MCP: the server asked for a session; using ${id ? 'one' : 'none (it keeps no state)'} with protocol ${protocolVersion}.`,
    )
    return session
  }
}
