// The provider's views of a run: the detail the API returns, the record tests read, and the
// Agent object.
import type { AgentScript, RunPhase } from './scripts.ts'
import { isTerminal } from './state.ts'
import type { AgentsState, Run } from './state.ts'

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

export type RunViews = ReturnType<typeof createViews>

/** The summaries of the child runs a script spawns: listed from the moment the run started. */
function childSummaries(run: Run): Array<Record<string, unknown>> {
  if (run.startedAt === undefined) return []
  return (run.script.childRuns ?? []).map((child, i) => ({
    id: `${run.id}-child-${i + 1}`,
    agent: child.agent,
    parentRunID: run.id,
    trigger: 'delegation',
    class: 'background',
    phase: child.phase ?? 'Succeeded',
    inputTokens: child.inputTokens,
    outputTokens: child.outputTokens,
    usdMicros: child.usdMicros,
    createdAt: new Date(run.startedAt ?? run.createdAt).toISOString(),
  }))
}

export function createViews(st: AgentsState) {
  const ph = (p: RunPhase): string => (st.lowercase ? p.toLowerCase() : p)

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
    d.children = [...(run.script.children ?? []).map((c) => ({ ...c })), ...childSummaries(run)]
    for (const field of st.opts.runDetailWithout ?? []) delete d[field]
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

  function agentObject(
    name: string,
    script: AgentScript,
    scope: { org: string; workspace: string },
  ): Record<string, unknown> {
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
        phase: st.lowercase ? (script.suspended ? 'suspended' : 'ready') : script.suspended ? 'Suspended' : 'Ready',
        ...(script.suspended && script.suspendedReason !== undefined
          ? { suspendedReason: script.suspendedReason }
          : {}),
      },
    }
  }

  return { ph, detail, record, agentObject }
}
