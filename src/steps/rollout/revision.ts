/**
 * One target on one edge: is the live object the one the manifest asks for (synced), has its
 * controller acted on it (generation observed), and is it healthy by release semantics?
 * In that order: a live object that is not synced is in progress however healthy, since its
 * health is the old revision's.
 */
import { computeHealth } from './kstatus.js'
import { at, generationsOf, str } from './live-object.js'
import { isRecord } from '../../model/plain-value.js'
import { differenceText, firstDifference } from './synced.js'

type RolloutState = 'rolled-out' | 'in-progress' | 'failed' | 'terminating' | 'unknown'

export interface RolloutVerdict {
  state: RolloutState
  reason: string
  /**
   * What showed the live object is this release (the last-applied annotation, the applier's
   * managedFields and time, a revision stamp, a change seen during the step), or, when the
   * state is not rolled-out for want of it, what could not be proven. Shown in the report.
   */
  proof?: string | undefined
}

/**
 * The live object (as the graph answered it) against the manifest's. Absence is judged by the
 * caller (./observe.ts), which knows whether the edge is engaged.
 */
export function rolloutState(expected: unknown, live: unknown, now: number): RolloutVerdict {
  const kind = str(at(expected, 'kind'))
  if (!isRecord(expected) || !kind) return { state: 'unknown', reason: 'expected object has no kind' }
  const health = computeHealth(live, now)
  if (health.status === 'terminating' || health.status === 'unknown')
    return { state: health.status, reason: health.reason }
  const difference = firstDifference(expected, live)
  if (difference) return { state: 'in-progress', reason: `not synced: ${differenceText(difference)}` }
  const generations = generationsOf(live)
  const { generation, observed } = generations.ok ? generations.value : {}
  if (generation !== undefined && observed !== undefined && generation !== observed) {
    return { state: 'in-progress', reason: `generation ${generation} observed ${observed}` }
  }
  if (health.status === 'current') return { state: 'rolled-out', reason: health.reason }
  return { state: health.status, reason: health.reason }
}
