/**
 * The table of contents: read the settings, run the one use case the command names,
 * publish what it found, and give the step its verdict. The only place that fails the step.
 */
import { join } from 'node:path'
import { computeImpact, impactVerdict } from './commands/impact.js'
import { runQuery } from './commands/query.js'
import { runAgent, runVerdict } from './commands/run.js'
import { AgentsClient } from './hub/agents.js'
import { HubError } from './hub/errors.js'
import { GraphClient } from './hub/graph.js'
import { HubTransport } from './hub/transport.js'
import { collectTargets } from './impact/targets.js'
import { plannedRequests } from './dry-run.js'
import { InputError, readSettings, type Settings } from './inputs.js'
import { OidcError, requestIdToken } from './oidc.js'
import { resultDirectory } from './outputs.js'
import { applyVerdict, publishDryRun, publishImpact, publishQuery, publishRun, runEventsToLog } from './publish.js'
import { openPullRequest } from './pull-request-session.js'
import { renderImpactReport } from './report/impact-report.js'
import * as core from './runner.js'

type StepOf<C extends Settings['command']> = Extract<Settings, { command: C }>

export async function run(): Promise<void> {
  const interrupt = new AbortController()
  const stopListening = onTermination(interrupt)
  const closers: Array<() => Promise<void>> = []
  try {
    const settings = readSettings()
    if (settings.dryRun) return dryRunStep(settings)
    const token = settings.hub.token || (await bearerFromOidc(settings.hub.oidcAudience))
    const transport = new HubTransport({
      baseUrl: settings.hub.url,
      token,
      org: settings.hub.org,
      workspace: settings.hub.workspace,
      clusterId: settings.hub.clusterId,
      log: (message) => core.info(message),
    })
    closers.push(() => transport.close())
    switch (settings.command) {
      case 'run':
        return await runStep(settings, transport, interrupt.signal)
      case 'impact':
        return await impactStep(settings, transport, interrupt.signal, closers)
      case 'query':
        return await queryStep(settings, transport, interrupt.signal)
    }
  } catch (error) {
    core.setFailed(describeFailure(error, interrupt.signal))
  } finally {
    stopListening()
    await Promise.allSettled(closers.map((close) => close()))
  }
}

async function runStep(settings: StepOf<'run'>, transport: HubTransport, signal: AbortSignal) {
  const events = runEventsToLog(settings.run)
  let result
  try {
    result = await runAgent(settings.run, { client: new AgentsClient(transport, settings.hub.clusterId), events }, signal)
  } finally {
    events.finish()
  }
  const verdict = runVerdict(result, settings.run)
  publishRun(result, verdict, settings.runner)
  applyVerdict(verdict)
}

async function impactStep(settings: StepOf<'impact'>, transport: HubTransport, signal: AbortSignal, closers: Array<() => Promise<void>>) {
  const { impact, runner } = settings
  const graph = new GraphClient(transport)
  const pullRequest = await openPullRequest(impact, runner)
  const tool = impact.source === 'mcp' && impact.mcpUrl ? await openImpactTool(settings, transport, impact.mcpUrl, closers) : undefined

  const collected = await collectTargets({
    given: impact.targets,
    globs: impact.manifests,
    defaultNamespace: impact.defaultNamespace,
    workspace: process.env.GITHUB_WORKSPACE || process.cwd(),
    pullRequest: pullRequest?.files,
  })
  core.info(`Impact of ${collected.targets.length} target(s)${collected.files.length ? ` from ${collected.files.length} manifest file(s)` : ''}, via ${impact.source}.`)
  const report = await computeImpact(
    impact,
    { targets: collected.targets, skippedFiles: collected.skippedFiles, commit: pullRequest?.headSha ?? runner.sha },
    { graph, tool, log: core.info, signal },
  )
  const summaryUrl = runner.repository && runner.runId ? `${runner.serverUrl}/${runner.repository}/actions/runs/${runner.runId}` : undefined
  const commentMarkdown = renderImpactReport(report, { budget: COMMENT_BUDGET, ...(summaryUrl ? { summaryUrl } : {}) })
  const commentUrl = pullRequest && impact.comment !== 'off' ? await pullRequest.comment(commentMarkdown) : undefined
  publishImpact({ report, commentMarkdown, commentUrl, summaryMarkdown: renderImpactReport(report, { budget: SUMMARY_BUDGET, trimmedNote: SUMMARY_TRIMMED }) }, runner)
  // Only now, with the summary and comment out, may the step fail on the blast radius.
  applyVerdict(impactVerdict(report, impact.failOnDownstream))
}

async function queryStep(settings: StepOf<'query'>, transport: HubTransport, signal: AbortSignal) {
  const file = join(resultDirectory(settings.runner.tempDir), 'query-result.json')
  const result = await runQuery(settings.query, new GraphClient(transport), file, signal)
  publishQuery(result, settings.query.maxObjects)
}

/** `dry-run: true`: the requests, printed; nothing sent. */
function dryRunStep(settings: Settings) {
  const transport = new HubTransport({
    baseUrl: settings.hub.url,
    token: settings.hub.token || 'oidc-token',
    org: settings.hub.org,
    workspace: settings.hub.workspace,
    clusterId: settings.hub.clusterId,
  })
  publishDryRun(settings, plannedRequests(settings, transport))
}

async function bearerFromOidc(audience: string | undefined): Promise<string> {
  if (!audience) throw new InputError(['Input `token` is required: pass the hub token from a secret, or set `oidc-audience`.'])
  const token = await requestIdToken(audience)
  core.setSecret(token)
  core.info(`Using a GitHub OIDC token for audience "${audience}" as the hub bearer.`)
  return token
}

/** The comment leaves room for the hidden marker line under GitHub's 65,536 characters. */
const COMMENT_BUDGET = 65_000
/** The job summary must stay under 1 MiB. */
const SUMMARY_BUDGET = 1_000_000
const SUMMARY_TRIMMED = 'Trimmed to stay under the job summary limit of 1 MiB: the result file (output `result-file`) holds the whole report.'

async function openImpactTool(settings: StepOf<'impact'>, transport: HubTransport, url: URL, closers: Array<() => Promise<void>>) {
  const { McpGraphClient } = await import('./hub/mcp.js')
  const { token, org, workspace } = transport.identity
  const client = new McpGraphClient({ url, token, org, workspace, log: core.info })
  closers.push(() => client.close())
  return client
}

function describeFailure(error: unknown, interrupt: AbortSignal): string {
  if (interrupt.aborted && !(error instanceof InputError)) {
    return 'The job was cancelled before the work finished. If a run was being created, a re-run on the same commit attaches to it through its idempotency key.'
  }
  if (error instanceof InputError || error instanceof HubError || error instanceof OidcError) return error.message
  if (error instanceof Error && error.name === 'GitHubError') return error.message
  core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error))
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}. Please report it with this log.`
}

/** SIGINT/SIGTERM (the runner cancelling the job) end the wait; a second signal exits at once. */
function onTermination(interrupt: AbortController): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(1)
    core.info(`Received ${signal}: stopping.`)
    interrupt.abort(new Error(`received ${signal}`))
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  return () => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
  }
}
