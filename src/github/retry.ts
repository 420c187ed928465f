/**
 * Retries of GitHub calls: an octokit plugin that asks the policy the hub transport asks
 * (src/http/retry.ts), so both clients retry the same transient failures, honour Retry-After up
 * to the same kind of cap and add the same jitter. Rate limits stay with @octokit/plugin-throttling,
 * whose hook wraps this one: a 403 or 429 that this plugin does not retry reaches it.
 */
import type { Octokit } from '@octokit/core'
import { RequestError } from '@octokit/request-error'
import { decideRetry, describeOutcome, type AttemptOutcome, type RetryPolicy } from '../http/retry.js'
import { systemClock, type Clock } from '../http/clock.js'
import { errorCode } from '../http/wire.js'
import type { Budget } from '../http/budget.js'

/** The hub's transient statuses, and GitHub's 500: it answers one now and then to a request that works on retry. */
export const GITHUB_RETRY_STATUS: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504])
/** A GraphQL answer (200) that is a transient server failure, retried as if it were a 500. */
const GRAPHQL_TRANSIENT = /Something went wrong while executing your query/

export interface RetryPluginOptions {
  policy: RetryPolicy
  log: (message: string) => void
  /** Resolves early when the signal aborts; tests replace it to record the waits. */
  sleep?: Clock['sleep'] | undefined
  /** The step's one time budget: no retry starts after it. */
  budget?: Budget | undefined
}

/** The parts of octokit's RequestError read here. */
interface FailedRequest {
  status: number
  request: { url?: string }
  response?: { headers: Record<string, string | number | undefined> }
}

export function retryPlugin(options: RetryPluginOptions) {
  const sleep = options.sleep ?? options.budget?.clock.sleep ?? systemClock.sleep
  return (octokit: Octokit): void => {
    octokit.hook.wrap('request', async (request, requestOptions) => {
      const method = String(requestOptions.method).toUpperCase()
      const signal = (requestOptions.request as { signal?: AbortSignal } | undefined)?.signal
      for (let attempt = 1; ; attempt++) {
        let failure: unknown
        let outcome: AttemptOutcome
        let url = String(requestOptions.url)
        try {
          const response = await request(requestOptions)
          const message = graphqlTransient(response.data)
          if (message === undefined) return response
          url = response.url || url
          // What GitHub meant: a server failure. Thrown as one when no retry follows.
          failure = new RequestError(message, 500, { request: requestOptions, response: { ...response, status: 500 } })
          outcome = { kind: 'status', status: 500 }
        } catch (error) {
          if (!isFailedRequest(error) || signal?.aborted) throw error
          failure = error
          url = error.request.url ?? url
          outcome = error.response
            ? { kind: 'status', status: error.status, retryAfter: headerText(error.response.headers['retry-after']) }
            : // octokit reports "no answer" as a 500 without a response
              { kind: 'connection', code: errorCode(error) }
        }
        const decision = decideRetry(outcome, attempt, mayRepeat(method, url, outcome), options.policy, Date.now())
        if (!decision.retry) throw failure
        // No retry that could only start after the step's budget ended.
        if (options.budget && decision.delayMs >= options.budget.left()) throw failure
        options.log(`GitHub: ${method} ${url} ${describeOutcome(outcome)}; retrying in ${decision.delayMs} ms.`)
        await sleep(decision.delayMs, signal)
        if (signal?.aborted) throw failure
      }
    })
  }
}

/**
 * A POST (a comment) may have been made when its answer was a 5xx or lost: never send it twice.
 * A GraphQL POST is a query here (this action sends no mutation), and a 408 or 429 was not served.
 */
function mayRepeat(method: string, url: string, outcome: AttemptOutcome): boolean {
  if (method !== 'POST' || /\/graphql$/.test(url)) return true
  return outcome.kind === 'status' && outcome.status < 500
}

function isFailedRequest(error: unknown): error is FailedRequest {
  const failed = error as Partial<FailedRequest> | null | undefined
  return typeof failed?.status === 'number' && typeof failed.request === 'object' && failed.request !== null
}

function graphqlTransient(data: unknown): string | undefined {
  const message = (data as { errors?: Array<{ message?: unknown }> } | null | undefined)?.errors?.[0]?.message
  return typeof message === 'string' && GRAPHQL_TRANSIENT.test(message) ? message : undefined
}

function headerText(value: string | number | undefined): string | undefined {
  return value === undefined ? undefined : String(value)
}
