/**
 * The one way to the hub: base URL, headers, per-attempt timeouts inside the caller's one
 * deadline, body caps, retries, error mapping and redaction. Clients describe a call; the
 * transport decides whether and when to send it again. It takes an undici Dispatcher so
 * tests can inject a MockAgent.
 */
import type { Dispatcher } from '../http/wire.js'
import { HubError } from './errors.js'
import { BodyCapError, errorCode, headerValue, hubDispatcher, readCapped, send } from '../http/wire.js'
import { hubFailure, type FailureContext } from './errors.js'
import { Budget } from '../http/budget.js'
import {
  connectionFailure,
  deadlinePassed,
  DEFAULT_TIMEOUT_MS,
  PERMANENT_CONNECTION_CODES,
  tooLarge,
  type Addressed,
} from './transport-errors.js'
import { readMessages } from '../http/sse.js'
import { redact, registerSecret } from '../redact.js'
import {
  DEFAULT_RETRY_POLICY,
  decideRetry,
  describeOutcome,
  type AttemptOutcome,
  type RetryPolicy,
} from '../http/retry.js'
import { systemClock, type Clock } from '../http/clock.js'
import { parseJsonAnswer } from './parse.js'
import {
  prepareRequest,
  requestUrl,
  type HubIdentity,
  type HubResponse,
  type JsonRequest,
  type RefusedAnswer,
  type ResponseLimits,
  type StreamAnswer,
  type StreamRequest,
} from './request.js'

// What the MCP client reads of the answers, where it has always found it.
export type { RefusedAnswer, ResponseLimits, StreamAnswer } from './request.js'

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
  /** The bearer is a GitHub OIDC token for this audience: a 401 then says what a hub needs to accept one. */
  oidcAudience?: string | undefined
  /** Pluggable for tests of the retry timing; resolves early when the signal aborts. */
  sleep?: Clock['sleep']
  /** The clock deadlines are read against (tests move it). */
  now?: Clock['now']
  /**
   * The step's one time budget (main.ts builds it from `timeout-seconds`): every request is
   * bounded by it as by its own deadline, but for those marked `outlivesBudget` (a cancel sent
   * because the budget ran out).
   */
  budget?: Budget | undefined
}

/** How `call` or `stream` reads the answers of its request, refusals included. */
interface Reading<A> {
  /** Reads an answer: a 2xx, or a status in `acceptStatus`. */
  read: (response: Dispatcher.ResponseData, signal: AbortSignal) => Promise<A>
  acceptStatus?: readonly number[] | undefined
  /** A refusal (redacted) the caller handles itself, as its answer; undefined: it fails the request. */
  keep?: (said: RefusedAnswer) => A | undefined
  /** The caller's reading of a refusal that fails the request; the hub's hints otherwise. */
  refusal?: ((said: RefusedAnswer) => HubError) | undefined
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

export class HubTransport {
  private current: Readonly<HubIdentity>
  private readonly renewToken: (() => Promise<string>) | undefined
  private readonly oidcAudience: string | undefined
  private readonly dispatcher: Dispatcher
  private readonly ownsDispatcher: boolean
  private readonly policy: RetryPolicy
  private readonly log: (message: string) => void
  private readonly time: Clock
  /** The step's one time budget, when one was given (else each request's own deadline and ceiling alone). */
  private readonly given: Budget | undefined
  private unbounded: Budget | undefined
  private readonly beforeClose: Array<() => Promise<void>> = []
  /** Origins that answered anything this step: a deadline's message tells a slow hub from one never reached. */
  private readonly answered = new Set<string>()

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
    this.oidcAudience = options.oidcAudience
    this.ownsDispatcher = options.dispatcher === undefined
    this.dispatcher = options.dispatcher ?? hubDispatcher()
    this.policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY
    this.log = options.log ?? (() => {})
    // One clock: the budget's, when there is one, so its deadline and every request's agree.
    this.time = {
      now: options.now ?? options.budget?.clock.now ?? systemClock.now,
      sleep: options.sleep ?? options.budget?.clock.sleep ?? systemClock.sleep,
    }
    this.given = options.budget
  }

