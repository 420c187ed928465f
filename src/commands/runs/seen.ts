/**
 * What the run family shows of a run, apart from how it was found: `RunSeen`, what was read of
 * it (the publisher, the summary and the outputs need nothing more), and `RunWaited`, what
 * waiting for it added. The wait loop's result is both (loop.ts `RunResult`); a command that
 * only reads a run hands the publisher a `RunSeen` alone, without faking a wait.
 */
import type { CancelAnswer } from '../../hub/agents.js'
import type { RunDetail } from '../../hub/schemas.js'

/** What was read of a run. */
export interface RunSeen {
  agent: string
  runId: string
  /** The hub handed back a run that already existed for the idempotency key. */
  reused: boolean
  /** Canonical spelling (PascalCase) whatever case the hub used. */
  phase: string
  settled: boolean
  /** The last run detail the hub sent, if any. */
  detail: RunDetail | undefined
  /** The `output-schema` check of the answer (structured.ts), when the input is set and a run succeeded. */
  structured?: StructuredAnswer | undefined
  /** Runs of this step before `detail`'s, whose cost counts with it (the first answer of a structured-output retry). */
  earlier?: RunDetail[] | undefined
  idempotencyKey: string | undefined
  sessionId: string
}

/** How a wait for a run ended. */
export type RunOutcome =
  | 'succeeded'
  | 'failed'
  | 'aborted'
  /** Stopped at the approval gate because `on-approval` is `fail` or `succeed`. */
  | 'awaiting-approval'
  | 'timed-out'
  | 'pending-too-long'
  | 'interrupted'
  /** `timeout-seconds: 0`: started (or attached) and not waited for. */
  | 'started'

/** What waiting for a run added to what was read of it. */
export interface RunWaited {
  outcome: RunOutcome
  waitedMs: number
  /** The budget the wait was given, as messages name it: `timeout-seconds (600 s)` (http/budget.ts). */
  budget: string
  cancel: CancelAnswer | 'failed' | undefined
  /** The run's phase read back after the cancel (canonical), or undefined when it could not be read. */
  afterCancel?: string | undefined
  /** Why the agent may be stuck in Pending, when we could tell (agent suspended). */
  pendingDiagnosis?: string | undefined
}

/** A run as the publisher shows it: what was read, and the waiting facts when there was a wait. */
export type ShownRun = RunSeen & Partial<RunWaited>

/** What became of the schema check, for the verdict, the outputs and the summary. */
export interface StructuredAnswer {
  /** The block that matched, as compact JSON (output `structured-output`). */
  value?: string | undefined
  /** The first answer's schema error (`at \`/verdict\`: …`), when an answer missed. */
  error?: string | undefined
  /** The offending block of the last answer that missed (agent text: shown cleaned). */
  block?: string | undefined
  /** The run whose answer missed first, when a follow-up was asked for. */
  followUpOf?: string | undefined
  /** The follow-up's own error, when it missed too. */
  secondError?: string | undefined
}
