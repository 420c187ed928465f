/** The run step: start (or attach to) a run, wait for it, publish what it left. */
import { AgentsClient } from '../../hub/agents.js'
import type { HubTransport } from '../../hub/transport.js'
import type { Verdict } from '../../runner/publish.js'
import type { SettingsFor } from '../../settings/settings.js'
import { publishRun, runEventsToLog } from './publish.js'
import { runAgent } from './run-agent.js'
import { runVerdict } from './verdict.js'

export async function runStep(
  settings: SettingsFor<'run'>,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const events = runEventsToLog(settings.run)
  let result
  try {
    // The scope lets the loop check the workspace (GET /api/whoami) before it starts a run.
    const scope = { org: settings.hub.org, workspace: settings.hub.workspace }
    result = await runAgent(
      settings.run,
      { client: new AgentsClient(transport, settings.hub.clusterId), events, scope },
      signal,
    )
  } finally {
    events.finish()
  }
  const verdict = runVerdict(result, settings.run)
  await publishRun(result, verdict, settings.runner)
  return verdict
}
