/** Publishing for the graph commands: outputs, result file and job summary of impact and query. */
import type { QueryResult } from '../query/run-query.js'
import { targetLabel, type ImpactReport } from './model.js'
import { IMPACT_REPORT_SCHEMA, IMPACT_REPORT_VERSION, impactOutputs, resultDirectory, writeJsonFile } from '../../runner/outputs.js'
import { writeSummary } from '../run/publish.js'
import { renderImpactVerdictLine } from './impact-report.js'
import { renderQuerySummary } from '../query/summary.js'
import type { RunnerContext } from '../../runner/context.js'
import * as core from '../../runner/core.js'

export interface PublishedImpact {
  report: ImpactReport
  /** The comment-sized markdown: the `report` output. */
  commentMarkdown: string
  summaryMarkdown: string
  commentUrl: string | undefined
}

export function publishImpact(published: PublishedImpact, runner: RunnerContext): void {
  const { report } = published
  for (const impact of report.impacts) core.info(renderImpactVerdictLine(impact))
  for (const target of report.notFound) core.info(`${targetLabel(target)}: not found on any edge (new object, stale edge, or no visibility).`)
  for (const skipped of report.skippedFiles) core.info(`Skipped ${skipped.path}: ${skipped.reason}`)
  for (const warning of report.warnings) core.warning(warning)
  const path = writeJsonFile(resultDirectory(runner.tempDir), 'impact-report.json', {
    schema: IMPACT_REPORT_SCHEMA,
    version: IMPACT_REPORT_VERSION,
    ...report,
  })
  const wholeIn = `the result file ${path} (output \`result-file\`)`
  for (const [name, value] of Object.entries(impactOutputs(report, published.commentMarkdown, published.commentUrl, path)))
    core.setOutput(name, value, { wholeIn })
  writeSummary(published.summaryMarkdown)
}

export function publishQuery(result: QueryResult, maxObjects: number): void {
  core.setOutput('count', String(result.count))
  core.setOutput('result-file', result.resultFile)
  core.info(`Query: ${plural(result.count, 'object')} from ${plural(result.pages, 'page')} → ${result.resultFile}`)
  if (result.stoppedBy === 'max-objects') core.warning(`Stopped at max-objects (${maxObjects}): more objects match the query.`)
  if (result.stoppedBy === 'cursor-restart')
    core.warning('The hub restarted the results at page 1 (cursor not accepted): paging stopped to avoid a loop; the result may be incomplete.')
  if (result.stoppedBy === 'truncated')
    core.warning(
      `Incomplete: the hub's 10,000-row cap cut the result, so ${result.count} is a lower bound (hub: ${result.warnings.join('; ') || 'incomplete'}). Ask for smaller pages (a lower \`limit\`) or fewer relations.`,
    )
  if (result.count === 0) core.notice('No object matched the query. An empty result does not prove absence: see the job summary.')
  writeSummary(renderQuerySummary(result, maxObjects))
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}
