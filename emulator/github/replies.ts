// What every route shares: the documentation links, the request context, the reply, and the
// error replies GitHub sends.
import type { Identity } from './identities.ts'

export const DOCS = 'https://docs.github.com/rest'
export const DOC = {
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

export interface Ctx {
  method: string
  url: URL
  headers: Record<string, string>
  body: unknown
  identity: Identity
}

export interface Reply {
  status: number
  body?: unknown
  headers?: Record<string, string>
  /** send body as text with this content-type instead of JSON */
  contentType?: string
}

export interface Route {
  write: boolean
  doc: string
  run: (ctx: Ctx) => Reply
}

export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

export function err(status: number, message: string, doc: string = DOCS, extra?: Record<string, unknown>): Reply {
  return { status, body: { message, ...extra, documentation_url: doc } }
}

export function notFound(doc: string = DOCS): Reply {
  return err(404, 'Not Found', doc)
}

export function parsePositiveInt(v: string | null): number | undefined {
  if (v === null || !/^\d+$/.test(v)) return undefined
  const n = Number(v)
  return Number.isSafeInteger(n) && n > 0 ? n : undefined
}
