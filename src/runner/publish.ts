/** What every step publishes through the runner: the job summary, untrusted text, the verdict. */
import * as core from './core.js'

/** A step's outcome and the one sentence that says why; main.ts gives it to the runner. */
export interface Verdict {
  status: 'pass' | 'warn' | 'fail'
  message: string
}

export function writeSummary(markdown: string): void {
  if (!core.appendSummary(markdown))
    core.info('GITHUB_STEP_SUMMARY is not set (not on a runner): the job summary is skipped.')
}

/** Print text we do not control with workflow commands switched off around it. */
export function logUntrusted(title: string, text: string): void {
  if (title) core.info(title)
  core.infoVerbatim(text)
}

export function applyVerdict(verdict: Verdict): void {
  if (verdict.status === 'fail') core.setFailed(verdict.message)
  else if (verdict.status === 'warn') core.warning(verdict.message)
  else core.notice(verdict.message)
}
