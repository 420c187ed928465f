// The server: one HTTP server on 127.0.0.1 that records each request, answers a fault when one
// matches, authenticates the token, routes, and sends the reply with GitHub's headers. Its options
// and handle are in emulator-types.ts.
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { randomBytes } from 'node:crypto'
import { createFaultQueue, headerMap, listenLocal, readBody } from '../http.ts'
import { createComments } from './comments.ts'
import type { IssueComment, SeedComment } from './comments.ts'
import { createContents } from './contents.ts'
import { createDeployments } from './deployments.ts'
import type { Fault, FaultSpec } from './faults.ts'
import { DEFAULT_TOKENS, parseAuthorization, toIdentity } from './identities.ts'
import type { Identity, TokenIdentity } from './identities.ts'
import { createPulls } from './pulls.ts'
import type { AddPullRequestOptions } from './pulls.ts'
import { DOCS, err, isoSeconds, notFound } from './replies.ts'
import type { Reply } from './replies.ts'
import { createRepos, normalizePath, normalizeRef } from './repos.ts'
import { createRouter } from './routes.ts'
import type { GitHubState, StoredComment, StoredRepo } from './state.ts'
import type { DeploymentRecord, GitHubEmulator, GitHubEmulatorOptions, RecordedRequest } from './emulator-types.ts'

const MAX_REQUEST_BYTES = 25 * 1024 * 1024

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
  let closed = false
  const st: GitHubState = {
    now,
    rateLimit,
    rateReset,
    rateUsed,
    repos,
    nextCommentId: 2_000_000_001,
    nextDeploymentId: 3_000_000_001,
    apiBase: '',
  }
  const repoStore = createRepos(st)
  const { ensureRepo, findRepo, issueComments, defaultAssociation } = repoStore
  const comments = createComments(st)
  const { serializeComment } = comments
  const deployments = createDeployments(st)
  const route = createRouter(
    st,
    repoStore,
    comments,
    createContents(st, repoStore),
    createPulls(st, repoStore),
    deployments,
  )

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
    const url = new URL(req.url ?? '/', st.apiBase)
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
        send(
          res,
          {
            status: fault.spec.status,
            body: b,
            contentType: 'text/plain; charset=utf-8',
            headers: fault.spec.headers ?? {},
          },
          rateKey,
        )
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
  st.apiBase = `http://127.0.0.1:${port}`

  function reset(): void {
    repos.clear()
    faults.clear()
    requests.length = 0
    rateUsed.clear()
  }

  return {
    url: st.apiBase,
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
        id: st.nextCommentId++,
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

    addRepo(owner: string, repo: string): void {
      ensureRepo(owner, repo)
    },

    deployments(owner: string, repo: string): DeploymentRecord[] {
      const r = findRepo(owner, repo)
      return (r?.deployments ?? []).map((d) => {
        const o = deployments.deploymentObject(r as StoredRepo, d)
        return {
          id: o.id,
          ref: o.ref,
          environment: o.environment,
          description: o.description,
          payload: o.payload,
          transient_environment: o.transient_environment,
          production_environment: o.production_environment,
          statuses: d.statuses.map((s) => ({ state: s.state, description: s.description, log_url: s.logUrl })),
        }
      })
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
