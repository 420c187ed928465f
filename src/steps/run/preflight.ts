/**
 * Checks that cost nothing extra where they run: one whoami before the first start (user route
 * only), and the agent's status once a run has sat in Pending too long (hub-behaviour.md §1).
 */
import type { AgentsClient } from '../../hub/agents.js'
import { renderError } from '../../errors.js'
import { HubAuthError, HubError, HubNoRouteError, HubWorkspaceError } from '../../hub/errors.js'

export interface HubScope {
  org: string
  workspace: string
}

/**
 * The hub silently falls back to the user's personal org when `org`/`workspace` are not a
 * workspace the token's user belongs to; whoami shows it as an empty workspace. Stop before a
 * run is created there. A hub without whoami, or one that refuses it, proves nothing: go on.
 */
export async function checkWorkspace(
  client: Pick<AgentsClient, 'whoami'>,
  scope: HubScope | undefined,
  signal: AbortSignal,
  deadline: number | undefined,
  log: (line: string) => void,
): Promise<void> {
  let workspaceUuid: string | undefined
  try {
    workspaceUuid = (await client.whoami(signal, deadline)).workspaceUUID
  } catch (error) {
    // A refused token would be refused by the start too: say so now, before anything is created.
    if (!(error instanceof HubError) || error instanceof HubAuthError || signal.aborted) throw error
    // A missing route is explained once, by the start that meets it next, not twice at length.
    if (error instanceof HubNoRouteError) {
      log('Could not check the workspace before starting: the server at `hub-url` has no GET /api/whoami route ("404 page not found"). Going on.')
      return
    }
    log(`Could not check the workspace before starting (GET /api/whoami): ${renderError(error)} Going on.`)
    return
  }
  if (workspaceUuid === undefined || workspaceUuid.trim() !== '') return
  const named = scope ? `org ${JSON.stringify(scope.org)}, workspace ${JSON.stringify(scope.workspace)}` : 'the org and workspace given'
  // The request went out and the hub answered: a hub error that names the inputs to fix.
  throw new HubWorkspaceError({
    operation: 'check the workspace before starting (GET /api/whoami)',
    hint: "set `org` and `workspace` to the UUIDs of a workspace the token's user belongs to",
    problems: [
      `\`org\`/\`workspace\` (${named}): the hub resolved this token to no workspace (GET /api/whoami answered an empty workspaceUUID), which means it fell back to the user's personal org, so a run would start outside the workspace you named. Set org and workspace to the UUIDs of a workspace the token's user is a member of (the hub's workspace settings show both). No run was created.`,
    ],
  })
}

/** Why a run may sit in Pending, from the agent's status; undefined when the hub cannot tell. */
export async function diagnosePending(
  client: Pick<AgentsClient, 'getAgent' | 'canReadAgents'>,
  agent: string,
  signal: AbortSignal,
  deadline: number,
): Promise<string | undefined> {
  if (!client.canReadAgents) return undefined
  try {
    const status = (await client.getAgent(agent, signal, deadline)).status
    const phase = status?.phase
    if (!phase) return undefined
    const reason = status.suspendedReason?.trim()
    if (phase.toLowerCase() === 'suspended') return `agent "${agent}" is Suspended${reason ? ` (${reason.slice(0, 500)})` : ''}`
    return `agent "${agent}" is ${phase}`
  } catch (error) {
    if (error instanceof HubError) return undefined
    throw error
  }
}
