// What the agents provider holds: its options, the run as stored, and the state every part shares.
import type { AgentScript, RunPhase } from './scripts.ts'
import { SETTLED_PHASES, TERMINAL_PHASES } from './scripts.ts'

/** An approval in the inbox (docs/hub-facts.md, "Agents provider"): opened when a run reaches PendingApproval. */
export interface InboxItem {
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

export interface AgentsProviderOptions {
  agents: Record<string, AgentScript>
  lowercasePhases: boolean
  /** Caps every hold (inline wait and /wait). */
  maxHoldMs?: number
  /** Cluster ids known to the s2s routes, mapped to their workspace. */
  clusters: Record<string, { org: string; workspace: string }>
  /**
   * How the s2s route answers a cluster id it does not know (docs/hub-facts.md, "Agents provider"): 403 (default),
   * or 503 `locating workspace` as hubs with several shards do. Never 409.
   */
  unknownClusterStatus?: 403 | 503
  /**
   * Cluster ids whose workspace nobody has opened yet: the s2s routes answer 409 for them until a
   * user route is used in that workspace (the mapping is written only there).
   */
  unmappedClusters?: string[]
  /**
   * The same-key race (docs/hub-facts.md, "Agents provider"), off when absent or 0: a keyed start looks its key up,
   * starts the run, and stores run and key only this long later. Starts with one key inside that
   * window all pass the lookup; the first to store wins, the others' runs execute but are never
   * stored, so their ids 404 (see `raceLosers`).
   */
  idempotencyInsertDelayMs?: number
  /** An older hub: run details leave these fields out (the full task `input`, the session `sessionID`). */
  runDetailWithout?: ReadonlyArray<'input' | 'sessionID'>
  /**
   * Where the hub keeps runs (docs/hub-facts.md, "Cancelling a run"): `memory` (the default, the
   * development store) ends a cancelled run Aborted; on `postgres` the final save runs with the
   * already-cancelled context and fails, so the cut run's record stays Running.
   */
  runStore?: 'memory' | 'postgres'
  /**
   * On `postgres`: the hub's recovery sweep, this long after a cut (about 15 minutes on a real hub),
   * fails the run or resumes it from its last checkpoint. Absent: the run stays Running.
   */
  recoverySweep?: { afterMs: number; outcome: 'fail' | 'resume' }
}

export interface StepDetail {
  id: string
  tool: string
  args?: unknown
  result?: string
  outcome: string
  error?: string
  durationMS?: number
  at: string
}

export interface Run {
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
  /** `args` is JSON text inside a string, as the hub sends it (docs/hub-facts.md, "Agents provider"). */
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

export const perfNow = (): number => performance.timeOrigin + performance.now()
export const isTerminal = (p: RunPhase): boolean => TERMINAL_PHASES.includes(p)
export const isSettled = (p: RunPhase): boolean => SETTLED_PHASES.includes(p)

/** The provider's state, one object every part closes over (reset() and close() change it). */
export interface AgentsState {
  readonly opts: AgentsProviderOptions
  /** Replaced by reset() with the initial agent set. */
  agents: Map<string, AgentScript>
  lowercase: boolean
  readonly runs: Map<string, Run>
  readonly idempotency: Map<string, Run>
  readonly raceLosers: Map<string, Run>
  readonly inbox: Map<string, InboxItem>
  /** Counts reset() calls, so a start that straddled one is dropped instead of stored. */
  resets: number
  readonly holds: Set<() => void>
  closed: boolean
}
