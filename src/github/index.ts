/** The GitHub side of the impact and rollout commands, loaded lazily (`await import('./github/index.js')`). */
export { createGitHubClient } from './client.js'
export { GitHubError } from './errors.js'
export { listChangedFiles, MAX_LISTED_PR_FILES, readBoundedFileAtRef, readPullRequestEvent } from './pull-request.js'
export { upsertStickyComment } from './sticky-comment.js'
export { createDeployment, createDeploymentStatus, earlierAttempts } from './deployments.js'
