/** The impact step's log lines, outputs, result file and job summary. */
import type { ImpactReport } from './model.js'
import { targetLabel } from '../../model/target.js'
import { resultDirectory, writeJsonFile } from '../../runner/result-file.js'
import { renderImpactVerdictLine } from './impact-report.js'
import type { RunnerContext } from '../../runner/context.js'
import * as workflow from '../../runner/workflow.js'

/** The schema id and version at the head of the result file; a change of shape bumps the version. */
const RESULT_FILE = { schema: 'hub-action/impact-report', version: 1 } as const

export interface PublishedImpact {
  report: ImpactReport
  /** The comment-sized markdown: the `report` output. */
  commentMarkdown: string
  summaryMarkdown: string
  commentUrl: string | undefined
}

export function publishImpact(published: PublishedImpact, runner: RunnerContext): void {
  const { report } = published
  for (const impact of report.impacts) workflow.info(renderImpactVerdictLine(impact))
  for (const target of report.notFound)
    workflow.info(`${targetLabel(target)}: not found on any edge (new object, stale edge, or no visibility).`)
  for (const skipped of report.skippedFiles) workflow.info(`Skipped ${skipped.path}: ${skipped.reason}`)
  for (const { target, reason } of report.skippedTargets) workflow.info(`Skipped ${targetLabel(target)}: ${reason}.`)
  for (const warning of report.warnings) workflow.warning(warning)
  const path = writeJsonFile(resultDirectory(runner.tempDir), 'impact-report.json', {
    ...RESULT_FILE,
    ...report,
  })
  const wholeIn = `the result file ${path} (output \`result-file\`)`
  for (const [name, value] of Object.entries(
    impactOutputs(report, published.commentMarkdown, published.commentUrl, path),
  ))
    workflow.setOutput(name, value, { wholeIn })
  workflow.writeSummary(published.summaryMarkdown)
}

/** The names are the row's (./index.ts), which the compiler holds to exactly these. */
export type ImpactOutputName = keyof ReturnType<typeof impactOutputs>

function impactOutputs(report: ImpactReport, markdown: string, commentUrl: string | undefined, resultFile: string) {
  return {
    'targets-count': String(report.targets.length),
    'upstream-count': String(report.totals.upstream),
    'downstream-count': String(report.totals.downstream),
    'associated-count': String(report.totals.associated),
    report: markdown,
    'comment-url': commentUrl ?? '',
    'result-file': resultFile,
  }
}
