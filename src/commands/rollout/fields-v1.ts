/**
 * Who owns what the manifest sets, read from `metadata.managedFields` (the API server's record
 * of which manager last set each field, in the `FieldsV1` form: `f:<field>`, `k:<list key as
 * JSON>`, `v:<value as JSON>`, and `.` for the node itself; an empty node owns its whole
 * subtree). Walked beside the manifest, so paths are spelled as ./synced.ts spells them. The
 * graph stores the object whole, managedFields included (docs/hub-facts.md, "What the API
 * server stores"). Untrusted input: every read checks its type, and the walk is bounded. Pure.
 */
import { isRecord } from '../../model/plain-value.js'
import { MAX_LIST, at, list, str } from './live-object.js'
import { entryKey, member } from './list-keys.js'
import { isDeliveryKey } from './projection.js'
import { isZero } from './synced.js'

export interface ManagedEntry {
  manager: string
  /** `Apply` (server-side apply: the field set is exactly what was applied) or `Update`. */
  operation: string
  /** `status`, `scale`…; empty for the object itself. */
  subresource: string
  /** ms since the epoch; undefined when absent or unreadable. */
  time: number | undefined
  fields: Record<string, unknown>
}

const MAX_DEPTH = 32

/**
 * The entries of metadata.managedFields, undefined when the object has none, or a problem when
 * they cannot be read (not a list, or longer than any real object's): never taken for "none",
 * which would leave the comparison to fields alone.
 */
export function managedEntries(live: unknown): ManagedEntry[] | { problem: string } | undefined {
  const read = list(at(live, 'metadata', 'managedFields'), 'metadata.managedFields')
  if (!read.ok) return { problem: read.problem }
  if (read.value.length === 0) return undefined
  const raw = read.value
  const entries: ManagedEntry[] = []
  for (const entry of raw) {
    const fields = at(entry, 'fieldsV1')
    if (!isRecord(fields)) continue
    const time = Date.parse(str(at(entry, 'time')))
    entries.push({
      manager: str(at(entry, 'manager')) || 'an unnamed manager',
      operation: str(at(entry, 'operation')),
      subresource: str(at(entry, 'subresource')),
      time: Number.isFinite(time) ? time : undefined,
      fields,
    })
  }
  return entries.length > 0 ? entries : undefined
}

export interface Ownership {
  /** The entry that applied the manifest: the one owning most of what it sets. */
  applier: ManagedEntry | undefined
  /** Of the object's own writers of what the manifest sets, the latest: when this release last wrote it. */
  lastWriter: ManagedEntry | undefined
  /** Paths the manifest sets that another manager owns and the applier does not: not compared. */
  skip: Set<string>
  /** Per other manager, the first path it owns (for the report). */
  others: Map<string, string>
  /** Paths the manifest sets (non-zero) that no manager owns: not applied yet. */
  unowned: string[]
}

/** Which manager owns each part of what the manifest sets. */
export function ownership(
  part: Record<string, unknown>,
  entries: readonly ManagedEntry[],
  /** The entry the carrier names (the one that wrote kubectl's last-applied annotation), when there is one. */
  preferred?: (entry: ManagedEntry) => boolean,
): Ownership {
  // The object's own writers (not status or scale writes) that set some of what the manifest sets.
  const writers = entries
    .filter((e) => e.subresource === '')
    .map((entry) => ({ entry, count: ownedCount(part, entry.fields, '', 0) }))
    .filter((w) => w.count > 0)
  // The applier: the one the carrier names, else a server-side apply (its set is exactly what it
  // applied), else any writer; the one owning most of the manifest, the latest on a tie.
  const named = preferred ? writers.filter((w) => preferred(w.entry)) : []
  const applying = writers.filter((w) => w.entry.operation === 'Apply')
  const pool = named.length > 0 ? named : applying.length > 0 ? applying : writers
  let applier: ManagedEntry | undefined
  let best = 0
  for (const { entry, count } of pool)
    if (count > best || (count === best && (entry.time ?? 0) > (applier?.time ?? 0))) {
      applier = entry
      best = count
    }
  let lastWriter: ManagedEntry | undefined
  for (const { entry } of writers) if ((entry.time ?? 0) > (lastWriter?.time ?? -1)) lastWriter = entry
  const result: Ownership = { applier, lastWriter, skip: new Set(), others: new Map(), unowned: [] }
  const others = entries.filter((e) => e !== applier)
  for (const [field, value] of Object.entries(part))
    walk(
      value,
      applier?.fields[`f:${field}`],
      others.map((e) => [e, e.fields[`f:${field}`]] as const),
      field,
      field,
      0,
      result,
    )
  return result
}

function ownedCount(value: unknown, node: unknown, key: string, depth: number): number {
  if (!isRecord(node) || depth > MAX_DEPTH) return 0
  if (isLeaf(node) || !(isRecord(value) || Array.isArray(value))) return 1
  let count = 0
  if (isRecord(value)) for (const [k, v] of Object.entries(value)) count += ownedCount(v, node[`f:${k}`], k, depth + 1)
  else
    for (const item of value.slice(0, MAX_LIST)) count += ownedCount(item, entryNode(node, key, item), key, depth + 1)
  return count
}

type Other = readonly [ManagedEntry, unknown]

