/**
 * What the runner tells every step through its environment, and the run identities the
 * action derives from it. Pure functions over an env record, so they are tested alone.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto'

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
 * The automatic idempotency key: stable across re-runs of the same job on the same commit (the
 * run attempt is left out on purpose, `attempt` names a re-run's fresh key: steps/run/start.ts),
 * different for another agent or task, and unguessable without `secret` (the hub token): an HMAC
 * of those public values keyed by it. Anyone may start runs in a workspace, and a run started
 * under this step's key before the step would be taken as its run; without the token nobody can
 * compute the key. Without a secret that stays the same across re-runs (a GitHub OIDC token is
 * new for each job) the key is random: unguessable, but a re-run starts a new run. Undefined
 * when there is no commit to key on.
 */
export function deriveIdempotencyKey(
  context: RunnerContext,
  agent: string,
  task: string,
  secret: string | undefined,
  attempt?: number,
  random: () => string = randomUUID,
): string | undefined {
  if (!context.sha) return undefined
  if (!secret) return `gha-${random().replace(/-/g, '')}`
  const material = [
    context.repository ?? '',
    context.sha,
    context.workflow ?? '',
    context.job ?? '',
    agent,
    sha256(task),
  ]
  return `gha-${keyed(secret, 'idempotency-key', attempt === undefined ? material : [...material, `attempt ${attempt}`])}`
}

/**
 * One session per workflow run and job, so runs never fall into the hub's shared default
 * session (whose last 40 messages are replayed into every run that names none), and one that
 * nobody can plant history in first: readable ids then an HMAC keyed by `secret` (the hub token),
 * the same for every attempt of the job, so a re-run's run and the run it attaches to share it.
 * Random without a secret or outside a workflow run.
 */
export function deriveSessionId(
  context: RunnerContext,
  secret: string | undefined,
  random: () => string = randomUUID,
): string {
  if (!context.runId || !secret) return `${context.runId ? 'gha' : 'local'}-${random()}`
  const repository = context.repository ?? 'repository'
  const readable = `gha-${repository}-${context.runId}-${context.job ?? 'job'}`.replace(/[^A-Za-z0-9._-]/g, '-')
  return `${readable}-${keyed(secret, 'session', [repository, context.runId, context.job ?? ''])}`
}

/** 40 hex digits of an HMAC-SHA256 keyed by `secret`, over a purpose and the values, one a line. */
function keyed(secret: string, purpose: string, values: readonly string[]): string {
  return createHmac('sha256', secret)
    .update(['hub-action/v2', purpose, ...values].join('\n'), 'utf8')
    .digest('hex')
    .slice(0, 40)
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}
