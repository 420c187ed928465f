// Decoding a QuerySpec body: type errors → QueryBodyError, Go encoding/json style.
import type { ObjectFilter, ObjectTree, Projection, QuerySpec, RelationSpec } from './spec.ts'
import { QueryBodyError } from './spec.ts'

function jsonType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'object') return 'object'
  if (typeof v === 'number') return 'number'
  return typeof v
}

function bodyErr(v: unknown, field: string, want: string): QueryBodyError {
  const t = jsonType(v)
  const shown = t === 'number' ? `number ${String(v)}` : t
  return new QueryBodyError(`json: cannot unmarshal ${shown} into Go struct field ${field} of type ${want}`)
}

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function optStr(o: Record<string, unknown>, k: string, field: string): string | undefined {
  const v = o[k]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw bodyErr(v, field, 'string')
  return v
}

function optBool(o: Record<string, unknown>, k: string, field: string): boolean | undefined {
  const v = o[k]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'boolean') throw bodyErr(v, field, 'bool')
  return v
}

function optInt(o: Record<string, unknown>, k: string, field: string): number | undefined {
  const v = o[k]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isInteger(v)) throw bodyErr(v, field, 'int')
  return v
}

function optObj(
  o: Record<string, unknown>,
  k: string,
  field: string,
  type: string,
): Record<string, unknown> | undefined {
  const v = o[k]
  if (v === undefined || v === null) return undefined
  if (!isObj(v)) throw bodyErr(v, field, type)
  return v
}

function optArr(o: Record<string, unknown>, k: string, field: string, type: string): unknown[] | undefined {
  const v = o[k]
  if (v === undefined || v === null) return undefined
  if (!Array.isArray(v)) throw bodyErr(v, field, type)
  return v
}

function strMap(o: Record<string, unknown>, k: string, field: string): Record<string, string> | undefined {
  const m = optObj(o, k, field, 'map[string]string')
  if (!m) return undefined
  const out: Record<string, string> = {}
  for (const [key, val] of Object.entries(m)) {
    if (typeof val !== 'string') throw bodyErr(val, field, 'string')
    out[key] = val
  }
  return out
}

function strArr(o: Record<string, unknown>, k: string, field: string): string[] | undefined {
  const a = optArr(o, k, field, '[]string')
  if (!a) return undefined
  return a.map((v) => {
    if (typeof v !== 'string') throw bodyErr(v, field, 'string')
    return v
  })
}

function decodeFilter(raw: unknown, field: string): ObjectFilter {
  if (!isObj(raw)) throw bodyErr(raw, field, 'ObjectFilter')
  const f: ObjectFilter = {}
  const gk = optObj(raw, 'groupKind', `${field}.groupKind`, 'GroupKind')
  if (gk) {
    f.groupKind = {}
    const g = optStr(gk, 'apiGroup', `${field}.groupKind.apiGroup`)
    const k = optStr(gk, 'kind', `${field}.groupKind.kind`)
    if (g !== undefined) f.groupKind.apiGroup = g
    if (k !== undefined) f.groupKind.kind = k
  }
  for (const k of ['name', 'namespace', 'id', 'jsonpath'] as const) {
    const v = optStr(raw, k, `${field}.${k}`)
    if (v !== undefined) f[k] = v
  }
  const labels = strMap(raw, 'labels', `${field}.labels`)
  if (labels) f.labels = labels
  const le = optArr(raw, 'labelExpressions', `${field}.labelExpressions`, '[]LabelExpression')
  if (le) {
    f.labelExpressions = le.map((x) => {
      if (!isObj(x)) throw bodyErr(x, `${field}.labelExpressions`, 'LabelExpression')
      const values = strArr(x, 'values', `${field}.labelExpressions.values`)
      const e: { key: string; operator: string; values?: string[] } = {
        key: optStr(x, 'key', `${field}.labelExpressions.key`) ?? '',
        operator: optStr(x, 'operator', `${field}.labelExpressions.operator`) ?? '',
      }
      if (values) e.values = values
      return e
    })
  }
  const conds = optArr(raw, 'conditions', `${field}.conditions`, '[]ConditionFilter')
  if (conds) {
    f.conditions = conds.map((x) => {
      if (!isObj(x)) throw bodyErr(x, `${field}.conditions`, 'ConditionFilter')
      const c: { type: string; status?: string; reason?: string } = {
        type: optStr(x, 'type', `${field}.conditions.type`) ?? '',
      }
      const s = optStr(x, 'status', `${field}.conditions.status`)
      const r = optStr(x, 'reason', `${field}.conditions.reason`)
      if (s !== undefined) c.status = s
      if (r !== undefined) c.reason = r
      return c
    })
  }
  const ct = optObj(raw, 'creationTimestamp', `${field}.creationTimestamp`, 'TimeRange')
  if (ct) {
    f.creationTimestamp = {}
    const a = optStr(ct, 'after', `${field}.creationTimestamp.after`)
    const b = optStr(ct, 'before', `${field}.creationTimestamp.before`)
    if (a !== undefined) f.creationTimestamp.after = a
    if (b !== undefined) f.creationTimestamp.before = b
  }
  const cats = strArr(raw, 'categories', `${field}.categories`)
  if (cats) f.categories = cats
  return f
}

