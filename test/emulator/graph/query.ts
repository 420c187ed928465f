// QuerySpec execution for the graph-provider emulator (hub-behaviour.md §3).

import type { Fleet, FleetObject } from './fleet.ts'
import { resolveKind } from './fleet.ts'
import type { Entry, FleetIndex } from './relations.ts'
import { getIndex, matchExpression, relatedEntries } from './relations.ts'

// ---------------------------------------------------------------------------
// Types

type OrderField = 'name' | 'namespace' | 'kind' | 'apiGroup' | 'cluster' | 'creationTimestamp'
type OrderDirection = 'Asc' | 'Desc'

type ObjectFilter = {
  groupKind?: { apiGroup?: string; kind?: string }
  name?: string
  namespace?: string
  labels?: Record<string, string>
  labelExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | string; values?: string[] }[]
  conditions?: { type: string; status?: string; reason?: string }[]
  creationTimestamp?: { after?: string; before?: string }
  id?: string
  jsonpath?: string
  categories?: string[]
}

/** Sparse object tree: leaves `true` select a field. */
type ObjectTree = { [field: string]: boolean | ObjectTree }

type Projection = {
  id?: boolean
  cluster?: boolean
  mutablePath?: boolean
  /** Absent → the whole object; `false` → no object. */
  object?: ObjectTree | boolean
  relations?: Record<string, RelationSpec>
}

type RelationSpec = { limit?: number; filters?: ObjectFilter[]; objects?: Projection }

export type QuerySpec = {
  root?: 'objects' | 'clusters' | string
  cluster?: { name?: string }
  filter?: { objects?: ObjectFilter[] }
  limit?: number
  page?: { first?: number; cursor?: string }
  order?: { field: OrderField | string; direction?: OrderDirection | string }[]
  count?: boolean
  cursor?: boolean
  maxDepth?: number
  objects?: Projection
}

export type ObjectResult = {
  id?: string
  cluster?: string
  mutablePath?: string
  object?: Record<string, unknown>
  relations?: Record<string, ObjectResult[]>
}

export type QueryStatus = {
  objects?: ObjectResult[]
  cursor?: { next?: string; page?: number; pageSize?: number }
  count?: number
  incomplete?: boolean
  warnings?: string[]
}

export type Tenant = { org: string; workspace: string; user?: string }
/** A workspace path string (rendered into `cluster`), a tenant, or nothing. */
export type TenantLike = string | Tenant | null | undefined

export type ExecuteOptions = {
  /** Fleet workspace UUID; a tenant of another workspace (personal-org fallback) sees `{}`. Defaults to fleet.workspace. */
  workspace?: string
  /** Workspace path rendered in `cluster`; defaults to fleet.workspacePath (a string tenant wins). */
  workspacePath?: string
}

/** 400 `invalid QuerySpec body: …` */
export class QueryBodyError extends Error {
  override name = 'QueryBodyError'
}

/** 400 `query failed: validation: …` */
export class QueryValidationError extends Error {
  override name = 'QueryValidationError'
}

const DEFAULT_LIMIT = 100
const MAX_LIMIT = 10000
const DEFAULT_MAX_DEPTH = 10
const MAX_DEPTH = 20
const MAX_RELATION_BLOCKS = 10
const ROW_CAP = 10000
const ORDER_FIELDS: readonly OrderField[] = ['name', 'namespace', 'kind', 'apiGroup', 'cluster', 'creationTimestamp']

// ---------------------------------------------------------------------------
// Decoding (type errors → QueryBodyError, Go encoding/json style)

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

function isObj(v: unknown): v is Record<string, unknown> {
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

function optObj(o: Record<string, unknown>, k: string, field: string, type: string): Record<string, unknown> | undefined {
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
      const c: { type: string; status?: string; reason?: string } = { type: optStr(x, 'type', `${field}.conditions.type`) ?? '' }
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
      if (r.objects !== undefined && r.objects !== null) rs.objects = decodeProjection(r.objects, `${field}.relations.objects`)
      p.relations[name] = rs
    }
  }
  return p
}

