/**
 * Errors raised by the GitHub client. Like HubError, each says what the action was doing
 * (`operation`), what GitHub answered (`status`, `githubMessage`) and a `hint` the user can act
 * on; the original error stays as `cause`. GitHub's words are redacted (src/redact.ts) as they
 * are received, since GitHub may echo request details back; src/errors.ts renders the message.
 */
import { ActionError, type GitHubErrorData } from '../errors.js'
import { redact } from '../redact.js'

type GitHubErrorInit = Omit<GitHubErrorData, 'kind'>

export class GitHubError extends ActionError<GitHubErrorData> {
  constructor(init: GitHubErrorInit) {
    super({ ...init, kind: 'github' })
    this.name = 'GitHubError'
  }

  get githubMessage(): string | undefined {
    return this.data.githubMessage
  }

  get requestId(): string | undefined {
    return this.data.requestId
  }

  /** The same failure with some of its data changed: the caller's operation, "list the files of pull request #7". */
  with(change: Partial<GitHubErrorInit>): GitHubError {
    const { kind: _kind, ...data } = this.data
    return new GitHubError({ ...data, ...change })
  }
}

/** Re-label a GitHubError with the caller's operation; anything else passes through unchanged. */
export function describeFailure(error: unknown, operation: string): unknown {
  return error instanceof GitHubError ? error.with({ operation }) : error
}

/** The parts of @octokit/request-error's RequestError we read (duck-typed: no extra dependency). */
interface OctokitRequestError {
  status: number
  message: string
  response?: { status: number; headers: Record<string, string | number | undefined>; data: unknown }
}

function isOctokitRequestError(error: unknown): error is OctokitRequestError {
  return (
    error instanceof Error && error.name === 'HttpError' && typeof (error as { status?: unknown }).status === 'number'
  )
}

interface ErrorContext {
  operation: string
  apiUrl: string
}

/** Map whatever octokit threw to a GitHubError. Already-mapped errors pass through. */
export function toGitHubError(error: unknown, context: ErrorContext): GitHubError {
  if (error instanceof GitHubError) return error
  // the cause is kept for debugging; make it as safe to print as the message
  if (error instanceof Error) {
    error.message = redact(error.message)
    if (typeof error.stack === 'string') error.stack = redact(error.stack)
  }
  if (isOctokitRequestError(error) && error.response !== undefined) {
    const { status, headers, data } = error.response
    const githubMessage = redact(messageFrom(data) ?? error.message)
    return new GitHubError({
      operation: context.operation,
      status,
      githubMessage,
      requestId: headerValue(headers['x-github-request-id']),
      hint: hintFor(status, headers, githubMessage),
      cause: error,
    })
  }
  // octokit reports "no answer" as a RequestError with status 500 and no response
  const reason = networkReason(error)
  return new GitHubError({
    operation: context.operation,
    githubMessage: redact(reason),
    hint: `GitHub did not answer at ${context.apiUrl}: check the runner's network and proxy settings (HTTPS_PROXY, NO_PROXY) and GITHUB_API_URL.`,
    cause: error,
  })
}

function messageFrom(data: unknown): string | undefined {
  if (typeof data === 'object' && data !== null && 'message' in data) {
    const message = data.message
    if (typeof message !== 'string') return undefined
    const errors = (data as { errors?: unknown }).errors
    // 422s put the useful part in errors[].message ("body is too long …")
    const details = Array.isArray(errors)
      ? errors
          .map((e) =>
            typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string'
              ? (e as { message: string }).message
              : undefined,
          )
          .filter((m): m is string => m !== undefined)
      : []
    return details.length > 0 ? `${message}: ${details.join('; ')}` : message
  }
  return typeof data === 'string' && data.trim() !== '' ? data.trim().slice(0, 200) : undefined
}

function headerValue(value: string | number | undefined): string | undefined {
  return value === undefined ? undefined : String(value)
}

function hintFor(status: number, headers: Record<string, string | number | undefined>, message: string): string {
  if (
    /secondary rate limit/i.test(message) ||
    ((status === 403 || status === 429) && headers['retry-after'] !== undefined)
  ) {
    const after = headerValue(headers['retry-after'])
    return `GitHub's secondary rate limit stopped this call (too many requests in a short time${after ? `; it asked to wait ${after} s, longer than the action waits` : ''}): re-run the job in a few minutes, or run fewer jobs that write to GitHub at once.`
  }
  const rateLimited =
    status === 429 ||
    (status === 403 && (headerValue(headers['x-ratelimit-remaining']) === '0' || /rate limit/i.test(message)))
  if (rateLimited) {
    const reset = Number(headerValue(headers['x-ratelimit-reset']))
    const when = Number.isFinite(reset) && reset > 0 ? ` (it resets at ${new Date(reset * 1000).toISOString()})` : ''
    return `The GitHub API rate limit for this token is exhausted${when}; re-run the job later.`
  }
  switch (status) {
    case 401:
      return 'GitHub refused the token: it is missing, expired or revoked.'
    case 403:
      return 'The token lacks a permission: give the job `permissions: { contents: read, pull-requests: write }`. Pull requests from forks get a read-only token.'
    case 404:
      return 'The repository, pull request or file does not exist or is not visible to this token (it needs `contents: read` and `pull-requests: read`).'
    case 422:
      return 'GitHub refused the content of the request.'
    default:
      return status >= 500 ? 'GitHub is having trouble; re-run the job later.' : ''
  }
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code
    return typeof code === 'string' && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message
  }
  return error.message
}
