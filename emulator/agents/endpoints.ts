// What the run endpoints do once routed: create (idempotency keys and the same-key race, the
// inline wait), wait, and cancel, each scoped to the caller's org and workspace.
import type http from 'node:http'
import { randomUUID } from 'node:crypto'
import type { EmulatorRequest } from '../provider.ts'
import { sendJson, sendStatus as sendError } from '../http.ts'
import type { Holds } from './holds.ts'
import type { RunLifecycle } from './runs.ts'
import { isSettled, isTerminal, perfNow } from './state.ts'
import type { AgentsState, Run } from './state.ts'
import type { RunViews } from './views.ts'

const WAIT_CAP_S = 120
const WAIT_DEFAULT_S = 60
const WAIT_MAX_S = 300

export type RunEndpoints = ReturnType<typeof createRunEndpoints>

export function createRunEndpoints(st: AgentsState, life: RunLifecycle, views: RunViews, holds: Holds) {
  const { runs, idempotency, raceLosers, opts } = st
  const { advance, cancelRun, cutRun, stopRun } = life
  const { ph, detail } = views
  const { hold, pause, capHold } = holds

  function findRun(id: string, scope: { org: string; workspace: string }): Run | undefined {
    const run = runs.get(id)
    if (!run || run.org !== scope.org || run.workspace !== scope.workspace) return undefined
    return run
  }

  async function createRun(
    req: EmulatorRequest,
    res: http.ServerResponse,
    agentName: string,
    scope: { org: string; workspace: string },
  ): Promise<void> {
    const body = req.json
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      sendError(res, 400, 'BadRequest', 'invalid request body: expected a JSON object')
      return
    }
    const b = body as Record<string, unknown>
    if (b.task !== undefined && typeof b.task !== 'string') {
      sendError(res, 400, 'BadRequest', 'invalid request body: task must be a string')
      return
    }
    const task = typeof b.task === 'string' ? b.task.trim() : ''
    if (task === '') {
      sendError(res, 400, 'BadRequest', 'task is required')
      return
    }
    for (const f of ['sessionId', 'idempotencyKey'] as const) {
      if (b[f] !== undefined && b[f] !== null && typeof b[f] !== 'string') {
        sendError(res, 400, 'BadRequest', `invalid request body: ${f} must be a string`)
        return
      }
    }
    let wait = 0
    if (b.wait !== undefined && b.wait !== null) {
      if (typeof b.wait !== 'number' || !Number.isInteger(b.wait)) {
        sendError(res, 400, 'BadRequest', 'invalid request body: wait must be an integer number of seconds')
        return
      }
      wait = Math.min(Math.max(b.wait, 0), WAIT_CAP_S)
    }
    const script = st.agents.get(agentName)
    if (!script) {
      sendError(res, 404, 'NotFound', `agent "${agentName}" not found`)
      return
    }
    const sessionId = typeof b.sessionId === 'string' && b.sessionId !== '' ? b.sessionId : undefined
    const key = typeof b.idempotencyKey === 'string' ? b.idempotencyKey.trim() : ''
    const idemKey = `${scope.org}\n${scope.workspace}\n${agentName}\n${key}`
    if (key !== '') {
      const prev = idempotency.get(idemKey)
      if (prev) {
        sendJson(res, 200, { runId: prev.id, phase: ph(prev.phase), reused: true, run: detail(prev) })
        return
      }
    }

    const now = Date.now()
    const run: Run = {
      id: randomUUID(),
      agent: agentName,
      script: { ...script },
      org: scope.org,
      workspace: scope.workspace,
      task,
      phase: 'Pending',
      createdAt: now,
      createdPerf: perfNow(),
      history: [],
      nextStep: 0,
      steps: [],
      toolStepsStored: 0,
      toolStepTimers: [],
      stepsStored: [],
      inputTokens: 0,
      outputTokens: 0,
      usdMicros: 0,
      waiters: new Set(),
    }
    run.history.push({ phase: 'Pending', at: run.createdPerf })
    if (sessionId !== undefined) run.sessionId = sessionId
    if (key !== '') run.idempotencyKey = key
    const insertDelayMs = opts.idempotencyInsertDelayMs ?? 0
    if (key !== '' && insertDelayMs > 0) {
      // The race: the run starts now, its key and record are stored only after the delay.
      if (!script.suspended) advance(run)
      const era = st.resets
      await pause(insertDelayMs)
      if (st.closed) {
        stopRun(run)
        return
      }
      if (era !== st.resets) {
        stopRun(run) // the emulator was reset meanwhile: nothing of it is stored
      } else if (idempotency.has(idemKey)) {
        raceLosers.set(run.id, run)
      } else {
        idempotency.set(idemKey, run)
        runs.set(run.id, run)
      }
    } else {
      if (key !== '') idempotency.set(idemKey, run)
      runs.set(run.id, run)
      if (!script.suspended) advance(run)
    }

    if (wait === 0) {
      sendJson(res, 202, { runId: run.id, phase: ph('Pending') })
      return
    }
    await hold(run, capHold(wait * 1000), res)
    if (isSettled(run.phase)) sendJson(res, 200, { runId: run.id, phase: ph(run.phase), run: detail(run) })
    else sendJson(res, 202, { runId: run.id, phase: ph('Running') })
  }

  async function waitRun(req: EmulatorRequest, res: http.ServerResponse, run: Run): Promise<void> {
    const raw = req.query.get('timeoutSeconds')
    let timeout = WAIT_DEFAULT_S
    if (raw !== null && /^\d+$/.test(raw.trim())) {
      const n = Number(raw.trim())
      if (n > 0) timeout = Math.min(n, WAIT_MAX_S)
    }
    await hold(run, capHold(timeout * 1000), res)
    sendJson(res, 200, detail(run))
  }

  function cancel(res: http.ServerResponse, run: Run): void {
    if (isTerminal(run.phase)) {
      sendError(res, 409, 'Conflict', `run ${run.id} already finished (${ph(run.phase)})`)
      return
    }
    // Not executing on this replica: `cancelling: false`. A run parked at an approval is not
    // executing anywhere, so the hub writes Aborted at once (docs/hub-facts.md, "Cancelling a run").
    if (run.phase === 'PendingApproval') {
      cancelRun(run)
      sendJson(res, 202, { id: run.id, cancelling: false })
      return
    }
    if (run.script.elsewhere) {
      sendJson(res, 202, { id: run.id, cancelling: false })
      return
    }
    // Executing here: the run is cut. On Postgres its final save fails and the record stays as it was.
    if (opts.runStore === 'postgres') cutRun(run)
    else cancelRun(run)
    sendJson(res, 202, { id: run.id, cancelling: true })
  }

  return { findRun, createRun, waitRun, cancel }
}
