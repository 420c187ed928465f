/**
 * One report comment per pull request and comment key, edited in place on each run.
 *
 * The comment is found by a hidden marker on its first line and by its author: a marker in a
 * comment by anyone else (a human quoting ours) is never touched. The marker also records the
 * run that wrote the comment, so a slow or re-run job for an older commit does not overwrite
 * the report of a newer one (run ids grow with time; attempts grow within a run). The body is
 * redacted (src/redact.ts) before it is posted: a comment is public to everyone who can read the PR.
 */
import { codePointLength } from '../markdown/format.js'
import { redact } from '../redact.js'
import type { GitHubClient } from './client.js'
import { GitHubError, describeFailure } from './errors.js'

/** GitHub's limit for an issue comment body, in characters (code points). @internal */
export const MAX_COMMENT_CHARS = 65536
/** Who posts with the workflow's GITHUB_TOKEN. */
const ACTIONS_BOT_LOGIN = 'github-actions[bot]'

/** How every marker begins; its fields follow. @internal */
export const IMPACT_MARKER_PREFIX = '<!-- hub-action:impact'
const MARKER_PATTERN = new RegExp(
  `^${IMPACT_MARKER_PREFIX} v(\\d+) key=(\\S+) run=(\\S+) attempt=(\\S+) sha=(\\S+) -->$`,
)
const TRIMMED_NOTE = '_… trimmed: the report is longer than a GitHub comment can hold._'
const UNKNOWN = 'unknown'

interface MarkerFields {
  key: string
  runId: string | number | undefined
  runAttempt: string | number | undefined
  sha: string | undefined
}

interface ParsedMarker {
  version: number
  key: string
  runId: string
  runAttempt: string
  sha: string
}

type StickyCommentMode = 'update' | 'new'

export interface StickyCommentOptions extends MarkerFields {
  owner: string
  repo: string
  /** The pull request (or issue) number. */
  number: number
  /** Markdown without the marker; sized by the caller, redacted and trimmed (if still too long) here. */
  body: string
  /** `update`: edit our comment for this key; `new`: always post another. */
  mode: StickyCommentMode
  /** Login the token posts as; asked of GitHub (GraphQL viewer) when absent. */
  author?: string | undefined
}

type StickyCommentAction = 'created' | 'updated' | 'unchanged' | 'skipped-newer' | 'forbidden'

export interface StickyCommentResult {
  action: StickyCommentAction
  /** The comment's html_url (absent when forbidden). */
  url?: string
  id?: number
}

/** Marker values keep to [A-Za-z0-9._-] so a value cannot end the HTML comment or add a field. */
function sanitizeMarkerValue(value: string | number | undefined, fallback: string = UNKNOWN): string {
  const clean = String(value ?? '')
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, '_')
  return clean === '' ? fallback : clean
}

/** @internal */
export function commentMarker(fields: MarkerFields): string {
  const key = sanitizeMarkerValue(fields.key, 'default')
  const run = sanitizeMarkerValue(fields.runId)
  const attempt = sanitizeMarkerValue(fields.runAttempt)
  const sha = sanitizeMarkerValue(fields.sha)
  return `${IMPACT_MARKER_PREFIX} v1 key=${key} run=${run} attempt=${attempt} sha=${sha} -->`
}

/** The marker on the body's first line, or undefined when that line is not one of ours. @internal */
export function parseMarker(body: string | null | undefined): ParsedMarker | undefined {
  if (!body) return undefined
  const newline = body.indexOf('\n')
  const firstLine = (newline === -1 ? body : body.slice(0, newline)).trim()
  const match = MARKER_PATTERN.exec(firstLine)
  if (!match) return undefined
  const [, version, key, runId, runAttempt, sha] = match
  if (
    version === undefined ||
    key === undefined ||
    runId === undefined ||
    runAttempt === undefined ||
    sha === undefined
  ) {
    return undefined
  }
  return { version: Number(version), key, runId, runAttempt, sha }
}

/**
 * Marker, newline, content; cut at a line boundary with a note when the whole would exceed
 * MAX_COMMENT_CHARS code points. Never splits a surrogate pair, and closes a code fence left open.
 * @internal
 */
export function composeCommentBody(marker: string, content: string): string {
  const whole = `${marker}\n${content}`
  if (codePointLength(whole) <= MAX_COMMENT_CHARS) return whole
  const fenceCloser = '```\n'
  const budget = MAX_COMMENT_CHARS - codePointLength(`${marker}\n\n${TRIMMED_NOTE}`) - fenceCloser.length
  let kept = cutAtLineBoundary(content, Math.max(0, budget))
  if (hasOpenFence(kept)) kept += `\n${fenceCloser.trimEnd()}`
  return `${marker}\n${kept}\n${TRIMMED_NOTE}`
}

/**
 * Create or update our comment for `key` on the pull request. A 403 on the write (a fork's
 * read-only token, missing `pull-requests: write`) is an answer, `forbidden`, not an error:
 * the report is still in the log and summary, and the step keeps its verdict.
 */