  /** The step's budget, which steps time their waits on; else an unbounded one, made when first asked. */
  get budget(): Budget {
    return this.given ?? (this.unbounded ??= new Budget(undefined, this.time))
  }

  get identity(): Readonly<HubIdentity> {
    return this.current
  }

  /** A request to the hub's API whose JSON answer `schema` reads (and checks); a refusal fails it. */
  async call<T>(request: JsonRequest<T>): Promise<HubResponse<T>> {
    return this.exchange<HubResponse<T>>(
      { ...request, url: requestUrl(this.current, request) },
      {
        acceptStatus: request.acceptStatus,
        read: async (response, signal) => {
          const status = response.statusCode
          if (status < 200 || status >= 300) {
            await readCapped(
              response.body,
              { name: 'an accepted refusal', maxBytes: ERROR_BODY_BYTES },
              { signal, truncate: true },
            )
            return { status, data: undefined }
          }
          const limits = request.limits ?? DEFAULT_BODY_LIMITS
          // A declared length past the cap is refused before a byte is read.
          if (Number(headerValue(response.headers['content-length']) || NaN) > limits.maxBytes) {
            response.body.destroy()
            throw new BodyCapError(limits, 'bytes')
          }
          const body = await readCapped(response.body, limits, { signal })
          return parseJsonAnswer({ status, contentType: headerValue(response.headers['content-type']), body }, request)
        },
      },
    )
  }

  /**
   * A request (to the MCP endpoint) whose answer is an event stream or JSON: each message goes
   * to `pick` as it arrives, and reading stops at the first it accepts. Same headers, token
   * renewal, retries, deadline, caps and redaction as `call`; the caller keeps its protocol
   * (statuses in `returnStatus` come back to it).
   */
  async stream<T>(request: StreamRequest<T>): Promise<StreamAnswer<T>> {
    const { returnStatus, refusal } = request
    return this.exchange<StreamAnswer<T>>(
      { ...request, url: requestUrl(this.current, request) },
      {
        read: (response, signal) => readMessages(response, request.limits, request.pick, signal),
        keep: (said) => (returnStatus?.includes(said.status) ? said : undefined),
        refusal,
      },
    )
  }

  /** The one retry loop: attempts within the deadline, 401 renewal, decideRetry, errors redacted. */
  private async exchange<A>(asked: Addressed, reading: Reading<A>): Promise<A> {
    const budget = asked.outlivesBudget ? undefined : this.given
    const wire: Addressed = { ...asked, deadline: budget ? budget.bound(asked.deadline) : asked.deadline }
    let sent = 0
    let firstSent = 0
    const passed = (last: HubError | undefined) =>
      deadlinePassed(wire, last, budget, wire.deadline, {
        attempts: sent,
        ms: sent > 0 ? this.time.now() - firstSent : 0,
        originAnswered: this.answered.has(wire.url.origin),
      })
    const base = wire.policy ?? this.policy
    const policy = wire.retryUntilDeadline && wire.deadline !== undefined ? { ...base, maxAttempts: Infinity } : base
    const label = wire.label ?? `Hub: ${wire.method} ${wire.path ?? wire.url.pathname}`
    const refusal = reading.refusal ?? ((said: RefusedAnswer) => hubFailure(said, this.failureContext(wire)))
    let renewed = false
    let failure: HubError | undefined
    for (let attempt = 1; ; attempt++) {
      let outcome: AttemptOutcome
      if (wire.deadline !== undefined && wire.deadline - this.time.now() <= 0) throw passed(failure)
      try {
        if (sent++ === 0) firstSent = this.time.now()
        const answer = await this.attempt(wire, reading)
        if (answer.kind === 'read') return answer.value
        if (answer.status === 401 && this.renewToken && !renewed) {
          renewed = true
          await this.renew()
          continue
        }
        // Redact before anything clips the hub's words: a clipped token no longer matches.
        const said: RefusedAnswer = { ...answer, body: redact(answer.body) }
        const kept = reading.keep?.(said)
        if (kept !== undefined) return kept
        outcome = { kind: 'status', status: answer.status, retryAfter: answer.retryAfter }
        failure = refusal(said)
      } catch (error) {
        if (wire.signal?.aborted) throw wire.signal.reason ?? error
        if (error instanceof HubError) throw error
        failure = connectionFailure(error, wire)
        if (wire.deadline !== undefined && wire.deadline - this.time.now() <= 0) throw passed(failure)
        if (PERMANENT_CONNECTION_CODES.has(errorCode(error) ?? '')) throw failure
        outcome = { kind: 'connection', code: errorCode(error) }
      }
      const decision = decideRetry(outcome, attempt, wire.repeatable, policy, this.time.now())
      if (!decision.retry) throw failure
      const left = wire.deadline === undefined ? Infinity : wire.deadline - this.time.now()
      // No retry that could only start after the budget ended.
      if (decision.delayMs >= left) throw passed(failure)
      const of = Number.isFinite(policy.maxAttempts) ? `/${policy.maxAttempts - 1}` : ''
      const until =
        Number.isFinite(left) && !Number.isFinite(policy.maxAttempts)
          ? ` (${Math.round(left / 1000)} s of the time budget left)`
          : ''
      this.log(
        redact(
          `${label} ${describeOutcome(outcome)}; retry ${attempt}${of} in ${(decision.delayMs / 1000).toFixed(1)} s${until}`,
        ),
      )
      await this.time.sleep(decision.delayMs, wire.signal)
      if (wire.signal?.aborted) throw wire.signal.reason
    }
  }

