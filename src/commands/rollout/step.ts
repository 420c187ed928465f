/**
 * The rollout gate, loaded only when asked for: the targets and their expected state (as
 * impact collects them, with its caps and scope), then the fleet polled until every target is
 * current on every watched edge (or the quorum), one fails, or `timeout-seconds` runs out; then
 * the report. Targets of kinds the graph does not sync are listed as not checked; a gate left
 * with nothing it can check fails at once.
 */
import { GraphClient, pagedSpec } from '../../hub/graph.js'
import type { HubTransport } from '../../hub/transport.js'
import type { Budget } from '../../http/budget.js'
import { checkGraphWorkspace } from '../../hub/workspace-check.js'
import type { Verdict } from '../../runner/workflow.js'
import * as workflow from '../../runner/workflow.js'
import type { RolloutStepSettings } from './inputs.js'
import { openPullRequest } from '../../sources/pull-request-session.js'
import { readSnapshot, rolloutQueries } from './observe.js'
import { nothingCheckable, uncheckedLines } from './unchecked.js'
import { pollRollout, type RolloutOutcome } from './poll.js'
import { publishRollout } from './publish.js'
import { collectRolloutTargets } from './targets.js'
import { refuseUnreadable } from './unreadable.js'
import { skipScaledReplicas } from './scalers.js'
import { ABSENT_GRACE_SECONDS } from './inputs.js'
import { isBound } from './cell-facts.js'
import { shortJobTtls, unverifiable, unverifiableMessage, unprovenAdvice, watchedText } from './step-notes.js'
import type { StuckMemory } from './pods.js'
import { collectGarbage } from './heap.js'
import { quorumText } from './verdict.js'
import { graphPreflight, planned, type Plan } from '../command.js'
import { openDeployments } from './deployments.js'
import { deploymentsPlan } from './deployments-plan.js'

/**
 * Time kept back from the wait when deployments are written, so the statuses of the edges
 * still undecided at the timeout (`error`) can be sent inside the step's budget: about ten
 * writes at GitHub's one a second, at most a quarter of the budget.
 */
const DEPLOYMENT_RESERVE_MS = 10_000

export async function rolloutStep(
  settings: RolloutStepSettings,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const { rollout, runner } = settings
  // The step's one budget (main.ts): its clock times the polls, its end ends them.
  const { budget } = transport
  const { clock } = budget
  const pullRequest = await openPullRequest({ ...rollout, comment: 'off', commentKey: 'rollout' }, runner, budget)
  const collected = await collectRolloutTargets(rollout, {
    // Off a runner (npm run local), the manifests are read from where the action was started.
    workspace: runner.workspace ?? process.cwd(),
    pullRequest: pullRequest?.files,
    signal,
    log: workflow.info,
  })
  for (const line of uncheckedLines(collected)) workflow.info(line)
  const unreadable = refuseUnreadable(collected.unreadable)
  if (unreadable) return unreadable
  if (collected.targets.length === 0) {
    // nothing is published on this path: the warnings that say what matched nothing go out here
    for (const warning of collected.warnings) workflow.warning(warning)
    return { status: 'fail', message: nothingCheckable(collected) }
  }
  const carriers = unverifiable(collected)
  const onUnverifiable = rollout.onUnverifiable ?? 'fail'
  if (carriers.length > 0 && onUnverifiable === 'fail') {
    for (const warning of collected.warnings) workflow.warning(warning)
    return { status: 'fail', message: unverifiableMessage(carriers, 'fail') }
  }
  for (const warning of shortJobTtls(collected.targets)) workflow.warning(warning)
  await checkGraphWorkspace(transport, settings.hub, signal, workflow.info)
  const graph = new GraphClient(transport)
  for (const line of (await skipScaledReplicas(graph, collected.targets, signal)).lines) workflow.info(line)
  workflow.info(
    `Waiting up to ${budget.seconds} s for ${collected.targets.length} target(s) on ${watchedText(rollout.edges, collected.targets)} (${quorumText(rollout.require)} required), ${rolloutQueries(collected.targets, rollout.revision).length} query(ies) a poll at most.`,
  )
  const stuck: StuckMemory = new Map()
  const deployments = rollout.deploymentEnvironment
    ? await openDeployments(
        { environment: rollout.deploymentEnvironment, runner, githubToken: rollout.githubToken },
        budget,
        { info: workflow.info, warning: workflow.warning },
      )
    : undefined
  // The wait ends where the budget ends (which every graph request honours too), less the
  // deployments' reserve: a quarter at most of what is left.
  const deadline = budget.deadline ?? Infinity
  const reserveMs = deployments ? Math.min(DEPLOYMENT_RESERVE_MS, Math.max(0, budget.left()) / 4) : 0
  const outcome = await pollRollout({
    targets: collected.targets,
    named: rollout.edges,
    quorum: rollout.require,
    deadline: deadline - reserveMs,
    read: (s, pick) =>
      readSnapshot(graph, collected.targets, {
        signal: s,
        now: () => clock.now(),
        pick,
        revision: rollout.revision,
        stuck,
      }),
    clock,
    signal,
    log: workflow.info,
    rules: {
      revision: rollout.revision,
      bound: (i) => isBound(collected.targets[i] as (typeof collected.targets)[number]),
    },
    absentGraceMs: (rollout.absentGraceSeconds ?? ABSENT_GRACE_SECONDS) * 1000,
    onLook: deployments && ((edges) => deployments.observe(edges)),
  })
  await deployments?.finish(outcome)
  if (carriers.length > 0) outcome.warnings.unshift(unverifiableMessage(carriers, 'warn'))
  // the report of a large gate is built from every cell: start it from a collected heap
  if (outcome.edges.length * collected.targets.length > LARGE_REPORT_CELLS) collectGarbage()
  publishRollout(outcome, collected, { quorum: rollout.require, runner })
  const verdict = verdictOf(outcome, rollout.onTimeout, budget)
  // on-unverifiable: warn — what the gate checked passed, what carries the release was not checked
  const gated =
    carriers.length > 0 && verdict.status === 'pass'
      ? ({ status: 'warn', message: `${verdict.message} ${unverifiableMessage(carriers, 'warn')}` } as const)
      : verdict
  // A gate asked to record deployments that could not: a pass is a warning, a warning or failure says so too.
  const problem = deployments?.problem
  if (problem === undefined) return gated
  return { status: gated.status === 'fail' ? 'fail' : 'warn', message: `${gated.message} ${problem}` }
}

