/**
 * Is the live object this release's, and not only alike where the manifest speaks? "Manifest ⊆
 * live" cannot see a removal (an env var, a sidecar, a limit the new manifest drops): the old
 * object holds everything the new manifest sets. The API server keeps two records of what was
 * applied, and the graph stores both (docs/hub-facts.md, "What the API server stores"):
 *
 * 1. `kubectl.kubernetes.io/last-applied-configuration` (client-side `kubectl apply`, Argo CD by
 *    default): the applied manifest itself. It must equal this manifest, removals included.
 * 2. `metadata.managedFields` (server-side apply, Helm, Flux): the applier's field set must hold
 *    every path the manifest sets. A server-side apply's set is exactly what was applied, so a
 *    path it holds that the manifest does not is a removal not applied yet. An update's set also
 *    holds the defaults the API server filled in, so it cannot show a removal: its time must then
 *    fall within this step (less APPLY_SLACK_MS), when this release's write carried the removal.
 *
 * With neither, the comparison is of fields only, and the proof says so. Paths another manager
 * owns (an HPA's `spec.replicas`, an injected sidecar) are handed back to be skipped. Pure.
 */
import { isRecord } from '../../model/plain-value.js'
import { at, shortText } from './live-object.js'
import { managedEntries, ownership, removedPath, type ManagedEntry } from './fields-v1.js'
import { member } from './list-keys.js'
import { LAST_APPLIED, comparedPart, isDeliveryKey } from './projection.js'
import { valueText } from './synced.js'

/**
 * How long before this step's start an update may have been written and still count as this
 * release's. The apply runs in a step before the gate: seconds earlier, or up to Helm's default
 * `--wait` timeout (5 minutes) when `helm upgrade --wait` precedes the gate; the cluster's
 * clock and the runner's differ by seconds. Five minutes covers that. Wider would let a
 * previous release's write pass for this one's when releases follow each other that closely;
 * an apply longer before the step is not proven (docs/commands.md says so). @internal
 */
export const APPLY_SLACK_MS = 300_000

/** kubectl keeps the annotation under Kubernetes' 256 KiB of annotations; more is not read. */
const MAX_LAST_APPLIED_CHARS = 1024 * 1024
const MAX_DEPTH = 32

export interface Provenance {
  /** What showed the live object is this release (for the report). */
  proof?: string | undefined
  /** Why that is not shown yet: the cell stays in progress with this reason. */
  unproven?: string | undefined
  /** Paths the manifest sets that another manager owns: not compared. */
  skip: ReadonlySet<string>
}

export function provenance(
  expected: Record<string, unknown>,
  live: unknown,
  startedAt: number | undefined,
): Provenance {
  const part = comparedPart(expected)
  const read = managedEntries(live)
  if (read && 'problem' in read) return { unproven: `unreadable: ${read.problem}`, skip: new Set() }
  const entries = read
  const annotation = at(live, 'metadata', 'annotations', LAST_APPLIED)
  const applied = typeof annotation === 'string' ? parseApplied(annotation) : undefined
  const owned = entries && ownership(part, entries, applied ? wroteLastApplied : undefined)
  const skip = owned?.skip ?? new Set<string>()
  const others = owned && owned.others.size > 0 ? `; not compared, owned by ${ownersText(owned.others)}` : ''
  if (applied) {
    const difference = configDifference(part, withoutDeliveryKeys(comparedPart(applied), part), '', 0)
    if (difference) return { unproven: `not applied yet: last-applied-configuration ${difference}`, skip }
    return { proof: `last-applied-configuration is this manifest${others}`, skip }
  }
  if (!owned)
    return {
      proof:
        'fields only: the object carries neither last-applied-configuration nor managedFields, so a removal cannot be seen',
      skip,
    }
  const first = owned.unowned[0]
  const applier = owned.applier
  if (!applier || first !== undefined)
    return {
      unproven: `not applied yet: ${shortText(first ?? 'what the manifest sets')} is in no manager's fields`,
      skip,
    }
  const who = shortText(applier.manager)
  const when = applier.time === undefined ? 'at an unknown time' : `at ${new Date(applier.time).toISOString()}`
  if (applier.operation === 'Apply') {
    const removed = removedPath(applier, part)
    // An apply's field set is what it applied: one written during this step already dropped what
    // the manifest removes, so what it holds beyond can only be what admission added to the request.
    if (removed && !withinStep(applier.time, startedAt))
      return {
        unproven: `not applied yet: ${who} still applies ${shortText(removed)}, which the manifest removes`,
        skip,
      }
    if (removed)
      return {
        proof: `managedFields: ${who} applied the manifest's fields during this step (${when}); it also holds ${shortText(removed)}, which admission added${others}`,
        skip,
      }
    return {
      proof: `managedFields: ${who} applied exactly the manifest's fields (server-side apply ${when})${others}`,
      skip,
    }
  }
  // An update's set holds defaults too: the latest write of the manifest's fields must be this step's.
  const last = owned.lastWriter ?? applier
  const by = shortText(last.manager)
  const written = last.time === undefined ? 'at an unknown time' : `at ${new Date(last.time).toISOString()}`
  if (startedAt !== undefined && !withinStep(last.time, startedAt))
    return {
      unproven: `not proven this release: ${by} last wrote the manifest's fields ${written}, before this step started, and an update's fields cannot show a removal`,
      skip,
    }
  return { proof: `managedFields: ${by} wrote the manifest's fields ${written}, during this step${others}`, skip }
}

