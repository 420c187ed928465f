/**
 * `deployment-environment`: one GitHub deployment per watched edge, in environment
 * `<deployment-environment>/<edge>`, and its statuses driven by the poll's per-edge states:
 * `in_progress` when the gate starts watching the edge, `success` when every target is latched
 * current there, `failure` when one failed there, and at the end `error` for an edge the gate
 * stopped watching undecided (still rolling out or not reporting at the timeout, or left when
 * another edge failed). One status per change of state, never a repeat.
 *
 * A write that fails (a token without `deployments: write`, a GitHub outage, the step's time
 * spent) stops the writes and is kept as `problem`: the gate's verdict and outputs stand, and
 * the step adds the problem to its verdict (a pass becomes a warning).
 */
import { workflowRunUrl, type RunnerContext } from '../../runner/context.js'
import { ActionError } from '../../errors.js'
import { GitHubError } from '../../github/errors.js'
import type { Budget } from '../../http/budget.js'
import type { EdgeTrack, RolloutOutcome } from './poll.js'

type GitHub = typeof import('../../github/index.js')
type State = 'in_progress' | 'success' | 'failure' | 'error'

/**
 * Edges that get a deployment: 100 edges take about 300 writes (deployment, in_progress, verdict)
 * at one a second, within GitHub's ~80 a minute and ~500 an hour for content-creating requests.
 */
export const MAX_DEPLOYMENT_EDGES = 100
/** GitHub's longest environment name and deployment description. */
const MAX_ENVIRONMENT_CHARS = 255
const MAX_DESCRIPTION_CHARS = 140
/** The hub's edge names as settings accept them: nothing that can break an environment name or form a sentence. */
const SAFE_EDGE = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/

export interface DeploymentTarget {
  environment: string
  runner: RunnerContext
  githubToken: string
  /** Least time between two writes; GitHub's advice (1 s) unless a test asks for less. */
  writeSpacingMs?: number | undefined
}

interface EdgeRecord {
  id: number
  posted: State
}

export interface DeploymentRecorder {
  /** After each look at the fleet: new edges get their deployment, changed ones a status. */
  observe(edges: readonly EdgeTrack[]): Promise<void>
  /** Once the gate decided: the undecided edges get `error`. */
  finish(outcome: RolloutOutcome): Promise<void>
  /** Why deployments could not be (fully) written; undefined when all went through. */
  readonly problem: string | undefined
}

/** The environment of an edge, or undefined when the edge's name cannot be one. */
export function environmentOf(prefix: string, edge: string): string | undefined {
  const name = `${prefix}/${edge}`
  return SAFE_EDGE.test(edge) && name.length <= MAX_ENVIRONMENT_CHARS ? name : undefined
}

export function deploymentDescription(edge: string, targets: number): string {
  const text = `hub-action rollout gate: ${targets} target(s) on edge ${edge}`
  return text.length <= MAX_DESCRIPTION_CHARS ? text : `hub-action rollout gate: ${targets} target(s)`
}

const FINAL_WORDS: Record<string, string> = {
  'in-progress': 'Still rolling out when the gate stopped',
  'not-reporting': 'Not reporting when the gate stopped',
}

