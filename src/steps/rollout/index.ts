/**
 * The rollout gate, loaded on demand by main.ts: the targets and their expected state (as
 * impact collects them), then the fleet polled until every target is current on every watched
 * edge (or the quorum), one fails, or `timeout-seconds` runs out; then the report.
 */
import { GraphClient } from '../../hub/graph.js'
import type { HubTransport } from '../../hub/transport.js'
import { checkGraphWorkspace } from '../../hub/workspace-check.js'
import type { Verdict } from '../../runner/publish.js'
import * as core from '../../runner/core.js'
import type { SettingsFor } from '../../settings/settings.js'
import { openPullRequest } from '../impact/pull-request-session.js'
import { readSnapshot, rolloutQueries } from './observe.js'
import { pollRollout, systemClock, type Clock, type RolloutOutcome } from './poll.js'
import { publishRollout } from './publish.js'
import { collectRolloutTargets } from './targets.js'
import { quorumText } from './verdict.js'

export async function rolloutStep(
  settings: SettingsFor<'rollout'>,
  transport: HubTransport,
  signal: AbortSignal,
  clock: Clock = systemClock,
): Promise<Verdict> {
  const { rollout, runner } = settings
  const pullRequest = await openPullRequest({ ...rollout, comment: 'off', commentKey: 'rollout' }, runner)
  const collected = await collectRolloutTargets(rollout, {
    // Off a runner (npm run local), the manifests are read from where the action was started.
    workspace: runner.workspace ?? process.cwd(),
    pullRequest: pullRequest?.files,
    signal,
    log: core.info,
  })
  await checkGraphWorkspace(transport, settings.hub, signal, core.info)
  const graph = new GraphClient(transport)
  const queries = rolloutQueries(collected.targets)
  const where = rollout.edges ? `edge(s) ${rollout.edges.join(', ')}` : 'every engaged edge'
  core.info(
    `Waiting up to ${rollout.timeoutSeconds} s for ${collected.targets.length} target(s) on ${where} (${quorumText(rollout.require)} required), ${queries.length} query(ies) a poll.`,
  )
  const outcome =
    collected.targets.length === 0
      ? undefined
      : await pollRollout({
          targets: collected.targets,
          named: rollout.edges,
          quorum: rollout.require,
          budgetMs: rollout.timeoutSeconds * 1000,
          read: (s) => readSnapshot(graph, queries, s),
          clock,
          signal,
          log: core.info,
        })
  if (!outcome) {
    // nothing is published on this path: the warnings that say what matched nothing go out here
    for (const warning of collected.warnings) core.warning(warning)
    const searched = collected.nothing ? ` (${collected.nothing.searched})` : ''
    return {
      status: 'fail',
      message: `No rollout target was found${searched}: a rollout gate that checks nothing cannot pass. Check \`targets\`, \`manifests\` and \`rendered-head\`.`,
    }
  }
  publishRollout(outcome, collected, { quorum: rollout.require, runner })
  return verdictOf(outcome, rollout.onTimeout, rollout.timeoutSeconds)
}

function verdictOf(outcome: RolloutOutcome, onTimeout: 'fail' | 'warn', timeoutSeconds: number): Verdict {
  if (outcome.state === 'current') return { status: 'pass', message: `Rolled out: ${outcome.message}` }
  if (outcome.state === 'failed') return { status: 'fail', message: `Rollout failed: ${outcome.message} See the job summary for each edge and reason.` }
  return {
    status: onTimeout === 'warn' ? 'warn' : 'fail',
    message: `Rollout not complete after ${timeoutSeconds} s (timeout-seconds): ${outcome.message} Raise \`timeout-seconds\`, or set \`require\` to tolerate offline edges.`,
  }
}
