/**
 * GitHub deployments over REST: create one for a ref and environment, add a status, and find
 * a re-run's earlier deployments. Every call goes through the client (client.ts), so writes are
 * serial and spaced per GitHub's guidance, retried, and bounded by the step's budget; errors
 * arrive as GitHubError, re-labelled here with what was being done.
 */
import type { GitHubClient } from './client.js'
import { describeFailure } from './errors.js'

export interface Repository {
  owner: string
  repo: string
}

export interface DeploymentRequest {
  ref: string
  environment: string
  /** At most 140 characters (GitHub's limit); the caller's words, never the hub's. */
  description: string
  payload: Record<string, string | number>
}

type DeploymentState = 'in_progress' | 'success' | 'failure' | 'error' | 'inactive'

export interface StatusRequest {
  state: DeploymentState
  description: string
  logUrl: string | undefined
}

/** The body of POST /repos/{owner}/{repo}/deployments, also what a dry run prints. */
export function deploymentBody(request: DeploymentRequest) {
  return {
    ref: request.ref,
    environment: request.environment,
    description: request.description,
    payload: request.payload,
    // the gate records what is already deployed: no merge of the default branch, no check to wait for
    auto_merge: false,
    required_contexts: [] as string[],
    // kept, so a later gate's success marks this one inactive (auto_inactive leaves transient and production ones alone)
    transient_environment: false,
    production_environment: false,
  }
}

/** The body of POST …/deployments/{id}/statuses. */
export function statusBody(request: StatusRequest) {
  return {
    state: request.state,
    description: request.description,
    ...(request.logUrl ? { log_url: request.logUrl } : {}),
    auto_inactive: true,
  }
}

export async function createDeployment(
  octokit: GitHubClient,
  at: Repository,
  request: DeploymentRequest,
): Promise<number> {
  try {
    const { data } = await octokit.rest.repos.createDeployment({ ...at, ...deploymentBody(request) })
    // 202 (a merge of the default branch) cannot happen with auto_merge: false; read the id only from a 201
    if (!('id' in data) || typeof data.id !== 'number')
      throw new Error('GitHub created no deployment (no id in its answer)')
    return data.id
  } catch (error) {
    throw describeFailure(error, `create the deployment for environment ${request.environment}`)
  }
}

export async function createDeploymentStatus(
  octokit: GitHubClient,
  at: Repository,
  deploymentId: number,
  request: StatusRequest,
): Promise<void> {
  try {
    await octokit.rest.repos.createDeploymentStatus({ ...at, deployment_id: deploymentId, ...statusBody(request) })
  } catch (error) {
    throw describeFailure(error, `set deployment ${deploymentId} to ${request.state}`)
  }
}

export interface EarlierDeployment {
  id: number
  /** The newest status, undefined when it has none. */
  state: string | undefined
}

/**
 * The deployments of `environment` at `ref` whose payload names this workflow run and an
 * earlier attempt: what a re-run leaves behind. One page of the newest 100 is read: a run has
 * few attempts, and older deployments belong to other runs.
 */
export async function earlierAttempts(
  octokit: GitHubClient,
  at: Repository,
  query: { ref: string; environment: string; runId: string; attempt: number },
): Promise<EarlierDeployment[]> {
  try {
    const { data } = await octokit.rest.repos.listDeployments({
      ...at,
      sha: query.ref,
      environment: query.environment,
      per_page: 100,
    })
    const earlier = data.filter((d) => {
      const payload = (typeof d.payload === 'object' && d.payload !== null ? d.payload : {}) as Record<string, unknown>
      return String(payload.run_id) === query.runId && Number(payload.run_attempt) < query.attempt
    })
    const found: EarlierDeployment[] = []
    for (const d of earlier) {
      const statuses = await octokit.rest.repos.listDeploymentStatuses({ ...at, deployment_id: d.id, per_page: 1 })
      found.push({ id: d.id, state: statuses.data[0]?.state })
    }
    return found
  } catch (error) {
    throw describeFailure(error, `list the earlier attempts' deployments for environment ${query.environment}`)
  }
}
