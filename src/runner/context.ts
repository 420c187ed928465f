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
 * run attempt is left out on purpose, `attempt` names a re-run's fresh key: commands/runs/start.ts),
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
 * The key the hub sees for a key the workflow chose (`idempotency-key: ${{ github.run_id }}`):
 * an HMAC of it and the repository keyed by `secret`. The workflow's key is public (it is in the
 * workflow file or the run's URL); sent raw, anyone who may start runs in the workspace could
 * start a run under it first, and the step would take that run as its own. The same key still
 * means the same run for every step that sends it with the same token.
 */
export function deriveExplicitKey(context: RunnerContext, given: string, secret: string): string {
  return `gha-${keyed(secret, 'explicit-idempotency-key', [context.repository ?? '', given])}`
}

/**
 * The session of the run started under `hubKey`: an HMAC of that key keyed by `secret`, so the
 * same key always means the same session (a second workflow run on the commit attaches to the
 * first one's run, in its session) and a new key (a re-run attempt's fresh run, another step) a
 * new one, and nobody without the token can name it first and write the history the hub replays
 * into it. Random without a key or a secret: a session nobody can predict, used by this step alone.
 */
export function deriveSessionId(
  hubKey: string | undefined,
  secret: string | undefined,
  random: () => string = randomUUID,
): string {
  if (!hubKey || !secret) return `gha-${random()}`
  return `gha-${keyed(secret, 'session', [hubKey])}`
}

/**
 * The key of a follow-up run in the first run's session (a structured-output retry), from the
 * key the first run was started under: an HMAC of it keyed by `secret`, so a re-run of the job
 * attaches to the same follow-up, and the first key (printed in the log) is no way to start one
 * under it first. Random without a secret (OIDC), as the first key then is.
 */
export function deriveFollowUpKey(
  hubKey: string,
  secret: string | undefined,
  random: () => string = randomUUID,
): string {
  if (!secret) return `gha-${random().replace(/-/g, '')}`
  return `gha-${keyed(secret, 'follow-up', [hubKey])}`
}

/**
 * What the log, summary and result file show of a session id (or a derived key before its run
 * exists): 12 hex digits of its SHA-256, enough to tell two apart, useless to write into one.
 */
export function fingerprint(value: string): string {
  return `sha256:${sha256(value).slice(0, 12)}`
}

/** 40 hex digits of an HMAC-SHA256 keyed by `secret`, over a purpose and the values, one a line. */
function keyed(secret: string, purpose: string, values: readonly string[]): string {
  // v3: sessions follow keys (issue 34); a run an earlier version started under a key is not taken
  // as this version's, since its session is the old derivation's.
  return createHmac('sha256', secret)
    .update(['hub-action/v3', purpose, ...values].join('\n'), 'utf8')
    .digest('hex')
    .slice(0, 40)
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * This workflow run's page on GitHub; with `attempt`, that attempt's own log when the runner
 * named it (a deployment status links the attempt that wrote it). Undefined off a runner.
 */
export function workflowRunUrl(runner: RunnerContext, options: { attempt?: boolean } = {}): string | undefined {
  if (!runner.repository || !runner.runId) return undefined
  const base = `${runner.serverUrl.replace(/\/+$/, '')}/${runner.repository}/actions/runs/${runner.runId}`
  return options.attempt && runner.runAttempt ? `${base}/attempts/${runner.runAttempt}` : base
}
