// The run state machine: a run plays its script's phases, stores its tool steps as each call
// ends, opens an approval at PendingApproval, and ends with its output or message.
import { randomUUID } from 'node:crypto'
import type { RunPhase, ToolStepScript } from './scripts.ts'
import { isSettled, isTerminal, perfNow } from './state.ts'
import type { AgentsState, Run, StepDetail } from './state.ts'

const OUTPUT_CAP = 256 * 1024
const MESSAGE_CAP = 500

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

export type RunLifecycle = ReturnType<typeof createRunLifecycle>

export function createRunLifecycle(st: AgentsState) {
  const { inbox } = st

  /** Tell held waits about a phase change (same tick); each decides whether to answer. */
  function notify(run: Run): void {
    for (const w of [...run.waiters]) w()
  }

  /** Store one script step, as the hub does when its tool call ends. */
  function storeToolStep(run: Run, s: ToolStepScript): void {
    const wall = Date.now()
    const id = `step-${run.steps.length + 1}`
    const step: StepDetail = {
      id,
      tool: s.tool,
      outcome: s.outcome,
      at: new Date(wall - (s.durationMS ?? 0)).toISOString(),
    }
    // The hub stores a step's args and result as JSON text (docs/hub-facts.md, "Agents provider").
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
        while (run.toolStepsStored <= upTo && run.toolStepsStored < script.length)
          storeToolStep(run, script[run.toolStepsStored++] as ToolStepScript)
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
    if (st.closed || isTerminal(run.phase) || run.phase === 'PendingApproval') return
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

  /** The pending call is denied: the run goes on without it (`answer` never moves a run: inbox.ts). */
  function denyRun(run: Run, response: string | undefined): void {
    if (run.approveTimer) clearTimeout(run.approveTimer)
    run.approveTimer = undefined
    for (const s of run.steps) {
      if (s.outcome !== 'pending_approval') continue
      s.outcome = 'denied'
      s.error = response ?? 'denied by a human'
    }
    setPhase(run, 'Running')
    advance(run)
  }

  function cancelRun(run: Run): void {
    if (run.timer) clearTimeout(run.timer)
    if (run.approveTimer) clearTimeout(run.approveTimer)
    run.timer = undefined
    run.approveTimer = undefined
    setPhase(run, 'Aborted', 'cancelled by user')
  }

  /**
   * A run cut on a Postgres store stays Running; the hub's recovery sweep later fails it or
   * resumes it from its last checkpoint (docs/hub-facts.md, "Cancelling a run").
   */
  function cutRun(run: Run): void {
    stopRun(run)
    const sweep = st.opts.recoverySweep
    if (!sweep) return
    run.timer = setTimeout(() => {
      run.timer = undefined
      if (st.closed || isTerminal(run.phase)) return
      if (sweep.outcome === 'fail') setPhase(run, 'Failed', 'run interrupted; failed by the recovery sweep')
      else advance(run)
    }, sweep.afterMs)
    run.timer.unref()
  }

  function stopRun(run: Run): void {
    for (const t of run.toolStepTimers) clearTimeout(t)
    run.toolStepTimers = []
    if (run.timer) clearTimeout(run.timer)
    if (run.approveTimer) clearTimeout(run.approveTimer)
    run.timer = undefined
    run.approveTimer = undefined
  }

  return { advance, approveRun, denyRun, cancelRun, cutRun, stopRun }
}