/** Decodes a parsed JSON body into a QuerySpec; type errors throw QueryBodyError. */
function decodeQuerySpec(raw: unknown): QuerySpec {
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

// ---------------------------------------------------------------------------
// Validation (→ QueryValidationError)

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist'])

function validateFilter(f: ObjectFilter, where: string): void {
  for (const x of f.labelExpressions ?? []) {
    if (!x.key) throw new QueryValidationError(`${where}: labelExpressions: key is required`)
    if (!OPERATORS.has(x.operator))
      throw new QueryValidationError(`${where}: labelExpressions: unsupported operator "${x.operator}" (In, NotIn, Exists, DoesNotExist)`)
    if ((x.operator === 'In' || x.operator === 'NotIn') && !(x.values ?? []).length)
      throw new QueryValidationError(`${where}: labelExpressions: operator ${x.operator} requires values`)
    if ((x.operator === 'Exists' || x.operator === 'DoesNotExist') && (x.values ?? []).length)
      throw new QueryValidationError(`${where}: labelExpressions: operator ${x.operator} takes no values`)
  }
  for (const c of f.conditions ?? []) if (!c.type) throw new QueryValidationError(`${where}: conditions: type is required`)
  for (const k of ['after', 'before'] as const) {
    const v = f.creationTimestamp?.[k]
    if (v !== undefined && v !== '' && Number.isNaN(Date.parse(v))) throw new QueryValidationError(`${where}: creationTimestamp.${k}: invalid time "${v}"`)
  }
}

function countRelationBlocks(p: Projection | undefined): number {
  if (!p?.relations) return 0
  let n = 0
  for (const r of Object.values(p.relations)) n += 1 + countRelationBlocks(r.objects)
  return n
}

function validateProjection(p: Projection | undefined, where: string): void {
  if (!p?.relations) return
  for (const [name, r] of Object.entries(p.relations)) {
    if (!name) throw new QueryValidationError(`${where}: relation name must not be empty`)
    if (r.limit !== undefined && r.limit < 0) throw new QueryValidationError(`${where}.relations[${name}].limit must not be negative`)
    for (const f of r.filters ?? []) validateFilter(f, `${where}.relations[${name}].filters`)
    validateProjection(r.objects, `${where}.relations[${name}].objects`)
  }
}

type ValidatedSpec = {
  spec: QuerySpec
  root: 'objects' | 'clusters'
  limit: number
  maxDepth: number
  order: { field: OrderField; desc: boolean }[]
  filters: ObjectFilter[]
}

/** Semantic checks; throws QueryValidationError. */
function validateQuerySpec(spec: QuerySpec): ValidatedSpec {
  const root = spec.root === undefined || spec.root === '' ? 'objects' : spec.root
  if (root !== 'objects' && root !== 'clusters') throw new QueryValidationError(`unsupported root "${root}" (objects, clusters)`)
  const limitRaw = spec.limit ?? 0
  if (limitRaw < 0) throw new QueryValidationError(`limit must not be negative, got ${limitRaw}`)
  if (limitRaw > MAX_LIMIT) throw new QueryValidationError(`limit ${limitRaw} exceeds the maximum of ${MAX_LIMIT}`)
  const limit = limitRaw === 0 ? DEFAULT_LIMIT : limitRaw
  const mdRaw = spec.maxDepth ?? 0
  if (mdRaw < 0) throw new QueryValidationError(`maxDepth must not be negative, got ${mdRaw}`)
  if (mdRaw > MAX_DEPTH) throw new QueryValidationError(`maxDepth ${mdRaw} exceeds the maximum of ${MAX_DEPTH}`)
  const maxDepth = mdRaw === 0 ? DEFAULT_MAX_DEPTH : mdRaw
  const order = (spec.order ?? []).map((o, i) => {
    if (!(ORDER_FIELDS as readonly string[]).includes(o.field))
      throw new QueryValidationError(`order[${i}]: unsupported field "${o.field}" (${ORDER_FIELDS.join(', ')})`)
    const d = o.direction ?? ''
    if (d !== '' && d !== 'Asc' && d !== 'Desc') throw new QueryValidationError(`order[${i}]: unsupported direction "${d}" (Asc, Desc)`)
    return { field: o.field as OrderField, desc: d === 'Desc' }
  })
  const filters = spec.filter?.objects ?? []
  filters.forEach((f, i) => validateFilter(f, `filter.objects[${i}]`))
  const blocks = countRelationBlocks(spec.objects)
  if (blocks > MAX_RELATION_BLOCKS) throw new QueryValidationError(`too many relation blocks: ${blocks} (maximum ${MAX_RELATION_BLOCKS})`)
  validateProjection(spec.objects, 'objects')
  return { spec, root, limit, maxDepth, order, filters }
}

// ---------------------------------------------------------------------------
// Filters

const CATEGORIES: Record<string, readonly string[]> = {
  all: ['Pod', 'Service', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'HorizontalPodAutoscaler', 'ReplicationController'],
  workloads: ['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'],
  config: ['ConfigMap', 'Secret'],
  network: ['Service', 'Ingress', 'NetworkPolicy', 'Endpoints'],
}

function jsonpathValue(obj: FleetObject, expr: string): unknown {
  let p = expr.trim()
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim()
  if (p.startsWith('$')) p = p.slice(1)
  if (p.startsWith('.')) p = p.slice(1)
  let cur: unknown = obj
  for (const seg of p.split('.').filter(Boolean)) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(seg)
    if (!m) return undefined
    if (m[1]) cur = isObj(cur) ? cur[m[1]] : undefined
    for (const ix of (m[2] ?? '').match(/\d+/g) ?? []) cur = Array.isArray(cur) ? cur[Number(ix)] : undefined
    if (cur === undefined) return undefined
  }
  return cur
}

