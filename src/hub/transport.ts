/**
 * The one way to the hub: base URL, headers, per-attempt timeouts, retries, error mapping
 * and redaction. Clients describe a call; the transport decides whether and when to send it
 * again. It takes an undici Dispatcher so tests can inject a MockAgent.
 */
import type { Dispatcher } from 'undici'
import type { z } from 'zod'
import { VERSION } from '../version.js'
import { HubConnectionError, HubError, HubProtocolError } from './errors.js'
import { defaultDispatcher, errorCode, headerValue, send } from './http.js'
import { hubFailure, type FailureContext } from './failures.js'
import { DEFAULT_RETRY_POLICY, decideRetry, type AttemptOutcome, type RetryPolicy } from './retry.js'

export interface HubIdentity {
  baseUrl: URL
  token: string
  org: string
  workspace: string
  clusterId?: string | undefined
}

export interface TransportOptions extends HubIdentity {
  /** Defaults to an agent that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
  dispatcher?: Dispatcher
  retryPolicy?: RetryPolicy
  /** Where retries are reported; the text never holds the token. */
  log?: (message: string) => void
  /**
   * A fresh bearer when the hub answers 401: short-lived tokens (GitHub OIDC tokens last
   * minutes) may expire during a long wait. Called at most once per request.
   */
  renewToken?: () => Promise<string>
  /** Pluggable for tests of the retry timing; resolves early when the signal aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

export interface HubCall<T> {
  method: 'GET' | 'POST'
  /** Below the base URL, starting with /services/. */
  path: string
  query?: Record<string, string>
  body?: unknown
  schema: z.ZodType<T>
  /** Verb phrase for messages: `start a run of agent "triage"`. */
  operation: string
  /** What a 404 is about: `agent "triage"`. */
  subject?: string
  /** Ceiling for one attempt. Long-polls pass their hold plus slack. */
  timeoutMs?: number
  /** May the hub see this request twice? GETs may; a POST only when it is idempotent. */
  repeatable: boolean
  /** Said when a request that may not be repeated lost its answer: what may have happened. */
  unsureDelivery?: string
  /** Statuses that answer the call rather than fail it (cancel's 409 "already settled"). */
  acceptStatus?: readonly number[]
  signal?: AbortSignal
}

export interface HubResponse<T> {
  status: number
  /** Parsed body for 2xx; undefined for an accepted non-2xx status. */
  data: T | undefined
}

const DEFAULT_TIMEOUT_MS = 30_000
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

export class HubTransport {
  private current: Readonly<HubIdentity>
  /** Every token used so far, for redaction. */
  private readonly tokens = new Set<string>()
  private readonly renewToken: (() => Promise<string>) | undefined
  private readonly dispatcher: Dispatcher
  private readonly ownsDispatcher: boolean
  private readonly policy: RetryPolicy
  private readonly log: (message: string) => void
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>

  constructor(options: TransportOptions) {
    this.current = Object.freeze({
      baseUrl: options.baseUrl,
      token: options.token,
      org: options.org,
      workspace: options.workspace,
      clusterId: options.clusterId,
    })
    this.tokens.add(options.token)
    this.renewToken = options.renewToken
    this.ownsDispatcher = options.dispatcher === undefined
    this.dispatcher = options.dispatcher ?? defaultDispatcher()
    this.policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY
    this.log = options.log ?? (() => {})
    this.sleep = options.sleep ?? abortableSleep
  }

  get identity(): Readonly<HubIdentity> {
    return this.current
  }

  async call<T>(call: HubCall<T>): Promise<HubResponse<T>> {
    const url = this.url(call.path, call.query)
    const context: FailureContext = {
      operation: call.operation,
      subject: call.subject,
      org: this.current.org,
      workspace: this.current.workspace,
      clusterId: this.current.clusterId,
    }
    let renewed = false
    for (let attempt = 1; ; attempt++) {
      let outcome: AttemptOutcome
      let failure: HubError
      try {
        const answer = await this.attempt(url, call)
        if ((answer.status >= 200 && answer.status < 300) || call.acceptStatus?.includes(answer.status)) {
          return this.parse(answer, call)
        }
        if (answer.status === 401 && this.renewToken && !renewed) {
          renewed = true
          await this.renew()
          continue
        }
        outcome = { kind: 'status', status: answer.status, retryAfter: answer.retryAfter }
        failure = hubFailure(answer, context)
      } catch (error) {
        if (call.signal?.aborted) throw call.signal.reason ?? error
        if (error instanceof HubError) throw error
        failure = this.connectionFailure(error, call)
        if (PERMANENT_CONNECTION_CODES.has(errorCode(error) ?? '')) throw failure
        outcome = { kind: 'connection' }
      }
      const decision = decideRetry(outcome, attempt, call.repeatable, this.policy, Date.now())
      if (!decision.retry) throw this.redactError(failure)
      this.log(
        this.redact(
          `Hub: ${call.method} ${call.path} ${describeOutcome(outcome)}; retry ${attempt}/${this.policy.maxAttempts - 1} in ${(decision.delayMs / 1000).toFixed(1)} s`,
        ),
      )
      await this.sleep(decision.delayMs, call.signal)
      if (call.signal?.aborted) throw call.signal.reason
    }
  }

