/** The impact step's log lines, outputs, result file and job summary. */
import type { ImpactReport } from './model.js'
import { targetLabel } from '../../model/target.js'
import { RESULT_FILES, impactOutputs, resultDirectory, writeJsonFile } from '../../runner/result-file.js'
import { writeSummary } from '../../runner/publish.js'
import { renderImpactVerdictLine } from './impact-report.js'
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
  for (const target of report.notFound)
    core.info(`${targetLabel(target)}: not found on any edge (new object, stale edge, or no visibility).`)
  for (const skipped of report.skippedFiles) core.info(`Skipped ${skipped.path}: ${skipped.reason}`)
  for (const { target, reason } of report.skippedTargets) core.info(`Skipped ${targetLabel(target)}: ${reason}.`)
  for (const warning of report.warnings) core.warning(warning)
  const path = writeJsonFile(resultDirectory(runner.tempDir), 'impact-report.json', {
    ...RESULT_FILES.impact,
    ...report,
  })
  const wholeIn = `the result file ${path} (output \`result-file\`)`
  for (const [name, value] of Object.entries(
    impactOutputs(report, published.commentMarkdown, published.commentUrl, path),
  ))
    core.setOutput(name, value, { wholeIn })
  writeSummary(published.summaryMarkdown)
}
