/**
 * What the runner tells every step through its environment, and the run identities the
 * action derives from it. Pure functions over an env record, so they are tested alone.
 */
import { createHash, randomUUID } from 'node:crypto'

export interface RunnerContext {
  repository?: string | undefined
  sha?: string | undefined
  workflow?: string | undefined
  job?: string | undefined
  runId?: string | undefined
  runAttempt?: string | undefined
  serverUrl: string
  eventName?: string | undefined
  eventPath?: string | undefined
  tempDir?: string | undefined
  /** The checked-out repository (GITHUB_WORKSPACE). */
  workspace?: string | undefined
  /** GitHub's REST API (GITHUB_API_URL; GitHub Enterprise Server has its own). */
  apiUrl?: string | undefined
}

export function readRunnerContext(env: NodeJS.ProcessEnv): RunnerContext {
  const value = (name: string) => env[name]?.trim() || undefined
  return {
    repository: value('GITHUB_REPOSITORY'),
    sha: value('GITHUB_SHA'),
    workflow: value('GITHUB_WORKFLOW'),
    job: value('GITHUB_JOB'),
    runId: value('GITHUB_RUN_ID'),
    runAttempt: value('GITHUB_RUN_ATTEMPT'),
    serverUrl: value('GITHUB_SERVER_URL') ?? 'https://github.com',
    eventName: value('GITHUB_EVENT_NAME'),
    eventPath: value('GITHUB_EVENT_PATH'),
    tempDir: value('RUNNER_TEMP'),
    workspace: value('GITHUB_WORKSPACE'),
    apiUrl: value('GITHUB_API_URL'),
  }
}

/** The events whose payload carries the pull request (changed files, a place to comment). */
export function isPullRequestEvent(eventName: string | undefined): eventName is 'pull_request' | 'pull_request_target' {
  return eventName === 'pull_request' || eventName === 'pull_request_target'
}

/**
 * Stable across re-runs of the same job on the same commit (the run attempt is left out on
 * purpose), different for another agent or task. Undefined when there is no commit to key on.
 */
export function deriveIdempotencyKey(context: RunnerContext, agent: string, task: string): string | undefined {
  if (!context.sha) return undefined
  const taskDigest = sha256(task)
  const material = ['hub-action/v1', context.repository ?? '', context.sha, context.workflow ?? '', context.job ?? '', agent, taskDigest].join('\n')
  return `gha-${sha256(material).slice(0, 40)}`
}

/**
 * One session per workflow run and job, so runs never fall into the hub's shared default
 * session (whose last 40 messages are replayed into every run that names none).
 */
export function deriveSessionId(context: RunnerContext, random: () => string = randomUUID): string {
  if (!context.runId) return `local-${random()}`
  const repository = context.repository ?? 'repository'
  return `gha-${repository}-${context.runId}-${context.job ?? 'job'}`.replace(/[^A-Za-z0-9._-]/g, '-')
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}
