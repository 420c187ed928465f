// Issue comments: the comment object as the API returns it, body validation, and who may change one.
import { accountId, userObject } from './identities.ts'
import type { GitHubUser, IdentityType } from './identities.ts'
import { err } from './replies.ts'
import type { Ctx, Reply } from './replies.ts'
import type { AuthorAssociation, GitHubState, StoredComment, StoredRepo } from './state.ts'

/** Maximum characters (code points) in an issue comment body. */
const MAX_COMMENT_CHARS = 65536

export interface SeedComment {
  body: string
  login: string
  type?: IdentityType
  author_association?: AuthorAssociation
  /** ISO timestamp; defaults to the emulator clock. */
  created_at?: string
}

export interface IssueComment {
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

export type Comments = ReturnType<typeof createComments>

export function createComments(st: GitHubState) {
  function serializeComment(r: StoredRepo, c: StoredComment): IssueComment {
    const kind = r.pulls.has(c.issue) ? 'pull' : 'issues'
    return {
      id: c.id,
      node_id: `IC_kwDO${Buffer.from(`${r.id}:${c.id}`).toString('base64url')}`,
      url: `${st.apiBase}/repos/${r.owner}/${r.name}/issues/comments/${c.id}`,
      html_url: `https://github.com/${r.owner}/${r.name}/${kind}/${c.issue}#issuecomment-${c.id}`,
      issue_url: `${st.apiBase}/repos/${r.owner}/${r.name}/issues/${c.issue}`,
      body: c.body,
      user: userObject(st.apiBase, c.login, c.type, accountId(c.login, c.type)),
      created_at: c.createdAt,
      updated_at: c.updatedAt,
      author_association: c.authorAssociation,
      performed_via_github_app: null,
    }
  }

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
    return ctx.identity.type === 'Bot'
      ? err(403, 'Resource not accessible by integration', doc)
      : err(403, 'Must have admin rights to Repository.', doc)
  }

  return { serializeComment, validateCommentBody, forbiddenForAuthor }
}
