/**
 * The GitHub REST and GraphQL client: @actions/github's Octokit with our retry plugin (retry.ts:
 * the hub's retry policy) and octokit's throttling plugin, so transient failures are retried,
 * GitHub's primary and secondary rate limits and its `retry-after` are honoured on every call,
 * and errors mapped to GitHubError. Loaded only on pull-request events.
 *
 * Waits are bounded: GitHub may ask for an hour (a primary limit resets hourly); a step must not
 * hang that long, so any wait above MAX_RATE_LIMIT_WAIT_SECONDS is not made and the call fails with a hint.
 */
import { getOctokit } from '@actions/github'
import { throttling } from '@octokit/plugin-throttling'
// the build the throttling plugin loads (no Redis clustering), so the bundle holds one copy
import Bottleneck from 'bottleneck/light.js'
import type { Dispatcher } from '../http/wire.js'
import { defaultDispatcher } from '../http/wire.js'
import type { Budget } from '../http/budget.js'
import type { Clock } from '../http/clock.js'
import { info } from '../runner/workflow.js'
import { toGitHubError } from './errors.js'
import { redactValue, registerSecret } from '../redact.js'
import { VERSION } from '../version.js'
import { createUndiciFetch } from './fetch.js'
import { GITHUB_RETRY_STATUS, retryPlugin } from './retry.js'

const DEFAULT_GITHUB_API_URL = 'https://api.github.com'

export type GitHubClient = ReturnType<typeof getOctokit>

export interface GitHubClientOptions {
  token: string
  /** GITHUB_API_URL; GitHub Enterprise Server uses https://host/api/v3. */
  apiUrl?: string | undefined
  /** Default `hub-action/<version>`, as the hub's requests say (hub/request.ts). */
  userAgent?: string | undefined
  /** Retries after the first attempt, for a 5xx, 408 or 429 (GITHUB_RETRY_STATUS) and no answer at all. */
  retries?: number
  /** First backoff when GitHub names no wait; doubles each retry, with jitter. */
  retryDelayMs?: number
  /** The wait between attempts (tests record it); resolves early when the signal aborts. */
  sleep?: Clock['sleep']
  /** Ceiling for one attempt. */
  timeoutMs?: number
  /** Defaults to an agent that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
  dispatcher?: Dispatcher
  /** Where retries and waits are reported; the text never holds the token. */
  log?: (message: string) => void
  /** The step's one time budget (http/budget.ts): no attempt outlives it, no retry or rate-limit wait starts after it. */
  budget?: Budget | undefined
  /** Least time between two writes (GraphQL included), per GitHub's guidance against secondary limits; 3× for writes that notify (comments). */
  writeSpacingMs?: number
}

const DEFAULT_RETRIES = 2
const DEFAULT_RETRY_DELAY_MS = 1_000
const DEFAULT_TIMEOUT_MS = 30_000
/** GitHub: "make requests for a single user or client ID serially [and] wait at least one second between each" write. */
const DEFAULT_WRITE_SPACING_MS = 1_000
/** The longest wait GitHub may ask of us (retry-after, rate-limit reset) before we give up instead. @internal */
export const MAX_RATE_LIMIT_WAIT_SECONDS = 60
/** Rate-limit waits per call: a limit that is still there after two waits will not lift soon. */
const RATE_LIMIT_RETRIES = 2

export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const apiUrl = (options.apiUrl?.trim() || DEFAULT_GITHUB_API_URL).replace(/\/+$/, '')
  const log = options.log ?? info
  const writeSpacingMs = options.writeSpacingMs ?? DEFAULT_WRITE_SPACING_MS

  const onLimit =
    (kind: string) =>
    (
      retryAfter: number,
      request: { method?: string; url?: string },
      _octokit: unknown,
      retryCount: number,
    ): boolean => {
      const route = `${request.method ?? ''} ${request.url ?? ''}`
      if (options.budget && retryAfter * 1000 >= options.budget.left()) {
        log(`GitHub: ${kind} on ${route}; not waiting ${retryAfter} s: timeout-seconds ends first.`)
        return false
      }
      if (retryAfter > MAX_RATE_LIMIT_WAIT_SECONDS || retryCount >= RATE_LIMIT_RETRIES) {
        log(
          `GitHub: ${kind} on ${route}; not waiting ${retryAfter} s (at most ${MAX_RATE_LIMIT_WAIT_SECONDS} s, ${RATE_LIMIT_RETRIES} times).`,
        )
        return false
      }
      log(`GitHub: ${kind} on ${route}; waiting ${retryAfter} s as GitHub asks.`)
      return true
    }

  const octokit = getOctokit(
    options.token,
    {
      baseUrl: apiUrl,
      userAgent: options.userAgent ?? `hub-action/${VERSION}`,
      request: {
        fetch: createUndiciFetch({
          dispatcher: options.dispatcher ?? defaultDispatcher(),
          timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          budget: options.budget,
        }),
      },
      throttle: {
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: writeSpacingMs }),
        notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: writeSpacingMs * 3 }),
        onRateLimit: onLimit('rate limit'),
        onSecondaryRateLimit: onLimit('secondary rate limit'),
      },
      log: { debug: () => {}, info: () => {}, warn: log, error: log },
    },
    // throttling's hook wraps the retry plugin's: what the retries leave (403, a 429 past the cap) reaches it
    retryPlugin({
      policy: {
        maxAttempts: (options.retries ?? DEFAULT_RETRIES) + 1,
        baseDelayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
        maxDelayMs: MAX_RATE_LIMIT_WAIT_SECONDS * 1000,
        maxRetryAfterMs: MAX_RATE_LIMIT_WAIT_SECONDS * 1000,
        retryStatus: GITHUB_RETRY_STATUS,
      },
      log,
      sleep: options.sleep,
      budget: options.budget,
    }),
    throttling,
  )

  registerSecret(options.token)
  octokit.hook.wrap('request', async (request, requestOptions) => {
    let response: Awaited<ReturnType<typeof request>>
    try {
      response = await request(requestOptions)
    } catch (error) {
      const route = `${String(requestOptions.method).toUpperCase()} ${String(requestOptions.url)}`
      throw toGitHubError(error, { operation: `call ${route}`, apiUrl })
    }
    // Every string GitHub sends (comment bodies, file contents, names) is redacted as it is received.
    response.data = redactValue<unknown>(response.data)
    return response
  })
  return octokit
}