/** Written no earlier than the step's start less the slack. */
function withinStep(time: number | undefined, startedAt: number | undefined): boolean {
  return time !== undefined && startedAt !== undefined && time >= startedAt - APPLY_SLACK_MS
}

/** The entry that wrote kubectl's last-applied annotation: the client-side apply. */
function wroteLastApplied(entry: ManagedEntry): boolean {
  const annotations = at(entry.fields, 'f:metadata', 'f:annotations')
  return isRecord(annotations) && Object.hasOwn(annotations, `f:${LAST_APPLIED}`)
}

function ownersText(others: ReadonlyMap<string, string>): string {
  return [...others]
    .slice(0, 3)
    .map(([manager, path]) => `${shortText(manager)} (${shortText(path)})`)
    .join(', ')
}

/** The applied configuration without the labels and annotations a delivery tool added that the manifest lacks. */
function withoutDeliveryKeys(applied: Record<string, unknown>, part: Record<string, unknown>): Record<string, unknown> {
  const metadata = applied.metadata
  if (!isRecord(metadata)) return applied
  const kept: Record<string, unknown> = {}
  for (const [field, map] of Object.entries(metadata)) {
    const mine = at(part, 'metadata', field)
    kept[field] = isRecord(map)
      ? Object.fromEntries(Object.entries(map).filter(([k]) => !isDeliveryKey(k) || (isRecord(mine) && k in mine)))
      : map
  }
  return { ...applied, metadata: kept }
}

/** Nothing set: undefined, null, or an empty map or list (a filtered metadata map ends so), however nested. */
function absent(value: unknown, depth = 0): boolean {
  if (value === undefined || value === null) return true
  if (Array.isArray(value)) return value.length === 0
  return isRecord(value) && depth < MAX_DEPTH && Object.values(value).every((v) => absent(v, depth + 1))
}

function parseApplied(text: string): Record<string, unknown> | undefined {
  if (text.length > MAX_LAST_APPLIED_CHARS) return undefined
  try {
    const value = JSON.parse(text) as unknown
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

/**
 * The first way the last applied configuration and this manifest differ, both ways, as a phrase:
 * "still sets spec.x, which the manifest removes", "sets spec.x to 1, the manifest 2".
 */
function configDifference(want: unknown, applied: unknown, path: string, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined
  if (absent(want) && absent(applied)) return undefined
  if (absent(want)) return `still sets ${shortText(path)}, which the manifest removes`
  if (absent(applied)) return `does not set ${shortText(path)}, which the manifest sets to ${valueText(want)}`
  if (isRecord(want) && isRecord(applied)) {
    for (const key of new Set([...Object.keys(want), ...Object.keys(applied)])) {
      const found = configDifference(want[key], applied[key], path ? `${path}${member(key)}` : key, depth + 1)
      if (found) return found
    }
    return undefined
  }
  if (Array.isArray(want) && Array.isArray(applied)) {
    if (want.length !== applied.length)
      return `sets ${shortText(path)} to ${valueText(applied)}, the manifest to ${valueText(want)}`
    for (const [i, entry] of want.entries()) {
      const found = configDifference(entry, applied[i], `${path}[${i}]`, depth + 1)
      if (found) return found
    }
    return undefined
  }
  return want === applied
    ? undefined
    : `sets ${shortText(path)} to ${valueText(applied)}, the manifest to ${valueText(want)}`
}
