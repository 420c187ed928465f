/**
 * One edge × target cell over time: what this look shows, weighed against what earlier looks
 * showed. The rules that need memory live here:
 * - a `targets` target passes only on evidence of this release (./binding.ts);
 * - a cell latches once current: a later look showing it in progress is a dip (a pod restarting,
 *   a graph a moment behind) and is counted, not obeyed; a failure unlatches it (failure is
 *   failure, however late); so does an object that is gone, except a Job seen finished, which
 *   its `ttlSecondsAfterFinished` deletes: it stays done, with a note;
 * - an OnDelete workload whose controller observed the new template and that runs none of its
 *   pods on two looks in a row fails: nobody deleted its pods, and waiting will not.
 */
import type { Revision } from './inputs.js'
import { bind } from './binding.js'
import { observeCell, type Snapshot } from './observe.js'
import type { TrackedCell } from './cell.js'
import type { RolloutTarget } from './targets.js'

export interface CellRules {
  revision: Revision | undefined
  /** Whether a target needs evidence of the release (a target named in `targets`). */
  bound: (index: number) => boolean
}

const TTL_NOTE = 'then deleted after it finished (TTL: its ttlSecondsAfterFinished)'

const NEEDS_POD_DELETION =
  'needs pod deletion: updateStrategy OnDelete, its controller has the new template and no pod runs it on two looks in a row; delete its pods (kubectl delete pod) or use RollingUpdate'

export function judgeCell(context: {
  index: number
  edge: string
  target: RolloutTarget
  snapshot: Snapshot
  previous: TrackedCell | undefined
  now: number
  rules: CellRules | undefined
}): TrackedCell {
  const { index, edge, snapshot, previous, now, rules } = context
  const observed = observeCell(index, edge, snapshot, previous)
  const read = snapshot.engaged.includes(edge) && snapshot.read.has(index)
  if (!read) return observed === previous ? previous : { ...observed, binding: previous?.binding }
  let cell: TrackedCell = observed
  let binding = previous?.binding
  if (rules?.bound(index)) {
    const weighed = bind(observed, binding, rules.revision, now)
    cell = weighed.cell
    binding = weighed.memory
  }
  if (cell.onDeleteIdle && previous?.onDeleteIdle && cell.state !== 'failed')
    cell = { ...cell, state: 'failed', reason: NEEDS_POD_DELETION }
  const latchedAt = previous?.state === 'current' ? previous.latchedAt : undefined
  if (latchedAt !== undefined && cell.state === 'in-progress') {
    const { kind, group } = context.target.target
    if (cell.absent && kind === 'Job' && group === 'batch') {
      const reason = previous?.reason.endsWith(TTL_NOTE)
        ? previous.reason
        : `${previous?.reason ?? 'complete'}, ${TTL_NOTE}`
      return { ...(previous as TrackedCell), reason, binding }
    }
    if (!cell.absent)
      return {
        ...(previous as TrackedCell),
        binding,
        dips: (previous?.dips ?? 0) + 1,
        lastDip: cell.reason,
      }
  }
  const next =
    cell.state === 'current'
      ? kept(cell, { binding, latchedAt: latchedAt ?? now, dips: previous?.dips, lastDip: previous?.lastDip })
      : kept(cell, { binding })
  return previous && unchanged(previous, next) ? previous : next
}

/**
 * What a cell keeps between looks: not the row's facts (the binding memory has what it needs)
 * nor its new pods (judged within the look). At 50,000 cells, what each look keeps is what
 * the old generation of the heap fills with.
 */
function kept(cell: TrackedCell, memory: Partial<TrackedCell>): TrackedCell {
  const out: TrackedCell = { state: cell.state, reason: cell.reason }
  if (cell.absent) out.absent = cell.absent
  if (cell.proof !== undefined) out.proof = cell.proof
  if (cell.onDeleteIdle) out.onDeleteIdle = cell.onDeleteIdle
  for (const [key, value] of Object.entries(memory)) if (value !== undefined) Object.assign(out, { [key]: value })
  return out
}

/** The same cell as at the last look: keep that object rather than promote a copy each poll. */
function unchanged(a: TrackedCell, b: TrackedCell): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  for (const key of keys) if (a[key as keyof TrackedCell] !== b[key as keyof TrackedCell]) return false
  return true
}
