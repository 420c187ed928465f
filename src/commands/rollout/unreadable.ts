/**
 * A manifest the gate cannot read fails the gate (issue 32): a release whose files are partly
 * unreadable cannot be shown to be live, and a gate that passed on the readable half would call
 * it shipped. Each unreadable file is an error annotation on its file and line with the
 * parser's message, the job summary says the same, and the verdict fails at once, before any
 * request: waiting cannot change a file. (Impact lists such a file under "Skipped files" and
 * reports on the rest.) Templates and files holding no object are not unreadable: they were
 * read, and are listed as skipped.
 */
import { inline } from '../../markdown/format.js'
import type { SkippedFile } from '../../model/target.js'
import * as workflow from '../../runner/workflow.js'
import type { Verdict } from '../../runner/workflow.js'

/** GitHub shows 10 error annotations per step; the failed verdict is one of them. */
const MAX_ANNOTATIONS = 9
/** Files named in the summary; the rest are counted. */
const MAX_LISTED = 50

const where = (file: SkippedFile) => `${file.path}${file.unreadable?.line ? `, line ${file.unreadable.line}` : ''}`

/**
 * When a manifest could not be read: annotations, the job summary and the failed verdict;
 * undefined when every file was read.
 */
export function refuseUnreadable(files: readonly SkippedFile[]): Verdict | undefined {
  const first = files[0]
  if (!first) return undefined
  for (const file of files.slice(0, MAX_ANNOTATIONS))
    workflow.error(`Cannot read this manifest: ${file.reason}`, {
      file: file.path,
      ...(file.unreadable?.line ? { startLine: file.unreadable.line } : {}),
      title: 'hub-action rollout: unreadable manifest',
    })
  const message = `The rollout gate cannot read ${files.length} manifest file(s) (${where(first)}: ${first.reason}${files.length > 1 ? '; and more, see the job summary' : ''}): a release it cannot read cannot be shown to be live, so the gate fails without querying. Fix the file(s) and run again.`
  const items = files.slice(0, MAX_LISTED).map((file) => `- ${inline(where(file))}: ${inline(file.reason)}`)
  if (files.length > MAX_LISTED) items.push(`- … and ${files.length - MAX_LISTED} more`)
  workflow.writeSummary(
    [
      '## ❌ Rollout gate: a manifest cannot be read',
      'The gate read none of the fleet: a release whose manifests it cannot read cannot be shown to be live.',
      `### Unreadable manifest files (${files.length})`,
      items.join('\n'),
    ].join('\n\n') + '\n',
  )
  return { status: 'fail', message }
}
