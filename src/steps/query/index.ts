/** The query step, loaded on demand by main.ts: every page of the query, then the summary. */
import { join } from 'node:path'
import { GraphClient } from '../../hub/graph.js'
import type { HubTransport } from '../../hub/transport.js'
import { checkGraphWorkspace, emptyUncheckedGraph } from '../../hub/workspace-check.js'
import * as core from '../../runner/core.js'
import { resultDirectory } from '../../runner/result-file.js'
import type { SettingsFor } from '../../settings/settings.js'
import { publishQuery } from './publish.js'
import { runQuery } from './run-query.js'

export async function queryStep(
  settings: SettingsFor<'query'>,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<undefined> {
  const file = join(resultDirectory(settings.runner.tempDir), 'query-result.json')
  const check = await checkGraphWorkspace(transport, settings.hub, signal, core.info)
  const result = await runQuery(settings.query, new GraphClient(transport), file, signal)
  const wrongPair = emptyUncheckedGraph(check, result.count, result.edges, settings.hub)
  if (wrongPair) throw wrongPair
  publishQuery(result, settings.query.maxObjects)
  return undefined
}