/** Cells past which the report is large enough to start from a collected heap (./heap.ts). */
const LARGE_REPORT_CELLS = 10_000

/** Advice that fits what the gate still waited on: more time only where more time can help. */
const TIMEOUT_ADVICE = {
  'in-progress': 'Raise `timeout-seconds` if the rollout is only slow; the job summary says what each edge waits for.',
  'not-reporting':
    'More time helps only if those edges reconnect: engage them, leave them out of `edges`, or set `require` to tolerate edges that are not reporting.',
  incomplete:
    "Narrow the targets (`targets`, `manifests`) so that one query's rows stay under the hub's 10,000-row cap.",
} as const

function verdictOf(outcome: RolloutOutcome, onTimeout: 'fail' | 'warn', budget: Budget): Verdict {
  if (outcome.state === 'current') return { status: 'pass', message: `Rolled out: ${outcome.message}` }
  if (outcome.state === 'failed')
    return {
      status: 'fail',
      message: `Rollout failed: ${outcome.message} See the job summary for each edge and reason.`,
    }
  const unproven = unprovenAdvice(outcome.edges)
  return {
    status: onTimeout === 'warn' ? 'warn' : 'fail',
    message: `Rollout not complete after ${budget.seconds} s (timeout-seconds): ${outcome.message} ${unproven ?? TIMEOUT_ADVICE[outcome.waitingOn ?? 'in-progress']}`,
  }
}

export function rolloutPlan({ rollout, runner }: RolloutStepSettings, transport: HubTransport): Plan {
  const graph = new GraphClient(transport)
  const queries = rolloutQueries(rollout.targets.map((target) => ({ target })))
  const also =
    rollout.manifests.length + rollout.renderedHead.length > 0
      ? ' (plus the objects of the manifests, read at run time, after one query of the HPAs of their namespaces)'
      : ''
  return {
    requests: [
      graphPreflight(transport),
      ...queries.map((spec) =>
        planned(
          transport,
          graph.queryCall(pagedSpec(spec)),
          `read the targets on every edge${also}, after GET /api/edges; repeated with backoff until rolled out or ${rollout.timeoutSeconds} s pass`,
        ),
      ),
      ...deploymentsPlan(rollout, runner),
    ],
  }
}
