/**
 * The one way to the hub: base URL, headers, per-attempt timeouts inside the caller's one
 * deadline, body caps, retries, error mapping and redaction. Clients describe a call; the
 * transport decides whether and when to send it again. It takes an undici Dispatcher so
 * tests can inject a MockAgent.
 */
import type { Dispatcher } from 'undici'
import type { z } from 'zod'
import { renderError } from '../errors.js'
import { VERSION } from '../version.js'
import { HubConnectionError, HubDeadlineError, HubError, HubProtocolError } from './errors.js'
import { BodyCapError, errorCode, headerValue, hubDispatcher, readCapped, send, type BodyLimits } from './http.js'
import { formatBytes } from '../markdown/format.js'
import { hubFailure, type FailureContext } from './errors.js'
import { readMessages, type ReadAnswer } from './sse.js'
import { redact, redactValue, registerSecret } from '../redact.js'
import { DEFAULT_RETRY_POLICY, decideRetry, type AttemptOutcome, type RetryPolicy } from './retry.js'

export interface HubIdentity {
  baseUrl: URL
  token: string
  org: string
  workspace: string
  clusterId?: string | undefined
}

export interface TransportOptions extends HubIdentity {
  /** Defaults to hubDispatcher: HTTPS_PROXY / HTTP_PROXY / NO_PROXY for https, plain http direct. */
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
  /** The clock deadlines are read against (tests move it). */
  now?: () => number
}

/** What a body may be when the hub answers with its own limits (hub-behaviour.md §1, §5). */
export interface ResponseLimits extends BodyLimits {
  /** What the user can do when the cap is passed. */
  hint: string
}

/**
 * Every answer but a query page: a run detail holds at most a 256 KiB output, 500-byte
 * messages and the steps' clipped args and results, so 8 MiB and half a million JSON
 * values leave room for thousands of steps.
 */
const DEFAULT_BODY_LIMITS: ResponseLimits = Object.freeze({
  name: 'one answer (a run, an agent, the edge list)',
  maxBytes: 8 * 1024 * 1024,
  maxValues: 500_000,
  maxDepth: 64,
  hint: 'No run detail or other single answer is that large: `hub-url` may point at something that is not the hub, or a proxy in between garbles the answer. Report it to the hub administrators.',
})
/** Only the first words of an error body are quoted (500 characters): the rest is dropped unread. */
const ERROR_BODY_BYTES = 64 * 1024

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
  /**
   * When the caller's time budget ends (ms since epoch): no attempt, body reading included,
   * outlives it and no retry starts after it; then HubDeadlineError.
   */
  deadline?: number | undefined
  /** Retry transient failures until the deadline rather than `maxAttempts` times (waits). */
  retryUntilDeadline?: boolean
  /** Caps of a successful body; default DEFAULT_BODY_LIMITS. */
  limits?: ResponseLimits
}

/** A call of `stream`: the caller's URL and headers, its reading of messages and refusals. */
export interface HubStreamCall<T> {
  method: 'POST' | 'DELETE'
  /** A whole URL the hub published (the MCP endpoint), used as given. */
  url: URL
  /** Added to (or replacing) the identity headers: accept, protocol headers. */
  headers?: Record<string, string>
  body?: unknown
  operation: string
  subject?: string
  /** Ceiling for one attempt, body included. */
  timeoutMs?: number
  deadline?: number | undefined
  signal?: AbortSignal | undefined
  repeatable: boolean
  unsureDelivery?: string
  /** Caps of the answer, with what the user can do when one is passed. */
  limits: ResponseLimits
  /** Reads one message (an event's data, or the whole JSON body); the first it returns ends the reading. Absent: the body is not read. */
  pick?: ((message: string, status: number) => T | undefined) | undefined
  /** Refused statuses the caller handles itself (its protocol's 400 and 404): returned, redacted, not retried. */
  returnStatus?: readonly number[]
  /** The caller's reading of a refusal (hints naming its inputs); the body is already redacted. */
  refusal?: (answer: RefusedAnswer) => HubError
  policy?: RetryPolicy
  /** Opens the retry log lines: `MCP: graph__graph_impact`. */
  label?: string
  /** The input that names the URL, for connection hints. */
  urlInput?: string
}

