/**
 * The query step, loaded only when asked for: every page of the query (the result file is
 * written while paging), then the outputs, log lines and summary; and its dry-run plan.
 */
import { join } from 'node:path'
import { GraphClient, pagedSpec } from '../../hub/graph.js'
import type { HubTransport } from '../../hub/transport.js'
import { checkGraphWorkspace, emptyUncheckedGraph } from '../../hub/workspace-check.js'
import * as workflow from '../../runner/workflow.js'
import { resultDirectory } from '../../runner/result-file.js'
import type { QueryStepSettings } from './inputs.js'
import { renderQuerySummary } from './summary.js'
import { pageSizeOf, runQuery, type QueryResult } from './run-query.js'
import { graphPreflight, planned, type Plan } from '../command.js'

export async function queryStep(
  settings: QueryStepSettings,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<undefined> {
  const file = join(resultDirectory(settings.runner.tempDir), 'query-result.json')
  const check = await checkGraphWorkspace(transport, settings.hub, signal, workflow.info)
  const result = await runQuery(settings.query, new GraphClient(transport), file, signal)
  const wrongPair = emptyUncheckedGraph(check, result.count, result.edges, settings.hub)
  if (wrongPair) throw wrongPair
  publishQuery(result, settings.query.maxObjects)
  return undefined
}

function publishQuery(result: QueryResult, maxObjects: number): void {
  workflow.setOutput('count', String(result.count))
  workflow.setOutput('result-file', result.resultFile)
  workflow.info(`Query: ${plural(result.count, 'object')} from ${plural(result.pages, 'page')} → ${result.resultFile}`)
  if (result.stoppedBy === 'max-objects')
    workflow.warning(`Stopped at max-objects (${maxObjects}): more objects match the query.`)
  if (result.stoppedBy === 'cursor-restart')
    workflow.warning(
      'The hub restarted the results at page 1 (cursor not accepted): paging stopped to avoid a loop; the result may be incomplete.',
    )
  if (result.stoppedBy === 'truncated')
    workflow.warning(
      `Incomplete: the hub's 10,000-row cap cut the result, so ${result.count} is a lower bound (hub: ${result.warnings.join('; ') || 'incomplete'}). Ask for smaller pages (a lower \`limit\`) or fewer relations.`,
    )
  if (result.relationPaging)
    workflow.notice(
      `Paged with relations: the hub pages such a query by an internal path, not by the order asked, so pages can repeat or skip objects. ${plural(result.relationPaging.repeated, 'repeated object')} dropped; skipped ones cannot be seen, so the result may be incomplete. For a complete list, query one edge at a time with a \`limit\` above the number of objects, or without relations.`,
    )
  if (result.storeNote) workflow.info(result.storeNote)
  if (result.count === 0)
    workflow.notice('No object matched the query. An empty result does not prove absence: see the job summary.')
  workflow.writeSummary(renderQuerySummary(result, maxObjects))
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

export function queryPlan({ query }: QueryStepSettings, transport: HubTransport): Plan {
  const first = { ...pagedSpec(query.spec), limit: pageSizeOf(query) }
  const byTimestamp = (query.spec.order ?? []).some((entry) => entry.field === 'creationTimestamp')
  const graph = new GraphClient(transport)
  return {
    requests: [
      graphPreflight(transport),
      ...(byTimestamp
        ? [
            planned(
              transport,
              graph.storeDriverCall(),
              "the graph's store: on SQLite (or when the hub does not say) an order by creationTimestamp is read in one page",
            ),
          ]
        : []),
      planned(
        transport,
        new GraphClient(transport).queryCall(first),
        'first page; later pages add page.cursor from the previous answer',
      ),
    ],
  }
}
