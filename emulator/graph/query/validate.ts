// Validating a decoded QuerySpec: semantic errors → QueryValidationError.
import type { ObjectFilter, OrderField, Projection, QuerySpec } from './spec.ts'
import {
  DEFAULT_LIMIT,
  DEFAULT_MAX_DEPTH,
  MAX_DEPTH,
  MAX_LIMIT,
  MAX_RELATION_BLOCKS,
  ORDER_FIELDS,
  QueryInternalError,
  QueryValidationError,
} from './spec.ts'

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist'])
/** The only transitive forms the engine has; any other `X+` fails its SQL (a 500). */
const TRANSITIVE = new Set(['descendants+', 'owners+', 'linked+'])

/**
 * The validator is lenient (docs/hub-facts.md, "Relations, more precisely"): a label expression
 * with an unknown operator, or `In`/`NotIn` without values, is dropped, so the filter matches
 * as if it were not there. Returns the filter the engine then applies.
 */
function lenientFilter(f: ObjectFilter, where: string): ObjectFilter {
  for (const x of f.labelExpressions ?? []) {
    if (!x.key) throw new QueryValidationError(`${where}: labelExpressions: key is required`)
    if ((x.operator === 'Exists' || x.operator === 'DoesNotExist') && (x.values ?? []).length)
      throw new QueryValidationError(`${where}: labelExpressions: operator ${x.operator} takes no values`)
  }
  if (!f.labelExpressions) return f
  const kept = f.labelExpressions.filter(
    (x) => OPERATORS.has(x.operator) && !((x.operator === 'In' || x.operator === 'NotIn') && !(x.values ?? []).length),
  )
  return kept.length === f.labelExpressions.length ? f : { ...f, labelExpressions: kept }
}

function validateFilter(f: ObjectFilter, where: string): void {
  for (const c of f.conditions ?? [])
    if (!c.type) throw new QueryValidationError(`${where}: conditions: type is required`)
  for (const k of ['after', 'before'] as const) {
    const v = f.creationTimestamp?.[k]
    if (v !== undefined && v !== '' && Number.isNaN(Date.parse(v)))
      throw new QueryValidationError(`${where}: creationTimestamp.${k}: invalid time "${v}"`)
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
    if (name.endsWith('+')) {
      if (!TRANSITIVE.has(name)) throw new QueryInternalError(`${where}: no transitive form "${name}"`)
      // The recursive SQL cannot take these; other filter fields are silently ignored there.
      if ((r.filters ?? []).some((f) => f.groupKind?.kind || f.name || f.namespace))
        throw new QueryInternalError(`${where}: kind, name or namespace filter on "${name}"`)
    }
    if (r.limit !== undefined && r.limit < 0)
      throw new QueryValidationError(`${where}.relations[${name}].limit must not be negative`)
    for (const f of r.filters ?? []) validateFilter(f, `${where}.relations[${name}].filters`)
    if (name.endsWith('+')) delete r.filters
    else if (r.filters) r.filters = r.filters.map((f) => lenientFilter(f, `${where}.relations[${name}].filters`))
    validateProjection(r.objects, `${where}.relations[${name}].objects`)
  }
}

export type ValidatedSpec = {
  spec: QuerySpec
  root: 'objects' | 'clusters'
  limit: number
  maxDepth: number
  order: { field: OrderField; desc: boolean }[]
  filters: ObjectFilter[]
}

/** Semantic checks; throws QueryValidationError. */
export function validateQuerySpec(spec: QuerySpec): ValidatedSpec {
  const root = spec.root === undefined || spec.root === '' ? 'objects' : spec.root
  if (root !== 'objects' && root !== 'clusters')
    throw new QueryValidationError(`unsupported root "${root}" (objects, clusters)`)
  // A negative limit or maxDepth becomes the default, like 0 (the lenient validator).
  const limitRaw = spec.limit ?? 0
  if (limitRaw > MAX_LIMIT) throw new QueryValidationError(`limit ${limitRaw} exceeds the maximum of ${MAX_LIMIT}`)
  const limit = limitRaw <= 0 ? DEFAULT_LIMIT : limitRaw
  const mdRaw = spec.maxDepth ?? 0
  if (mdRaw > MAX_DEPTH) throw new QueryValidationError(`maxDepth ${mdRaw} exceeds the maximum of ${MAX_DEPTH}`)
  const maxDepth = mdRaw <= 0 ? DEFAULT_MAX_DEPTH : mdRaw
  const order = (spec.order ?? []).map((o, i) => {
    if (!(ORDER_FIELDS as readonly string[]).includes(o.field))
      throw new QueryValidationError(`order[${i}]: unsupported field "${o.field}" (${ORDER_FIELDS.join(', ')})`)
    const d = o.direction ?? ''
    if (d !== '' && d !== 'Asc' && d !== 'Desc')
      throw new QueryValidationError(`order[${i}]: unsupported direction "${d}" (Asc, Desc)`)
    return { field: o.field as OrderField, desc: d === 'Desc' }
  })
  const filters = (spec.filter?.objects ?? []).map((f, i) => {
    validateFilter(f, `filter.objects[${i}]`)
    return lenientFilter(f, `filter.objects[${i}]`)
  })
  const blocks = countRelationBlocks(spec.objects)
  if (blocks > MAX_RELATION_BLOCKS)
    throw new QueryValidationError(`too many relation blocks: ${blocks} (maximum ${MAX_RELATION_BLOCKS})`)
  validateProjection(spec.objects, 'objects')
  return { spec, root, limit, maxDepth, order, filters }
}
