/**
 * GitHub REST API emulator.
 *
 * A real HTTP server bound to 127.0.0.1 (ephemeral port by default) that speaks
 * enough of the GitHub REST API for the action to run end to end through
 * `@actions/github`'s octokit with `GITHUB_API_URL` pointed at `emulator.url`.
 *
 * Served:
 *   POST   /graphql                                (query { viewer { login } } only; any token)
 *   GET    /user                                   (403 for installation/bot tokens, like GITHUB_TOKEN)
 *   GET    /app                                    (401: an installation token is not a JWT)
 *   GET    /rate_limit
 *   GET    /repos/{o}/{r}
 *   GET    /repos/{o}/{r}/pulls/{n}
 *   GET    /repos/{o}/{r}/pulls/{n}/files          (paginated, Link header, capped at 3000 files)
 *   GET    /repos/{o}/{r}/issues/{n}
 *   GET    /repos/{o}/{r}/issues/{n}/comments      (paginated, Link header, ?since=)
 *   POST   /repos/{o}/{r}/issues/{n}/comments
 *   GET    /repos/{o}/{r}/issues/comments/{id}
 *   PATCH  /repos/{o}/{r}/issues/comments/{id}     (403 unless the caller authored it)
 *   DELETE /repos/{o}/{r}/issues/comments/{id}     (403 unless the caller authored it)
 *   GET    /repos/{o}/{r}/contents/{path}?ref=     (JSON/base64, raw, object; directories list)
 *
 * Erasable TypeScript, Node built-ins only: runnable with `node` type stripping.
 */
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { createHash, randomBytes } from 'node:crypto'
import { createFaultQueue, headerMap, listenLocal, readBody } from './http.ts'

// ---------------------------------------------------------------------------
// Public types and constants
// ---------------------------------------------------------------------------

type IdentityType = 'Bot' | 'User'

export interface TokenIdentity {
  login: string
  type?: IdentityType
  /** Every write (POST/PATCH/PUT/DELETE) is refused with 403. */
  readOnly?: boolean
  /** Numeric account id; derived from the login when absent. */
  id?: number
}

export const ACTIONS_TOKEN = 'ghs_actionstoken000000000000000000000'
export const READONLY_TOKEN = 'ghs_readonlytoken0000000000000000000'
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]'
const ACTIONS_BOT_ID = 41898282

export const DEFAULT_TOKENS: Readonly<Record<string, TokenIdentity>> = Object.freeze({
  [ACTIONS_TOKEN]: { login: ACTIONS_BOT_LOGIN, type: 'Bot' },
  [READONLY_TOKEN]: { login: ACTIONS_BOT_LOGIN, type: 'Bot', readOnly: true },
})

/** Maximum characters (code points) in an issue comment body. */
const MAX_COMMENT_CHARS = 65536
/** GitHub's "list pull request files" stops at this many files. */
const MAX_PR_FILES = 3000

export interface GitHubEmulatorOptions {
  /** Token → identity. Replaces DEFAULT_TOKENS when given (spread DEFAULT_TOKENS to keep them). */
  tokens?: Record<string, TokenIdentity>
  /** Port on 127.0.0.1; 0 (default) = ephemeral. */
  port?: number
  /** Clock used for created_at/updated_at. */
  now?: () => Date
  /** x-ratelimit-limit reported per token (default 5000). Not enforced; use addFault to simulate exhaustion. */
  rateLimit?: number
}

export interface RecordedRequest {
  method: string
  /** Raw (still percent-encoded) pathname. */
  path: string
  query: Record<string, string>
  /** Lower-case header names. */
  headers: Record<string, string>
  /** Parsed JSON when the body is JSON, the raw text otherwise, undefined when empty. */
  body: unknown
  /** Date.now() when the request arrived. */
  at: number
}

type FileStatus = 'added' | 'modified' | 'removed' | 'renamed' | 'copied' | 'changed' | 'unchanged'

export interface PullRequestFileInput {
  filename: string
  status: FileStatus
  previous_filename?: string
  additions?: number
  deletions?: number
  changes?: number
  patch?: string
  sha?: string
}

interface AddPullRequestOptions {
  owner: string
  repo: string
  number: number
  baseSha: string
  headSha: string
  files?: PullRequestFileInput[]
  title?: string
  body?: string | null
  headRef?: string
  baseRef?: string
  state?: 'open' | 'closed'
  draft?: boolean
  /** Login of the PR author (default 'octocat'). */
  user?: string
}

interface GitHubUser {
  login: string
  id: number
  node_id: string
  avatar_url: string
  gravatar_id: string
  url: string
  html_url: string
  type: IdentityType
  site_admin: boolean
}

type AuthorAssociation = 'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'CONTRIBUTOR' | 'FIRST_TIMER' | 'FIRST_TIME_CONTRIBUTOR' | 'MANNEQUIN' | 'NONE'

interface SeedComment {
  body: string
  login: string
  type?: IdentityType
  author_association?: AuthorAssociation
  /** ISO timestamp; defaults to the emulator clock. */
  created_at?: string
}

