/**
 * `dry-run: true`: everything up to the first request — inputs checked, idempotency key and
 * session id derived — then the requests the action would send, printed with the token
 * redacted, and nothing sent. The requests are the command's plan (its row in ../index.ts),
 * built from the same builders its step sends through.
 */
import { HubTransport } from '../../hub/transport.js'
import type { StepSettings } from '../../settings/settings.js'
import { resultDirectory, writeJsonFile } from '../../runner/result-file.js'
import type { Plan } from '../command.js'
import { renderDryRun } from './summary.js'
import * as workflow from '../../runner/workflow.js'

/** The schema id and version at the head of the result file; a change of shape bumps the version. */
const RESULT_FILE = { schema: 'hub-action/dry-run', version: 1 } as const

/** Prints the plan `planOf` builds for these settings; nothing is sent. */
export async function dryRunStep<S extends StepSettings<string, object>>(
  settings: S,
  planOf: (settings: S, transport: HubTransport) => Plan,
): Promise<undefined> {
  const transport = new HubTransport({
    baseUrl: settings.hub.url,
    token: settings.hub.token || 'oidc-token',
    org: settings.hub.org,
    workspace: settings.hub.workspace,
    clusterId: settings.hub.clusterId,
  })
  try {
    publishDryRun(settings, planOf(settings, transport))
  } finally {
    await transport.close()
  }
  return undefined
}

/** A dry run's requests: in the log, in a result file, and in the summary. */
function publishDryRun(
  settings: StepSettings<string, object>,
  { requests, derived = [], outputs = {}, then = [] }: Plan,
): void {
  const more = then.length > 0 ? ', then more that depend on what they find' : ''
  workflow.info(`Dry run: ${requests.length} request(s) would be sent${more}; nothing was sent.`)
  for (const { label, value } of derived) workflow.info(`${label}: ${value ?? '(none)'}`)
  workflow.startGroup('Requests')
  for (const request of requests)
    workflow.logUntrusted(
      `${request.method} ${request.url} — ${request.note}`,
      JSON.stringify({ headers: request.headers, body: request.body }, null, 2),
    )
  workflow.endGroup()
  for (const step of then) workflow.info(`Then: ${step}`)
  const path = writeJsonFile(resultDirectory(settings.runner.tempDir), 'dry-run.json', {
    ...RESULT_FILE,
    command: settings.command,
    ...Object.fromEntries(derived.map(({ key, value }) => [key, value])),
    requests,
    ...(then.length > 0 ? { then } : {}),
  })
  workflow.setOutput('result-file', path)
  for (const [name, value] of Object.entries(outputs)) workflow.setOutput(name, value)
  workflow.writeSummary(renderDryRun(settings.command, requests, then))
}