function decodeTree(raw: unknown, field: string): ObjectTree | boolean {
  if (typeof raw === 'boolean') return raw
  if (!isObj(raw)) throw bodyErr(raw, field, 'ObjectTree')
  const out: ObjectTree = {}
  for (const [k, v] of Object.entries(raw)) {
    if (v === null || v === undefined) continue
    out[k] = decodeTree(v, `${field}.${k}`)
  }
  return out
}

function decodeProjection(raw: unknown, field: string): Projection {
  if (!isObj(raw)) throw bodyErr(raw, field, 'Projection')
  const p: Projection = {}
  for (const k of ['id', 'cluster', 'mutablePath'] as const) {
    const v = optBool(raw, k, `${field}.${k}`)
    if (v !== undefined) p[k] = v
  }
  if (raw.object !== undefined && raw.object !== null) p.object = decodeTree(raw.object, `${field}.object`)
  const rels = optObj(raw, 'relations', `${field}.relations`, 'map[string]RelationSpec')
  if (rels) {
    p.relations = {}
    for (const [name, r] of Object.entries(rels)) {
      if (r === null) {
        p.relations[name] = {}
        continue
      }
      if (!isObj(r)) throw bodyErr(r, `${field}.relations`, 'RelationSpec')
      const rs: RelationSpec = {}
      const limit = optInt(r, 'limit', `${field}.relations.limit`)
      if (limit !== undefined) rs.limit = limit
      const filters = optArr(r, 'filters', `${field}.relations.filters`, '[]ObjectFilter')
      if (filters) rs.filters = filters.map((x) => decodeFilter(x, `${field}.relations.filters`))
      if (r.objects !== undefined && r.objects !== null)
        rs.objects = decodeProjection(r.objects, `${field}.relations.objects`)
      p.relations[name] = rs
    }
  }
  return p
}

/** Decodes a parsed JSON body into a QuerySpec; type errors throw QueryBodyError. */
export function decodeQuerySpec(raw: unknown): QuerySpec {
  if (raw === null || raw === undefined) return {}
  if (!isObj(raw)) throw new QueryBodyError(`json: cannot unmarshal ${jsonType(raw)} into Go value of type QuerySpec`)
  const s: QuerySpec = {}
  const root = optStr(raw, 'root', 'QuerySpec.root')
  if (root !== undefined) s.root = root
  const cluster = optObj(raw, 'cluster', 'QuerySpec.cluster', 'ClusterSelector')
  if (cluster) {
    s.cluster = {}
    const n = optStr(cluster, 'name', 'QuerySpec.cluster.name')
    if (n !== undefined) s.cluster.name = n
  }
  const filter = optObj(raw, 'filter', 'QuerySpec.filter', 'Filter')
  if (filter) {
    s.filter = {}
    const objs = optArr(filter, 'objects', 'QuerySpec.filter.objects', '[]ObjectFilter')
    if (objs) s.filter.objects = objs.map((x) => decodeFilter(x, 'QuerySpec.filter.objects'))
  }
  const limit = optInt(raw, 'limit', 'QuerySpec.limit')
  if (limit !== undefined) s.limit = limit
  const page = optObj(raw, 'page', 'QuerySpec.page', 'Page')
  if (page) {
    s.page = {}
    const first = optInt(page, 'first', 'QuerySpec.page.first')
    const cursor = optStr(page, 'cursor', 'QuerySpec.page.cursor')
    if (first !== undefined) s.page.first = first
    if (cursor !== undefined) s.page.cursor = cursor
  }
  const order = optArr(raw, 'order', 'QuerySpec.order', '[]Order')
  if (order) {
    s.order = order.map((x) => {
      if (!isObj(x)) throw bodyErr(x, 'QuerySpec.order', 'Order')
      const o: { field: string; direction?: string } = { field: optStr(x, 'field', 'QuerySpec.order.field') ?? '' }
      const d = optStr(x, 'direction', 'QuerySpec.order.direction')
      if (d !== undefined) o.direction = d
      return o
    })
  }
  for (const k of ['count', 'cursor'] as const) {
    const v = optBool(raw, k, `QuerySpec.${k}`)
    if (v !== undefined) s[k] = v
  }
  const md = optInt(raw, 'maxDepth', 'QuerySpec.maxDepth')
  if (md !== undefined) s.maxDepth = md
  if (raw.objects !== undefined && raw.objects !== null) s.objects = decodeProjection(raw.objects, 'QuerySpec.objects')
  return s
}
