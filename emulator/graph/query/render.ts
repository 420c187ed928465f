// Projection: a fleet entry rendered as the ObjectResult the projection asks for, as the engine
// builds it (docs/hub-facts.md, "Projection"): every `true` leaf is one JSON-path lookup of its
// dotted path and every sub-tree a JSON object of its keys, with no array step; a missing leaf is
// null; `false` or an empty sub-tree is null. No projection at all: the whole object, and
// neither `id` nor `cluster`.
import type { FleetObject } from '../fleet.ts'
import { resolveKind } from '../fleet.ts'
import type { Entry } from '../fleet-index.ts'
import type { ObjectResult, ObjectTree, Projection } from './spec.ts'
import { isObj } from './decode.ts'

function wholeObject(o: FleetObject): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata }
  if (o.spec !== undefined) out.spec = o.spec
  if (o.status !== undefined) out.status = o.status
  for (const k of Object.keys(o)) {
    if (k !== 'edge' && !(k in out)) out[k] = (o as Record<string, unknown>)[k]
  }
  return out
}

/** `$.a.b.c` as SQLite's json_extract reads it: object keys only, split on every `.`. */
function lookup(root: unknown, dotted: string): unknown {
  let cur = root
  for (const key of dotted.split('.')) {
    if (!isObj(cur) || !Object.hasOwn(cur, key)) return null
    cur = cur[key]
  }
  return cur === undefined ? null : cur
}

function project(root: unknown, tree: ObjectTree, prefix: string): Record<string, unknown> | null {
  const keys = Object.keys(tree)
  if (keys.length === 0) return null
  const out: Record<string, unknown> = {}
  for (const k of keys) {
    const sel = tree[k] as boolean | ObjectTree
    const path = prefix ? `${prefix}.${k}` : k
    out[k] = sel === true ? lookup(root, path) : sel === false ? null : project(root, sel, path)
  }
  return out
}

/** The `object` of a row: the whole object, a sparse tree, or nothing (`object: false` or `{}`). */
export function projectObject(
  o: FleetObject,
  tree: ObjectTree | boolean | undefined,
): Record<string, unknown> | undefined {
  if (tree === undefined || tree === true) return wholeObject(o)
  if (tree === false) return undefined
  return project(wholeObject(o), tree, '') ?? undefined
}

function mutablePath(wsPath: string, e: Entry): string {
  const info = resolveKind(e.kind)
  const plural = info?.plural ?? `${e.kind.toLowerCase()}s`
  const api = e.obj.apiVersion.includes('/') ? `/apis/${e.obj.apiVersion}` : `/api/${e.obj.apiVersion}`
  return `/clusters/${wsPath}/${e.edge}${api}${e.ns ? `/namespaces/${e.ns}` : ''}/${plural}/${e.name}`
}

/** The flags (`id`, `cluster`, `mutablePath`) of a row under projection `p`; none without one. */
export function flags(r: ObjectResult, wsPath: string, e: Entry, p: Projection | undefined): ObjectResult {
  if (p?.id) r.id = e.uid
  // A row of another workspace (an edge holding `/`: its own `<path>/<edge>`), which `grouped` and
  // `linked` reach (docs/hub-facts.md, "Relations, more precisely").
  if (p?.cluster) r.cluster = e.edge.includes('/') ? e.edge : `${wsPath}/${e.edge}`
  if (p?.mutablePath) r.mutablePath = mutablePath(wsPath, e)
  return r
}

/** A row of a query without relations. */
export function renderFlat(wsPath: string, e: Entry, p: Projection | undefined): ObjectResult {
  const r = flags({}, wsPath, e, p)
  const object = projectObject(e.obj, p?.object)
  if (object !== undefined) r.object = object
  return r
}

/**
 * On SQLite a boolean leaf of a sparse projection comes back 1/0; lists and sub-objects projected
 * whole keep real booleans (docs/hub-facts.md, "Store drivers"). Rewrites rendered rows in place.
 */
export function sqliteBooleans(rows: readonly ObjectResult[] | undefined, p: Projection | undefined): void {
  for (const row of rows ?? []) {
    if (row.object && isObj(p?.object)) leavesAsNumbers(row.object, p.object)
    for (const [name, children] of Object.entries(row.relations ?? {})) {
      const own = p?.relations?.[name]?.objects
      // Nested nodes of a transitive relation hang under the same key, projected the same way.
      sqliteBooleans(children, own)
      for (const child of children) sqliteBooleans(Object.values(child.relations ?? {}).flat(), own)
    }
  }
}

function leavesAsNumbers(object: Record<string, unknown>, tree: ObjectTree): void {
  for (const [key, sel] of Object.entries(tree)) {
    const value = object[key]
    if (sel === true && typeof value === 'boolean') object[key] = value ? 1 : 0
    else if (isObj(sel) && isObj(value)) leavesAsNumbers(value, sel)
  }
}