  private async renew(): Promise<void> {
    const token = await (this.renewToken as () => Promise<string>)()
    this.tokens.add(token)
    this.current = Object.freeze({ ...this.current, token })
    this.log('Hub: the token was refused (401); retrying once with a fresh one.')
  }

  /** Replace the token wherever it might appear in text bound for a log or a message. */
  redact(text: string): string {
    let out = text
    for (const token of this.tokens) if (token) out = out.split(token).join('***')
    // A credential-looking word after "Bearer" (not the hub's "invalid bearer token").
    out = out.replace(/(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/gi, '$1***')
    return out
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close()
  }

  private url(path: string, query?: Record<string, string>): URL {
    const prefix = this.current.baseUrl.pathname.replace(/\/+$/, '')
    const url = new URL(prefix + path, this.current.baseUrl)
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value)
    return url
  }

  /** The request exactly as it would be sent, with the token shown as ***: for dry runs. */
  describe(call: HubCall<unknown>): { method: string; url: string; headers: Record<string, string>; body?: unknown } {
    const { url, headers } = this.prepare(call)
    return {
      method: call.method,
      url: url.href,
      headers: { ...headers, authorization: 'Bearer ***' },
      ...(call.body !== undefined ? { body: call.body } : {}),
    }
  }

  private prepare(call: HubCall<unknown>): { url: URL; headers: Record<string, string>; body: string | undefined } {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.current.token}`,
      'x-hub-org': this.current.org,
      'x-hub-workspace': this.current.workspace,
      accept: 'application/json',
      'user-agent': `hub-action/${VERSION}`,
    }
    let body: string | undefined
    if (call.body !== undefined) {
      body = JSON.stringify(call.body)
      headers['content-type'] = 'application/json'
    }
    return { url: this.url(call.path, call.query), headers, body }
  }

  private async attempt(url: URL, call: HubCall<unknown>) {
    const timeout = AbortSignal.timeout(call.timeoutMs ?? DEFAULT_TIMEOUT_MS)
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout
    const { headers, body } = this.prepare(call)
    const response = await send(this.dispatcher, url, {
      method: call.method,
      headers,
      body,
      signal,
      // The AbortSignal is the per-attempt ceiling; undici's own timers must not cut a long-poll first.
      headersTimeout: 0,
      bodyTimeout: 0,
    })
    const text = await response.body.text()
    const contentType = headerValue(response.headers['content-type'])
    const retryAfter = headerValue(response.headers['retry-after']) || undefined
    return { status: response.statusCode, contentType, body: text, retryAfter }
  }

  private parse<T>(answer: { status: number; contentType: string; body: string }, call: HubCall<T>): HubResponse<T> {
    if (answer.status < 200 || answer.status >= 300) return { status: answer.status, data: undefined }
    const type = answer.contentType.toLowerCase()
    if (!type.includes('json')) {
      const html = type.includes('html')
      throw new HubProtocolError({
        operation: call.operation,
        status: answer.status,
        hubMessage: html ? 'an HTML page instead of JSON' : `a ${answer.contentType || 'body without Content-Type'} instead of JSON`,
        hint: html
          ? '`hub-url` seems to point at the portal or a wrong path: use the hub base URL that serves /services/providers/….'
          : 'Something between the action and the hub answered instead of the hub: check `hub-url` and any proxy in between.',
      })
    }
    let json: unknown
    try {
      json = JSON.parse(answer.body)
    } catch (cause) {
      throw new HubProtocolError({
        operation: call.operation,
        status: answer.status,
        hubMessage: 'a body that is not valid JSON',
        hint: 'The answer was cut or garbled on the way: try again, and check any proxy between the action and the hub.',
        cause,
      })
    }
    const parsed = call.schema.safeParse(json)
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')
      throw new HubProtocolError({
        operation: call.operation,
        status: answer.status,
        hubMessage: `an unexpected body (${issues})`,
        hint: 'The hub speaks a different version of the API than this action expects: check `hub-url`, and report this with the hub version.',
        cause: parsed.error,
      })
    }
    return { status: answer.status, data: parsed.data }
  }

  private connectionFailure(error: unknown, call: HubCall<unknown>): HubError {
    const code = errorCode(error)
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT')
    const host = this.current.baseUrl.host
    let hint: string
    if (timedOut) {
      hint = `No answer from ${host} within ${Math.round((call.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s: check that the hub is up and reachable from the runner.`
    } else if (code && code.includes('CERT')) {
      hint = `TLS verification of ${host} failed (${code}): for a hub with a private CA, point NODE_EXTRA_CA_CERTS at the CA bundle in the step's env.`
    } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      hint = `The host ${host} could not be resolved: check \`hub-url\`, and HTTPS_PROXY/NO_PROXY on self-hosted runners.`
    } else {
      hint = `The connection to ${host} failed${code ? ` (${code})` : ''}: check \`hub-url\`, the network and any proxy (HTTPS_PROXY/NO_PROXY).`
    }
    if (!call.repeatable && call.unsureDelivery) hint = `${hint} ${call.unsureDelivery}`
    return new HubConnectionError({ operation: call.operation, hint, cause: error })
  }

  private redactError(error: HubError): HubError {
    const redacted = this.redact(error.message)
    if (redacted !== error.message) error.message = redacted
    return error
  }
}

function describeOutcome(outcome: AttemptOutcome): string {
  return outcome.kind === 'status' ? `answered ${outcome.status}` : 'lost its connection'
}

/** setTimeout that ends early, without throwing, when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}
