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
 * Split by concern under github/: server.ts (the server, request log, faults applied, auth,
 * headers), emulator-types.ts (its options and handle), routes.ts (routing), identities.ts
 * (tokens and users), repos.ts, pulls.ts, comments.ts, contents.ts, deployments.ts, faults.ts,
 * replies.ts (errors and the reply shape) and state.ts.
 * This file re-exports the public names.
 *
 * Erasable TypeScript, Node built-ins only: runnable with `node` type stripping.
 */
export { blobSha } from './github/contents.ts'
export { SECONDARY_RATE_LIMIT_MESSAGE, deploymentsForbidden, secondaryRateLimit } from './github/faults.ts'
export { ACTIONS_BOT_LOGIN, ACTIONS_TOKEN, DEFAULT_TOKENS, READONLY_TOKEN } from './github/identities.ts'
export type { PullRequestFileInput } from './github/state.ts'
export type { GitHubEmulator, GitHubEmulatorOptions, RecordedRequest } from './github/emulator-types.ts'
export { startGitHubEmulator } from './github/server.ts'