interface IssueComment {
  id: number
  node_id: string
  url: string
  html_url: string
  issue_url: string
  body: string
  user: GitHubUser
  created_at: string
  updated_at: string
  author_association: AuthorAssociation
  performed_via_github_app: null
}

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

interface Fault {
  readonly spec: FaultSpec
  /** Requests this fault has answered so far. */
  readonly hits: number
  /** Remaining answers (Infinity when unlimited). */
  readonly remaining: number
  remove(): void
}

export interface GitHubEmulator {
  /** Base URL for GITHUB_API_URL, e.g. http://127.0.0.1:43210 (no trailing slash). */
  readonly url: string
  readonly port: number
  /** Every request received, in order (including rejected ones). Cleared by reset(). */
  readonly requests: RecordedRequest[]
  /** Closes all connections and the server; clears all state. Idempotent. */
  close(): Promise<void>
  /** Clears repos, PRs, contents, comments, faults and the request log; tokens are kept. */
  reset(): void
  addToken(token: string, identity: TokenIdentity): void
  addPullRequest(options: AddPullRequestOptions): void
  /** ref is a commit sha or a branch name ('refs/heads/' prefix accepted). */
  setContent(owner: string, repo: string, ref: string, path: string, content: string): void
  /** Seeds a comment (creating the repo/issue if needed). Returns it as the API would. */
  addComment(owner: string, repo: string, number: number, comment: SeedComment): IssueComment
  /** Current comments on an issue/PR, oldest first, as the API would serialise them. */
  comments(owner: string, repo: string, number: number): IssueComment[]
  addFault(spec: FaultSpec): Fault
}

// ---------------------------------------------------------------------------
// Internal state
// ---------------------------------------------------------------------------

const DOCS = 'https://docs.github.com/rest'
const DOC = {
  user: `${DOCS}/users/users#get-the-authenticated-user`,
  app: `${DOCS}/apps/apps#get-the-authenticated-app`,
  repo: `${DOCS}/repos/repos#get-a-repository`,
  pull: `${DOCS}/pulls/pulls#get-a-pull-request`,
  pullFiles: `${DOCS}/pulls/pulls#list-pull-requests-files`,
  issue: `${DOCS}/issues/issues#get-an-issue`,
  listComments: `${DOCS}/issues/comments#list-issue-comments`,
  createComment: `${DOCS}/issues/comments#create-an-issue-comment`,
  getComment: `${DOCS}/issues/comments#get-an-issue-comment`,
  updateComment: `${DOCS}/issues/comments#update-an-issue-comment`,
  deleteComment: `${DOCS}/issues/comments#delete-an-issue-comment`,
  contents: `${DOCS}/repos/contents#get-repository-content`,
  rateLimit: `${DOCS}/rate-limit/rate-limit#get-rate-limit-status-for-the-authenticated-user`,
  graphql: 'https://docs.github.com/graphql',
} as const

/** The message GitHub sends with a secondary rate limit (403 or 429 with retry-after). */
export const SECONDARY_RATE_LIMIT_MESSAGE =
  'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID.'

/** A fault answering like GitHub's secondary rate limit, asking to wait `retryAfterSeconds`. */
export function secondaryRateLimit(spec: Omit<FaultSpec, 'status' | 'body' | 'headers'>, retryAfterSeconds: number): FaultSpec {
  return {
    ...spec,
    status: 403,
    body: { message: SECONDARY_RATE_LIMIT_MESSAGE, documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits` },
    headers: { 'retry-after': String(retryAfterSeconds) },
  }
}

interface StoredPull {
  number: number
  baseSha: string
  headSha: string
  baseRef: string
  headRef: string
  title: string
  body: string | null
  state: 'open' | 'closed'
  draft: boolean
  user: string
  files: PullRequestFileInput[]
  createdAt: string
}

interface StoredComment {
  id: number
  issue: number
  body: string
  login: string
  type: IdentityType
  authorAssociation: AuthorAssociation
  createdAt: string
  updatedAt: string
}

interface StoredRepo {
  owner: string
  name: string
  id: number
  defaultBranch: string
  /** ref → (path → content) */
  contents: Map<string, Map<string, string>>
  pulls: Map<number, StoredPull>
  /** issue numbers known to exist (PRs, seeded issues) */
  issues: Set<number>
  comments: Map<number, StoredComment>
}

interface Identity {
  login: string
  type: IdentityType
  readOnly: boolean
  id: number
}

interface Ctx {
  method: string
  url: URL
  headers: Record<string, string>
  body: unknown
  identity: Identity
}

interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** send body as text with this content-type instead of JSON */
  contentType?: string
}

interface Route {
  write: boolean
  doc: string
  run: (ctx: Ctx) => Reply
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

function stableId(seed: string, base: number, span: number): number {
  return base + (fnv1a(seed) % span)
}

function sha1(s: string | Buffer): string {
  return createHash('sha1').update(s).digest('hex')
}

/** Git blob sha of a UTF-8 string, as GitHub reports for file contents. */
export function blobSha(content: string): string {
  const bytes = Buffer.from(content, 'utf8')
  return sha1(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes]))
}

/** Ruby Base64.encode64 style: 60-char lines, each terminated by "\n". */
function base64Lines(content: string): string {
  const b64 = Buffer.from(content, 'utf8').toString('base64')
  if (b64 === '') return ''
  let out = ''
  for (let i = 0; i < b64.length; i += 60) out += b64.slice(i, i + 60) + '\n'
  return out
}

function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

function repoKey(owner: string, repo: string): string {
  return `${owner.toLowerCase()}/${repo.toLowerCase()}`
}

function normalizeRef(ref: string): string {
  return ref.replace(/^refs\/heads\//, '').replace(/^heads\//, '')
}

function normalizePath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '').replace(/\/{2,}/g, '/')
}

/** Only the query the action sends; anything else gets GraphQL's error shape, as GitHub answers (200). */
function graphql(ctx: Ctx): Reply {
  const query = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as { query?: unknown }).query : undefined
  if (typeof query !== 'string') return err(400, 'Problems parsing JSON', DOC.graphql)
  if (/^\s*(query\s*)?\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*$/.test(query)) {
    return { status: 200, body: { data: { viewer: { login: ctx.identity.login } } } }
  }
  return { status: 200, body: { errors: [{ message: `The emulator answers only \`{ viewer { login } }\`, not: ${query.slice(0, 80)}` }] } }
}

