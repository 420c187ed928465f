/**
 * Planned requests → markdown for a dry run's job summary. Pure. A request body carries the
 * inputs (a task, a list of targets) and may be any size: each is clipped, requests beyond the
 * budget are counted, not shown, and the note points at the result file, which holds them all.
 */
import {
  SUMMARY_BYTE_BUDGET,
  byteLength,
  clipBytes,
  clipCharacters,
  code,
  fenced,
  inline,
} from '../../markdown/format.js'
import { formatCount } from '../../units.js'
import type { PlannedRequest } from '../command.js'

const MAX_REQUEST = 64 * 1024
const MAX_LINE = 2_000
const NOTE =
  "> [!NOTE]\n> Cut to keep the job summary under GitHub's 1 MiB limit: the result file (output `result-file`) holds every request in full."

export function renderDryRun(
  command: string,
  requests: readonly PlannedRequest[],
  then: readonly string[] = [],
  budget = SUMMARY_BYTE_BUDGET,
): string {
  const sections = [`## Dry run: \`${command}\` — ${requests.length} request(s), none sent`]
  // What follows depends on answers or files: said after the requests, never as a request of its own.
  const after = then.map((step) => `**Then** ${inline(clipCharacters(step, MAX_LINE, '…').text)}`)
  let used =
    byteLength(sections[0] ?? '') + byteLength(NOTE) + 256 + after.reduce((sum, line) => sum + byteLength(line) + 2, 0)
  let cut = false
  let shown = 0
  for (const request of requests) {
    const json = clipBytes(
      JSON.stringify({ headers: request.headers, body: request.body }, null, 2),
      MAX_REQUEST,
      '\n…(clipped)',
    )
    const block = `**${inline(request.method)}** ${code(clipCharacters(request.url, MAX_LINE, '…').text)} — ${inline(clipCharacters(request.note, MAX_LINE, '…').text)}\n\n${fenced(json.text, 'json')}`
    if (used + byteLength(block) + 2 > budget) break
    sections.push(block)
    used += byteLength(block) + 2
    cut ||= json.clipped
    shown++
  }
  if (shown < requests.length) {
    sections.push(`… and ${formatCount(requests.length - shown)} more request(s).`)
    cut = true
  }
  sections.push(...after)
  if (cut) sections.splice(1, 0, NOTE)
  return `${sections.join('\n\n')}\n`
}
