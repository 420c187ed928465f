// Agents provider of the hub emulator (hub-behaviour.md §1).
//
// Mounted by hub.ts under /services/providers/agents. Everything here sees the
// request only after the hub layer authenticated it and resolved the tenant.
import type http from 'node:http'
import { randomUUID } from 'node:crypto'
import type { EmulatorRequest, ProviderHandler, Tenant } from './provider.ts'
import { sendJson, sendStatus as sendError, sendText } from './http.ts'

type RunPhase = 'Pending' | 'Running' | 'PendingApproval' | 'Succeeded' | 'Failed' | 'Aborted'

const TERMINAL_PHASES: readonly RunPhase[] = ['Succeeded', 'Failed', 'Aborted']
const SETTLED_PHASES: readonly RunPhase[] = ['Succeeded', 'Failed', 'Aborted', 'PendingApproval']

interface ToolStepScript {
  tool: string
  outcome: 'ok' | 'error' | 'denied' | 'pending_approval'
  durationMS?: number
  args?: unknown
  result?: string
  error?: string
  /**
   * When the hub stores the step, in ms after the run first starts Running (steps are stored as
   * each tool call ends). Default: the sum of the durations of this step and those before it.
   */
  endsAfterMs?: number
}

export interface AgentScript {
  /** Agent status Suspended; its runs stay Pending forever (no message). */
  suspended?: boolean
  /** `status.suspendedReason` of a suspended agent. */
  suspendedReason?: string
  /** The run's `children` summaries (delegated and spawned runs), served as given. */
  children?: Array<Record<string, unknown>>
  description?: string
  /** Phases the run moves through; each `afterMs` after the previous one (0 = at once). */
  steps: Array<{ phase: RunPhase; afterMs: number }>
  /** Final answer (Succeeded only). A function receives the trimmed task. */
  output?: string | ((task: string) => string)
  /** Failure / abort reason for Failed and Aborted. */
  message?: string
  sources?: string[]
  toolSteps?: ToolStepScript[]
  inputTokens?: number
  outputTokens?: number
  usdMicros?: number
  /** Tool call awaiting approval while the run is PendingApproval. */
  approval?: { tool: string; args?: Record<string, unknown> }
  /** Auto-approve after this long; without it the run waits for emulator.approve(runId). */
  approveAfterMs?: number
}

export interface RunRecord {
  id: string
  agent: string
  task: string
  sessionId?: string
  idempotencyKey?: string
  org: string
  workspace: string
  /** Always PascalCase here, whatever lowercasePhases says. */
  phase: RunPhase
  /** performance.timeOrigin + performance.now() at creation (ms). */
  createdAt: number
  /** Same clock; set each time the run reaches a settled phase, cleared when it runs again. */
  settledAt?: number
  /** Same clock; set when the run reached a terminal phase. */
  finishedAt?: number
  message?: string
  history: Array<{ phase: RunPhase; at: number }>
  /** Each step as the hub stored it, with the instant (same clock as createdAt). */
  stepsStored: Array<{ id: string; tool: string; at: number }>
}

export interface AgentsProviderOptions {
  agents: Record<string, AgentScript>
  lowercasePhases: boolean
  /** Caps every hold (inline wait and /wait). */
  maxHoldMs?: number
  /** Cluster ids known to the s2s routes, mapped to their workspace. */
  clusters: Record<string, { org: string; workspace: string }>
  /**
   * How the s2s route answers a cluster id it does not know (hub-behaviour.md §1): 403 (default),
   * or 503 `locating workspace` as hubs with several shards do. Never 409.
   */
  unknownClusterStatus?: 403 | 503
  /**
   * The same-key race (hub-behaviour.md §1), off when absent or 0: a keyed start looks its key up,
   * starts the run, and stores run and key only this long later. Starts with one key inside that
   * window all pass the lookup; the first to store wins, the others' runs execute but are never
   * stored, so their ids 404 (see `raceLosers`).
   */
  idempotencyInsertDelayMs?: number
}