function err(status: number, message: string, doc: string = DOCS, extra?: Record<string, unknown>): Reply {
  return { status, body: { message, ...extra, documentation_url: doc } }
}

function notFound(doc: string = DOCS): Reply {
  return err(404, 'Not Found', doc)
}

function parsePositiveInt(v: string | null): number | undefined {
  if (v === null || !/^\d+$/.test(v)) return undefined
  const n = Number(v)
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}

function userObject(apiBase: string, login: string, type: IdentityType, id: number): GitHubUser {
  const isActionsBot = login === ACTIONS_BOT_LOGIN
  const nodePrefix = type === 'Bot' ? '04:Bot' : '04:User'
  return {
    login,
    id,
    node_id: Buffer.from(`${nodePrefix}${id}`).toString('base64'),
    avatar_url: isActionsBot ? 'https://avatars.githubusercontent.com/in/15368?v=4' : `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `${apiBase}/users/${encodeURIComponent(login)}`,
    html_url: isActionsBot ? 'https://github.com/apps/github-actions' : `https://github.com/${encodeURIComponent(login)}`,
    type,
    site_admin: false,
  }
}

function accountId(login: string, type: IdentityType): number {
  if (login === ACTIONS_BOT_LOGIN) return ACTIONS_BOT_ID
  return stableId(`${type}:${login.toLowerCase()}`, type === 'Bot' ? 100_000_000 : 1_000_000, 90_000_000)
}

function toIdentity(t: TokenIdentity): Identity {
  const type = t.type ?? (t.login.endsWith('[bot]') ? 'Bot' : 'User')
  return { login: t.login, type, readOnly: t.readOnly === true, id: t.id ?? accountId(t.login, type) }
}

function parseAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined
  const m = /^\s*(token|bearer)\s+(\S+)\s*$/i.exec(header)
  return m?.[2]
}

const MAX_REQUEST_BYTES = 25 * 1024 * 1024

// ---------------------------------------------------------------------------
// Emulator
// ---------------------------------------------------------------------------