type Pred = (e: Entry) => boolean

function compileFilter(f: ObjectFilter): Pred {
  const checks: Pred[] = []
  const kind = f.groupKind?.kind ?? ''
  const group = f.groupKind?.apiGroup ?? ''
  if (kind) {
    const info = resolveKind(kind)
    if (info) checks.push((e) => e.kind === info.kind)
    else {
      const k = kind.toLowerCase()
      checks.push((e) => {
        const ek = e.kind.toLowerCase()
        return ek === k || `${ek}s` === k
      })
    }
  }
  if (group) checks.push((e) => e.group === group)
  if (f.name) {
    const n = f.name
    checks.push((e) => e.name === n)
  }
  if (f.namespace) {
    const ns = f.namespace
    checks.push((e) => e.ns === ns)
  }
  if (f.id) {
    const id = f.id
    checks.push((e) => e.uid === id)
  }
  if (f.labels) {
    const ls = Object.entries(f.labels)
    if (ls.length) checks.push((e) => ls.every(([k, v]) => e.labels[k] === v))
  }
  for (const x of f.labelExpressions ?? []) checks.push((e) => matchExpression(e.labels, x.key, x.operator, x.values))
  for (const c of f.conditions ?? []) {
    checks.push((e) => {
      const conds = e.obj.status?.conditions
      if (!Array.isArray(conds)) return false
      return conds.some(
        (x: any) =>
          x?.type === c.type &&
          (c.status === undefined || c.status === '' || x.status === c.status) &&
          (c.reason === undefined || c.reason === '' || x.reason === c.reason),
      )
    })
  }
  const after = f.creationTimestamp?.after ? Date.parse(f.creationTimestamp.after) : undefined
  const before = f.creationTimestamp?.before ? Date.parse(f.creationTimestamp.before) : undefined
  if (after !== undefined) checks.push((e) => Date.parse(e.ts) > after)
  if (before !== undefined) checks.push((e) => Date.parse(e.ts) < before)
  if (f.jsonpath) {
    const jp = f.jsonpath
    checks.push((e) => {
      const v = jsonpathValue(e.obj, jp)
      return v !== undefined && v !== null && v !== false
    })
  }
  if (f.categories?.length) {
    const kinds = new Set(f.categories.flatMap((c) => CATEGORIES[c.toLowerCase()] ?? []))
    checks.push((e) => kinds.has(e.kind))
  }
  if (checks.length === 0) return () => true
  if (checks.length === 1) return checks[0] as Pred
  return (e) => {
    for (const c of checks) if (!c(e)) return false
    return true
  }
}

