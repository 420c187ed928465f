/** Planned requests → markdown for a dry run's job summary. Pure. */
import type { PlannedRequest } from '../dry-run.js'
import { code, fenced, inline } from './markdown.js'

export function renderDryRun(command: string, requests: readonly PlannedRequest[]): string {
  const sections = [`## Dry run: \`${command}\` — ${requests.length} request(s), none sent`]
  for (const request of requests) {
    sections.push(`**${inline(request.method)}** ${code(request.url)} — ${inline(request.note)}`)
    sections.push(fenced(JSON.stringify({ headers: request.headers, body: request.body }, null, 2), 'json'))
  }
  return `${sections.join('\n\n')}\n`
}
