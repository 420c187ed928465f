/**
 * What an MCP failure means to a user, as hub errors with hints that name MCP's inputs
 * (`mcp-url`, never `cluster-id`). Every server word in them was redacted as it was received,
 * and is clipped only after that, so a clip never splits a token into view.
 */
import type * as z from '../../zod.js'
import { renderError } from '../../errors.js'
import { redact } from '../../redact.js'
import {
  HubAuthError,
  HubDeadlineError,
  HubNotFoundError,
  HubProtocolError,
  HubRequestError,
  HubServerError,
  hubFailure,
  type FailureContext,
  type HubError,
  clipText,
} from '../errors.js'
import { errorCode, type BodyCapError } from '../../http/wire.js'
import { formatBytes } from '../../units.js'
import type { RefusedAnswer, ResponseLimits } from '../transport.js'
import { RPC_TIMEOUT_CODE, isUnknownTool, rpcErrorText, type RpcError } from './json-rpc.js'

/** The hub caps tool output at 256 KiB (docs/hub-facts.md, "Limits"); an answer far bigger than that is not the tool's. */
export const ANSWER_LIMITS: ResponseLimits = Object.freeze({
  name: 'an MCP answer',
  maxBytes: 4 * 1024 * 1024,
  hint: "Reading stopped at the cap. Something other than the hub's MCP tool answered, or the server streamed without end: check `mcp-url` and any proxy in between.",
})

const PUBLISHED_URL = '…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp'

/** Where a refused call went, and how far the lifecycle got. */
export interface RefusalContext {
  url: URL
  org: string
  workspace: string
  /** The session the call went in; absent before any handshake. */
  session: { id: string | undefined } | undefined
  /** The server refused the initialize handshake already. */
  handshakeRefused: boolean
}

/** An HTTP refusal in the house wording, with hints that fit MCP. */
export function refusal(answer: RefusedAnswer, operation: string, where: RefusalContext): HubError {
  const context: FailureContext = { operation, subject: 'the MCP endpoint', org: where.org, workspace: where.workspace }
  // JSON-RPC error bodies (what MCP servers send with 400 and 404) carry their text under error.message.
  // The transport redacted the body already (a proxy may echo request headers), before any clip.
  const body = rpcErrorText(answer) ?? answer.body
  const failure = hubFailure(
    { ...answer, contentType: body === answer.body ? answer.contentType : 'text/plain', body },
    context,
  )
  const { host, pathname } = where.url
  const session = where.session
  if (answer.status === 401) {
    return failure.with(
      {
        hint: `The MCP endpoint at ${host} refused the token: the hub's aggregate takes any non-empty bearer, so the token was empty or a gateway in front of it refused it. Check \`token\` and \`mcp-url\` (\`cluster-id\` does nothing for the MCP source).`,
      },
      HubAuthError,
    )
  }
  if (answer.status === 403) {
    return failure.with(
      {
        hint: `The MCP endpoint at ${host} refused this token: use a token of a user or service account with access to workspace ${where.workspace}, and check that \`mcp-url\` belongs to that workspace.`,
      },
      HubAuthError,
    )
  }
  if (answer.status === 400) {
    const tried = session
      ? ', also after the MCP initialize handshake'
      : where.handshakeRefused
        ? ', and refused the MCP initialize handshake too'
        : ''
    return failure.with(
      {
        hint: session?.id
          ? 'The MCP server refused the call within its session: check that `mcp-url` is the MCP server URL the hub publishes, and report this with the server version.'
          : `The MCP endpoint refused the call as sent${tried}: check that \`mcp-url\` is the MCP server URL the hub publishes (${PUBLISHED_URL}). \`cluster-id\`, \`org\` and \`workspace\` do not change what the MCP endpoint accepts.`,
      },
      HubRequestError,
    )
  }
  if (failure instanceof HubNotFoundError) {
    return failure.with({
      hint: session?.id
        ? `The MCP server at ${host}${pathname} lost our session again right after a new one was started: check that \`mcp-url\` points at one server (not a pool without shared sessions), and try again.`
        : `No MCP endpoint at ${host}${pathname}: set \`mcp-url\` to the MCP server URL the hub publishes in its status (${PUBLISHED_URL}), and check that \`org\` and \`workspace\` name that workspace.`,
    })
  }
  if (failure instanceof HubProtocolError) {
    return failure.with({
      hint: "`mcp-url` seems to point at the portal rather than the hub's MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).",
    })
  }
  return failure
}

