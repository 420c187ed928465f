// Agents provider of the hub emulator (docs/hub-facts.md, "Agents provider").
//
// Mounted by hub.ts under /services/providers/agents. Everything here sees the
// request only after the hub layer authenticated it and resolved the tenant.
// This file builds the state and wires the parts: runs.ts (the run state machine), views.ts,
// holds.ts, endpoints.ts (create, wait, cancel), inbox.ts (approvals) and routes.ts.
import type { ProviderHandler } from '../provider.ts'
import { createHolds } from './holds.ts'
import { createInbox } from './inbox.ts'
import type { InboxItem } from './state.ts'
import { createRoutes } from './routes.ts'
import { createRunEndpoints } from './endpoints.ts'
import { createRunLifecycle } from './runs.ts'
import type { AgentScript } from './scripts.ts'
import type { AgentsProviderOptions, AgentsState } from './state.ts'
import { createViews } from './views.ts'
import type { RunRecord } from './views.ts'

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

export function createAgentsProvider(opts: AgentsProviderOptions): AgentsProvider {
  const initialAgents = { ...opts.agents }
  const st: AgentsState = {
    opts,
    agents: new Map<string, AgentScript>(Object.entries(initialAgents)),
    lowercase: opts.lowercasePhases,
    runs: new Map(),
    idempotency: new Map(),
    raceLosers: new Map(),
    inbox: new Map<string, InboxItem>(),
    resets: 0,
    holds: new Set(),
    closed: false,
  }
  const { runs, idempotency, raceLosers, inbox } = st

  const life = createRunLifecycle(st)
  const views = createViews(st)
  const holds = createHolds(st)
  const endpoints = createRunEndpoints(st, life, views, holds)
  const handler: ProviderHandler = createRoutes(st, views, endpoints, createInbox(st, life, endpoints))
  const { approveRun, stopRun } = life
  const { detail, record } = views
  const { releaseHolds } = holds

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
      st.agents.set(name, script)
    },
    removeAgent: (name) => {
      st.agents.delete(name)
    },
    agentNames: () => [...st.agents.keys()],
    setLowercasePhases: (on) => {
      st.lowercase = on
    },
    reset: () => {
      for (const r of [...runs.values(), ...raceLosers.values()]) stopRun(r)
      st.resets++
      releaseHolds()
      runs.clear()
      raceLosers.clear()
      idempotency.clear()
      inbox.clear()
      st.agents = new Map(Object.entries(initialAgents))
      st.lowercase = opts.lowercasePhases
    },
    close: () => {
      st.closed = true
      for (const r of [...runs.values(), ...raceLosers.values()]) stopRun(r)
      releaseHolds()
    },
  }
}
