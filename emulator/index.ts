/**
 * The emulator's public entry, the only file test/, bench/ and scripts/ may import (eslint.boundaries.js):
 * the hub (its proxy, the agents provider, the graph provider and MCP endpoint) and GitHub's REST API as
 * real servers on 127.0.0.1, the fleets they serve, and the hostile behaviours the robustness tests plant.
 * Everything else under emulator/ is its own business and may change without telling anyone.
 */
export {
  DEFAULT_AGENTS,
  DEFAULT_TOKEN,
  DEFAULT_WORKSPACE,
  sendText,
  startHubEmulator,
  type EmulatorRequest,
  type ExtraRoute,
  type Fault,
  type HubEmulator,
  type HubEmulatorOptions,
  type ProviderHandler,
  type RecordedRequest,
  type Tenant,
} from './hub.ts'
export type { AgentScript } from './agents.ts'
export {
  ACTIONS_BOT_LOGIN,
  ACTIONS_TOKEN,
  DEFAULT_TOKENS,
  READONLY_TOKEN,
  deploymentsForbidden,
  secondaryRateLimit,
  startGitHubEmulator,
  type GitHubEmulator,
  type GitHubEmulatorOptions,
  type PullRequestFileInput,
  type RecordedRequest as GitHubRecordedRequest,
} from './github.ts'
export {
  createDemoFleet,
  createFleet,
  createLargeFleet,
  createMcpHandler,
  mcpRoute,
  parseSse,
  type FleetObject,
  type McpOptions,
} from './graph/index.ts'
export { createHubFactsFleet, createTimestampFleet } from './graph/hub-facts-fleet.ts'
export {
  ROLLOUT_SCENARIOS,
  createRolloutFleet,
  parseRolloutFleetArg,
  wallClock,
  type RolloutScenario,
} from './graph/rollouts.ts'
export {
  drippingGraph,
  drippingWait,
  endlessQueryPage,
  endlessWait,
  hangingGraph,
  hostileProvider,
  instantWait,
  waitOutage,
  type Hostility,
} from './hostile.ts'
export type { SdkMcpMode } from './sdk-mcp-server.ts'

/**
 * An MCP server built from the official SDK, for the interoperability test. Loaded on first use: the
 * SDK is most of what importing the emulator would cost, and one test file needs it.
 */
export async function startSdkMcpServer(
  ...args: Parameters<typeof import('./sdk-mcp-server.ts').startSdkMcpServer>
): ReturnType<typeof import('./sdk-mcp-server.ts').startSdkMcpServer> {
  const { startSdkMcpServer: start } = await import('./sdk-mcp-server.ts')
  return start(...args)
}
