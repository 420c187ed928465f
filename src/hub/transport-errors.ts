/**
 * What the transport (./transport.ts) says when a request fails without a refusal to read: no
 * connection, an answer past its cap, a deadline passed — the caller's own, or the step's one
 * time budget (src/http/budget.ts), which names what it waited on.
 */
import type { Budget } from '../http/budget.js'
import { errorCode, type BodyCapError } from '../http/wire.js'
import { formatBytes } from '../units.js'
import { renderError } from '../errors.js'
import { HubConnectionError, HubDeadlineError, HubProtocolError, type HubError } from './errors.js'
import type { HubRequest, ResponseLimits } from './request.js'

/** One attempt's ceiling when the request names none. */
export const DEFAULT_TIMEOUT_MS = 30_000

/** Connection failures that another attempt cannot fix: DNS and TLS verification. */
export const PERMANENT_CONNECTION_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

/** A request with its URL resolved, as the retry loop sends it. */
export type Addressed = HubRequest & { url: URL }

/**
 * The step's `timeout-seconds` ran out inside a request: a deadline like any other (the run loop
 * applies `on-timeout` to it), whose words say which budget it was and what it waited on.
 */
export class BudgetSpentError extends HubDeadlineError {}

/** Who a request waits on, for the budget's message: the graph, the agents provider, or the MCP endpoint. */
function whoAnswers(wire: Addressed): string {
  if (wire.path === undefined) return `The MCP endpoint at ${wire.url.host}`
  if (wire.path.startsWith('/services/providers/graph')) return 'The graph'
  if (wire.path.startsWith('/services/providers/agents')) return "The hub's agents provider"
  return 'The hub'
}

export function deadlinePassed(
  wire: Addressed,
  last: HubError | undefined,
  budget: Budget | undefined,
  deadline: number | undefined,
): HubDeadlineError {
  const lastWords = last ? ` The last attempt: ${renderError(last)}` : ''
  if (budget?.binds(deadline)) {
    // An attempt the budget cut short says nothing more than the budget does ("no answer within 45 s" would mislead).
    const cut = last?.cause instanceof Error && last.cause.name === 'TimeoutError'
    return new BudgetSpentError({
      operation: wire.operation,
      hint: `${budget.ranOut(whoAnswers(wire))}: it was still waiting for ${wire.method} ${wire.url.pathname}. Raise \`timeout-seconds\`, or check that the hub and its providers are up.${cut ? '' : lastWords}`,
      ...(last ? { cause: last } : {}),
    })
  }
  return new HubDeadlineError({
    operation: wire.operation,
    hint: `The time budget ran out before the hub answered.${lastWords}`,
    ...(last ? { cause: last } : {}),
  })
}

export function tooLarge(
  error: BodyCapError,
  wire: Addressed,
  status: number,
  fallback: ResponseLimits,
): HubProtocolError {
  const limits = error.limits
  return new HubProtocolError({
    operation: wire.operation,
    status,
    hubMessage: `${error.message}; the action stopped reading at the cap of ${formatBytes(limits.maxBytes)}${limits.maxValues ? ` / ${limits.maxValues.toLocaleString('en-US')} values` : ''} for ${wire.method} ${wire.url.pathname}`,
    hint: wire.limits?.hint ?? fallback.hint,
    cause: error,
  })
}

export function connectionFailure(error: unknown, call: Addressed): HubError {
  const code = errorCode(error)
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT')
  const host = call.url.host
  const input = call.urlInput ?? 'hub-url'
  let hint: string
  if (timedOut) {
    hint = `No answer from ${host} within ${Math.round((call.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s: check that the hub is up and reachable from the runner.`
  } else if (code && code.includes('CERT')) {
    hint = `TLS verification of ${host} failed (${code}): for a hub with a private CA, point NODE_EXTRA_CA_CERTS at the CA bundle in the step's env.`
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    hint = `The host ${host} could not be resolved: check \`${input}\`, and HTTPS_PROXY/NO_PROXY on self-hosted runners.`
  } else {
    hint = `The connection to ${host} failed${code ? ` (${code})` : ''}: check \`${input}\`, the network and any proxy (HTTPS_PROXY/NO_PROXY).`
  }
  if (!call.repeatable && call.unsureDelivery) hint = `${hint} ${call.unsureDelivery}`
  return new HubConnectionError({ operation: call.operation, hint, cause: error })
}
