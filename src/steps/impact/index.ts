/**
 * Steps loaded on demand by main.ts, in one chunk (they share the graph client): a `run`
 * step never pays for the impact, query and dry-run code at start-up.
 */
import { join } from 'node:path'
import { computeImpact, impactVerdict } from './compute-impact.js'
import { runQuery } from '../query/run-query.js'
import { GraphClient } from '../../hub/graph.js'
import type { HubTransport } from '../../hub/transport.js'
import { capAnnotations, impactAnnotations } from './annotations.js'
import { workspaceRoot } from './read-workspace-file.js'
import { collectTargets } from './targets.js'
import type { Settings } from '../../settings/settings.js'
import { resultDirectory } from '../../runner/outputs.js'
import { publishImpact, publishQuery } from './publish.js'
import { applyVerdict } from '../run/publish.js'
import { openPullRequest } from './pull-request-session.js'
import { renderImpactReport } from './impact-report.js'
import * as core from '../../runner/core.js'

type StepOf<C extends Settings['command']> = Extract<Settings, { command: C }>

/** The comment leaves room for the hidden marker line under GitHub's 65,536 characters. */
const COMMENT_BUDGET = 65_000
/** The job summary must stay under 1 MiB. */
const SUMMARY_BUDGET = 1_000_000
const SUMMARY_TRIMMED = 'Trimmed to stay under the job summary limit of 1 MiB: the result file (output `result-file`) holds the whole report.'

export async function impactStep(settings: StepOf<'impact'>, transport: HubTransport, signal: AbortSignal, closers: Array<() => Promise<void>>) {
  const { impact, runner } = settings
  const graph = new GraphClient(transport)
  const pullRequest = await openPullRequest(impact, runner)
  const tool = impact.source === 'mcp' && impact.mcpUrl ? await openImpactTool(transport, impact.mcpUrl, closers) : undefined

  const collected = await collectTargets({
    given: impact.targets,
    globs: impact.manifests,
    renderedHead: impact.renderedHead,
    renderedBase: impact.renderedBase,
    defaultNamespace: impact.defaultNamespace,
    workspace: runner.workspace ?? process.cwd(),
    pullRequest: pullRequest?.files,
    signal,
    log: core.info,
  })
  core.info(
    `Impact of ${collected.targets.length} target(s)${collected.files.length ? ` from ${collected.files.length} manifest file(s)` : ''}, via ${impact.source}.`,
  )
  const report = await computeImpact(
    impact,
    { targets: collected.targets, skippedFiles: collected.skippedFiles, commit: pullRequest?.headSha ?? runner.sha },
    { graph, tool, log: core.info, signal },
  )
  report.warnings.unshift(...collected.warnings)
  const summaryUrl = runner.repository && runner.runId ? `${runner.serverUrl}/${runner.repository}/actions/runs/${runner.runId}` : undefined
  const commentMarkdown = renderImpactReport(report, { budget: COMMENT_BUDGET, ...(summaryUrl ? { summaryUrl } : {}) })
  const commentUrl = pullRequest && impact.comment !== 'off' ? await pullRequest.comment(commentMarkdown) : undefined
  publishImpact(
    { report, commentMarkdown, commentUrl, summaryMarkdown: renderImpactReport(report, { budget: SUMMARY_BUDGET, trimmedNote: SUMMARY_TRIMMED }) },
    runner,
  )
  await annotateDeclarations(report, runner.workspace ?? process.cwd(), collected.changedPaths)
  // Only now, with the summary and comment out, may the step fail on the blast radius.
  applyVerdict(impactVerdict(report, impact.failOnDownstream))
}

export async function queryStep(settings: StepOf<'query'>, transport: HubTransport, signal: AbortSignal) {
  const file = join(resultDirectory(settings.runner.tempDir), 'query-result.json')
  const result = await runQuery(settings.query, new GraphClient(transport), file, signal)
  publishQuery(result, settings.query.maxObjects)
}

/** The blast radius on each declaring line, within GitHub's notice limit per step. */
async function annotateDeclarations(report: Parameters<typeof impactAnnotations>[0], workspace: string, changedPaths: readonly string[]) {
  const root = await workspaceRoot(workspace).catch(() => undefined)
  const { shown, summary } = capAnnotations(await impactAnnotations(report, { root, changedPaths }))
  for (const annotation of shown) core.notice(annotation.message, { file: annotation.file, startLine: annotation.line, title: annotation.title })
  if (summary) core.notice(summary, { title: 'hub-action impact' })
}

async function openImpactTool(transport: HubTransport, url: URL, closers: Array<() => Promise<void>>) {
  const { McpGraphClient } = await import('../../hub/mcp.js')
  // On the hub's transport: its token renewal, retries, caps and redaction reach MCP calls too.
  const client = new McpGraphClient({ url, transport, log: core.info })
  closers.push(() => client.close())
  return client
}

export { dryRunStep } from '../dry-run/dry-run.js'