function walk(
  value: unknown,
  mine: unknown,
  others: readonly Other[],
  path: string,
  key: string,
  depth: number,
  out: Ownership,
): void {
  if (value === undefined || value === null || depth > MAX_DEPTH) return
  if (isRecord(mine) && (isLeaf(mine) || !(isRecord(value) || Array.isArray(value)))) return
  const owning = others.filter(([, node]) => isRecord(node))
  if (!isRecord(mine)) {
    if (owning.length > 0) {
      out.skip.add(path)
      for (const [entry] of owning) if (!out.others.has(entry.manager)) out.others.set(entry.manager, path)
    } else if (!isZero(value) && out.unowned.length < 5) out.unowned.push(path)
    return
  }
  const live = (node: unknown, step: (n: Record<string, unknown>) => unknown) =>
    isRecord(node) ? step(node) : undefined
  if (isRecord(value)) {
    for (const [k, v] of Object.entries(value)) {
      const f = `f:${k}`
      walk(
        v,
        mine[f],
        owning.map(([e, n]) => [e, live(n, (x) => x[f])] as const),
        `${path}${member(k)}`,
        k,
        depth + 1,
        out,
      )
    }
    return
  }
  if (!Array.isArray(value)) return
  value.slice(0, MAX_LIST).forEach((item, i) => {
    const name = entryKey(key, item) ?? String(i)
    const step = (n: Record<string, unknown>) => entryNode(n, key, item)
    walk(
      item,
      step(mine),
      owning.map(([e, n]) => [e, live(n, step)] as const),
      `${path}[${name}]`,
      key,
      depth + 1,
      out,
    )
  })
}

/** A node that owns its whole subtree: no child but `.`. */
function isLeaf(node: Record<string, unknown>): boolean {
  return Object.keys(node).every((k) => k === '.')
}

/**
 * The node of a list entry: `k:{…}` whose key fields are the entry's, or `v:…` for a scalar. A
 * list owned atomically has neither: its node owns every entry.
 */
function entryNode(node: Record<string, unknown>, key: string, item: unknown): unknown {
  const children = Object.keys(node).filter((k) => k.startsWith('k:') || k.startsWith('v:'))
  if (children.length === 0) return node
  for (const child of children) {
    const parsed = parseJson(child.slice(2))
    if (child.startsWith('v:') ? parsed === item : matchesKey(key, parsed, item)) return node[child]
  }
  return undefined
}

function matchesKey(key: string, fields: unknown, item: unknown): boolean {
  if (!isRecord(fields) || !isRecord(item)) return false
  const a = entryKey(key, fields)
  const b = entryKey(key, item)
  if (a !== undefined && b !== undefined) return a === b
  return Object.entries(fields).every(([k, v]) => String(item[k]) === String(v))
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * The first path the entry owns that the manifest does not set: a field the manifest removes
 * and the last apply still holds. Only meaningful for server-side apply, whose field set is
 * exactly what was applied (an update owns defaults too). Under `metadata`, only labels and
 * annotations are the manifest's (kubectl's last-applied annotation aside).
 */
export function removedPath(entry: ManagedEntry, part: Record<string, unknown>): string | undefined {
  for (const [child, node] of Object.entries(entry.fields)) {
    if (!child.startsWith('f:') || child === 'f:status' || child === 'f:apiVersion' || child === 'f:kind') continue
    const field = child.slice(2)
    if (field === 'metadata') {
      if (!isRecord(node)) continue
      for (const sub of ['labels', 'annotations']) {
        const owned = node[`f:${sub}`]
        if (!isRecord(owned)) continue
        const want = at(part, 'metadata', sub)
        // what a delivery tool added on apply is not the manifest's to remove
        const set = isRecord(want) ? want : {}
        const kept = Object.fromEntries(
          Object.entries(owned).filter(
            ([k]) => !(k.startsWith('f:') && isDeliveryKey(k.slice(2)) && !(k.slice(2) in set)),
          ),
        )
        if (Object.keys(kept).every((k) => k === '.')) continue
        const found = extra(kept, want, `metadata.${sub}`, sub, 0)
        if (found) return found
      }
      continue
    }
    const found = extra(node, part[field], field, field, 0)
    if (found) return found
  }
  return undefined
}

function extra(node: unknown, value: unknown, path: string, key: string, depth: number): string | undefined {
  if (!isRecord(node) || depth > MAX_DEPTH) return undefined
  if (value === undefined || value === null) {
    // the manifest sets none of it: name the first field it owns under here (`metadata.labels.tier`)
    const child = Object.keys(node).find((k) => k.startsWith('f:'))
    return child === undefined
      ? path
      : (extra(node[child], undefined, `${path}${member(child.slice(2))}`, child.slice(2), depth + 1) ?? path)
  }
  for (const [child, sub] of Object.entries(node)) {
    if (child === '.') continue
    if (child.startsWith('f:')) {
      const k = child.slice(2)
      const found = extra(sub, isRecord(value) ? value[k] : undefined, `${path}${member(k)}`, k, depth + 1)
      if (found) return found
    } else if (child.startsWith('k:') || child.startsWith('v:')) {
      const parsed = parseJson(child.slice(2))
      const items: unknown[] = Array.isArray(value) ? value.slice(0, MAX_LIST) : []
      const item: unknown = items.find((i) => (child.startsWith('v:') ? i === parsed : matchesKey(key, parsed, i)))
      const name = child.startsWith('v:') ? child.slice(2) : (entryKey(key, parsed) ?? child.slice(2))
      if (item === undefined) return `${path}[${name}]`
      const found = extra(sub, item, `${path}[${name}]`, key, depth + 1)
      if (found) return found
    }
  }
  return undefined
}
