/** The dry-run step, loaded on demand by main.ts. */
import { HubTransport } from '../../hub/transport.js'
import type { Settings } from '../../settings/settings.js'
import { plannedRequests, publishDryRun } from './dry-run.js'

/** `dry-run: true`: the requests, printed; nothing sent. */
export async function dryRunStep(settings: Settings): Promise<undefined> {
  const transport = new HubTransport({
    baseUrl: settings.hub.url,
    token: settings.hub.token || 'oidc-token',
    org: settings.hub.org,
    workspace: settings.hub.workspace,
    clusterId: settings.hub.clusterId,
  })
  try {
    publishDryRun(settings, plannedRequests(settings, transport))
  } finally {
    await transport.close()
  }
  return undefined
}
