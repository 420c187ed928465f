/**
 * Reading a Kubernetes object as the graph stores it (docs/hub-facts.md): untrusted JSON, so
 * every read checks its type, every list is capped, and nothing here throws.
 */
import { clipCharacters } from '../../markdown/format.js'
import { isRecord } from '../../model/plain-value.js'

/** No real object has this many conditions or containers; more is reported, not walked. */
export const MAX_LIST = 256

/** A short reason for a job-summary cell: untrusted text is flattened and clipped to this. */
const MAX_TEXT = 80

export interface Condition {
  type: string
  status: string
  reason: string
  message: string
}

/** A read that can fail on a malformed object; `problem` says what was wrong, for an 'unknown' status. */
export type Read<T> = { ok: true; value: T } | { ok: false; problem: string }

/**
 * The value at a path of keys, or undefined; own keys only, so "constructor" is not Object's.
 * A `null` reads as missing: the engine answers a projected leaf the object lacks with `null`
 * (docs/hub-facts.md, "Projection").
 */
export function at(value: unknown, ...path: string[]): unknown {
  let node = value
  for (const key of path) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return undefined
    node = node[key]
  }
  return node === null ? undefined : node
}

/** A whole number, else the fallback (kstatus reads counts the same way: wrong type = default). */
export function int(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : fallback
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** The table key for a kind, as kstatus keys it: "apps/Deployment", or "Pod" for the core group. */
export function kindKey(group: string, kind: string): string {
  return group ? `${group}/${kind}` : kind
}

/** Text from the hub on one line, without control characters, short enough for a table cell. */
export function shortText(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()
  return clipCharacters(flat, MAX_TEXT, '…').text
}

/** A list field: absent is empty; not a list, or longer than MAX_LIST, is a problem. */
export function list(value: unknown, field: string): Read<readonly unknown[]> {
  if (value === undefined || value === null) return { ok: true, value: [] }
  if (!Array.isArray(value)) return { ok: false, problem: `${field} is not a list` }
  if (value.length > MAX_LIST)
    return { ok: false, problem: `${field} has ${value.length} entries (more than ${MAX_LIST})` }
  return { ok: true, value }
}

/** status.conditions; entries that are not objects with a string type are skipped. */
export function conditionsOf(object: unknown): Read<Condition[]> {
  const entries = list(at(object, 'status', 'conditions'), 'status.conditions')
  if (!entries.ok) return entries
  const conditions: Condition[] = []
  for (const entry of entries.value) {
    const type = str(at(entry, 'type'))
    if (type)
      conditions.push({
        type,
        status: str(at(entry, 'status')),
        reason: str(at(entry, 'reason')),
        message: str(at(entry, 'message')),
      })
  }
  return { ok: true, value: conditions }
}

/**
 * metadata.generation and status.observedGeneration: absent stays undefined (not every kind has
 * them), but present and not a whole number is a problem, since guessing could say "current".
 */
export function generationsOf(
  object: unknown,
): Read<{ generation?: number | undefined; observed?: number | undefined }> {
  const generation = at(object, 'metadata', 'generation')
  const observed = at(object, 'status', 'observedGeneration')
  for (const [value, field] of [
    [generation, 'metadata.generation'],
    [observed, 'status.observedGeneration'],
  ] as const) {
    if (value !== undefined && int(value, NaN) !== value)
      return { ok: false, problem: `${field} is not a whole number` }
  }
  return { ok: true, value: { generation: generation as number | undefined, observed: observed as number | undefined } }
}

type Health = 'current' | 'in-progress' | 'failed' | 'terminating' | 'unknown'

/** `reason` is short, human and specific: it fills one job-summary cell. */
export interface HealthResult {
  status: Health
  reason: string
}

/** A live object once its shape is checked: the rules read the rest with the defensive readers. */
export interface LiveObject {
  kind: string
  group: string
  object: Record<string, unknown>
  conditions: readonly Condition[]
  generation?: number | undefined
  observed?: number | undefined
  /** Milliseconds since the epoch; rules that depend on age (an unschedulable pod) read it. */
  now: number
}

/** A rule decides, or returns undefined to let the next one look. */
export type Rule = (live: LiveObject) => HealthResult | undefined

/** A kind's own rule always decides. */
export type KindRule = (live: LiveObject) => HealthResult

export const current = (reason: string): HealthResult => ({ status: 'current', reason })
export const inProgress = (reason: string): HealthResult => ({ status: 'in-progress', reason })
export const failed = (reason: string): HealthResult => ({ status: 'failed', reason })

export function condition(live: LiveObject, type: string, status?: string): Condition | undefined {
  return live.conditions.find((c) => c.type === type && (status === undefined || c.status === status))
}

/** "Reconciling: Progressing" — the condition's reason, else its message, else its type alone. */
export function conditionText(label: string, c: Condition): string {
  const detail = c.reason || c.message
  return detail ? `${label}: ${shortText(detail)}` : label
}
