// QuerySpec of the graph-provider emulator (docs/hub-facts.md, "Graph queries"): its types, the two errors a
// bad one gets, and the limits.

export type OrderField = 'name' | 'namespace' | 'kind' | 'apiGroup' | 'cluster' | 'creationTimestamp'
type OrderDirection = 'Asc' | 'Desc'

export type ObjectFilter = {
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
export type ObjectTree = { [field: string]: boolean | ObjectTree }

export type Projection = {
  id?: boolean
  cluster?: boolean
  mutablePath?: boolean
  /** Absent → the whole object; `false` → no object. */
  object?: ObjectTree | boolean
  relations?: Record<string, RelationSpec>
}

export type RelationSpec = { limit?: number; filters?: ObjectFilter[]; objects?: Projection }

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
  /**
   * The engine's store (docs/hub-facts.md, "Store drivers"). `sqlite`: a boolean leaf of a sparse
   * projection comes back 1/0, and a cursor over creationTimestamp skips (Asc) or repeats (Desc)
   * the rows of its calendar day. `postgres`: real booleans, exact cursors, and dotted selector
   * keys match. Unset: the emulator's older behaviour (real booleans and cursors, dotted keys
   * never matching).
   */
  storeDriver?: StoreDriver
}

type StoreDriver = 'sqlite' | 'postgres'

/** 400 `invalid QuerySpec body: …` */
export class QueryBodyError extends Error {
  override name = 'QueryBodyError'
}

/** 400 `query failed: validation: …` */
export class QueryValidationError extends Error {
  override name = 'QueryValidationError'
}

/** 500 `query failed: internal error`: what the engine's SQL fails on (docs/hub-facts.md, "Relations, more precisely"). */
export class QueryInternalError extends Error {
  override name = 'QueryInternalError'
}

export const DEFAULT_LIMIT = 100
export const MAX_LIMIT = 10000
export const DEFAULT_MAX_DEPTH = 10
export const MAX_DEPTH = 20
export const MAX_RELATION_BLOCKS = 10
export const ROW_CAP = 10000
export const ORDER_FIELDS: readonly OrderField[] = [
  'name',
  'namespace',
  'kind',
  'apiGroup',
  'cluster',
  'creationTimestamp',
]
