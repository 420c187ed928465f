/** An edge × target cell: what the gate holds per target per edge, and what binds it to the release. Types only. */

export type CellState = 'current' | 'in-progress' | 'failed' | 'not-reporting'

export interface Cell {
  state: CellState
  reason: string
  /** The target has no row on this engaged edge. */
  absent?: true | undefined
  /** What proved the live object is this release (the verdict's, or the binding's); shown in the report. */
  proof?: string | undefined
  /** A `targets` target's row: what can bind it to this release (./binding.ts). */
  facts?: BindingFacts | undefined
  /** Which pods are the new revision's: a Deployment's new ReplicaSet, a StatefulSet's update revision. */
  newPods?: { replicaSet?: string | undefined; revisionHash?: string | undefined } | undefined
  /** An OnDelete StatefulSet or DaemonSet whose controller saw the new generation and runs no pod of it. */
  onDeleteIdle?: true | undefined
}

/** What a row of a `targets` target says that can bind it to the release. */
export interface BindingFacts {
  generation?: number | undefined
  observed?: number | undefined
  resourceVersion?: string | undefined
  /** The value under the `revision` key on the object or its pod template; undefined when not stamped. */
  stamp?: string | undefined
  /** A Job that has not finished (the first read then proves nothing, its completion does). */
  running?: boolean | undefined
}

/** Per edge × target: the first read, and the evidence once seen. */
export interface BindingMemory {
  first: { absent: boolean; facts: BindingFacts | undefined; at: number }
  proof?: string | undefined
}

/** A cell as tracked over the step: when it stopped reporting, and what it said before. */
export interface TrackedCell extends Cell {
  since?: number | undefined
  last?: Cell | undefined
  /** When it was first current: it stays so unless it fails, is deleted, or stops reporting. */
  latchedAt?: number | undefined
  /** Reads that showed a latched cell in progress (brief dips); the last one's reason. */
  dips?: number | undefined
  lastDip?: string | undefined
  /** A `targets` target: its first read, and the evidence of the release once seen. */
  binding?: BindingMemory | undefined
}
