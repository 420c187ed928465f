// The approval inbox (docs/hub-facts.md, "Agents provider"): an item opens when a run reaches PendingApproval
// (runs.ts); resolving it approves, denies or answers the pending call.
import type http from 'node:http'
import type { EmulatorRequest } from '../provider.ts'
import { sendJson, sendStatus as sendError } from '../http.ts'
import type { RunEndpoints } from './endpoints.ts'
import type { RunLifecycle } from './runs.ts'
import type { AgentsState } from './state.ts'

export type Inbox = ReturnType<typeof createInbox>

export function createInbox(st: AgentsState, life: RunLifecycle, endpoints: RunEndpoints) {
  const { inbox } = st
  const { approveRun, denyRun } = life
  const { findRun } = endpoints

  async function resolveItem(
    req: EmulatorRequest,
    res: http.ServerResponse,
    id: string,
    scope: { org: string; workspace: string },
    user: string,
  ): Promise<void> {
    const item = inbox.get(id)
    const run = item ? findRun(item.runID, scope) : undefined
    if (!item || !run) {
      sendError(res, 404, 'NotFound', `inbox item "${id}" not found`)
      return
    }
    const body = req.json as { decision?: unknown; response?: unknown } | undefined
    const decision = body?.decision
    if (decision !== 'approve' && decision !== 'deny' && decision !== 'answer') {
      sendError(res, 400, 'BadRequest', 'decision must be approve, deny or answer')
      return
    }
    const response = typeof body?.response === 'string' ? body.response : undefined
    // Like the hub: no check that the item is still pending; the run moves only if it waits on it.
    item.state = 'resolved'
    item.decision = decision
    item.resolvedBy = user
    item.resolutions++
    if (response !== undefined) item.response = response
    else delete item.response
    // `answer` only marks the item: the run stays at the same gate (docs/hub-facts.md, "Answers and approvals").
    if (run.phase === 'PendingApproval' && run.pending?.inboxID === id) {
      if (decision === 'approve') approveRun(run)
      else if (decision === 'deny') denyRun(run, response)
    }
    sendJson(res, 200, { ...item })
  }

  return { resolveItem }
}