/** The server asked for a session with `first` (a 400), and the handshake failed with `error`. */
export function handshakeFailed(operation: string, first: HubError, error: HubError): HubProtocolError {
  return new HubProtocolError({
    operation,
    status: first.status,
    hubMessage: first.hubMessage,
    hint: `The server asked for an MCP session and the initialize handshake failed too (${renderError(error)}). Check that \`mcp-url\` is the MCP server URL the hub publishes (${PUBLISHED_URL}).`,
    cause: error,
  })
}

/**
 * A JSON-RPC error, read by its code and its text: the aggregate wraps what the provider said
 * (bad arguments included) with code 0 and `provider "graph" tool "graph_impact": …` (docs/hub-facts.md, "MCP").
 */
export function rpcFailure(error: RpcError, tool: string, operation: string): HubError {
  const base = { operation, reason: `JSON-RPC ${error.code}`, hubMessage: said(error.message) }
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
  if (
    error.code === -32602 ||
    (error.code === 0 && /invalid (input|param|argument)|unknown field|required|must be|validat/.test(message))
  ) {
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

/** The tool ran and said it failed (`isError`). */
export function toolRefused(operation: string, text: string | undefined): HubRequestError {
  return new HubRequestError({
    operation,
    hubMessage: said(text?.trim() || 'the tool failed without saying why'),
    hint: 'The graph impact tool refused the request: check the object named in its message (`targets`, `manifests`, `namespace`) and `max-depth` (1 to 20).',
  })
}

/** One MCP call's budget ran out: a deadline, like any hub call's (the caller decides what it means). */
export function deadlineFailure(operation: string, url: URL, timeoutMs: number, cause: unknown): HubDeadlineError {
  return new HubDeadlineError({
    operation,
    hint: `No answer from ${url.host} within ${Math.round(timeoutMs / 1000)} s, the budget of one MCP call: check that the hub is up and reachable from the runner, and that \`mcp-url\` is right.`,
    cause,
  })
}

/** The cap in MCP's words: what one MCP answer may be, and what the tool's output is at most. */
export function tooLarge(error: HubProtocolError, cap: BodyCapError): HubProtocolError {
  return new HubProtocolError({
    operation: error.operation,
    status: error.status,
    hubMessage: `an answer larger than ${formatBytes(cap.limits.maxBytes)}, the most this action reads from one MCP answer (the hub's tool output is at most 256 KiB)`,
    hint: ANSWER_LIMITS.hint,
    cause: cap,
  })
}

/** A 2xx answer that is neither an event stream nor JSON. */
export function notMcp(operation: string, status: number, contentType: string): HubProtocolError {
  const html = contentType.toLowerCase().includes('html')
  return new HubProtocolError({
    operation,
    status,
    hubMessage: html
      ? 'an HTML page instead of an MCP answer'
      : `a ${said(contentType, 100) || 'body without Content-Type'} instead of an MCP answer`,
    hint: html
      ? '`mcp-url` seems to point at the portal, not the MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).'
      : "Something other than the hub's MCP endpoint answered: check `mcp-url` and any proxy in between.",
  })
}

export function unsupportedProtocol(
  operation: string,
  version: string,
  supported: readonly string[],
): HubProtocolError {
  return new HubProtocolError({
    operation,
    hubMessage: said(`protocol version ${version}`, 100),
    hint: `The MCP server at \`mcp-url\` speaks a protocol version this action does not (it speaks ${supported.join(', ')}): use the MCP server URL the hub publishes, or update the action.`,
  })
}

export function malformed(operation: string, status: number, what: string, cause?: unknown): HubProtocolError {
  return new HubProtocolError({
    operation,
    status,
    hubMessage: what,
    hint: "The answer was cut or garbled on the way, or `mcp-url` is not the hub's MCP endpoint: try again, and check `mcp-url` and any proxy in between.",
    cause,
  })
}

export function unexpected(
  operation: string,
  what: string,
  error: z.core.$ZodError,
  status?: number,
): HubProtocolError {
  const issues = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ')
  return new HubProtocolError({
    operation,
    status,
    hubMessage: said(`an unexpected ${what} (${issues})`),
    hint: 'The MCP endpoint speaks a different version of the tool than this action expects: check `mcp-url`, and report this with the hub version.',
    cause: error,
  })
}

/** The transport aborts an attempt at its ceiling: undici reports that as the signal's TimeoutError or an abort. */
export function cutByTimeout(error: unknown): boolean {
  const code = errorCode(error)
  return (
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_ABORTED'
  )
}

/** Server text for a message: redacted (again: parsing may have decoded an escaped secret), then clipped. */
function said(text: string, max = 500): string {
  return clipText(redact(text), max)
}