export async function openDeployments(
  target: DeploymentTarget,
  budget: Budget | undefined,
  log: { info: (line: string) => void; warning: (line: string) => void },
): Promise<DeploymentRecorder | undefined> {
  const { runner, environment } = target
  const [owner, repo] = (runner.repository ?? '').split('/')
  if (!owner || !repo || !runner.sha) {
    log.warning(
      `No GitHub deployments are written: deployment-environment is set, but the runner did not say the repository or the commit (GITHUB_REPOSITORY, GITHUB_SHA).`,
    )
    return undefined
  }
  const github: GitHub = await import('../../github/index.js')
  const octokit = github.createGitHubClient({
    token: target.githubToken,
    apiUrl: runner.apiUrl,
    log: log.info,
    budget,
    ...(target.writeSpacingMs !== undefined ? { writeSpacingMs: target.writeSpacingMs } : {}),
  })
  const at = { owner, repo }
  const ref = runner.sha
  const logUrl = workflowRunUrl(runner, { attempt: true })
  const attempt = Number(runner.runAttempt ?? '1')
  const records = new Map<string, EdgeRecord>()
  const skipped = new Set<string>()
  let problem: string | undefined

  const write = async (what: () => Promise<void>): Promise<void> => {
    if (problem !== undefined) return
    try {
      await what()
    } catch (error) {
      problem = failureText(error, environment)
    }
  }

  const post = (edge: string, record: EdgeRecord, state: State, description: string) =>
    write(async () => {
      await github.createDeploymentStatus(octokit, at, record.id, { state, description, logUrl })
      record.posted = state
      log.info(`GitHub deployment ${environment}/${edge}: ${state} (${description}).`)
    })

  /** A re-run's earlier attempts left their deployments of this edge in progress: close them. */
  const closeEarlier = (name: string) =>
    write(async () => {
      if (!runner.runId || !(attempt > 1)) return
      const earlier = await github.earlierAttempts(octokit, at, {
        ref,
        environment: name,
        runId: runner.runId,
        attempt,
      })
      for (const d of earlier)
        if (d.state === undefined || ['in_progress', 'queued', 'pending'].includes(d.state))
          await github.createDeploymentStatus(octokit, at, d.id, {
            state: 'error',
            description: `Superseded by attempt ${attempt} of this workflow run.`,
            logUrl,
          })
    })

  const start = async (track: EdgeTrack): Promise<void> => {
    const name = environmentOf(environment, track.edge)
    if (name === undefined || records.size >= MAX_DEPLOYMENT_EDGES) {
      skipped.add(track.edge)
      log.warning(
        name === undefined
          ? `No GitHub deployment for an edge whose name cannot be part of an environment name (letters, digits, '.', '_' and '-', at most ${MAX_ENVIRONMENT_CHARS} characters with the prefix): ${JSON.stringify(track.edge.slice(0, 80))}.`
          : `No GitHub deployment for edge ${track.edge}: the gate writes deployments for the first ${MAX_DEPLOYMENT_EDGES} edges only (GitHub's limits on writes); name fewer edges in \`edges\`.`,
      )
      return
    }
    await closeEarlier(name)
    const targets = track.cells.filter((c) => c !== undefined).length
    await write(async () => {
      const id = await github.createDeployment(octokit, at, {
        ref,
        environment: name,
        description: deploymentDescription(track.edge, targets),
        payload: { edge: track.edge, targets, run_id: runner.runId ?? '', run_attempt: attempt },
      })
      const record: EdgeRecord = { id, posted: 'in_progress' }
      records.set(track.edge, record)
      await post(track.edge, record, 'in_progress', `Watching ${targets} target(s) roll out.`)
    })
  }

  const observe = async (edges: readonly EdgeTrack[]): Promise<void> => {
    for (const track of edges) {
      if (problem !== undefined) return
      if (skipped.has(track.edge)) continue
      if (!records.has(track.edge)) await start(track)
      const record = records.get(track.edge)
      if (!record) continue
      const targets = track.cells.filter((c) => c !== undefined).length
      if (track.state === 'current' && track.latchedAt !== undefined && record.posted !== 'success')
        await post(track.edge, record, 'success', `All ${targets} target(s) are current on this edge.`)
      else if (track.state === 'failed' && record.posted !== 'failure')
        await post(
          track.edge,
          record,
          'failure',
          `A target failed to roll out on this edge; see the run's job summary.`,
        )
    }
  }

  return {
    observe,
    async finish(outcome) {
      await observe(outcome.edges)
      for (const track of outcome.edges) {
        const record = records.get(track.edge)
        if (record?.posted !== 'in_progress') continue
        const why =
          outcome.state === 'failed'
            ? 'The gate stopped: a target failed on another edge.'
            : `${FINAL_WORDS[track.state] ?? 'Undecided when the gate stopped'}${outcome.state === 'timeout' ? ' (timeout-seconds).' : '; the quorum (require) passed without it.'}`
        await post(track.edge, record, 'error', why)
      }
    },
    get problem() {
      return problem
    },
  }
}

/** One message for a write that failed; a 403 is the missing permission, said as the fix. */
function failureText(error: unknown, environment: string): string {
  const what = `Could not record GitHub deployments (deployment-environment: ${environment})`
  const after = "The gate's verdict and outputs stand; no further deployments were written."
  if (!(error instanceof ActionError)) return `${what}: ${String(error)} ${after}`
  const said = error instanceof GitHubError ? (error.githubMessage ?? '') : ''
  // GitHub's hint for a 403 names the pull-request permissions; a deployment needs its own
  if (error.status === 403 && !/rate limit/i.test(said))
    return `${what}: GitHub answered 403 (${said || 'Forbidden'}) to ${error.operation}. The token in \`github-token\` lacks \`deployments: write\`: give the job \`permissions: deployments: write\` (with \`contents: read\`). ${after}`
  return `${what}: ${error.message} ${after}`
}
