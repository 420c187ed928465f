/**
 * What the transport (./transport.ts) says when a request fails without a refusal to read: no
 * connection, an answer past its cap, a deadline passed — the caller's own, or the step's one
 * time budget (src/http/budget.ts), which names what it waited on.
 */
import type { Budget } from '../http/budget.js'
import { errorCode, type BodyCapError } from '../http/wire.js'
import { formatBytes, formatDuration } from '../units.js'
import { renderError } from '../errors.js'
import { isLoopback } from '../settings/fields.js'
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

/** How a request fared before its deadline, for the deadline's words. */
interface Waited {
  /** Attempts sent (0: the deadline had passed before the first). */
  attempts: number
  /** Milliseconds since the first attempt was sent. */
  ms: number
  /** Did the request's origin answer anything (any status) during this step? */
  originAnswered: boolean
}

export function deadlinePassed(
  wire: Addressed,
  last: HubError | undefined,
  budget: Budget | undefined,
  deadline: number | undefined,
  waited: Waited,
): HubDeadlineError {
  const lastWords = last ? ` The last attempt: ${renderError(last)}` : ''
  const request = `${wire.method} ${wire.url.origin}${wire.url.pathname}`
  const held = ` (${formatDuration(waited.ms)} on it${waited.attempts > 1 ? `, ${waited.attempts} attempts` : ''})`
  const cause = likelyCause(wire, waited)
  if (budget?.binds(deadline)) {
    // An attempt the budget cut short says nothing more than the budget does ("no answer within 45 s" would mislead).
    const cut = last?.cause instanceof Error && last.cause.name === 'TimeoutError'
    const spent =
      waited.attempts === 0
        ? `timeout-seconds (${budget.seconds ?? 0} s), the step's one time budget, ran out before ${request} could be sent: the requests before it used all of it.`
        : `${budget.ranOut(whoAnswers(wire))}: it was still waiting for ${request}${held}.`
    return new BudgetSpentError({
      operation: wire.operation,
      hint: `${spent} ${cause}${cut ? '' : lastWords}`,
      ...(last ? { cause: last } : {}),
    })
  }
  const asked = waited.attempts === 0 ? `before ${request} could be sent` : `before ${request} was answered${held}`
  return new HubDeadlineError({
    operation: wire.operation,
    hint: `The time budget ran out ${asked}. ${cause}${lastWords}`,
    ...(last ? { cause: last } : {}),
  })
}

/**
 * Why a request may have gone unanswered: an origin that answered nothing all step is down or
 * unreachable (or is not the hub); one that answered before is up, and only slow.
 */
function likelyCause(wire: Addressed, waited: Waited): string {
  const origin = wire.url.origin
  if (waited.originAnswered)
    return `${origin} has answered during this step, so it is up but slow to answer this request: raise \`timeout-seconds\` if the step is only slow; else check that the hub and its providers are up.`
  return `${origin} answered none of this step's requests: it is likely down or unreachable from the runner (a firewall that drops the connection, a proxy that holds it), or \`${wire.urlInput ?? 'hub-url'}\` points at a server that accepts connections but is not the hub. Check that the hub at ${origin} is up and reachable from the runner.`
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

/** An attempt cut for want of an answer (its own ceiling): the host was reached, or may have been. */
function answerTimedOut(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || errorCode(error) === 'UND_ERR_HEADERS_TIMEOUT')
}

/**
 * The hub could not be reached at all (refused, DNS, TLS, reset), or the step's time is spent:
 * any request that followed would fail the same way, so the first failure is the one to report.
 */
export function hubUnreachable(error: unknown): boolean {
  if (error instanceof HubDeadlineError) return true
  return error instanceof HubConnectionError && !answerTimedOut(error.cause)
}

