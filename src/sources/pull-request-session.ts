/**
 * The pull request an impact or rollout step reads, when there is one: its changed manifests and
 * (impact's) sticky comment. The GitHub client is loaded only here, only on pull-request events,
 * so the other commands never pay for it.
 */
import type { PullRequestFiles } from './targets.js'
import { isPullRequestEvent, type RunnerContext } from '../runner/context.js'
import * as workflow from '../runner/workflow.js'
import { renderError } from '../errors.js'
import { redact } from '../redact.js'
import { showFormatCharacters } from '../markdown/format.js'
import type { Budget } from '../http/budget.js'

export interface PullRequestSession {
  number: number
  headSha: string
  /** Present when `manifests` asks for the changed files. */
  files: PullRequestFiles | undefined
  /** Write or update the comment; its URL, or undefined when it could not be written. */
  comment(markdown: string): Promise<string | undefined>
}

/** What a step that reads a pull request gave in its inputs (impact's, and rollout's with no comment). */
export interface PullRequestInputs {
  comment: 'update' | 'new' | 'off'
  commentKey: string
  /** Globs of manifest files; on a pull request, matched against the files it changes. */
  manifests: readonly string[]
  renderedHead?: readonly string[] | undefined
  githubToken: string
}

export async function openPullRequest(
  inputs: PullRequestInputs,
  runner: RunnerContext,
  /** The step's one time budget, which every GitHub request honours (http/budget.ts). */
  budget?: Budget,
): Promise<PullRequestSession | undefined> {
  if (!isPullRequestEvent(runner.eventName)) return undefined
  if (inputs.comment === 'off' && inputs.manifests.length === 0) return undefined
  const github = await import('../github/index.js')
  const pr = github.readPullRequestEvent(runner.eventPath, runner.repository)
  if (!pr) {
    workflow.warning(
      `The ${runner.eventName} event carries no pull request: no changed files are read and no comment is written.`,
    )
    return undefined
  }
  const octokit = github.createGitHubClient({
    token: inputs.githubToken,
    apiUrl: runner.apiUrl,
    log: workflow.info,
    budget,
  })
  return {
    number: pr.number,
    headSha: pr.headSha,
    files:
      inputs.manifests.length > 0 || (inputs.renderedHead?.length ?? 0) > 0
        ? {
            changedFiles: async () => {
              const files = await github.listChangedFiles(octokit, pr)
              if (files.length >= github.MAX_LISTED_PR_FILES) {
                workflow.warning(
                  `GitHub lists at most ${github.MAX_LISTED_PR_FILES} changed files of a pull request, and #${pr.number} reached that: manifests beyond it were not read. Name them in \`targets\`, or split the pull request.`,
                )
              }
              return files
            },
            readAtBase: (path, maxBytes) => github.readBoundedFileAtRef(octokit, pr, path, pr.baseSha, maxBytes),
          }
        : undefined,
    async comment(markdown) {
      try {
        const result = await github.upsertStickyComment(octokit, {
          owner: pr.owner,
          repo: pr.repo,
          number: pr.number,
          key: inputs.commentKey,
          // A comment is written outside the runner's log masking: redact it ourselves, as the summary is.
          body: showFormatCharacters(redact(markdown)),
          runId: runner.runId,
          runAttempt: runner.runAttempt,
          sha: pr.headSha,
          mode: inputs.comment === 'new' ? 'new' : 'update',
        })
        switch (result.action) {
          case 'forbidden':
            workflow.warning(
              `Could not comment on pull request #${pr.number} (403): the token may not write to it — a pull request from a fork, or a workflow without \`permissions: pull-requests: write\`. The report is in the job summary.`,
            )
            return undefined
          case 'skipped-newer':
            workflow.notice(`Left the comment on #${pr.number} alone: it holds the report of a newer run.`)
            return result.url
          default:
            workflow.info(`Comment on #${pr.number} ${result.action}: ${result.url ?? ''}`)
            return result.url
        }
      } catch (error) {
        if (!(error instanceof github.GitHubError)) throw error
        workflow.warning(
          `Could not comment on pull request #${pr.number}: ${renderError(error)} The report is in the job summary.`,
        )
        return undefined
      }
    },
  }
}