/** OR of filters; an empty list matches everything. */
function compileFilters(fs: readonly ObjectFilter[]): Pred {
  if (fs.length === 0) return () => true
  const ps = fs.map(compileFilter)
  if (ps.length === 1) return ps[0] as Pred
  return (e) => ps.some((p) => p(e))
}

// ---------------------------------------------------------------------------
// Ordering and keyset paging

type KeyFn = (e: Entry) => string
const FIELD_FNS: Record<OrderField, KeyFn> = {
  name: (e) => e.name,
  namespace: (e) => e.ns,
  kind: (e) => e.kind,
  apiGroup: (e) => e.group,
  cluster: (e) => e.edge,
  creationTimestamp: (e) => e.ts,
}

type Key = { fn: KeyFn; desc: boolean }

/**
 * Keyset: the order fields plus namespace and name (which take the first field's direction).
 * The edge is NOT part of it unless ordered by cluster (faithful trap).
 */
function keysetKeys(order: ValidatedSpec['order']): Key[] {
  const desc = order[0]?.desc ?? false
  return [...order.map((o) => ({ fn: FIELD_FNS[o.field], desc: o.desc })), { fn: FIELD_FNS.namespace, desc }, { fn: FIELD_FNS.name, desc }]
}

/** Full sort: keyset, then deterministic tie-breakers (edge, group, kind, uid). */
function sortKeys(order: ValidatedSpec['order']): Key[] {
  return [
    ...keysetKeys(order),
    { fn: FIELD_FNS.cluster, desc: false },
    { fn: FIELD_FNS.apiGroup, desc: false },
    { fn: FIELD_FNS.kind, desc: false },
    { fn: (e) => e.uid, desc: false },
  ]
}

function cmpStr(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function compareBy(keys: readonly Key[], a: Entry, b: Entry): number {
  for (const k of keys) {
    const c = cmpStr(k.fn(a), k.fn(b))
    if (c !== 0) return k.desc ? -c : c
  }
  return 0
}

/**
 * Where a row stands against the cursor's keyset, as the hub decides it: ONE comparison for the
 * whole tuple, `>` or `<` by the first order field's direction (hub-behaviour.md §3). With mixed
 * directions this disagrees with the sort, so pages from 2 on repeat (and skip) rows.
 */
function compareToKeyset(keys: readonly Key[], e: Entry, ks: readonly string[]): number {
  const desc = keys[0]?.desc ?? false
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as Key
    const c = cmpStr(k.fn(e), ks[i] as string)
    if (c !== 0) return desc ? -c : c
  }
  return 0
}

type Cursor = { p: number; k: string[] }

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ v: 1, p: c.p, k: c.k })).toString('base64')
}

/** Decodes a cursor; anything unreadable (or for another order) → undefined, i.e. page 1. */
function decodeCursor(s: string | undefined, keysetLength: number): Cursor | undefined {
  if (!s) return undefined
  try {
    const v: unknown = JSON.parse(Buffer.from(s, 'base64').toString('utf8'))
    if (!isObj(v) || v.v !== 1 || !Array.isArray(v.k) || v.k.length !== keysetLength || !v.k.every((x) => typeof x === 'string')) return undefined
    const p = typeof v.p === 'number' && Number.isInteger(v.p) && v.p >= 2 ? v.p : 2
    return { p, k: v.k }
  } catch {
    return undefined
  }
}

const SORT_CACHE_MAX = 64

