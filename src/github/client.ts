/**
 * The GitHub REST and GraphQL client: @actions/github's Octokit with octokit's retry and
 * throttling plugins, so GitHub's primary and secondary rate limits and its `retry-after` are
 * honoured on every call, and errors mapped to GitHubError. Loaded only on pull-request events.
 *
 * Waits are bounded: GitHub may ask for an hour (a primary limit resets hourly); a step must not
 * hang that long, so any wait above MAX_RATE_LIMIT_WAIT_SECONDS is not made and the call fails with a hint.
 */
import { getOctokit } from '@actions/github'
import type { Octokit } from '@octokit/core'
import type { RequestError } from '@octokit/request-error'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'
// the build octokit's plugins load (no Redis clustering), so the bundle holds one copy
import Bottleneck from 'bottleneck/light.js'
import type { Dispatcher } from 'undici'
import { defaultDispatcher } from '../http/wire.js'
import { retryWait } from '../http/retry.js'
import { abortableSleep } from '../http/clock.js'
import { info } from '../runner/core.js'
import { toGitHubError } from './errors.js'
import { redactValue, registerSecret } from '../redact.js'
import { createUndiciFetch } from './fetch.js'

const DEFAULT_GITHUB_API_URL = 'https://api.github.com'

export type GitHubClient = ReturnType<typeof getOctokit>

export interface GitHubClientOptions {
  token: string
  /** GITHUB_API_URL; GitHub Enterprise Server uses https://host/api/v3. */
  apiUrl?: string | undefined
  userAgent: string
  /** Retries after the first attempt, for 5xx, 429 and no answer at all. */
  retries?: number
  /** First backoff when GitHub names no wait; doubles each retry, with jitter. */
  retryDelayMs?: number
  /** Ceiling for one attempt. */
  timeoutMs?: number
  /** Defaults to an agent that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY. */
  dispatcher?: Dispatcher
  /** Where retries and waits are reported; the text never holds the token. */
  log?: (message: string) => void
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

/** The statuses the retry plugin never retries (its default, named here so pacing skips them too). */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 451]
/** A GraphQL answer (200) the retry plugin retries as if it were a 500. */
const GRAPHQL_TRANSIENT = /Something went wrong while executing your query/

export function createGitHubClient(options: GitHubClientOptions): GitHubClient {
  const apiUrl = (options.apiUrl?.trim() || DEFAULT_GITHUB_API_URL).replace(/\/+$/, '')
  const retries = options.retries ?? DEFAULT_RETRIES
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS
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
      if (retryAfter > MAX_RATE_LIMIT_WAIT_SECONDS || retryCount >= RATE_LIMIT_RETRIES) {
        log(
          `GitHub: ${kind} on ${route}; not waiting ${retryAfter} s (at most ${MAX_RATE_LIMIT_WAIT_SECONDS} s, ${RATE_LIMIT_RETRIES} times).`,
        )
        return false
      }
      log(`GitHub: ${kind} on ${route}; waiting ${retryAfter} s as GitHub asks.`)
      return true
    }

  // The retry plugin waits 1, 4, 9 s whatever GitHub says; honour retry-after instead, add
  // jitter (the waits of hub and MCP calls: retryWait), and never send a POST twice after a 5xx
  // or no answer (it may have created a comment). Which answers are retried stays the plugin's:
  // this hook, inside the plugin's, makes the wait itself and tells the plugin (through the
  // request's `retries`) whether to send again; the plugin's own wait is zero.
  const waits = {
    baseDelayMs: retryDelayMs,
    maxDelayMs: MAX_RATE_LIMIT_WAIT_SECONDS * 1000,
    maxRetryAfterMs: MAX_RATE_LIMIT_WAIT_SECONDS * 1000,
  }
  const pace = async (
    status: number,
    retryAfter: string | number | undefined,
    method: string,
    url: string,
    request: Record<string, unknown>,
  ) => {
    const attempt = Number(request.retryCount ?? 0)
    const writeMayHaveHappened = method === 'POST' && status >= 500 && !/\/graphql$/.test(url)
    const delayMs =
      writeMayHaveHappened || attempt >= retries
        ? undefined
        : retryWait(retryAfter === undefined ? undefined : String(retryAfter), attempt + 1, waits, Date.now())
    request.retries = delayMs === undefined ? 0 : retries
    if (delayMs === undefined) return
    log(`GitHub: ${method} ${url} answered ${status}; retrying in ${delayMs} ms.`)
    await abortableSleep(delayMs)
  }
  const pacing = (octokit: Octokit) => {
    octokit.hook.wrap('request', async (request, requestOptions) => {
      const method = String(requestOptions.method).toUpperCase()
      let response: Awaited<ReturnType<typeof request>>
      try {
        response = await request(requestOptions)
      } catch (error) {
        // What the plugin checks too: a RequestError with its request, which it may retry.
        const failed = error as Partial<RequestError> | undefined
        if (
          failed?.request?.request &&
          typeof failed.status === 'number' &&
          failed.status >= 400 &&
          !DO_NOT_RETRY.includes(failed.status)
        )
          await pace(
            failed.status,
            failed.response?.headers['retry-after'],
            method,
            failed.request.url,
            requestOptions.request,
          )
        throw error
      }
      const errors = (response.data as { errors?: Array<{ message?: unknown }> } | undefined)?.errors
      if (typeof errors?.[0]?.message === 'string' && GRAPHQL_TRANSIENT.test(errors[0].message))
        await pace(500, undefined, method, String(requestOptions.url), requestOptions.request)
      return response
    })
  }

  const octokit = getOctokit(
    options.token,
    {
      baseUrl: apiUrl,
      userAgent: options.userAgent,
      request: {
        fetch: createUndiciFetch({
          dispatcher: options.dispatcher ?? defaultDispatcher(),
          timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        }),
      },
      // `pacing` waits; the plugin sends again at once
      retry: { retries, retryAfterBaseValue: 0, doNotRetry: DO_NOT_RETRY },
      throttle: {
        write: new Bottleneck.Group({ maxConcurrent: 1, minTime: writeSpacingMs }),
        notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: writeSpacingMs * 3 }),
        onRateLimit: onLimit('rate limit'),
        onSecondaryRateLimit: onLimit('secondary rate limit'),
      },
      log: { debug: () => {}, info: () => {}, warn: log, error: log },
    },
    // before the retry plugin: its hooks wrap this one, so this one sees each failure first
    pacing,
    retry,
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
