/**
 * What ties a target named in `targets` (no manifest, so nothing to compare) to this release.
 * A healthy object proves nothing by itself: the old revision is healthy too until the new spec
 * lands. So such a target passes only on evidence tied to the release, remembered per edge:
 * the `revision` stamp (a label or annotation the deploy writes, on the object or its pod
 * template), or a change seen during the step — a generation above the one first read, a
 * generation its controller had not yet observed at the first read (the write just happened),
 * an object absent at the first read (created since), a Job seen finishing, or for kinds
 * without a generation a new resourceVersion. Pure.
 */
import type { Revision } from './inputs.js'
import { clockTime } from './clock-time.js'
import type { BindingFacts, BindingMemory, Cell } from './cell.js'

/** The reason of a healthy target nothing ties to this release; the timeout advice keys on it. */
export const UNPROVEN =
  'healthy, but unchanged since the first read: nothing ties it to this release (set `revision`, or the gate waits for a change)'

function revisionText(revision: Revision): string {
  return `${revision.key}=${revision.value}`
}

/**
 * The cell once the evidence is weighed, and what to remember. Only a current cell is held
 * back; in progress and failed pass through (a failure needs no proof of release).
 */
export function bind(
  cell: Cell,
  memory: BindingMemory | undefined,
  revision: Revision | undefined,
  now: number,
): { cell: Cell; memory: BindingMemory } {
  const facts = cell.facts
  const seen: BindingMemory = memory ?? { first: { absent: cell.absent === true, facts, at: now } }
  if (revision) {
    if (cell.state !== 'current') return { cell, memory: seen }
    if (facts?.stamp === revision.value)
      return { cell: { ...cell, proof: `revision ${revisionText(revision)}` }, memory: seen }
    const have = facts?.stamp === undefined ? 'not stamped' : `is ${JSON.stringify(facts.stamp).slice(0, 80)}`
    return {
      cell: {
        state: 'in-progress',
        reason: `not this release: ${revision.key} ${have} on the object and its pod template, \`revision\` asks for ${JSON.stringify(revision.value).slice(0, 80)}`,
      },
      memory: seen,
    }
  }
  if (!seen.proof && memory) seen.proof = changeSeen(seen.first, cell, now)
  if (!seen.proof && !memory && facts && inFlight(facts)) seen.proof = inFlightText(facts, now)
  if (cell.state !== 'current') return { cell, memory: seen }
  if (seen.proof) return { cell: { ...cell, proof: seen.proof }, memory: seen }
  return { cell: { state: 'in-progress', reason: UNPROVEN }, memory: seen }
}

function inFlightText(facts: BindingFacts, at: number): string {
  return `generation ${String(facts.generation)} not yet observed at the first read (${clockTime(at)})`
}

function inFlight(facts: BindingFacts): boolean {
  return facts.generation !== undefined && facts.observed !== undefined && facts.generation > facts.observed
}

/** The first change since the first read that ties the object to this step, as report text. */
function changeSeen(first: BindingMemory['first'], cell: Cell, now: number): string | undefined {
  const facts = cell.facts
  if (!facts) return undefined
  const at = clockTime(now)
  if (first.absent) return `created during the step (absent at the first read, seen at ${at})`
  const before = first.facts
  if (!before) return undefined
  if (inFlight(before)) return inFlightText(before, first.at)
  if (before.generation !== undefined && facts.generation !== undefined && facts.generation > before.generation)
    return `generation ${before.generation} → ${facts.generation} seen at ${at}`
  if (before.running && !facts.running && cell.state === 'current') return `seen running, then finished at ${at}`
  if (
    before.generation === undefined &&
    before.resourceVersion !== undefined &&
    facts.resourceVersion !== undefined &&
    facts.resourceVersion !== before.resourceVersion
  )
    return `changed during the step (new resourceVersion seen at ${at})`
  return undefined
}
