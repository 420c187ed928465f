// The GitHub emulator's public shape: its options, the handle a test holds and the requests it
// records; server.ts serves it.
import type { IssueComment, SeedComment } from './comments.ts'
import type { Fault, FaultSpec } from './faults.ts'
import type { TokenIdentity } from './identities.ts'
import type { AddPullRequestOptions } from './pulls.ts'

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
  /** Ensures the repository exists (deployments need one), with nothing in it. */
  addRepo(owner: string, repo: string): void
  /** The deployments of a repository, oldest first, as the API serialises them, each with its statuses oldest first. */
  deployments(owner: string, repo: string): DeploymentRecord[]
}

export interface DeploymentRecord {
  id: number
  ref: string
  environment: string
  description: string
  payload: unknown
  transient_environment: boolean
  production_environment: boolean
  statuses: Array<{ state: string; description: string; log_url: string }>
}