/** A refused HTTP answer: its status, type, first 64 KiB (redacted) and Retry-After. */
export interface RefusedAnswer {
  kind: 'refused'
  status: number
  contentType: string
  body: string
  retryAfter: string | undefined
}

export type StreamAnswer<T> = ReadAnswer<T> | RefusedAnswer

/** One request as the retry loop sees it, whichever public call built it. */
interface Wire {
  method: string
  url: URL
  headers?: Record<string, string>
  body?: unknown
  operation: string
  timeoutMs?: number | undefined
  deadline?: number | undefined
  signal?: AbortSignal | undefined
  repeatable: boolean
  unsureDelivery?: string | undefined
  limits?: ResponseLimits | undefined
  label: string
  policy: RetryPolicy
  passStatus: (status: number) => boolean
  returnStatus?: readonly number[] | undefined
  refusal: (answer: RefusedAnswer) => HubError
  urlInput?: string | undefined
}

export interface HubResponse<T> {
  status: number
  /** Parsed body for 2xx; undefined for an accepted non-2xx status. */
  data: T | undefined
}

const DEFAULT_TIMEOUT_MS = 30_000
/** Connection failures that another attempt cannot fix: DNS and TLS verification. */
const PERMANENT_CONNECTION_CODES: ReadonlySet<string> = new Set([
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
  private readonly renewToken: (() => Promise<string>) | undefined
  private readonly dispatcher: Dispatcher
  private readonly ownsDispatcher: boolean
  private readonly policy: RetryPolicy
  private readonly log: (message: string) => void
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>
  private readonly now: () => number
  private readonly beforeClose: Array<() => Promise<void>> = []

  constructor(options: TransportOptions) {
    this.current = Object.freeze({
      baseUrl: options.baseUrl,
      token: options.token,
      org: options.org,
      workspace: options.workspace,
      clusterId: options.clusterId,
    })
    registerSecret(options.token)
    this.renewToken = options.renewToken
    this.ownsDispatcher = options.dispatcher === undefined
    this.dispatcher = options.dispatcher ?? hubDispatcher()
    this.policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY
    this.log = options.log ?? (() => {})
    this.sleep = options.sleep ?? abortableSleep
    this.now = options.now ?? Date.now
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
      hubUrl: this.current.baseUrl.href,
      request: `${call.method} ${url.origin}${url.pathname}`,
    }
    const answer = await this.exchange<HubResponse<T>>(
      {
        ...call,
        url,
        headers: { accept: 'application/json' },
        label: `Hub: ${call.method} ${call.path}`,
        policy: call.retryUntilDeadline && call.deadline !== undefined ? { ...this.policy, maxAttempts: Infinity } : this.policy,
        passStatus: (status) => (status >= 200 && status < 300) || call.acceptStatus?.includes(status) === true,
        refusal: (said) => hubFailure(said, context),
      },
      async (response, signal) => {
        const status = response.statusCode
        if (status < 200 || status >= 300) {
          await readCapped(response.body, { name: 'an accepted refusal', maxBytes: ERROR_BODY_BYTES }, { signal, truncate: true })
          return { status, data: undefined }
        }
        const limits = call.limits ?? DEFAULT_BODY_LIMITS
        // A declared length past the cap is refused before a byte is read.
        if (Number(headerValue(response.headers['content-length']) || NaN) > limits.maxBytes) {
          response.body.destroy()
          throw new BodyCapError(limits, 'bytes')
        }
        const body = await readCapped(response.body, limits, { signal })
        return this.parse({ status, contentType: headerValue(response.headers['content-type']), body }, call)
      },
    )
    if (answer.kind === 'refused') throw new Error('unreachable: call() returns no refusal')
    return answer.value
  }

  /**
   * A POST to a whole URL outside the hub's API paths (the MCP endpoint) whose answer is an
   * event stream or JSON: each message goes to `pick` as it arrives, and reading stops at the
   * first it accepts. Same headers, token renewal, retries, deadline, caps and redaction as
   * `call`; the caller keeps its protocol (statuses in `returnStatus` come back to it).
   */
  async stream<T>(call: HubStreamCall<T>): Promise<StreamAnswer<T>> {
    const answer = await this.exchange<StreamAnswer<T>>(
      {
        ...call,
        label: call.label ?? `Hub: ${call.method} ${call.url.pathname}`,
        policy: call.policy ?? this.policy,
        passStatus: (status) => status >= 200 && status < 300,
        refusal:
          call.refusal ??
          ((said) => hubFailure(said, { operation: call.operation, subject: call.subject, org: this.current.org, workspace: this.current.workspace })),
      },
      (response, signal) => readMessages(response, call.limits, call.pick, signal),
    )
    return answer.kind === 'refused' ? answer : answer.value
  }

  /** The one retry loop: attempts within the deadline, 401 renewal, decideRetry, errors redacted. */
  private async exchange<A>(
    wire: Wire,
    read: (response: Dispatcher.ResponseData, signal: AbortSignal) => Promise<A>,
  ): Promise<{ kind: 'read'; value: A } | RefusedAnswer> {
    const policy = wire.policy
    let renewed = false
    let failure: HubError | undefined
    for (let attempt = 1; ; attempt++) {
      let outcome: AttemptOutcome
      if (wire.deadline !== undefined && wire.deadline - this.now() <= 0) throw this.deadlinePassed(wire, failure)
      try {
        const answer = await this.attempt(wire, read)
        if (answer.kind === 'read') return answer
        if (answer.status === 401 && this.renewToken && !renewed) {
          renewed = true
          await this.renew()
          continue
        }
        // Redact before anything clips the hub's words: a clipped token no longer matches.
        const said: RefusedAnswer = { ...answer, body: redact(answer.body) }
        if (wire.returnStatus?.includes(answer.status)) return said
        outcome = { kind: 'status', status: answer.status, retryAfter: answer.retryAfter }
        failure = wire.refusal(said)
      } catch (error) {
        if (wire.signal?.aborted) throw wire.signal.reason ?? error
        if (error instanceof HubError) throw error
        failure = this.connectionFailure(error, wire)
        if (wire.deadline !== undefined && wire.deadline - this.now() <= 0) throw this.deadlinePassed(wire, failure)
        if (PERMANENT_CONNECTION_CODES.has(errorCode(error) ?? '')) throw failure
        outcome = { kind: 'connection', code: errorCode(error) }
      }
      const decision = decideRetry(outcome, attempt, wire.repeatable, policy, this.now())
      if (!decision.retry) throw failure
      const left = wire.deadline === undefined ? Infinity : wire.deadline - this.now()
      // No retry that could only start after the budget ended.
      if (decision.delayMs >= left) throw this.deadlinePassed(wire, failure)
      const of = Number.isFinite(policy.maxAttempts) ? `/${policy.maxAttempts - 1}` : ''
      const until = Number.isFinite(left) && !Number.isFinite(policy.maxAttempts) ? ` (${Math.round(left / 1000)} s of the time budget left)` : ''
      this.log(redact(`${wire.label} ${describeOutcome(outcome)}; retry ${attempt}${of} in ${(decision.delayMs / 1000).toFixed(1)} s${until}`))
      await this.sleep(decision.delayMs, wire.signal)
      if (wire.signal?.aborted) throw wire.signal.reason
    }
  }

  /** The transport's clock, for callers that set a deadline. */
  clock(): number {
    return this.now()
  }

  /** The transport's sleep (tests replace it): resolves early when the signal aborts. */
  pause(ms: number, signal?: AbortSignal): Promise<void> {
    return this.sleep(ms, signal)
  }

  private deadlinePassed(call: { operation: string }, last: HubError | undefined): HubDeadlineError {
    const lastWords = last ? ` The last attempt: ${renderError(last)}` : ''
    return new HubDeadlineError({
      operation: call.operation,
      hint: `The time budget ran out before the hub answered.${lastWords}`,
      ...(last ? { cause: last } : {}),
    })
  }

  private async renew(): Promise<void> {
    const token = await (this.renewToken as () => Promise<string>)()
    registerSecret(token)
    this.current = Object.freeze({ ...this.current, token })
    this.log('Hub: the token was refused (401); retrying once with a fresh one.')
  }

  /** Work that needs the connections once more before they close (ending an MCP session). */
  onClose(task: () => Promise<void>): void {
    this.beforeClose.push(task)
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.beforeClose.splice(0).map((task) => task()))
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
    const url = this.url(call.path, call.query)
    const { headers } = this.prepare(call)
    return {
      method: call.method,
      url: url.href,
      headers: { ...headers, authorization: 'Bearer ***' },
      ...(call.body !== undefined ? { body: call.body } : {}),
    }
  }

  private prepare(call: { body?: unknown; headers?: Record<string, string> }): { headers: Record<string, string>; body: string | undefined } {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.current.token}`,
      'x-hub-org': this.current.org,
      'x-hub-workspace': this.current.workspace,
      accept: 'application/json',
      'user-agent': `hub-action/${VERSION}`,
      ...call.headers,
    }
    let body: string | undefined
    if (call.body !== undefined) {
      body = JSON.stringify(call.body)
      headers['content-type'] = 'application/json'
    }
    return { headers, body }
  }

  private async attempt<A>(wire: Wire, read: (response: Dispatcher.ResponseData, signal: AbortSignal) => Promise<A>) {
    // One ceiling for the whole attempt, body included, and never past the caller's deadline.
    const ceiling = Math.min(wire.timeoutMs ?? DEFAULT_TIMEOUT_MS, wire.deadline === undefined ? Infinity : wire.deadline - this.now())
    const timeout = AbortSignal.timeout(Math.max(1, ceiling))
    const signal = wire.signal ? AbortSignal.any([wire.signal, timeout]) : timeout
    const { headers, body } = this.prepare(wire)
    const response = await send(this.dispatcher, wire.url, {
      method: wire.method,
      headers,
      body,
      signal,
      // The AbortSignal is the per-attempt ceiling; undici's own timers must not cut a long-poll first.
      headersTimeout: 0,
      bodyTimeout: 0,
    })
    try {
      if (wire.passStatus(response.statusCode)) return { kind: 'read' as const, value: await read(response, signal) }
      const text = await readCapped(response.body, { name: 'an error answer', maxBytes: ERROR_BODY_BYTES }, { signal, truncate: true })
      return {
        kind: 'refused' as const,
        status: response.statusCode,
        contentType: headerValue(response.headers['content-type']),
        body: text,
        retryAfter: headerValue(response.headers['retry-after']) || undefined,
      }
    } catch (error) {
      if (error instanceof BodyCapError) throw this.tooLarge(error, wire, response.statusCode)
      throw error
    }
  }

  private tooLarge(error: BodyCapError, wire: Wire, status: number): HubProtocolError {
    const limits = error.limits
    return new HubProtocolError({
      operation: wire.operation,
      status,
      hubMessage: `${error.message}; the action stopped reading at the cap of ${formatBytes(limits.maxBytes)}${limits.maxValues ? ` / ${limits.maxValues.toLocaleString('en-US')} values` : ''} for ${wire.method} ${wire.url.pathname}`,
      hint: wire.limits?.hint ?? DEFAULT_BODY_LIMITS.hint,
      cause: error,
    })
  }

  private parse<T>(answer: { status: number; contentType: string; body: string }, call: HubCall<T>): HubResponse<T> {
    if (answer.status < 200 || answer.status >= 300) return { status: answer.status, data: undefined }
    const type = answer.contentType.toLowerCase()
    if (!type.includes('json')) {
      const html = type.includes('html')
      throw new HubProtocolError({
        operation: call.operation,
        status: answer.status,
        // The header is the server's words too: redacted as they are quoted.
        hubMessage: html ? 'an HTML page instead of JSON' : `a ${redact(answer.contentType) || 'body without Content-Type'} instead of JSON`,
        hint: html
          ? '`hub-url` seems to point at the portal or a wrong path: use the hub base URL that serves /services/providers/….'
          : 'Something between the action and the hub answered instead of the hub: check `hub-url` and any proxy in between.',
      })
    }
    let json: unknown
    try {
      // Every string the hub sends is redacted as it is received, before anything escapes or clips it.
      json = redactValue(JSON.parse(answer.body))
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

  private connectionFailure(error: unknown, call: Wire): HubError {
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
}

function describeOutcome(outcome: AttemptOutcome): string {
  if (outcome.kind === 'status') return `answered ${outcome.status}`
  // Say what happened on the wire: a refused connection is not a lost one.
  switch (outcome.code) {
    case 'ECONNREFUSED':
      return 'was refused a connection (nothing listening)'
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return 'lost its connection'
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return 'got no answer in time'
    case undefined:
      return 'got no answer'
    default:
      return `got no answer (${outcome.code})`
  }
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
