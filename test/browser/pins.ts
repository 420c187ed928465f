/**
 * What the scenarios pin or count in what the action wrote, so that a screenshot is the same file
 * from one run to the next (wall-clock times, random ids, temp paths).
 */
import type { ActionRun } from '../e2e/action-process.ts'

/** The rollout summary with its wall-clock times and temp path pinned, so the screenshot is stable. */
export function pinRollout(markdown: string): string {
  return markdown
    .replace(/\d\d:\d\d:\d\d UTC/g, '12:03:10 UTC')
    .replace(/over \d+ s\./g, 'over 2 s.')
    .replace(
      /result file \S+rollout-result\.json/g,
      'result file /home/runner/work/\\_temp/hub-action/rollout-result.json',
    )
}

/** The markdown without the sticky comment's leading `<!-- hub-action:… -->` marker line. */
export function withoutMarker(markdown: string): string {
  return markdown.replace(/^<!--[^\n]*-->\n/, '').trim()
}

/** One diagram per target and edge ("- **Kind name** on edge — …" lines). */
export function impactDiagrams(markdown: string): number {
  return markdown.split('\n').filter((line) => /^- \*\*.+\*\* on \S+ — /.test(line)).length
}

/**
 * The run's summary with what changes on every run pinned — its random id and two wall-clock
 * timings — so that a screenshot is the same file from one test run to the next.
 */
export function pin(run: ActionRun, id: string, timings: Record<string, string>): string {
  const runId = run.outputs['run-id']
  if (!runId) throw new Error('the run has no run-id output')
  const lines = run.summary.replaceAll(runId, id).split('\n')
  const header = lines.findIndex(
    (line) => line.startsWith('|') && Object.keys(timings).every((name) => cells(line).includes(name)),
  )
  if (header < 0) return lines.join('\n')
  const names = cells(lines[header] ?? '')
  for (let at = header + 2; at < lines.length && lines[at]?.startsWith('|'); at++) {
    const row = cells(lines[at] ?? '')
    for (const [name, value] of Object.entries(timings)) row[names.indexOf(name)] = value
    lines[at] = `| ${row.join(' | ')} |`
  }
  return lines.join('\n')
}

function cells(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim())
}