/** An approval in the inbox (hub-behaviour.md §1): opened when a run reaches PendingApproval. */
interface InboxItem {
  id: string
  runID: string
  agent: string
  tool: string
  args: string
  state: 'pending' | 'resolved'
  decision?: 'approve' | 'deny' | 'answer'
  response?: string
  /** Who resolved it (the hub resumes the run under this caller's token). */
  resolvedBy?: string
  /** How many times it was resolved: the hub does not check that an item is still pending. */
  resolutions: number
}

export interface AgentsProvider {
  handler: ProviderHandler
  /** Every approval item, in the order opened. */
  inbox(): InboxItem[]
  runs(): RunRecord[]
  run(id: string): RunRecord | undefined
  /** Runs the same-key race started and never stored: they executed, and their ids 404. */
  raceLosers(): RunRecord[]
  /** The run detail exactly as the API would return it now. */
  detail(id: string): Record<string, unknown> | undefined
  approve(runId: string): boolean
  setAgent(name: string, script: AgentScript): void
  removeAgent(name: string): void
  agentNames(): string[]
  setLowercasePhases(on: boolean): void
  /** Clear runs, idempotency keys and held waits; restore the initial agent set. */
  reset(): void
  close(): void
}

const OUTPUT_CAP = 256 * 1024
const MESSAGE_CAP = 500
const WAIT_CAP_S = 120
const WAIT_DEFAULT_S = 60
const WAIT_MAX_S = 300

interface StepDetail {
  id: string
  tool: string
  args?: unknown
  result?: string
  outcome: string
  error?: string
  durationMS?: number
  at: string
}

interface Run {
  id: string
  agent: string
  script: AgentScript
  org: string
  workspace: string
  task: string
  sessionId?: string
  idempotencyKey?: string
  phase: RunPhase
  createdAt: number // wall clock ms
  createdPerf: number
  startedAt?: number
  finishedAt?: number
  finishedPerf?: number
  settledAt?: number | undefined
  history: Array<{ phase: RunPhase; at: number }>
  nextStep: number
  timer?: NodeJS.Timeout | undefined
  approveTimer?: NodeJS.Timeout | undefined
  message?: string
  output?: string
  sources?: string[]
  /** `args` is JSON text inside a string, as the hub sends it (hub-behaviour.md §1). */
  pending?: { inboxID: string; tool: string; args: string } | undefined
  steps: StepDetail[]
  /** Script tool steps stored so far; the rest are stored as their call ends, or when the run settles. */
  toolStepsStored: number
  toolStepTimers: NodeJS.Timeout[]
  stepsStored: Array<{ id: string; tool: string; at: number }>
  inputTokens: number
  outputTokens: number
  usdMicros: number
  waiters: Set<() => void>
}

const perfNow = (): number => performance.timeOrigin + performance.now()
const isTerminal = (p: RunPhase): boolean => TERMINAL_PHASES.includes(p)
const isSettled = (p: RunPhase): boolean => SETTLED_PHASES.includes(p)

function clipBytes(s: string, max: number, marker: string): string {
  const buf = Buffer.from(s, 'utf8')
  if (buf.length <= max) return s
  // Cut on a byte boundary, then drop a possibly broken trailing character.
  let cut = buf.subarray(0, max).toString('utf8')
  if (cut.endsWith('\uFFFD')) cut = cut.slice(0, -1)
  return cut + marker
}

/** A script's value as the hub stores it: a string stays as written (it may be clipped JSON), anything else becomes JSON text. */
function asJsonText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

// ---------------------------------------------------------------- provider