function sortedRoots(idx: FleetIndex, edge: string | undefined, filters: readonly ObjectFilter[], order: ValidatedSpec['order']): Entry[] {
  const key = 'roots:' + JSON.stringify([edge ?? null, filters, order])
  const cached = idx.cache.get(key) as Entry[] | undefined
  if (cached) {
    idx.cache.delete(key)
    idx.cache.set(key, cached)
    return cached
  }
  const pred = compileFilters(filters)
  const out: Entry[] = []
  for (const e of idx.entries) if ((edge === undefined || e.edge === edge) && pred(e)) out.push(e)
  const keys = sortKeys(order)
  out.sort((a, b) => compareBy(keys, a, b))
  idx.cache.set(key, out)
  while (idx.cache.size > SORT_CACHE_MAX) {
    const oldest = idx.cache.keys().next().value
    if (oldest === undefined) break
    idx.cache.delete(oldest)
  }
  return out
}

// ---------------------------------------------------------------------------
// Projection

function wholeObject(o: FleetObject): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata }
  if (o.spec !== undefined) out.spec = o.spec
  if (o.status !== undefined) out.status = o.status
  for (const k of Object.keys(o)) {
    if (k !== 'edge' && !(k in out)) out[k] = (o as Record<string, unknown>)[k]
  }
  return out
}

function sparse(value: unknown, tree: ObjectTree): unknown {
  if (Array.isArray(value)) return value.map((v) => sparse(v, tree))
  if (!isObj(value)) return undefined
  const out: Record<string, unknown> = {}
  for (const [k, sel] of Object.entries(tree)) {
    if (sel === false || !Object.hasOwn(value, k)) continue
    const v = value[k]
    if (sel === true) {
      out[k] = v
      continue
    }
    const sub = sparse(v, sel)
    if (sub !== undefined) out[k] = sub
  }
  return out
}

function mutablePath(wsPath: string, e: Entry): string {
  const info = resolveKind(e.kind)
  const plural = info?.plural ?? `${e.kind.toLowerCase()}s`
  const api = e.obj.apiVersion.includes('/') ? `/apis/${e.obj.apiVersion}` : `/api/${e.obj.apiVersion}`
  return `/clusters/${wsPath}/${e.edge}${api}${e.ns ? `/namespaces/${e.ns}` : ''}/${plural}/${e.name}`
}

const DEFAULT_PROJECTION: Projection = { id: true, cluster: true }

type RenderCtx = { idx: FleetIndex; wsPath: string; maxDepth: number; budget: number; truncated: boolean; compiled: Map<readonly ObjectFilter[], Pred> }

function render(ctx: RenderCtx, e: Entry, p: Projection): ObjectResult {
  const r: ObjectResult = {}
  if (p.id) r.id = e.uid
  if (p.cluster) r.cluster = `${ctx.wsPath}/${e.edge}`
  if (p.mutablePath) r.mutablePath = mutablePath(ctx.wsPath, e)
  if (p.object === undefined || p.object === true) r.object = wholeObject(e.obj)
  else if (p.object !== false) r.object = sparse(wholeObject(e.obj), p.object) as Record<string, unknown>
  if (p.relations) {
    let rels: Record<string, ObjectResult[]> | undefined
    for (const [name, rs] of Object.entries(p.relations)) {
      let related = relatedEntries(ctx.idx, e, name, ctx.maxDepth)
      if (related.length === 0) continue
      if (rs.filters?.length) {
        let pred = ctx.compiled.get(rs.filters)
        if (!pred) {
          pred = compileFilters(rs.filters)
          ctx.compiled.set(rs.filters, pred)
        }
        related = related.filter(pred)
      }
      if (rs.limit !== undefined && rs.limit > 0 && related.length > rs.limit) related = related.slice(0, rs.limit)
      if (related.length > ctx.budget) {
        related = related.slice(0, Math.max(0, ctx.budget))
        ctx.truncated = true
      }
      if (related.length === 0) continue
      ctx.budget -= related.length
      const sub = rs.objects ?? DEFAULT_PROJECTION
      ;(rels ??= {})[name] = related.map((x) => render(ctx, x, sub))
    }
    if (rels) r.relations = rels
  }
  return r
}

