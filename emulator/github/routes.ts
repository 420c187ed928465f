// Routing: which REST route a method and path name, and what each answers (GraphQL answers only
// the viewer's login).
import { userObject } from './identities.ts'
import { DOC, DOCS, err, isoSeconds, notFound, parsePositiveInt } from './replies.ts'
import type { Ctx, Reply, Route } from './replies.ts'
import type { Comments } from './comments.ts'
import type { Contents } from './contents.ts'
import type { Deployments } from './deployments.ts'
import { MAX_PR_FILES } from './pulls.ts'
import type { Pulls } from './pulls.ts'
import type { Repos } from './repos.ts'
import type { GitHubState, StoredComment, StoredRepo } from './state.ts'

/** Only the query the action sends; anything else gets GraphQL's error shape, as GitHub answers (200). */
function graphql(ctx: Ctx): Reply {
  const query = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as { query?: unknown }).query : undefined
  if (typeof query !== 'string') return err(400, 'Problems parsing JSON', DOC.graphql)
  if (/^\s*(query\s*)?\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*$/.test(query)) {
    return { status: 200, body: { data: { viewer: { login: ctx.identity.login } } } }
  }
  return {
    status: 200,
    body: { errors: [{ message: `The emulator answers only \`{ viewer { login } }\`, not: ${query.slice(0, 80)}` }] },
  }
}

export function createRouter(
  st: GitHubState,
  repos: Repos,
  comments: Comments,
  contents: Contents,
  pulls: Pulls,
  deployments: Deployments,
) {
  const { now, rateLimit, rateReset, rateUsed } = st
  const { findRepo, repoObject, issueComments, defaultAssociation } = repos
  const { serializeComment, validateCommentBody, forbiddenForAuthor } = comments
  const { getContents } = contents
  const { pullObject, pullFileObject, issueObject } = pulls

  function paginate<T>(ctx: Ctx, items: T[]): { page: T[]; headers: Record<string, string> } {
    const sp = ctx.url.searchParams
    const perPage = Math.min(100, parsePositiveInt(sp.get('per_page')) ?? 30)
    const page = parsePositiveInt(sp.get('page')) ?? 1
    const last = Math.max(1, Math.ceil(items.length / perPage))
    const link = (p: number, rel: string): string => {
      const u = new URL(ctx.url.pathname + ctx.url.search, st.apiBase)
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
                  ...userObject(st.apiBase, ctx.identity.login, 'User', ctx.identity.id),
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

    if (s3 === 'deployments') {
      const found = deployments.route(method, segs.slice(4))
      return found && withRepo(found.doc, found.write, found.run)
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
            id: st.nextCommentId++,
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

  return route
}