export async function startGitHubEmulator(options: GitHubEmulatorOptions = {}): Promise<GitHubEmulator> {
  const now = options.now ?? (() => new Date())
  const rateLimit = options.rateLimit ?? 5000
  const rateReset = Math.floor(Date.now() / 1000) + 3600
  const tokens = new Map<string, Identity>()
  for (const [tok, ident] of Object.entries(options.tokens ?? DEFAULT_TOKENS)) tokens.set(tok, toIdentity(ident))

  const repos = new Map<string, StoredRepo>()
  // A string path is the exact pathname (or pathname+query); a fault answers until removed unless `times` says otherwise.
  const faults = createFaultQueue<FaultSpec>({
    defaultTimes: Infinity,
    pathMatches: (path, url) => path === url.pathname || path === url.pathname + url.search,
  })
  const requests: RecordedRequest[] = []
  const rateUsed = new Map<string, number>()
  let nextCommentId = 2_000_000_001
  let closed = false
  let apiBase = ''

  // ---- state helpers -------------------------------------------------------

  function ensureRepo(owner: string, name: string): StoredRepo {
    const key = repoKey(owner, name)
    let r = repos.get(key)
    if (!r) {
      r = {
        owner,
        name,
        id: stableId(key, 100_000_000, 800_000_000),
        defaultBranch: 'main',
        contents: new Map(),
        pulls: new Map(),
        issues: new Set(),
        comments: new Map(),
      }
      repos.set(key, r)
    }
    return r
  }

  function findRepo(owner: string, name: string): StoredRepo | undefined {
    return repos.get(repoKey(owner, name))
  }

  function ownerObject(r: StoredRepo): GitHubUser {
    return userObject(apiBase, r.owner, 'User', accountId(r.owner, 'User'))
  }

  function repoObject(r: StoredRepo): Record<string, unknown> {
    return {
      id: r.id,
      node_id: Buffer.from(`010:Repository${r.id}`).toString('base64'),
      name: r.name,
      full_name: `${r.owner}/${r.name}`,
      private: false,
      owner: ownerObject(r),
      html_url: `https://github.com/${r.owner}/${r.name}`,
      url: `${apiBase}/repos/${r.owner}/${r.name}`,
      fork: false,
      default_branch: r.defaultBranch,
      visibility: 'public',
    }
  }

  function serializeComment(r: StoredRepo, c: StoredComment): IssueComment {
    const kind = r.pulls.has(c.issue) ? 'pull' : 'issues'
    return {
      id: c.id,
      node_id: `IC_kwDO${Buffer.from(`${r.id}:${c.id}`).toString('base64url')}`,
      url: `${apiBase}/repos/${r.owner}/${r.name}/issues/comments/${c.id}`,
      html_url: `https://github.com/${r.owner}/${r.name}/${kind}/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${apiBase}/repos/${r.owner}/${r.name}/issues/${c.issue}`,
      body: c.body,
      user: userObject(apiBase, c.login, c.type, accountId(c.login, c.type)),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      author_association: c.authorAssociation,
      performed_via_github_app: null,
    }
  }

  function issueComments(r: StoredRepo, issue: number): StoredComment[] {
    return [...r.comments.values()].filter((c) => c.issue === issue).sort((a, b) => a.id - b.id)
  }

  function knownRefs(r: StoredRepo): Set<string> {
    const refs = new Set<string>([r.defaultBranch, ...r.contents.keys()])
    for (const p of r.pulls.values()) {
      refs.add(p.baseSha).add(p.headSha).add(p.baseRef).add(p.headRef)
    }
    return refs
  }

  function defaultAssociation(r: StoredRepo, login: string): AuthorAssociation {
    return login.toLowerCase() === r.owner.toLowerCase() ? 'OWNER' : 'NONE'
  }

  // ---- pagination ----------------------------------------------------------

  function paginate<T>(ctx: Ctx, items: T[]): { page: T[]; headers: Record<string, string> } {
    const sp = ctx.url.searchParams
    const perPage = Math.min(100, parsePositiveInt(sp.get('per_page')) ?? 30)
    const page = parsePositiveInt(sp.get('page')) ?? 1
    const last = Math.max(1, Math.ceil(items.length / perPage))
    const link = (p: number, rel: string): string => {
      const u = new URL(ctx.url.pathname + ctx.url.search, apiBase)
      u.searchParams.set('page', String(p))
      return `<${u.toString()}>; rel="${rel}"`
    }
    const parts: string[] = []
    if (page > 1) parts.push(link(page - 1, 'prev'))
    if (page < last) parts.push(link(page + 1, 'next'), link(last, 'last'))
    if (page > 1) parts.push(link(1, 'first'))
    const start = (page - 1) * perPage
    return {
      page: items.slice(start, start + perPage),
      headers: parts.length > 0 ? { link: parts.join(', ') } : {},
    }
  }

  // ---- validation ----------------------------------------------------------

  function validateCommentBody(ctx: Ctx, doc: string): string | Reply {
    const b = ctx.body
    if (typeof b !== 'object' || b === null || Array.isArray(b) || !('body' in b)) {
      return err(422, 'Invalid request.\n\n"body" wasn\'t supplied.', doc)
    }
    const body = b.body
    if (typeof body !== 'string') {
      return err(422, `Invalid request.\n\nFor 'properties/body', ${JSON.stringify(body)} is not a string.`, doc)
    }
    if ([...body].length > MAX_COMMENT_CHARS) {
      return err(422, 'Validation Failed', doc, {
        errors: [
          {
            resource: 'IssueComment',
            code: 'custom',
            field: 'body',
            message: `body is too long (maximum is ${MAX_COMMENT_CHARS} characters)`,
          },
        ],
      })
    }
    if (body.trim() === '') {
      return err(422, 'Validation Failed', doc, {
        errors: [{ resource: 'IssueComment', code: 'missing_field', field: 'body' }],
      })
    }
    return body
  }

  function forbiddenForAuthor(ctx: Ctx, c: StoredComment, doc: string): Reply | undefined {
    if (c.login.toLowerCase() === ctx.identity.login.toLowerCase()) return undefined
    return ctx.identity.type === 'Bot' ? err(403, 'Resource not accessible by integration', doc) : err(403, 'Must have admin rights to Repository.', doc)
  }

  // ---- contents ------------------------------------------------------------

  function contentEntry(r: StoredRepo, ref: string, path: string, type: 'file' | 'dir', content?: string): Record<string, unknown> {
    const name = path.split('/').pop() ?? path
    const sha = type === 'file' ? blobSha(content ?? '') : sha1(`tree:${ref}:${path}`)
    const encPath = path.split('/').map(encodeURIComponent).join('/')
    const self = `${apiBase}/repos/${r.owner}/${r.name}/contents/${encPath}?ref=${encodeURIComponent(ref)}`
    const git = `${apiBase}/repos/${r.owner}/${r.name}/git/${type === 'file' ? 'blobs' : 'trees'}/${sha}`
    const html = `https://github.com/${r.owner}/${r.name}/${type === 'file' ? 'blob' : 'tree'}/${ref}/${encPath}`
    return {
      type,
      name,
      path,
      sha,
      size: type === 'file' ? Buffer.byteLength(content ?? '', 'utf8') : 0,
      url: self,
      html_url: html,
      git_url: git,
      download_url: type === 'file' ? `https://raw.githubusercontent.com/${r.owner}/${r.name}/${ref}/${encPath}` : null,
      _links: { self, git, html },
    }
  }

  function getContents(ctx: Ctx, r: StoredRepo, rawPath: string): Reply {
    const path = normalizePath(rawPath)
    const ref = normalizeRef(ctx.url.searchParams.get('ref') ?? r.defaultBranch)
    if (!knownRefs(r).has(ref)) return err(404, `No commit found for the ref ${ref}`, DOC.contents)
    const files = r.contents.get(ref) ?? new Map<string, string>()
    const accept = ctx.headers['accept'] ?? ''
    const content = path === '' ? undefined : files.get(path)
    if (content !== undefined) {
      if (/application\/vnd\.github(?:\.v3)?\.raw/i.test(accept)) {
        return {
          status: 200,
          body: content,
          contentType: 'text/plain; charset=utf-8',
          headers: { etag: `"${blobSha(content)}"` },
        }
      }
      return {
        status: 200,
        body: { ...contentEntry(r, ref, path, 'file', content), content: base64Lines(content), encoding: 'base64' },
        headers: { etag: `"${blobSha(content)}"` },
      }
    }
    // directory?
    const prefix = path === '' ? '' : `${path}/`
    const children = new Map<string, 'file' | 'dir'>()
    for (const p of files.keys()) {
      if (!p.startsWith(prefix)) continue
      const rest = p.slice(prefix.length)
      const slash = rest.indexOf('/')
      if (slash === -1) children.set(rest, 'file')
      else children.set(rest.slice(0, slash), 'dir')
    }
    if (children.size === 0 && path !== '') return notFound(DOC.contents)
    const entries = [...children.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, type]) => {
        const p = prefix + name
        return contentEntry(r, ref, p, type, type === 'file' ? files.get(p) : undefined)
      })
    if (/application\/vnd\.github(?:\.v3)?\.object/i.test(accept)) {
      return { status: 200, body: { ...contentEntry(r, ref, path, 'dir'), entries } }
    }
    return { status: 200, body: entries }
  }

  // ---- pulls ---------------------------------------------------------------

  function pullObject(r: StoredRepo, p: StoredPull): Record<string, unknown> {
    const user = userObject(apiBase, p.user, 'User', accountId(p.user, 'User'))
    const repoObj = repoObject(r)
    const files = p.files.slice(0, MAX_PR_FILES)
    const id = stableId(`${r.id}:pr:${p.number}`, 1_000_000_000, 900_000_000)
    return {
      url: `${apiBase}/repos/${r.owner}/${r.name}/pulls/${p.number}`,
      id,
      node_id: `PR_kwDO${Buffer.from(`${r.id}:${p.number}`).toString('base64url')}`,
      html_url: `https://github.com/${r.owner}/${r.name}/pull/${p.number}`,
      diff_url: `https://github.com/${r.owner}/${r.name}/pull/${p.number}.diff`,
      patch_url: `https://github.com/${r.owner}/${r.name}/pull/${p.number}.patch`,
      issue_url: `${apiBase}/repos/${r.owner}/${r.name}/issues/${p.number}`,
      comments_url: `${apiBase}/repos/${r.owner}/${r.name}/issues/${p.number}/comments`,
      number: p.number,
      state: p.state,
      locked: false,
      title: p.title,
      user,
      body: p.body,
      created_at: p.createdAt,
      updated_at: p.createdAt,
      closed_at: null,
      merged_at: null,
      merge_commit_sha: null,
      draft: p.draft,
      head: { label: `${r.owner}:${p.headRef}`, ref: p.headRef, sha: p.headSha, user: ownerObject(r), repo: repoObj },
      base: { label: `${r.owner}:${p.baseRef}`, ref: p.baseRef, sha: p.baseSha, user: ownerObject(r), repo: repoObj },
      author_association: defaultAssociation(r, p.user),
      merged: false,
      mergeable: null,
      comments: issueComments(r, p.number).length,
      review_comments: 0,
      commits: 1,
      additions: files.reduce((n, f) => n + (f.additions ?? 0), 0),
      deletions: files.reduce((n, f) => n + (f.deletions ?? 0), 0),
      changed_files: p.files.length,
    }
  }

  function pullFileObject(r: StoredRepo, p: StoredPull, f: PullRequestFileInput): Record<string, unknown> {
    const headContent = r.contents.get(p.headSha)?.get(f.filename)
    const sha =
      f.sha ??
      (headContent !== undefined
        ? blobSha(headContent)
        : f.status === 'removed'
          ? sha1(`removed:${p.baseSha}:${f.filename}`)
          : sha1(`${p.headSha}:${f.filename}`))
    const enc = f.filename.split('/').map(encodeURIComponent).join('/')
    const additions = f.additions ?? 0
    const deletions = f.deletions ?? 0
    const out: Record<string, unknown> = {
      sha,
      filename: f.filename,
      status: f.status,
      additions,
      deletions,
      changes: f.changes ?? additions + deletions,
      blob_url: `https://github.com/${r.owner}/${r.name}/blob/${p.headSha}/${enc}`,
      raw_url: `https://github.com/${r.owner}/${r.name}/raw/${p.headSha}/${enc}`,
      contents_url: `${apiBase}/repos/${r.owner}/${r.name}/contents/${enc}?ref=${p.headSha}`,
    }
    if (f.patch !== undefined) out['patch'] = f.patch
    if (f.previous_filename !== undefined) out['previous_filename'] = f.previous_filename
    return out
  }

  function issueObject(r: StoredRepo, n: number): Record<string, unknown> {
    const p = r.pulls.get(n)
    const base = `${apiBase}/repos/${r.owner}/${r.name}/issues/${n}`
    const login = p?.user ?? r.owner
    return {
      url: base,
      id: stableId(`${r.id}:issue:${n}`, 1_000_000_000, 900_000_000),
      number: n,
      title: p?.title ?? `Issue ${n}`,
      state: p?.state ?? 'open',
      user: userObject(apiBase, login, 'User', accountId(login, 'User')),
      body: p?.body ?? null,
      comments: issueComments(r, n).length,
      comments_url: `${base}/comments`,
      html_url: `https://github.com/${r.owner}/${r.name}/${p ? 'pull' : 'issues'}/${n}`,
      ...(p
        ? {
            pull_request: {
              url: `${apiBase}/repos/${r.owner}/${r.name}/pulls/${n}`,
              html_url: `https://github.com/${r.owner}/${r.name}/pull/${n}`,
            },
          }
        : {}),
    }
  }

  // ---- routing -------------------------------------------------------------

  function route(method: string, segs: string[]): Route | undefined {
    const [s0, s1, s2, s3, s4, s5] = segs
    const n = segs.length
    if (n === 1 && s0 === 'user' && method === 'GET') {
      return {
        write: false,
        doc: DOC.user,
        run: (ctx) =>
          ctx.identity.type === 'Bot'
            ? err(403, 'Resource not accessible by integration', DOC.user)
            : {
                status: 200,
                body: {
                  ...userObject(apiBase, ctx.identity.login, 'User', ctx.identity.id),
                  name: null,
                  created_at: '2011-01-25T18:44:36Z',
                },
              },
      }
    }
    if (n === 1 && s0 === 'graphql' && method === 'POST') {
      // A query reads nothing it could change: a read-only token may send it too.
      return { write: false, doc: DOC.graphql, run: (ctx) => graphql(ctx) }
    }
    if (n === 1 && s0 === 'app' && method === 'GET') {
      return { write: false, doc: DOC.app, run: () => err(401, 'A JSON web token could not be decoded', DOCS) }
    }
    if (n === 1 && s0 === 'rate_limit' && method === 'GET') {
      return {
        write: false,
        doc: DOC.rateLimit,
        run: (ctx) => {
          const used = rateUsed.get(ctx.identity.login) ?? 0
          const core = { limit: rateLimit, used, remaining: Math.max(0, rateLimit - used), reset: rateReset }
          return { status: 200, body: { resources: { core }, rate: core } }
        },
      }
    }
    if (s0 !== 'repos' || s1 === undefined || s2 === undefined) return undefined
    const owner = s1
    const name = s2
    const withRepo = (doc: string, write: boolean, fn: (ctx: Ctx, r: StoredRepo) => Reply): Route => ({
      write,
      doc,
      run: (ctx) => {
        const r = findRepo(owner, name)
        return r ? fn(ctx, r) : notFound(doc)
      },
    })

    if (n === 3 && method === 'GET') {
      return withRepo(DOC.repo, false, (_ctx, r) => ({ status: 200, body: repoObject(r) }))
    }

    // contents
    if (s3 === 'contents' && method === 'GET') {
      const path = segs.slice(4).join('/')
      return withRepo(DOC.contents, false, (ctx, r) => getContents(ctx, r, path))
    }

    // pulls
    if (s3 === 'pulls' && s4 !== undefined && (n === 5 || (n === 6 && s5 === 'files')) && method === 'GET') {
      const num = parsePositiveInt(s4)
      const doc = n === 5 ? DOC.pull : DOC.pullFiles
      return withRepo(doc, false, (ctx, r) => {
        const p = num === undefined ? undefined : r.pulls.get(num)
        if (!p) return notFound(doc)
        if (n === 5) return { status: 200, body: pullObject(r, p) }
        const all = p.files.slice(0, MAX_PR_FILES).map((f) => pullFileObject(r, p, f))
        const { page, headers } = paginate(ctx, all)
        return { status: 200, body: page, headers }
      })
    }

    // issue comments by id
    if (s3 === 'issues' && s4 === 'comments' && s5 !== undefined && n === 6) {
      const id = parsePositiveInt(s5)
      const find = (r: StoredRepo): StoredComment | undefined => (id === undefined ? undefined : r.comments.get(id))
      if (method === 'GET') {
        return withRepo(DOC.getComment, false, (_ctx, r) => {
          const c = find(r)
          return c ? { status: 200, body: serializeComment(r, c) } : notFound(DOC.getComment)
        })
      }
      if (method === 'PATCH') {
        return withRepo(DOC.updateComment, true, (ctx, r) => {
          const c = find(r)
          if (!c) return notFound(DOC.updateComment)
          const denied = forbiddenForAuthor(ctx, c, DOC.updateComment)
          if (denied) return denied
          const body = validateCommentBody(ctx, DOC.updateComment)
          if (typeof body !== 'string') return body
          c.body = body
          c.updatedAt = isoSeconds(now())
          return { status: 200, body: serializeComment(r, c) }
        })
      }
      if (method === 'DELETE') {
        return withRepo(DOC.deleteComment, true, (ctx, r) => {
          const c = find(r)
          if (!c) return notFound(DOC.deleteComment)
          const denied = forbiddenForAuthor(ctx, c, DOC.deleteComment)
          if (denied) return denied
          r.comments.delete(c.id)
          return { status: 204 }
        })
      }
      return undefined
    }

    // issues/{n} and issues/{n}/comments
    if (s3 === 'issues' && s4 !== undefined && s4 !== 'comments') {
      const num = parsePositiveInt(s4)
      if (n === 5 && method === 'GET') {
        return withRepo(DOC.issue, false, (_ctx, r) =>
          num !== undefined && r.issues.has(num) ? { status: 200, body: issueObject(r, num) } : notFound(DOC.issue),
        )
      }
      if (n === 6 && s5 === 'comments' && method === 'GET') {
        return withRepo(DOC.listComments, false, (ctx, r) => {
          if (num === undefined || !r.issues.has(num)) return notFound(DOC.listComments)
          let list = issueComments(r, num)
          const since = ctx.url.searchParams.get('since')
          if (since !== null) {
            const t = Date.parse(since)
            if (!Number.isNaN(t)) list = list.filter((c) => Date.parse(c.updatedAt) >= t)
          }
          const { page, headers } = paginate(
            ctx,
            list.map((c) => serializeComment(r, c)),
          )
          return { status: 200, body: page, headers }
        })
      }
      if (n === 6 && s5 === 'comments' && method === 'POST') {
        return withRepo(DOC.createComment, true, (ctx, r) => {
          if (num === undefined || !r.issues.has(num)) return notFound(DOC.createComment)
          const body = validateCommentBody(ctx, DOC.createComment)
          if (typeof body !== 'string') return body
          const ts = isoSeconds(now())
          const c: StoredComment = {
            id: nextCommentId++,
            issue: num,
            body,
            login: ctx.identity.login,
            type: ctx.identity.type,
            authorAssociation: defaultAssociation(r, ctx.identity.login),
            createdAt: ts,
            updatedAt: ts,
          }
          r.comments.set(c.id, c)
          const out = serializeComment(r, c)
          return { status: 201, body: out, headers: { location: out.url } }
        })
      }
    }
    return undefined
  }

  // ---- request handling ------------------------------------------------------

  function send(res: ServerResponse, reply: Reply, rateKey: string): void {
    const used = (rateUsed.get(rateKey) ?? 0) + 1
    rateUsed.set(rateKey, used)
    const headers: Record<string, string> = {
      'x-github-api-version-selected': '2022-11-28',
      'x-github-media-type': 'github.v3; format=json',
      'x-github-request-id': randomBytes(8)
        .toString('hex')
        .toUpperCase()
        .replace(/(.{4})(.{4})(.{4})(.{4})/, '$1:$2:$3:$4'),
      'x-ratelimit-limit': String(rateLimit),
      'x-ratelimit-remaining': String(Math.max(0, rateLimit - used)),
      'x-ratelimit-reset': String(rateReset),
      'x-ratelimit-used': String(used),
      'x-ratelimit-resource': 'core',
      ...reply.headers,
    }
    if (reply.status === 204 || reply.body === undefined) {
      res.writeHead(reply.status, headers)
      res.end()
      return
    }
    let text: string
    let contentType: string
    if (reply.contentType !== undefined) {
      text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)
      contentType = reply.contentType
    } else {
      text = JSON.stringify(reply.body)
      contentType = 'application/json; charset=utf-8'
    }
    headers['content-type'] = contentType
    headers['content-length'] = String(Buffer.byteLength(text, 'utf8'))
    res.writeHead(reply.status, headers)
    res.end(text)
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase()
    const url = new URL(req.url ?? '/', apiBase)
    const headers = headerMap(req.headers)
    const read = await readBody(req, MAX_REQUEST_BYTES)
    const raw = read.tooLarge ? 'too-large' : read.body
    let body: unknown = undefined
    let badJson = false
    if (raw !== 'too-large' && raw.length > 0) {
      const text = raw.toString('utf8')
      const ct = headers['content-type'] ?? ''
      try {
        body = JSON.parse(text)
      } catch {
        body = text
        badJson = ct === '' || /json/i.test(ct)
      }
    }
    const query: Record<string, string> = {}
    for (const [k, v] of url.searchParams) query[k] = v
    requests.push({ method, path: url.pathname, query, headers, body, at: Date.now() })

    const token = parseAuthorization(headers['authorization'])
    const rateKey = token !== undefined ? (tokens.get(token)?.login ?? `anon:${token}`) : 'anon'

    const fault = faults.take(method, url)
    if (fault) {
      const b = fault.spec.body
      if (typeof b === 'string') {
        send(res, { status: fault.spec.status, body: b, contentType: 'text/plain; charset=utf-8', headers: fault.spec.headers ?? {} }, rateKey)
      } else {
        send(
          res,
          {
            status: fault.spec.status,
            body: b ?? { message: fault.spec.status >= 500 ? 'Server Error' : 'Forbidden', documentation_url: DOCS },
            headers: fault.spec.headers ?? {},
          },
          rateKey,
        )
      }
      return
    }

    if (raw === 'too-large') return send(res, err(413, 'Request body too large'), rateKey)

    const identity = token !== undefined ? tokens.get(token) : undefined
    if (!identity) return send(res, err(401, 'Bad credentials'), rateKey)

    let segs: string[]
    try {
      segs = url.pathname
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s))
    } catch {
      return send(res, notFound(), rateKey)
    }
    const r = route(method, segs)
    if (!r) return send(res, notFound(), rateKey)
    if (r.write && identity.readOnly) {
      return send(res, err(403, 'Resource not accessible by integration', r.doc), rateKey)
    }
    if (badJson && r.write) return send(res, err(400, 'Problems parsing JSON', r.doc), rateKey)
    send(res, r.run({ method, url, headers, body, identity }), rateKey)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy()
        return
      }
      const message = e instanceof Error ? e.message : String(e)
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify({ message: `Emulator error: ${message}`, documentation_url: DOCS }))
    })
  })
  server.keepAliveTimeout = 5_000

  const port = await listenLocal(server, options.port)
  apiBase = `http://127.0.0.1:${port}`

  function reset(): void {
    repos.clear()
    faults.clear()
    requests.length = 0
    rateUsed.clear()
  }

  return {
    url: apiBase,
    port,
    requests,

    async close(): Promise<void> {
      reset()
      tokens.clear()
      if (closed) return
      closed = true
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },

    reset,

    addToken(token: string, identity: TokenIdentity): void {
      tokens.set(token, toIdentity(identity))
    },

    addPullRequest(o: AddPullRequestOptions): void {
      if (!Number.isSafeInteger(o.number) || o.number < 1) throw new Error(`invalid PR number ${o.number}`)
      const r = ensureRepo(o.owner, o.repo)
      r.pulls.set(o.number, {
        number: o.number,
        baseSha: o.baseSha,
        headSha: o.headSha,
        baseRef: o.baseRef ?? r.defaultBranch,
        headRef: o.headRef ?? `feature-${o.number}`,
        title: o.title ?? `Pull request #${o.number}`,
        body: o.body ?? null,
        state: o.state ?? 'open',
        draft: o.draft ?? false,
        user: o.user ?? 'octocat',
        files: (o.files ?? []).map((f) => ({ ...f })),
        createdAt: isoSeconds(now()),
      })
      r.issues.add(o.number)
    },

    setContent(owner: string, repo: string, ref: string, path: string, content: string): void {
      const r = ensureRepo(owner, repo)
      const key = normalizeRef(ref)
      let files = r.contents.get(key)
      if (!files) {
        files = new Map()
        r.contents.set(key, files)
      }
      files.set(normalizePath(path), content)
    },

    addComment(owner: string, repo: string, number: number, c: SeedComment): IssueComment {
      const r = ensureRepo(owner, repo)
      r.issues.add(number)
      const type = c.type ?? (c.login.endsWith('[bot]') ? 'Bot' : 'User')
      const ts = c.created_at ?? isoSeconds(now())
      const stored: StoredComment = {
        id: nextCommentId++,
        issue: number,
        body: c.body,
        login: c.login,
        type,
        authorAssociation: c.author_association ?? defaultAssociation(r, c.login),
        createdAt: ts,
        updatedAt: ts,
      }
      r.comments.set(stored.id, stored)
      return serializeComment(r, stored)
    },

    comments(owner: string, repo: string, number: number): IssueComment[] {
      const r = findRepo(owner, repo)
      return r ? issueComments(r, number).map((c) => serializeComment(r, c)) : []
    },

    addFault(spec: FaultSpec): Fault {
      const f = faults.add(spec)
      return {
        spec,
        get hits() {
          return f.hits
        },
        get remaining() {
          return f.remaining
        },
        remove() {
          faults.remove(f)
        },
      }
    },
  }
}