// ---------------------------------------------------------------------------
// Execution

function tenantPath(fleet: Fleet, tenant: TenantLike, opts: ExecuteOptions): string {
  if (typeof tenant === 'string') return tenant
  return opts.workspacePath ?? fleet.workspacePath
}

/** True when the tenant may see the fleet (false = personal-org fallback or another workspace). */
export function tenantSeesFleet(fleet: Fleet, tenant: TenantLike, opts: ExecuteOptions = {}): boolean {
  const ws = opts.workspace ?? fleet.workspace
  if (!ws || tenant === null || tenant === undefined || typeof tenant === 'string') return true
  return tenant.workspace.toLowerCase() === ws.toLowerCase()
}

/**
 * Runs a QuerySpec (already parsed JSON; type-checked here) over the fleet.
 * Throws QueryBodyError (400 invalid body) or QueryValidationError (400 validation).
 */
export function executeQuery(fleet: Fleet, rawSpec: unknown, tenant?: TenantLike, opts: ExecuteOptions = {}): QueryStatus {
  const v = validateQuerySpec(decodeQuerySpec(rawSpec))
  if (!tenantSeesFleet(fleet, tenant, opts)) return {}
  const wsPath = tenantPath(fleet, tenant, opts)
  const spec = v.spec
  const edge = spec.cluster?.name ? spec.cluster.name.slice(spec.cluster.name.lastIndexOf('/') + 1) : undefined

  if (v.root === 'clusters') {
    const edges = [...fleet.edges].filter((x) => edge === undefined || x === edge).sort()
    if (edges.length === 0) return {}
    const p = spec.objects ?? DEFAULT_PROJECTION
    const objects = edges.slice(0, v.limit).map((x) => {
      const r: ObjectResult = {}
      if (p.id ?? true) r.id = x
      if (p.cluster ?? true) r.cluster = `${wsPath}/${x}`
      return r
    })
    const st: QueryStatus = { objects }
    if (spec.count) st.count = edges.length
    if (objects.length === v.limit) st.incomplete = true
    return st
  }

  const idx = getIndex(fleet)
  if (edge === undefined && Object.keys(spec.objects?.relations ?? {}).length > 0) return executeByPath(idx, wsPath, v)
  const roots = sortedRoots(idx, edge, v.filters, v.order)
  const ksKeys = keysetKeys(v.order)
  const cursor = decodeCursor(spec.page?.cursor, ksKeys.length)
  let start = 0
  let page = 1
  let afterCursor: Entry[] = roots
  if (cursor && ksKeys.some((k) => k.desc !== ksKeys[0]?.desc)) {
    // Mixed directions: the one-operator keyset is not monotonic in the sort, so filter every
    // row as the hub's WHERE clause does; rows before the cursor come back again.
    page = cursor.p
    afterCursor = roots.filter((e) => compareToKeyset(ksKeys, e, cursor.k) > 0)
  } else if (cursor) {
    page = cursor.p
    // first root strictly after the keyset (binary search; the keyset is a prefix of the sort key)
    let lo = 0
    let hi = roots.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (compareToKeyset(ksKeys, roots[mid] as Entry, cursor.k) <= 0) lo = mid + 1
      else hi = mid
    }
    start = lo
  }
  let pageRoots = afterCursor.slice(start, start + v.limit)
  const status: QueryStatus = {}
  const ctx: RenderCtx = { idx, wsPath, maxDepth: v.maxDepth, budget: ROW_CAP - pageRoots.length, truncated: false, compiled: new Map() }
  const proj = spec.objects ?? DEFAULT_PROJECTION
  // The row cap drops whole trailing roots (hub-behaviour.md §3): the root whose rows crossed
  // it and every root after it are missing, so the page comes back short. Only a first root
  // that alone crosses the cap stays, with its relations cut.
  const rendered: ObjectResult[] = []
  for (const [i, e] of pageRoots.entries()) {
    const row = render(ctx, e, proj)
    if (ctx.truncated && i > 0) {
      pageRoots = pageRoots.slice(0, i)
      break
    }
    rendered.push(row)
    if (ctx.truncated) {
      pageRoots = pageRoots.slice(0, 1)
      break
    }
  }
  if (rendered.length) status.objects = rendered
  if (spec.cursor && pageRoots.length) {
    const last = pageRoots[pageRoots.length - 1] as Entry
    status.cursor = { next: encodeCursor({ p: page + 1, k: ksKeys.map((k) => k.fn(last)) }), page, pageSize: v.limit }
  }
  if (spec.count) status.count = roots.length
  if (pageRoots.length === v.limit || ctx.truncated) status.incomplete = true
  if (ctx.truncated) status.warnings = [`result truncated: the ${ROW_CAP}-row cap was reached`]
  return status
}

