// Failures a test asks for: a fault answers matching requests with the status, body and headers
// it names, and secondaryRateLimit() builds GitHub's secondary rate limit answer.
import { DOCS } from './replies.ts'

export interface FaultSpec {
  /** Upper-case HTTP method; any when absent. */
  method?: string
  /** string: exact pathname (or pathname+query); RegExp: tested against the pathname. Any when absent. */
  path?: string | RegExp
  status: number
  /** How many requests to fail; unlimited when absent. */
  times?: number
  /** JSON-serialised unless a string; default {"message": <reason phrase>}. */
  body?: unknown
  headers?: Record<string, string>
}

export interface Fault {
  readonly spec: FaultSpec
  /** Requests this fault has answered so far. */
  readonly hits: number
  /** Remaining answers (Infinity when unlimited). */
  readonly remaining: number
  remove(): void
}

/** The message GitHub sends with a secondary rate limit (403 or 429 with retry-after). */
export const SECONDARY_RATE_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.'

/** A fault answering like GitHub's secondary rate limit, asking to wait `retryAfterSeconds`. */
export function secondaryRateLimit(
  spec: Omit<FaultSpec, 'status' | 'body' | 'headers'>,
  retryAfterSeconds: number,
): FaultSpec {
  return {
    ...spec,
    status: 403,
    body: {
      message: SECONDARY_RATE_LIMIT_MESSAGE,
      documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
    },
    headers: { 'retry-after': String(retryAfterSeconds) },
  }
}

/** What GitHub answers a workflow token without `deployments: write` on the deployments routes. */
export function deploymentsForbidden(): FaultSpec {
  return {
    path: /\/repos\/[^/]+\/[^/]+\/deployments(\/|$)/,
    status: 403,
    body: {
      message: 'Resource not accessible by integration',
      documentation_url: 'https://docs.github.com/rest/deployments/deployments#create-a-deployment',
    },
  }
}