export async function upsertStickyComment(
  octokit: GitHubClient,
  options: StickyCommentOptions,
): Promise<StickyCommentResult> {
  const { owner, repo, number } = options
  const where = `${owner}/${repo}#${number}`
  const marker = commentMarker(options)
  // Redacted here, whatever the caller did, and before the trim: a clipped secret no longer matches.
  const body = composeCommentBody(marker, redact(options.body))
  if (options.mode === 'new') return createComment(octokit, options, body, where)

  const key = sanitizeMarkerValue(options.key, 'default')
  const author = options.author ?? (await commentAuthor(octokit))
  let comments: IssueCommentSummary[]
  try {
    comments = await octokit.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner,
      repo,
      issue_number: number,
      per_page: 100,
    })
  } catch (error) {
    throw describeFailure(error, `list the comments of ${where}`)
  }
  const ours = comments.filter(
    (comment) => sameLogin(comment.user?.login, author) && parseMarker(comment.body)?.key === key,
  )
  const existing = newest(ours)
  if (!existing) return createComment(octokit, options, body, where)

  const result = { url: existing.html_url, id: Number(existing.id) }
  if (contentOf(existing.body) === contentOf(body)) return { action: 'unchanged', ...result }
  const stored = parseMarker(existing.body)
  if (stored && isNewerRun(stored, parseMarker(marker))) return { action: 'skipped-newer', ...result }

  try {
    const response = await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
      owner,
      repo,
      comment_id: Number(existing.id),
      body,
    })
    return { action: 'updated', url: response.data.html_url, id: Number(response.data.id) }
  } catch (error) {
    if (error instanceof GitHubError && error.status === 403) return { action: 'forbidden' }
    // deleted between the listing and the edit: post it afresh
    if (error instanceof GitHubError && error.status === 404) return createComment(octokit, options, body, where)
    throw describeFailure(error, `update comment ${existing.id} on ${where}`)
  }
}

interface IssueCommentSummary {
  /** octokit parses JSON with json-with-bigint, so ids are typed number | bigint */
  id: number | bigint
  html_url: string
  body?: string | undefined
  created_at: string
  user: { login: string } | null
}

async function createComment(
  octokit: GitHubClient,
  options: StickyCommentOptions,
  body: string,
  where: string,
): Promise<StickyCommentResult> {
  try {
    const response = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: options.owner,
      repo: options.repo,
      issue_number: options.number,
      body,
    })
    return { action: 'created', url: response.data.html_url, id: Number(response.data.id) }
  } catch (error) {
    if (error instanceof GitHubError && error.status === 403) return { action: 'forbidden' }
    throw describeFailure(error, `comment on ${where}`)
  }
}

const authors = new WeakMap<GitHubClient, Promise<string>>()

/**
 * The login our comments carry, from GraphQL `viewer`: it answers for every kind of token, a
 * GitHub App installation token included (its comments are by `<app>[bot]`). GET /user is the
 * fallback where GraphQL is unavailable; it refuses installation tokens (403), and the one
 * installation token without GraphQL we can name is the Actions one, github-actions[bot].
 */
function commentAuthor(octokit: GitHubClient): Promise<string> {
  let author = authors.get(octokit)
  if (!author) {
    author = octokit.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }').then(
      (data) => {
        const login = data.viewer?.login
        if (typeof login !== 'string' || login === '')
          throw new Error('GitHub GraphQL answered `viewer` without a login')
        return login
      },
      () => userLogin(octokit),
    )
    authors.set(octokit, author)
    author.catch(() => authors.delete(octokit))
  }
  return author
}

function userLogin(octokit: GitHubClient): Promise<string> {
  return octokit.request('GET /user').then(
    (response) => response.data.login,
    (error: unknown) => {
      if (error instanceof GitHubError && error.status === 403) return ACTIONS_BOT_LOGIN
      throw describeFailure(error, 'find which account the GitHub token belongs to')
    },
  )
}

function sameLogin(a: string | undefined, b: string): boolean {
  return a !== undefined && a.toLowerCase() === b.toLowerCase()
}

function newest(comments: IssueCommentSummary[]): IssueCommentSummary | undefined {
  let best: IssueCommentSummary | undefined
  for (const comment of comments) {
    if (
      !best ||
      comment.created_at > best.created_at ||
      (comment.created_at === best.created_at && comment.id > best.id)
    ) {
      best = comment
    }
  }
  return best
}

/** The body without its marker line; line endings and trailing space do not count as changes. */
function contentOf(body: string | undefined): string {
  const text = (body ?? '').replace(/\r\n/g, '\n')
  const newline = text.indexOf('\n')
  return (newline === -1 ? '' : text.slice(newline + 1)).trimEnd()
}

/** Only comparable numbers order runs; a marker without them never blocks an update. */
function isNewerRun(stored: ParsedMarker, ours: ParsedMarker | undefined): boolean {
  if (!ours) return false
  const run = compareDecimal(stored.runId, ours.runId)
  if (run !== 0) return run === 1
  return compareDecimal(stored.runAttempt, ours.runAttempt) === 1
}

/** -1, 0 or 1 for two decimal strings; 0 when either is not a number. */
function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  if (!/^\d+$/.test(a) || !/^\d+$/.test(b)) return 0
  const x = BigInt(a)
  const y = BigInt(b)
  return x > y ? 1 : x < y ? -1 : 0
}

/** At most `max` code points of `text`, ending before the last newline that fits when there is one. */
function cutAtLineBoundary(text: string, max: number): string {
  let count = 0
  let index = 0
  let lastNewline = -1
  for (const char of text) {
    if (count === max) break
    if (char === '\n') lastNewline = index
    index += char.length
    count++
  }
  if (index === text.length) return text
  return lastNewline >= 0 ? text.slice(0, lastNewline) : text.slice(0, index)
}

function hasOpenFence(markdown: string): boolean {
  let open = false
  for (const line of markdown.split('\n')) if (/^ {0,3}(```|~~~)/.test(line)) open = !open
  return open
}
