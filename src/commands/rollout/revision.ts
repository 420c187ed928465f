/**
 * One target on one edge: is the live object the one the manifest asks for (synced), is it this
 * release's (./provenance.ts), has its controller acted on it (generation observed), and is it
 * healthy by release semantics? In that order: a live object that is not synced, or not shown
 * to be this release's, is in progress however healthy, since its health may be the old
 * revision's.
 */
import { computeHealth } from './kstatus.js'
import { at, generationsOf, str } from './live-object.js'
import { isRecord } from '../../model/plain-value.js'
import { provenance } from './provenance.js'
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

/** What the comparison needs to know of the step and the manifest, beyond the two objects. */
export interface ReleaseContext {
  /** The step's start (ms since the epoch): an update written well before it is not this release's. */
  startedAt?: number | undefined
  /** The expected state is a manifest; without one (a target named in `targets`) only its identity is known. */
  manifest?: boolean | undefined
  /** Paths another manager owns whatever managedFields say: `spec.replicas` under an HPA. */
  skip?: readonly string[] | undefined
}

/**
 * The live object (as the graph answered it) against the manifest's. Absence is judged by the
 * caller (./observe.ts), which knows whether the edge is engaged.
 */
export function rolloutState(
  expected: unknown,
  live: unknown,
  now: number,
  context: ReleaseContext = {},
): RolloutVerdict {
  const kind = str(at(expected, 'kind'))
  if (!isRecord(expected) || !kind) return { state: 'unknown', reason: 'expected object has no kind' }
  const health = computeHealth(live, now)
  if (health.status === 'terminating' || health.status === 'unknown')
    return { state: health.status, reason: health.reason }
  const skip = new Set(context.skip ?? [])
  let proof: string | undefined
  let unproven: string | undefined
  if (context.manifest) {
    // One row per object whatever the version (docs/hub-facts.md, "One row per object"):
    // a row of another version has another shape.
    const want = str(expected.apiVersion)
    const have = str(at(live, 'apiVersion'))
    if (have && want !== have)
      return {
        state: 'in-progress',
        reason: `cannot compare this read: the graph holds ${have} (one row per object whatever the version), the manifest is ${want}`,
        proof: 'not compared: the row is of another API version',
      }
    const shown = provenance(expected, live, context.startedAt)
    for (const path of shown.skip) skip.add(path)
    proof = shown.proof
    unproven = shown.unproven
  }
  const difference = firstDifference(expected, live, { kind, skip })
  if (difference)
    return { state: 'in-progress', reason: `not synced: ${differenceText(difference)}`, proof: unproven ?? proof }
  if (unproven) return { state: 'in-progress', reason: unproven, proof: unproven }
  const generations = generationsOf(live)
  const { generation, observed } = generations.ok ? generations.value : {}
  if (generation !== undefined && observed !== undefined && generation !== observed) {
    return { state: 'in-progress', reason: `generation ${generation} observed ${observed}`, proof }
  }
  if (health.status === 'current') return { state: 'rolled-out', reason: health.reason, proof }
  return { state: health.status, reason: health.reason, proof }
}