export function createAgentsProvider(opts: AgentsProviderOptions): AgentsProvider {
  const initialAgents = { ...opts.agents }
  let agents = new Map<string, AgentScript>(Object.entries(initialAgents))
  let lowercase = opts.lowercasePhases
  const runs = new Map<string, Run>()
  const idempotency = new Map<string, Run>()
  const raceLosers = new Map<string, Run>()
  const inbox = new Map<string, InboxItem>()
  /** Counts reset() calls, so a start that straddled one is dropped instead of stored. */
  let resets = 0
  const holds = new Set<() => void>()
  let closed = false

  const ph = (p: RunPhase): string => (lowercase ? p.toLowerCase() : p)

  // ------------------------------------------------------------ lifecycle

  /** Tell held waits about a phase change (same tick); each decides whether to answer. */
  function notify(run: Run): void {
    for (const w of [...run.waiters]) w()
  }

  /** Store one script step, as the hub does when its tool call ends. */
  function storeToolStep(run: Run, s: ToolStepScript): void {
    const wall = Date.now()
    const id = `step-${run.steps.length + 1}`
    const step: StepDetail = { id, tool: s.tool, outcome: s.outcome, at: new Date(wall - (s.durationMS ?? 0)).toISOString() }
    // The hub stores a step's args and result as JSON text (hub-behaviour.md §1).
    if (s.args !== undefined) step.args = asJsonText(s.args)
    if (s.result !== undefined) step.result = asJsonText(s.result)
    if (s.error !== undefined) step.error = s.error
    if (s.durationMS !== undefined) step.durationMS = s.durationMS
    run.steps.push(step)
    run.stepsStored.push({ id, tool: s.tool, at: perfNow() })
  }

  /** Store every script step not stored yet (the run reached the approval gate or ended). */
  function revealToolSteps(run: Run): void {
    for (const t of run.toolStepTimers) clearTimeout(t)
    run.toolStepTimers = []
    const script = run.script.toolSteps ?? []
    while (run.toolStepsStored < script.length) storeToolStep(run, script[run.toolStepsStored++] as ToolStepScript)
  }

  /** From the first Running on, each script step is stored when its call ends. */
  function scheduleToolSteps(run: Run): void {
    let end = 0
    for (const s of run.script.toolSteps ?? []) {
      end += s.durationMS ?? 0
      const timer = setTimeout(() => {
        const script = run.script.toolSteps ?? []
        // In order: this step and any before it not stored yet.
        const upTo = script.indexOf(s)
        while (run.toolStepsStored <= upTo && run.toolStepsStored < script.length) storeToolStep(run, script[run.toolStepsStored++] as ToolStepScript)
        notify(run)
      }, s.endsAfterMs ?? end)
      timer.unref()
      run.toolStepTimers.push(timer)
    }
  }

  function setPhase(run: Run, phase: RunPhase, message?: string): void {
    const at = perfNow()
    const wall = Date.now()
    if (run.phase !== phase) run.history.push({ phase, at })
    run.phase = phase
    if (phase === 'Running' && run.startedAt === undefined) {
      run.startedAt = wall
      scheduleToolSteps(run)
    }

    if (phase === 'PendingApproval') {
      revealToolSteps(run)
      const a = run.script.approval ?? { tool: 'kubectl_apply', args: {} }
      run.pending = { inboxID: randomUUID(), tool: a.tool, args: asJsonText(a.args ?? {}) }
      inbox.set(run.pending.inboxID, {
        id: run.pending.inboxID,
        runID: run.id,
        agent: run.agent,
        tool: a.tool,
        args: run.pending.args,
        state: 'pending',
        resolutions: 0,
      })
      run.stepsStored.push({ id: `step-${run.steps.length + 1}`, tool: a.tool, at })
      run.steps.push({
        id: `step-${run.steps.length + 1}`,
        tool: a.tool,
        args: asJsonText(a.args ?? {}),
        outcome: 'pending_approval',
        at: new Date(wall).toISOString(),
      })
    } else {
      run.pending = undefined
    }

    if (isTerminal(phase)) {
      run.finishedAt = wall
      run.finishedPerf = at
      if (run.timer) clearTimeout(run.timer)
      if (run.approveTimer) clearTimeout(run.approveTimer)
      run.timer = undefined
      run.approveTimer = undefined
      revealToolSteps(run)
      // A step still waiting for approval when the run ends was never approved.
      for (const s of run.steps) if (s.outcome === 'pending_approval') s.outcome = 'denied'
      run.inputTokens = run.script.inputTokens ?? 0
      run.outputTokens = run.script.outputTokens ?? 0
      run.usdMicros = run.script.usdMicros ?? 0
      if (phase === 'Succeeded') {
        const out = run.script.output
        const text = typeof out === 'function' ? out(run.task) : out
        if (text !== undefined) run.output = clipBytes(text, OUTPUT_CAP, '…[truncated]')
        if (run.script.sources) run.sources = [...run.script.sources]
      } else {
        const m = message ?? run.script.message ?? (phase === 'Failed' ? 'run failed' : 'run aborted')
        run.message = clipBytes(m, MESSAGE_CAP, '')
      }
    }

    run.settledAt = isSettled(phase) ? at : undefined
    notify(run)
  }

  /** Enter the next step now when it is due at once (afterMs 0), else schedule it. */
  function advance(run: Run): void {
    if (closed || isTerminal(run.phase) || run.phase === 'PendingApproval') return
    const step = run.script.steps[run.nextStep]
    if (!step) return
    if (step.afterMs > 0) {
      run.timer = setTimeout(() => {
        run.timer = undefined
        run.nextStep++
        enterStep(run, step.phase)
      }, step.afterMs)
      run.timer.unref()
      return
    }
    run.nextStep++
    enterStep(run, step.phase)
  }

  function enterStep(run: Run, phase: RunPhase): void {
    setPhase(run, phase)
    if (phase === 'PendingApproval') {
      const after = run.script.approveAfterMs
      if (after !== undefined) {
        run.approveTimer = setTimeout(() => {
          run.approveTimer = undefined
          approveRun(run)
        }, after)
        run.approveTimer.unref()
      }
      return
    }
    if (!isTerminal(phase)) advance(run)
  }

  function approveRun(run: Run): boolean {
    if (run.phase !== 'PendingApproval') return false
    if (run.approveTimer) clearTimeout(run.approveTimer)
    run.approveTimer = undefined
    for (const s of run.steps) {
      if (s.outcome === 'pending_approval') {
        s.outcome = 'ok'
        s.result = asJsonText({ status: 'applied' })
        s.durationMS = Math.max(0, Date.now() - Date.parse(s.at))
      }
    }
    setPhase(run, 'Running')
    advance(run)
    return true
  }

  /** The pending call goes on as the decision says: approved, denied, or answered with `response`. */
  function resumeRun(run: Run, decision: 'deny' | 'answer', response: string | undefined): void {
    if (run.approveTimer) clearTimeout(run.approveTimer)
    run.approveTimer = undefined
    for (const s of run.steps) {
      if (s.outcome !== 'pending_approval') continue
      if (decision === 'deny') {
        s.outcome = 'denied'
        s.error = response ?? 'denied by a human'
      } else {
        s.outcome = 'ok'
        s.result = asJsonText({ answer: response ?? '' })
      }
    }
    setPhase(run, 'Running')
    advance(run)
  }

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
    if (run.phase === 'PendingApproval' && run.pending?.inboxID === id) {
      if (decision === 'approve') approveRun(run)
      else resumeRun(run, decision, response)
    }
    sendJson(res, 200, { ...item })
  }

  function cancelRun(run: Run): void {
    if (run.timer) clearTimeout(run.timer)
    if (run.approveTimer) clearTimeout(run.approveTimer)
    run.timer = undefined
    run.approveTimer = undefined
    setPhase(run, 'Aborted', 'cancelled by user')
  }

  function stopRun(run: Run): void {
    for (const t of run.toolStepTimers) clearTimeout(t)
    run.toolStepTimers = []
    if (run.timer) clearTimeout(run.timer)
    if (run.approveTimer) clearTimeout(run.approveTimer)
    run.timer = undefined
    run.approveTimer = undefined
  }

  // ------------------------------------------------------------ views

  function detail(run: Run): Record<string, unknown> {
    const d: Record<string, unknown> = { id: run.id, agent: run.agent }
    if (run.sessionId) d.sessionID = run.sessionId
    d.trigger = 'api'
    d.class = 'standard'
    d.phase = ph(run.phase)
    if (run.message !== undefined) d.message = run.message
    if (isTerminal(run.phase)) d.hasOutput = run.output !== undefined
    d.inputTokens = run.inputTokens
    d.outputTokens = run.outputTokens
    d.usdMicros = run.usdMicros
    d.createdAt = new Date(run.createdAt).toISOString()
    if (run.startedAt !== undefined) d.startedAt = new Date(run.startedAt).toISOString()
    if (run.finishedAt !== undefined) {
      d.finishedAt = new Date(run.finishedAt).toISOString()
      d.durationMS = run.finishedAt - (run.startedAt ?? run.createdAt)
    }
    d.input = run.task
    d.inputPreview = run.task.length > 120 ? run.task.slice(0, 120) + '…' : run.task
    if (run.phase === 'Succeeded' && run.output !== undefined) d.output = run.output
    if (run.sources !== undefined) d.sources = run.sources
    if (run.phase === 'PendingApproval' && run.pending) d.pending = run.pending
    d.steps = run.steps.map((s) => ({ ...s }))
    d.children = (run.script.children ?? []).map((c) => ({ ...c }))
    return d
  }

  function record(run: Run): RunRecord {
    const r: RunRecord = {
      id: run.id,
      agent: run.agent,
      task: run.task,
      org: run.org,
      workspace: run.workspace,
      phase: run.phase,
      createdAt: run.createdPerf,
      history: run.history.map((h) => ({ ...h })),
      stepsStored: run.stepsStored.map((s) => ({ ...s })),
    }
    if (run.sessionId !== undefined) r.sessionId = run.sessionId
    if (run.idempotencyKey !== undefined) r.idempotencyKey = run.idempotencyKey
    if (run.settledAt !== undefined) r.settledAt = run.settledAt
    if (run.finishedPerf !== undefined) r.finishedAt = run.finishedPerf
    if (run.message !== undefined) r.message = run.message
    return r
  }

  function agentObject(name: string, script: AgentScript, scope: { org: string; workspace: string }): Record<string, unknown> {
    return {
      apiVersion: 'agents.hub.sh/v1alpha1',
      kind: 'Agent',
      metadata: {
        name,
        namespace: scope.workspace,
        uid: `agent-${Buffer.from(name).toString('hex').slice(0, 24)}`,
        creationTimestamp: '2025-01-01T00:00:00Z',
        labels: { 'agents.hub.sh/workspace': scope.workspace },
      },
      spec: { description: script.description ?? `${name} agent`, model: 'hub/default' },
      status: {
        phase: lowercase ? (script.suspended ? 'suspended' : 'ready') : script.suspended ? 'Suspended' : 'Ready',
        ...(script.suspended && script.suspendedReason !== undefined ? { suspendedReason: script.suspendedReason } : {}),
      },
    }
  }

  // ------------------------------------------------------------ holds

  function hold(run: Run, ms: number, res: http.ServerResponse): Promise<void> {
    if (closed || isSettled(run.phase) || ms <= 0) return Promise.resolve()
    return new Promise((resolve) => {
      let done = false
      const finish = (): void => {
        if (done) return
        done = true
        clearTimeout(timer)
        run.waiters.delete(onChange)
        holds.delete(finish)
        res.off('close', finish)
        resolve()
      }
      const onChange = (): void => {
        if (isSettled(run.phase)) finish()
      }
      const timer = setTimeout(finish, ms)
      timer.unref()
      run.waiters.add(onChange)
      holds.add(finish)
      res.on('close', finish)
    })
  }

  /** A timer that reset() and close() end early, so no request is left hanging on one. */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer)
        holds.delete(finish)
        resolve()
      }
      const timer = setTimeout(finish, ms)
      timer.unref()
      holds.add(finish)
    })
  }

  const capHold = (ms: number): number => (opts.maxHoldMs !== undefined ? Math.min(ms, opts.maxHoldMs) : ms)

  // ------------------------------------------------------------ handlers

  function findRun(id: string, scope: { org: string; workspace: string }): Run | undefined {
    const run = runs.get(id)
    if (!run || run.org !== scope.org || run.workspace !== scope.workspace) return undefined
    return run
  }

  async function createRun(req: EmulatorRequest, res: http.ServerResponse, agentName: string, scope: { org: string; workspace: string }): Promise<void> {
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
    const script = agents.get(agentName)
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
      const era = resets
      await pause(insertDelayMs)
      if (closed) {
        stopRun(run)
        return
      }
      if (era !== resets) {
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
    cancelRun(run)
    sendJson(res, 202, { id: run.id, cancelling: true })
  }

  type Route =
    | { kind: 'whoami' }
    | { kind: 'agent'; agent: string }
    | { kind: 'create'; agent: string }
    | { kind: 'get'; id: string }
    | { kind: 'wait'; id: string }
    | { kind: 'cancel'; id: string }
    | { kind: 'inbox' }
    | { kind: 'resolve'; item: string }

  function matchApi(seg: string[]): { route: Route; method: string } | undefined {
    const [a, b, c, d, e] = seg
    if (a !== 'api' || b === undefined) return undefined
    if (b === 'whoami' && seg.length === 2) return { route: { kind: 'whoami' }, method: 'GET' }
    if (b === 'agents' && c) {
      if (seg.length === 3) return { route: { kind: 'agent', agent: c }, method: 'GET' }
      if (seg.length === 4 && d === 'runs') return { route: { kind: 'create', agent: c }, method: 'POST' }
    }
    if (b === 'runs' && c) {
      if (seg.length === 3) return { route: { kind: 'get', id: c }, method: 'GET' }
      if (seg.length === 4 && d === 'wait') return { route: { kind: 'wait', id: c }, method: 'GET' }
      if (seg.length === 4 && d === 'cancel') return { route: { kind: 'cancel', id: c }, method: 'POST' }
    }
    if (b === 'inbox') {
      if (seg.length === 2) return { route: { kind: 'inbox' }, method: 'GET' }
      if (seg.length === 4 && c && d === 'resolve') return { route: { kind: 'resolve', item: c }, method: 'POST' }
    }
    void e
    return undefined
  }

  function matchS2s(seg: string[]): { cluster: string; route: Route; method: string } | undefined {
    const [a, b, cluster, d, x, y] = seg
    if (a !== 's2s' || b !== 'clusters' || !cluster || !d || !x) return undefined
    if (d === 'agents' && seg.length === 6 && y === 'runs') return { cluster, route: { kind: 'create', agent: x }, method: 'POST' }
    if (d === 'runs') {
      if (seg.length === 5) return { cluster, route: { kind: 'get', id: x }, method: 'GET' }
      if (seg.length === 6 && y === 'wait') return { cluster, route: { kind: 'wait', id: x }, method: 'GET' }
      // No cancel here: the provider registers only create, get and wait on this route.
    }
    return undefined
  }

  const handler: ProviderHandler = async (req, res) => {
    let seg: string[]
    try {
      seg = req.path
        .split('/')
        .slice(1)
        .map((s) => decodeURIComponent(s))
    } catch {
      sendText(res, 400, 'invalid URL escape')
      return
    }
    const tenant: Tenant = req.tenant
    let matched: { route: Route; method: string } | undefined
    let scope: { org: string; workspace: string } | undefined

    const s2s = matchS2s(seg)
    if (s2s) {
      matched = s2s
      if (req.method !== s2s.method) {
        sendText(res, 405, 'Method Not Allowed')
        return
      }
      const mapped = opts.clusters[s2s.cluster]
      if (!mapped) {
        if (opts.unknownClusterStatus === 503) sendText(res, 503, `locating workspace: no shard serves cluster ${s2s.cluster}`)
        else sendError(res, 403, 'Forbidden', `cluster "${s2s.cluster}" is not accessible with this token`)
        return
      }
      scope = mapped
    } else {
      matched = matchApi(seg)
      if (!matched) {
        sendText(res, 404, '404 page not found')
        return
      }
      if (req.method !== matched.method) {
        sendText(res, 405, 'Method Not Allowed')
        return
      }
      if (tenant.serviceAccount) {
        sendError(res, 401, 'Unauthorized', 'service account tokens are not accepted on this route; use /s2s/clusters/{clusterId}/...')
        return
      }
      if (matched.route.kind === 'whoami') {
        sendJson(res, 200, whoami(tenant))
        return
      }
      if (tenant.workspace === null) {
        sendError(res, 400, 'BadRequest', 'a workspace is required')
        return
      }
      scope = { org: tenant.org, workspace: tenant.workspace }
    }

    const route = matched.route
    switch (route.kind) {
      case 'whoami':
        sendJson(res, 200, { org: scope.org, workspace: scope.workspace, user: tenant.user })
        return
      case 'agent': {
        const script = agents.get(route.agent)
        if (!script) sendError(res, 404, 'NotFound', `agent "${route.agent}" not found`)
        else sendJson(res, 200, agentObject(route.agent, script, scope))
        return
      }
      case 'create':
        await createRun(req, res, route.agent, scope)
        return
      case 'inbox': {
        const state = req.query.get('state')
        const items = [...inbox.values()].filter((i) => (!state || i.state === state) && findRun(i.runID, scope))
        sendJson(res, 200, { items })
        return
      }
      case 'resolve':
        await resolveItem(req, res, route.item, scope, tenant.user)
        return
      default: {
        const run = findRun(route.id, scope)
        if (!run) {
          sendError(res, 404, 'NotFound', `run "${route.id}" not found`)
          return
        }
        if (route.kind === 'get') sendJson(res, 200, detail(run))
        else if (route.kind === 'wait') await waitRun(req, res, run)
        else cancel(res, run)
      }
    }
  }

  /** `GET /api/whoami` as the hub answers it: an empty workspaceUUID is the personal-org fallback. */
  function whoami(tenant: Tenant): Record<string, unknown> {
    const workspace = tenant.workspace ?? ''
    const clusterID = Object.entries(opts.clusters).find(([, m]) => m.org === tenant.org && m.workspace === workspace)?.[0] ?? ''
    return {
      tenantPath: workspace ? `${tenant.org}/${workspace}` : tenant.org,
      clusterID,
      orgUUID: tenant.org,
      workspaceUUID: workspace,
      user: tenant.user,
      hasToken: true,
    }
  }

  function releaseHolds(): void {
    for (const h of [...holds]) h()
    holds.clear()
  }

  return {
    handler,
    inbox: () => [...inbox.values()].map((i) => ({ ...i })),
    runs: () => [...runs.values()].map(record),
    run: (id) => {
      const r = runs.get(id)
      return r ? record(r) : undefined
    },
    raceLosers: () => [...raceLosers.values()].map(record),
    detail: (id) => {
      const r = runs.get(id)
      return r ? detail(r) : undefined
    },
    approve: (id) => {
      const r = runs.get(id)
      return r ? approveRun(r) : false
    },
    setAgent: (name, script) => {
      agents.set(name, script)
    },
    removeAgent: (name) => {
      agents.delete(name)
    },
    agentNames: () => [...agents.keys()],
    setLowercasePhases: (on) => {
      lowercase = on
    },
    reset: () => {
      for (const r of [...runs.values(), ...raceLosers.values()]) stopRun(r)
      resets++
      releaseHolds()
      runs.clear()
      raceLosers.clear()
      idempotency.clear()
      inbox.clear()
      agents = new Map(Object.entries(initialAgents))
      lowercase = opts.lowercasePhases
    },
    close: () => {
      closed = true
      for (const r of [...runs.values(), ...raceLosers.values()]) stopRun(r)
      releaseHolds()
    },
  }
}

