/** The query step, loaded on demand by main.ts: every page of the query, then the summary. */
import { join } from 'node:path'
import { GraphClient } from '../../hub/graph.js'
import type { HubTransport } from '../../hub/transport.js'
import { resultDirectory } from '../../runner/outputs.js'
import type { SettingsFor } from '../../settings/settings.js'
import { publishQuery } from './publish.js'
import { runQuery } from './run-query.js'

export async function queryStep(settings: SettingsFor<'query'>, transport: HubTransport, signal: AbortSignal): Promise<undefined> {
  const file = join(resultDirectory(settings.runner.tempDir), 'query-result.json')
  const result = await runQuery(settings.query, new GraphClient(transport), file, signal)
  publishQuery(result, settings.query.maxObjects)
  return undefined
}
