/**
 * `dry-run: true`: everything up to the first request — inputs checked, idempotency key and
 * session id derived — then the requests the action would send, printed with the token
 * redacted, and nothing sent. The requests come from the same builders the real clients use.
 */
import { pageSizeOf } from '../query/run-query.js'
import { AgentsClient } from '../../hub/agents.js'
import { firstHoldSeconds } from '../run/pacing.js'
import { GraphClient, pagedSpec } from '../../hub/graph.js'
import { prepareRequest, requestUrl, type HubIdentity, type HubRequest } from '../../hub/request.js'
import type { HubTransport } from '../../hub/transport.js'
import { buildImpactQuery } from '../impact/query-impact.js'
import { rolloutQueries } from '../rollout/observe.js'
import type { Settings } from '../../settings/settings.js'
import { isPullRequestEvent } from '../../runner/context.js'
import { RESULT_FILES, resultDirectory, writeJsonFile } from '../../runner/result-file.js'
import { logUntrusted, writeSummary } from '../../runner/publish.js'
import { renderDryRun, type PlannedRequest } from './summary.js'
import * as core from '../../runner/core.js'

export function plannedRequests(settings: Settings, transport: HubTransport): PlannedRequest[] {
  const describe = (request: HubRequest) => describeRequest(transport.identity, request)
  switch (settings.command) {
    case 'run': {
      const agents = new AgentsClient(transport, settings.hub.clusterId)
      const start = {
        agent: settings.run.agent,
        task: settings.run.task,
        sessionId: settings.run.sessionId,
        idempotencyKey: settings.run.idempotencyKey,
      }
      const planned: PlannedRequest[] = []
      if (agents.canReadAgents) {
        planned.push({
          ...describe(agents.whoamiCall()),
          note: 'preflight: an empty workspaceUUID stops the step before any run is created',
        })
      }
      planned.push({ ...describe(agents.startRunCall(start)), note: 'start the run (answers at once with its id)' })
      if (settings.run.timeoutSeconds > 0) {
        planned.push({
          // The loop's first hold: a run just created is Pending, so the Pending ceiling cuts it too.
          ...describe(agents.waitRunCall('RUN_ID', firstHoldSeconds(settings.run))),
          note: `long-poll, repeated until the run settles or ${settings.run.timeoutSeconds} s pass`,
        })
      }
      return planned
    }
    case 'wait':
    case 'approve': {
      const agents = new AgentsClient(transport, settings.hub.clusterId)
      const { runId, timeoutSeconds, liveSteps } = settings.wait
      const planned: PlannedRequest[] = [{ ...describe(agents.getRunCall(runId)), note: 'read the run' }]
      if (settings.command === 'approve') {
        const { decision, response } = settings.approve
        planned.push({
          ...describe(agents.resolveApprovalCall('INBOX_ID', decision, response)),
          note: "resolve the pending approval (INBOX_ID is the run's pending.inboxID), only when the run is at the gate and the call is the expected one",
        })
      }
      if (timeoutSeconds > 0) {
        planned.push({
          // The loop's first hold on a run past Pending (its phase is known only once it is read).
          ...describe(agents.waitRunCall(runId, firstHoldSeconds({ liveSteps, timeoutSeconds }))),
          note: `long-poll, repeated until the run settles or ${timeoutSeconds} s pass`,
        })
      }
      return planned
    }
    case 'cancel': {
      const agents = new AgentsClient(transport, settings.hub.clusterId)
      return [{ ...describe(agents.cancelCall(settings.cancel.runId)), note: 'cancel the run' }]
    }
    case 'impact': {
      const graph = new GraphClient(transport)
      const planned: PlannedRequest[] = [graphPreflight(transport, describe)]
      planned.push(
        ...settings.impact.targets.map((target) => ({
          ...describe(graph.queryCall(buildImpactQuery(target, settings.impact.maxDepth))),
          note: `impact of ${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}${settings.impact.source === 'mcp' ? ' (sent as graph__graph_impact calls to mcp-url, one per edge)' : ''}`,
        })),
      )
      if (settings.impact.manifests.length > 0) {
        const onPullRequest = isPullRequestEvent(settings.runner.eventName)
        planned.push({
          method: onPullRequest ? 'GET' : '(none)',
          url: onPullRequest ? '(GitHub API) /repos/{owner}/{repo}/pulls/{number}/files' : '(workspace files)',
          headers: {},
          note: `${onPullRequest ? "list the pull request's changed files and read" : 'read the workspace files'} matching ${settings.impact.manifests.join(', ')}; each object found adds an impact query like the ones above`,
        })
      }
      return planned
    }
    case 'query': {
      const graph = new GraphClient(transport)
      const first = { ...pagedSpec(settings.query.spec), limit: pageSizeOf(settings.query) }
      return [
        graphPreflight(transport, describe),
        {
          ...describe(graph.queryCall(first)),
          note: 'first page; later pages add page.cursor from the previous answer',
        },
      ]
    }
    case 'rollout': {
      const graph = new GraphClient(transport)
      const queries = rolloutQueries(settings.rollout.targets.map((target) => ({ target })))
      const also =
        settings.rollout.manifests.length + settings.rollout.renderedHead.length > 0
          ? ' (plus the objects of the manifests, read at run time)'
          : ''
      return [
        graphPreflight(transport, describe),
        ...queries.map((spec) => ({
          ...describe(graph.queryCall(pagedSpec(spec))),
          note: `read the targets on every edge${also}, after GET /api/edges; repeated with backoff until rolled out or ${settings.rollout.timeoutSeconds} s pass`,
        })),
      ]
    }
  }
}