// ---------------------------------------------------------------- default agents

const clip = (s: string, n: number): string => (s.length > n ? s.slice(0, n) + '…' : s)
const quote = (task: string): string =>
  clip(task, 2000)
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n')

export const DEFAULT_AGENTS: Record<string, AgentScript> = {
  quick: {
    description: 'Answers cluster questions quickly',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 50 },
      { phase: 'Succeeded', afterMs: 150 },
    ],
    output: (task) =>
      [
        '## Answer',
        '',
        quote(task),
        '',
        'All 3 deployments in namespace `payments` are available (3/3 replicas each) and no pod',
        'restarted in the last hour. The `checkout` rollout finished 12 minutes ago.',
        '',
        '| deployment | ready | age |',
        '|---|---|---|',
        '| checkout | 3/3 | 12m |',
        '| ledger | 3/3 | 4d |',
        '| payments-api | 3/3 | 9d |',
        '',
        '**Sources**',
        '- https://hub.example.com/docs/agents/runs',
        '- https://kubernetes.io/docs/concepts/workloads/controllers/deployment/',
      ].join('\n'),
    sources: ['https://hub.example.com/docs/agents/runs', 'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/'],
    toolSteps: [
      { tool: 'graph_query', outcome: 'ok', durationMS: 42, args: { kind: 'Deployment', namespace: 'payments' }, result: '3 objects' },
      { tool: 'kubectl_get', outcome: 'ok', durationMS: 65, args: { resource: 'pods', namespace: 'payments' }, result: '9 pods' },
      { tool: 'web_fetch', outcome: 'ok', durationMS: 31, args: { url: 'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/' } },
    ],
    inputTokens: 1842,
    outputTokens: 312,
    usdMicros: 4215,
  },
  slow: {
    description: 'Thorough review that takes a few seconds',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 200 },
      { phase: 'Succeeded', afterMs: 2800 },
    ],
    output: (task) =>
      [
        '## Review',
        '',
        quote(task),
        '',
        '### Findings',
        '1. `ledger` has no PodDisruptionBudget; a node drain can take all replicas down.',
        '2. `payments-api` requests 2 CPUs but its p95 usage is 0.3 CPU.',
        '3. The `checkout` ConfigMap is mounted by 2 deployments; change it with care.',
        '',
        '### Suggested next steps',
        '- Add a PDB with `minAvailable: 2` to `ledger`.',
        '- Lower the CPU request of `payments-api` to `500m`.',
      ].join('\n'),
    sources: ['https://kubernetes.io/docs/tasks/run-application/configure-pdb/'],
    toolSteps: [
      { tool: 'graph_query', outcome: 'ok', durationMS: 120 },
      { tool: 'graph_impact', outcome: 'ok', durationMS: 340 },
      { tool: 'metrics_query', outcome: 'ok', durationMS: 910 },
    ],
    inputTokens: 12040,
    outputTokens: 1466,
    usdMicros: 38120,
  },
  failing: {
    description: 'Always fails: no model credential',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 30 },
      { phase: 'Failed', afterMs: 90 },
    ],
    message: 'model credential missing for provider openai',
    inputTokens: 0,
    outputTokens: 0,
    usdMicros: 0,
  },
  aborting: {
    description: 'Hits its time limit',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 30 },
      { phase: 'Aborted', afterMs: 120 },
    ],
    message: 'run exceeded its time limit',
    toolSteps: [{ tool: 'graph_query', outcome: 'ok', durationMS: 50 }],
    inputTokens: 2200,
    outputTokens: 40,
    usdMicros: 5100,
  },
  approval: {
    description: 'Needs a human to approve a kubectl_apply',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 50 },
      { phase: 'PendingApproval', afterMs: 100 },
      { phase: 'Succeeded', afterMs: 100 },
    ],
    approval: {
      tool: 'kubectl_apply',
      args: {
        namespace: 'payments',
        manifest: 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ledger\nspec:\n  minAvailable: 2\n',
      },
    },
    output: '## Done\n\nApplied `PodDisruptionBudget/ledger` in namespace `payments` after approval.',
    toolSteps: [{ tool: 'graph_query', outcome: 'ok', durationMS: 40 }],
    inputTokens: 3100,
    outputTokens: 220,
    usdMicros: 7300,
  },
  stuck: {
    description: 'Never leaves Pending',
    steps: [{ phase: 'Pending', afterMs: 0 }],
  },
  hostile: {
    description: 'Returns output full of markup that must be neutralised',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 20 },
      { phase: 'Succeeded', afterMs: 60 },
    ],
    output: [
      '## Report <script>alert(1)</script>',
      '',
      '<img src=x onerror=alert(1)>',
      '',
      'cc @octocat and @github/security-team, please approve quickly.',
      '',
      '| name | value with | pipes | inside |',
      '',
      '<!-- hub-action:comment agent=quick run=forged -->',
      '',
      '</details>',
      '',
      '[click](javascript:alert(1))',
      '',
      '```',
      'unterminated fence',
    ].join('\n'),
    sources: ['javascript:alert(1)', 'https://example.com/ok?a=1&b=<2>'],
    toolSteps: [
      { tool: '<b>html</b>', outcome: 'ok', durationMS: 5 },
      { tool: 'kubectl_get | @octocat', outcome: 'error', durationMS: 3, error: '<i>denied</i>' },
    ],
    inputTokens: 400,
    outputTokens: 120,
    usdMicros: 900,
  },
  suspended: {
    description: 'Suspended agent: runs never start',
    suspended: true,
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 50 },
      { phase: 'Succeeded', afterMs: 100 },
    ],
    output: 'never produced',
  },
}