  /** The transport's clock (tests move it), for callers that set a deadline. */
  clock(): number {
    return this.time.now()
  }

  /** The transport's sleep (tests replace it): resolves early when the signal aborts. */
  pause(ms: number, signal?: AbortSignal): Promise<void> {
    return this.time.sleep(ms, signal)
  }

  /**
   * What a refusal's message names. The hub's API paths get the hints about `hub-url` and
   * `cluster-id`; a URL the hub published (MCP) only the scope.
   */
  private failureContext(request: Addressed): FailureContext {
    const scope = {
      operation: request.operation,
      subject: request.subject,
      org: this.current.org,
      workspace: this.current.workspace,
    }
    if (request.path === undefined) return scope
    return {
      ...scope,
      clusterId: this.current.clusterId,
      oidcAudience: this.oidcAudience,
      hubUrl: this.current.baseUrl.href,
      request: `${request.method} ${request.url.origin}${request.url.pathname}`,
    }
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

  private async attempt<A>(wire: Addressed, reading: Reading<A>) {
    // One ceiling for the whole attempt, body included, and never past the caller's deadline.
    const ceiling = Math.min(
      wire.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      wire.deadline === undefined ? Infinity : wire.deadline - this.time.now(),
    )
    const timeout = AbortSignal.timeout(Math.max(1, ceiling))
    const signal = wire.signal ? AbortSignal.any([wire.signal, timeout]) : timeout
    const { headers, body } = prepareRequest(this.current, wire)
    const response = await send(this.dispatcher, wire.url, {
      method: wire.method,
      headers,
      body,
      signal,
      // The AbortSignal is the per-attempt ceiling; undici's own timers must not cut a long-poll first.
      headersTimeout: 0,
      bodyTimeout: 0,
    })
    this.answered.add(wire.url.origin)
    try {
      if (isAnswer(response.statusCode, reading.acceptStatus))
        return { kind: 'read' as const, value: await reading.read(response, signal) }
      const text = await readCapped(
        response.body,
        { name: 'an error answer', maxBytes: ERROR_BODY_BYTES },
        { signal, truncate: true },
      )
      return {
        kind: 'refused' as const,
        status: response.statusCode,
        contentType: headerValue(response.headers['content-type']),
        body: text,
        retryAfter: headerValue(response.headers['retry-after']) || undefined,
      }
    } catch (error) {
      if (error instanceof BodyCapError) throw tooLarge(error, wire, response.statusCode, DEFAULT_BODY_LIMITS)
      throw error
    }
  }
}

/** A status the request's reader takes: a 2xx, or one the caller accepts as an answer. */
function isAnswer(status: number, acceptStatus: readonly number[] | undefined): boolean {
  return (status >= 200 && status < 300) || acceptStatus?.includes(status) === true
}
