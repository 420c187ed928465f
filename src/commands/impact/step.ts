/**
 * The impact step, loaded only when asked for (a `run` step never loads yaml or the graph
 * code): targets → impact → comment, summary, annotations → the verdict on the blast radius;
 * and the requests a dry run shows for it.
 */
import { computeImpact, impactVerdict, type ImpactTool } from './compute-impact.js'
import { GraphClient } from '../../hub/graph.js'
import type { HubTransport } from '../../hub/transport.js'
import { checkGraphWorkspace, emptyUncheckedGraph, type WorkspaceCheck } from '../../hub/workspace-check.js'
import { capAnnotations, impactAnnotations } from './annotations.js'
import { workspaceRoot } from '../../sources/read-workspace-file.js'
import { collectTargets, type CollectedTargets } from '../../sources/targets.js'
import type { ImpactStepSettings } from './inputs.js'
import type { Verdict } from '../../runner/workflow.js'
import { publishImpact } from './publish.js'
import { openPullRequest, type PullRequestSession } from '../../sources/pull-request-session.js'
import { renderImpactReport } from './impact-report.js'
import * as workflow from '../../runner/workflow.js'
import { isPullRequestEvent, workflowRunUrl } from '../../runner/context.js'
import { graphPreflight, planned, type Plan } from '../command.js'
import { buildImpactQuery } from './query-impact.js'

/** The comment leaves room for the hidden marker line under GitHub's 65,536 characters. */
const COMMENT_BUDGET = 65_000
/** Characters of the job summary's report; its bytes are held to SUMMARY_BYTE_BUDGET by the renderer. */
const SUMMARY_CHARACTER_BUDGET = 1_000_000
const SUMMARY_TRIMMED =
  'Trimmed to stay under the job summary limit of 1 MiB: the result file (output `result-file`) holds the whole report.'

export async function impactStep(
  settings: ImpactStepSettings,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const { impact, runner } = settings
  const pullRequest = await openPullRequest(impact, runner, transport.budget)
  // Off a runner (npm run local), the manifests are read from where the action was started.
  const workspace = runner.workspace ?? process.cwd()
  // Every target is collected, and the caps checked, before the first hub request.
  const collected = await collectTargets({
    given: impact.targets,
    globs: impact.manifests,
    renderedHead: impact.renderedHead,
    renderedBase: impact.renderedBase,
    defaultNamespace: impact.defaultNamespace,
    workspace,
    pullRequest: pullRequest?.files,
    signal,
    log: workflow.info,
    maxTargets: impact.maxTargets,
    maxDocuments: impact.maxDocuments,
  })
  const check = await checkGraphWorkspace(transport, settings.hub, signal, workflow.info)
  const tool = impact.source === 'mcp' && impact.mcpUrl ? await openImpactTool(transport, impact.mcpUrl) : undefined
  try {
    return await reportImpact(
      settings,
      { graph: new GraphClient(transport), tool, pullRequest, collected, workspace, check },
      signal,
    )
  } finally {
    // A failure to close changes nothing the step reported.
    await tool?.close().catch(() => undefined)
  }
}

/** What the step opened to report on: the hub's graph, the MCP tool, the pull request and the targets. */
interface ImpactSources {
  graph: GraphClient
  tool: ImpactTool | undefined
  pullRequest: PullRequestSession | undefined
  collected: CollectedTargets
  workspace: string
  check: WorkspaceCheck
}

async function reportImpact(
  settings: ImpactStepSettings,
  { graph, tool, pullRequest, collected, workspace, check }: ImpactSources,
  signal: AbortSignal,
): Promise<Verdict> {
  const { impact, runner } = settings
  workflow.info(
    `Impact of ${collected.targets.length} target(s)${collected.files.length ? ` from ${collected.files.length} manifest file(s)` : ''}, via ${impact.source}.`,
  )
  const report = await computeImpact(
    impact,
    { targets: collected.targets, skippedFiles: collected.skippedFiles, commit: pullRequest?.headSha ?? runner.sha },
    { graph, tool, log: workflow.info, signal },
  )
  const wrongPair = emptyUncheckedGraph(check, report.impacts.length, report.edges, settings.hub)
  if (wrongPair) throw wrongPair
  report.warnings.unshift(...collected.warnings)
  if (collected.nothing) report.nothing = collected.nothing
  const summaryUrl = workflowRunUrl(runner)
  const commentMarkdown = renderImpactReport(report, { budget: COMMENT_BUDGET, ...(summaryUrl ? { summaryUrl } : {}) })
  const commentUrl = pullRequest && impact.comment !== 'off' ? await pullRequest.comment(commentMarkdown) : undefined
  publishImpact(
    {
      report,
      commentMarkdown,
      commentUrl,
      summaryMarkdown: renderImpactReport(report, { budget: SUMMARY_CHARACTER_BUDGET, trimmedNote: SUMMARY_TRIMMED }),
    },
    runner,
  )
  await annotateDeclarations(report, workspace, collected.changedPaths)
  // Only now, with the summary and comment out, may the step fail on the blast radius.
  return impactVerdict(report, impact.failOnDownstream)
}

/** The blast radius on each declaring line, within GitHub's notice limit per step. */
async function annotateDeclarations(
  report: Parameters<typeof impactAnnotations>[0],
  workspace: string,
  changedPaths: readonly string[],
) {
  const root = await workspaceRoot(workspace).catch(() => undefined)
  const { shown, summary } = capAnnotations(await impactAnnotations(report, { root, changedPaths }))
  for (const annotation of shown)
    workflow.notice(annotation.message, { file: annotation.file, startLine: annotation.line, title: annotation.title })
  if (summary) workflow.notice(summary, { title: 'hub-action impact' })
}

async function openImpactTool(transport: HubTransport, url: URL) {
  const { McpGraphClient } = await import('../../hub/mcp/client.js')
  // On the hub's transport: its token renewal, retries, caps and redaction reach MCP calls too.
  return new McpGraphClient({ url, transport, log: workflow.info })
}

export function impactPlan({ impact, runner }: ImpactStepSettings, transport: HubTransport): Plan {
  const graph = new GraphClient(transport)
  const requests = [
    graphPreflight(transport),
    ...impact.targets.map((target) =>
      planned(
        transport,
        graph.queryCall(buildImpactQuery(target, impact.maxDepth)),
        `impact of ${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}${impact.source === 'mcp' ? ' (sent as graph__graph_impact calls to mcp-url, one per edge)' : ''}`,
      ),
    ),
  ]
  if (impact.manifests.length === 0) return { requests, outputs: { 'targets-count': String(impact.targets.length) } }
  // Which objects the manifests hold, and so which queries follow, only reading them tells: no request row for them.
  const files = isPullRequestEvent(runner.eventName)
    ? "list the pull request's changed files (GitHub: GET /repos/{owner}/{repo}/pulls/{number}/files) and read those"
    : 'read the workspace files'
  const like = impact.targets.length > 0 ? 'built as the queries above are' : 'built as for a target named in `targets`'
  const sent = impact.source === 'mcp' ? 'graph__graph_impact calls to `mcp-url`, one per edge' : 'one graph query'
  return {
    requests,
    then: [
      `${files} matching ${impact.manifests.join(', ')}, and for each object they hold send ${sent} (${like}): which objects those are only reading the files tells, so those queries are not shown.`,
    ],
  }
}