/** Every graph command first asks whoami: the graph answers a wrong org or workspace with an empty fleet. */
function graphPreflight(
  transport: HubTransport,
  describe: (request: HubRequest) => Omit<PlannedRequest, 'note'>,
): PlannedRequest {
  return {
    ...describe(new AgentsClient(transport).whoamiCall()),
    note: 'preflight: an empty workspaceUUID stops the step before any graph query',
  }
}

/** The request exactly as the transport would send it, with the token shown as ***. */
function describeRequest(identity: HubIdentity, request: HubRequest): Omit<PlannedRequest, 'note'> {
  const url = requestUrl(identity, request)
  const { headers } = prepareRequest(identity, request)
  return {
    method: request.method,
    url: url.href,
    headers: { ...headers, authorization: 'Bearer ***' },
    ...(request.body !== undefined ? { body: request.body } : {}),
  }
}

/** A dry run's requests: in the log, in a result file, and in the summary. */
export function publishDryRun(settings: Settings, requests: readonly PlannedRequest[]): void {
  core.info(`Dry run: ${requests.length} request(s) would be sent; nothing was sent.`)
  if (settings.command === 'run') {
    core.info(`Idempotency key: ${settings.run.idempotencyKey ?? '(none)'}`)
    core.info(`Session id: ${settings.run.sessionId}`)
  }
  core.startGroup('Requests')
  for (const request of requests)
    logUntrusted(
      `${request.method} ${request.url} — ${request.note}`,
      JSON.stringify({ headers: request.headers, body: request.body }, null, 2),
    )
  core.endGroup()
  const path = writeJsonFile(resultDirectory(settings.runner.tempDir), 'dry-run.json', {
    ...RESULT_FILES.dryRun,
    command: settings.command,
    ...(settings.command === 'run'
      ? { idempotencyKey: settings.run.idempotencyKey ?? null, sessionId: settings.run.sessionId }
      : {}),
    requests,
  })
  core.setOutput('result-file', path)
  if (settings.command === 'impact' && settings.impact.manifests.length === 0)
    core.setOutput('targets-count', String(settings.impact.targets.length))
  writeSummary(renderDryRun(settings.command, requests))
}