/** The graph engine's internal path for a row when relations are asked: no edge in it (§3). */
function pathOf(e: Entry): string {
  return `.${e.kind}.${e.ns}/${e.name}`
}

/**
 * A query that asks for relations across edges (hub-behaviour.md §3): rows are ordered and paged
 * by a path without the edge, and the tree is assembled by that path, so same-named objects on
 * different edges fall into one node: the first gets every edge's relations, the others none.
 * The cursor follows the path, so same-path rows split across a page boundary are lost.
 */
function executeByPath(idx: FleetIndex, wsPath: string, v: ValidatedSpec): QueryStatus {
  const spec = v.spec
  const roots = [...sortedRoots(idx, undefined, v.filters, [])].sort((a, b) => cmpStr(pathOf(a), pathOf(b)) || cmpStr(a.edge, b.edge))
  const cursor = decodeCursor(spec.page?.cursor, 1)
  const afterCursor = cursor ? roots.filter((e) => pathOf(e) > (cursor.k[0] as string)) : roots
  let pageRoots = afterCursor.slice(0, v.limit)
  const ctx: RenderCtx = { idx, wsPath, maxDepth: v.maxDepth, budget: ROW_CAP - pageRoots.length, truncated: false, compiled: new Map() }
  const proj = spec.objects ?? DEFAULT_PROJECTION
  const status: QueryStatus = {}
  const nodes = new Map<string, ObjectResult>()
  const rows: ObjectResult[] = []
  for (const [i, e] of pageRoots.entries()) {
    const row = render(ctx, e, proj)
    // The row cap drops whole trailing roots here too (see executeQuery).
    if (ctx.truncated && i > 0) {
      pageRoots = pageRoots.slice(0, i)
      break
    }
    const node = nodes.get(pathOf(e))
    if (node) {
      // Same path on another edge: its relations land on the first node; this row keeps none.
      for (const [name, related] of Object.entries(row.relations ?? {})) ((node.relations ??= {})[name] ??= []).push(...related)
      delete row.relations
    } else nodes.set(pathOf(e), row)
    rows.push(row)
    if (ctx.truncated) {
      pageRoots = pageRoots.slice(0, 1)
      break
    }
  }
  if (rows.length) status.objects = rows
  const page = cursor?.p ?? 1
  if (spec.cursor && pageRoots.length) {
    const last = pageRoots[pageRoots.length - 1] as Entry
    status.cursor = { next: encodeCursor({ p: page + 1, k: [pathOf(last)] }), page, pageSize: v.limit }
  }
  if (spec.count) status.count = roots.length
  if (pageRoots.length === v.limit || ctx.truncated) status.incomplete = true
  if (ctx.truncated) status.warnings = [`result truncated: the ${ROW_CAP}-row cap was reached`]
  return status
}

/** The edge name of a rendered `cluster` (text after the last `/`). */
export function edgeOfCluster(cluster: string): string {
  return cluster.slice(cluster.lastIndexOf('/') + 1)
}
