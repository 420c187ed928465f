// What the emulator stores: repositories with their pull requests, contents and comments, and the
// state the routes share.
import type { IdentityType } from './identities.ts'

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

export type AuthorAssociation =
  'OWNER' | 'MEMBER' | 'COLLABORATOR' | 'CONTRIBUTOR' | 'FIRST_TIMER' | 'FIRST_TIME_CONTRIBUTOR' | 'MANNEQUIN' | 'NONE'

export interface StoredPull {
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

export interface StoredComment {
  id: number
  issue: number
  body: string
  login: string
  type: IdentityType
  authorAssociation: AuthorAssociation
  createdAt: string
  updatedAt: string
}

export interface StoredRepo {
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
  /** Oldest first, as created. */
  deployments: StoredDeployment[]
}

export interface StoredDeployment {
  id: number
  ref: string
  environment: string
  description: string
  payload: unknown
  transientEnvironment: boolean
  productionEnvironment: boolean
  creator: string
  createdAt: string
  /** Oldest first. */
  statuses: Array<{
    id: number
    state: string
    description: string
    logUrl: string
    autoInactive: boolean
    creator: string
    createdAt: string
  }>
}

/** The state the routes share; the server sets apiBase once it listens. */
export interface GitHubState {
  readonly now: () => Date
  readonly rateLimit: number
  readonly rateReset: number
  /** Requests answered per login (or anonymous token), for the x-ratelimit-* headers. */
  readonly rateUsed: Map<string, number>
  readonly repos: Map<string, StoredRepo>
  nextCommentId: number
  nextDeploymentId: number
  /** e.g. http://127.0.0.1:43210 */
  apiBase: string
}
