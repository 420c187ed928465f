/**
 * The one error root, and the one place its text is written. Every failure the action reports
 * is data: what it was doing (`operation`), what about (`subject`), what the other side
 * answered (`status` and its words), what the user can do (`hint`), and the original error
 * (`cause`). `renderError` turns that data into the message main.ts prints; nothing edits a
 * message afterwards: a caller that knows better builds a new error from the data (`with`).
 */

interface ErrorFields {
  /** What the action was doing, as a verb phrase: `start a run of agent "triage"`. */
  operation: string
  /** What the user can do about it. */
  hint: string
  /** What the operation was about (`agent "triage"`, `the MCP endpoint`), when known. */
  subject?: string | undefined
  /** The HTTP status of the answer, when there was one. */
  status?: number | undefined
  cause?: unknown
}

/** The hub (or an MCP server) answered, or did not: its status, reason and words. */
export interface HubErrorData extends ErrorFields {
  kind: 'hub'
  reason?: string | undefined
  hubMessage?: string | undefined
  /** Set when the hub's answer shows an input is wrong: rendered as input problems are. */
  problems?: readonly string[] | undefined
}

/** GitHub answered, or did not: its status, words and request id. */
export interface GitHubErrorData extends ErrorFields {
  kind: 'github'
  githubMessage?: string | undefined
  /** x-github-request-id, for a support ticket. */
  requestId?: string | undefined
}

/** The inputs as given: every problem at once. */
export interface InputErrorData extends ErrorFields {
  kind: 'input'
  problems: readonly string[]
}

/**
 * A failure that is a sentence of its own (the runner's OIDC endpoint, a lifecycle command that
 * declined to act): shown as it is, followed by `: hint.` when `withHint`.
 */
export interface StatementErrorData extends ErrorFields {
  kind: 'statement'
  statement: string
  withHint?: boolean | undefined
}

export type ErrorData = HubErrorData | GitHubErrorData | InputErrorData | StatementErrorData

export abstract class ActionError<D extends ErrorData = ErrorData> extends Error {
  readonly data: Readonly<D>

  protected constructor(data: D) {
    // The message is the rendering, kept for stack traces and `cause` chains; it is never rebuilt.
    super(renderData(data), data.cause === undefined ? undefined : { cause: data.cause })
    this.name = 'ActionError'
    this.data = Object.freeze({ ...data })
  }

  get operation(): string {
    return this.data.operation
  }

  get hint(): string {
    return this.data.hint
  }

  get subject(): string | undefined {
    return this.data.subject
  }

  get status(): number | undefined {
    return this.data.status
  }
}

/** The text a user reads for a failure: the only place an error's words are put together. */
export function renderError(error: ActionError): string {
  return renderData(error.data)
}

function renderData(data: ErrorData): string {
  switch (data.kind) {
    case 'hub':
      return data.problems ? renderProblems(data.problems) : renderHub(data)
    case 'github':
      return renderGitHub(data)
    case 'input':
      return renderProblems(data.problems)
    case 'statement':
      return data.withHint ? `${data.statement}: ${data.hint}.` : data.statement
  }
}

function renderHub(data: HubErrorData): string {
  const said = [data.status, data.reason].filter((part) => part !== undefined).join(' ')
  const hub = data.hubMessage ? `: ${data.hubMessage}` : ''
  const what = said || hub ? ` (hub answered ${said || 'an error'}${hub})` : ''
  return `Could not ${data.operation}${what}. ${data.hint}`
}

function renderGitHub(data: GitHubErrorData): string {
  const answered =
    data.status !== undefined
      ? ` (GitHub answered ${data.status}${data.githubMessage ? `: ${data.githubMessage}` : ''})`
      : data.githubMessage
        ? ` (no answer from GitHub: ${data.githubMessage})`
        : ''
  return `Could not ${data.operation}${answered}.${data.hint ? ` ${data.hint}` : ''}`
}

function renderProblems(problems: readonly string[]): string {
  return problems.length === 1
    ? `Invalid input: ${problems[0] ?? ''}`
    : `${problems.length} invalid inputs:\n${problems.map((p) => `- ${p}`).join('\n')}`
}
