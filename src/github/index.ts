/** The GitHub side of the impact command, loaded lazily (`await import('./github/index.js')`). */
export { createGitHubClient, DEFAULT_GITHUB_API_URL, type GitHubClient, type GitHubClientOptions } from './client.js'
export { GitHubError, type GitHubErrorInit } from './errors.js'
export {
  listChangedFiles,
  MAX_LISTED_PR_FILES,
  readBoundedFileAtRef,
  readFileAtRef,
  readPullRequestEvent,
  type ChangedFile,
  type ChangedFileStatus,
  type PullRequestRef,
  type RepositoryRef,
} from './pull-request.js'
export {
  ACTIONS_BOT_LOGIN,
  commentAuthor,
  commentMarker,
  composeCommentBody,
  MAX_COMMENT_CHARS,
  parseMarker,
  upsertStickyComment,
  type MarkerFields,
  type ParsedMarker,
  type StickyCommentAction,
  type StickyCommentMode,
  type StickyCommentOptions,
  type StickyCommentResult,
} from './sticky-comment.js'
