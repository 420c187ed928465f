/**
 * What a run sitting in Pending too long may mean, from the agent's status (docs/hub-facts.md,
 * "Phases"); the workspace check before the start is hub/workspace-check.ts.
 */
import type { AgentsClient } from '../../hub/agents.js'
import { HubError } from '../../hub/errors.js'

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
    if (phase.toLowerCase() === 'suspended')
      return `agent "${agent}" is Suspended${reason ? ` (${reason.slice(0, 500)})` : ''}`
    return `agent "${agent}" is ${phase}`
  } catch (error) {
    if (error instanceof HubError) return undefined
    throw error
  }
}
