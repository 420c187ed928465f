/**
 * When to try a request again, how long to wait first, and how the retry log words it: pure, so
 * it is tested alone, and asked alike by the hub transport and the GitHub client's retry plugin.
 * The clock both wait on is here too.
 */

/** @internal */
export const RETRYABLE_STATUS = new Set([408, 429, 502, 503, 504])

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number
  baseDelayMs: number
  maxDelayMs: number
  /** Longest Retry-After we honour; longer answers end the retries. */
  maxRetryAfterMs: number
  /** Statuses worth another attempt; RETRYABLE_STATUS when absent. */
  retryStatus?: ReadonlySet<number>
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  maxAttempts: 5,
  baseDelayMs: 300,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
})

export type AttemptOutcome =
  | { kind: 'status'; status: number; retryAfter?: string | undefined }
  /** No HTTP answer; `code` is the system's or undici's error code, when there is one. */
  | { kind: 'connection'; code?: string | undefined }

/** A failed attempt in the retry log's words. */
export function describeOutcome(outcome: AttemptOutcome): string {
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

export type RetryDecision = { retry: false } | { retry: true; delayMs: number }

/**
 * Decide after a failed attempt (1-based `attempt`). `retryable` is the caller's word on
 * whether the request may be sent twice at all (a POST without idempotency key may not).
 */
export function decideRetry(
  outcome: AttemptOutcome,
  attempt: number,
  retryable: boolean,
  policy: RetryPolicy,
  now: number,
  random: () => number = Math.random,
): RetryDecision {
  if (!retryable || attempt >= policy.maxAttempts) return { retry: false }
  if (outcome.kind === 'status' && !(policy.retryStatus ?? RETRYABLE_STATUS).has(outcome.status))
    return { retry: false }
  const delayMs = retryWait(outcome.kind === 'status' ? outcome.retryAfter : undefined, attempt, policy, now, random)
  return delayMs === undefined ? { retry: false } : { retry: true, delayMs }
}

/**
 * How long to wait before attempt `attempt + 1`: what Retry-After asks (undefined when that is
 * past `maxRetryAfterMs`: the caller gives up), else the jittered backoff.
 * @internal
 */
export function retryWait(
  retryAfter: string | undefined,
  attempt: number,
  policy: Omit<RetryPolicy, 'maxAttempts' | 'retryStatus'>,
  now: number,
  random: () => number = Math.random,
): number | undefined {
  const asked = retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, now)
  if (asked === undefined) return backoffDelay(attempt, policy, random)
  return asked > policy.maxRetryAfterMs ? undefined : Math.max(asked, 0)
}

/** Capped exponential backoff with "equal jitter" (AWS architecture blog): half fixed, half random. @internal */
export function backoffDelay(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/**
 * Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3); a date already past
 * comes out negative. Fractional seconds (some proxies send them) round up; negative or
 * unreadable values are undefined.
 * @internal
 */
export function parseRetryAfter(value: string, now: number): number | undefined {
  const trimmed = value.trim()
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) {
    const seconds = Number(trimmed)
    return seconds >= 0 ? Math.ceil(seconds * 1000) : undefined
  }
  // Only a date with words (`Wed, 21 Oct 2015 07:28:00 GMT`): Date.parse reads odd things as dates.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : NaN
  return Number.isNaN(date) ? undefined : date - now
}

/**
 * Pacing of long-polls that come back before their hold without settling: a hub that does
 * not hold (or answers at once) must not be asked again at once, whatever the phase.
 */
const EARLY_WAIT_PACING: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> = Object.freeze({
  baseDelayMs: 250,
  maxDelayMs: 8_000,
})

/** A wait "came back early" when the hub held it for less than 90 % of the hold we asked. */
export function cameBackEarly(elapsedMs: number, askedHoldMs: number): boolean {
  return elapsedMs < askedHoldMs * 0.9
}

/**
 * The pause before the next wait after `early` early returns in a row: the interval between
 * two waits grows from 250 ms to 8 s (jittered), and the time the last wait took counts
 * towards it, so a hub that held a while is asked again sooner.
 */
export function earlyWaitPause(early: number, elapsedMs: number, random: () => number = Math.random): number {
  if (early <= 0) return 0
  return Math.max(0, backoffDelay(early, EARLY_WAIT_PACING, random) - elapsedMs)
}