export function connectionFailure(error: unknown, call: Addressed): HubError {
  const code = errorCode(error)
  const timedOut = answerTimedOut(error)
  const host = call.url.host
  const input = call.urlInput ?? 'hub-url'
  let hint: string
  if (timedOut) {
    hint = `No answer from ${host} within ${Math.round((call.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s: check that the hub is up and reachable from the runner.`
  } else if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    hint = wrongHostName(error, call.url, input)
  } else if (code === 'CERT_HAS_EXPIRED') {
    hint = `The TLS certificate of ${host} has expired (${code}): its operators must renew it. NODE_EXTRA_CA_CERTS cannot help: it adds trusted CAs, and an expired certificate stays expired.`
  } else if (code && code.includes('CERT')) {
    hint = `TLS verification of ${host} failed (${code}): for a hub with a private CA, point NODE_EXTRA_CA_CERTS at the CA bundle in the step's env.`
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    hint = `The host ${host} could not be resolved: check \`${input}\`, and HTTPS_PROXY/NO_PROXY on self-hosted runners.`
  } else if (code === 'ECONNREFUSED') {
    hint = `The connection to ${host} was refused (ECONNREFUSED): nothing listens there. Check \`${input}\` (its host and port), and that the hub is up.${emulatorAdvice(call.url, input)}`
  } else {
    hint = `The connection to ${host} failed${code ? ` (${code})` : ''}: check \`${input}\`, the network and any proxy (HTTPS_PROXY/NO_PROXY).`
  }
  // Refused, unresolved or not trusted: no byte of the request left, so nothing can have been done twice.
  const neverSent = code === 'ECONNREFUSED' || PERMANENT_CONNECTION_CODES.has(code ?? '')
  if (!call.repeatable && call.unsureDelivery && !neverSent) hint = `${hint} ${call.unsureDelivery}`
  return new HubConnectionError({ operation: call.operation, hint, cause: error })
}

/** A hub on loopback that refuses connections is, locally, most often the emulator not started yet. */
function emulatorAdvice(url: URL, input: string): string {
  // The emulator serves plain http.
  if (input !== 'hub-url' || url.protocol !== 'http:' || !isLoopback(url.hostname)) return ''
  const port = url.port || '80'
  return ` For local use, start the hub emulator first, in another terminal: \`npm run emulator -- --port ${port}\`.`
}

/**
 * The certificate was trusted but is for another name: a wrong host in the URL (an IP address,
 * an internal alias), which only the URL can fix. Node checks the name only once the chain is
 * verified, so an unknown CA would have failed first.
 */
function wrongHostName(error: unknown, url: URL, input: string): string {
  const names = certificateNames(error)
  const named = names.length > 0 ? `it is for ${names.join(', ')}` : 'it names other hosts'
  const plain = names.find((name) => !name.includes('*') && !/^[\d.:[\]]+$/.test(name))
  const example = plain ? ` (e.g. ${url.protocol}//${plain}${url.port ? `:${url.port}` : ''})` : ''
  return `The TLS certificate of ${url.host} does not name ${url.hostname} (ERR_TLS_CERT_ALTNAME_INVALID): ${named}. Set \`${input}\` to the hub's URL with a host the certificate names${example}. NODE_EXTRA_CA_CERTS cannot help: it adds trusted CAs, and this certificate's CA was trusted; only its names differ from the URL's.`
}

/** Names are the server's words: only what a host name or address may hold, and a few of them. */
const CERT_NAME = /^[A-Za-z0-9*.:[\]-]{1,253}$/
const MAX_CERT_NAMES = 5

/** The DNS names and IP addresses of the peer certificate Node attaches to the error, if any. */
function certificateNames(error: unknown): string[] {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const cert = (current as { cert?: { subjectaltname?: unknown; subject?: { CN?: unknown } } }).cert
    if (cert && typeof cert === 'object') {
      const alt = typeof cert.subjectaltname === 'string' ? cert.subjectaltname : ''
      const names = alt
        .split(',')
        .map((entry) => entry.trim().replace(/^(DNS|IP Address):/, ''))
        .filter((name) => CERT_NAME.test(name))
      const cn = typeof cert.subject?.CN === 'string' && CERT_NAME.test(cert.subject.CN) ? [cert.subject.CN] : []
      const all = names.length > 0 ? names : cn
      return all.length > MAX_CERT_NAMES
        ? [...all.slice(0, MAX_CERT_NAMES), `${all.length - MAX_CERT_NAMES} more`]
        : all
    }
    current = (current as { cause?: unknown }).cause
  }
  return []
}
