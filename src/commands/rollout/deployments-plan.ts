/**
 * What `dry-run: true` shows of `deployment-environment`: the deployments calls the gate would
 * make, built with the same bodies the step sends (src/github/deployments.ts). The edges are the
 * named ones; without `edges` they are known only at run time, and `{edge}` stands for each.
 */
import { workflowRunUrl, type RunnerContext } from '../../runner/context.js'
import type { RolloutSettings } from './inputs.js'
import { deploymentBody, statusBody } from '../../github/deployments.js'
import type { PlannedRequest } from '../command.js'
import { MAX_DEPLOYMENT_EDGES, deploymentDescription, environmentOf } from './deployments.js'

const HEADERS = {
  accept: 'application/vnd.github+json',
  authorization: 'token ***',
}

export function deploymentsPlan(
  rollout: Pick<RolloutSettings, 'deploymentEnvironment' | 'edges' | 'targets' | 'manifests' | 'renderedHead'>,
  runner: RunnerContext,
): PlannedRequest[] {
  const prefix = rollout.deploymentEnvironment
  if (prefix === undefined) return []
  const api = (runner.apiUrl?.trim() || 'https://api.github.com').replace(/\/+$/, '')
  const base = `${api}/repos/${runner.repository ?? '{owner}/{repo}'}/deployments`
  const named = rollout.edges !== undefined
  const edges = (rollout.edges ?? ['{edge}']).slice(0, MAX_DEPLOYMENT_EDGES)
  const logUrl = workflowRunUrl(runner, { attempt: true })
  const each =
    (named ? '' : ' for each watched edge, as the gate starts watching it (the edges are known at run time)') +
    (rollout.manifests.length + rollout.renderedHead.length > 0
      ? '; the count of targets shown leaves out the objects of the manifests, read at run time'
      : '')
  return edges.flatMap((edge) => {
    const environment = named ? environmentOf(prefix, edge) : `${prefix}/${edge}`
    if (environment === undefined) return []
    const targets = rollout.targets.filter((t) => t.edge === undefined || t.edge === edge).length
    return [
      {
        method: 'POST',
        url: base,
        headers: HEADERS,
        body: deploymentBody({
          ref: runner.sha ?? '{GITHUB_SHA}',
          environment,
          description: deploymentDescription(edge, targets),
          payload: { edge, targets, run_id: runner.runId ?? '', run_attempt: Number(runner.runAttempt ?? '1') },
        }),
        note: `create the deployment of environment ${environment}${each}; needs \`permissions: deployments: write\``,
      },
      {
        method: 'POST',
        url: `${base}/{deployment_id}/statuses`,
        headers: HEADERS,
        body: statusBody({ state: 'in_progress', description: `Watching ${targets} target(s) roll out.`, logUrl }),
        note: `mark it in_progress; later one status per change: success when every target is current there, failure when one fails there, error if still undecided when the gate stops`,
      },
    ]
  })
}
