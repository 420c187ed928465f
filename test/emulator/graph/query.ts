// QuerySpec execution for the graph-provider emulator (hub-behaviour.md §3), split by concern
// under query/: spec.ts (types, errors, limits), decode.ts (body → QuerySpec), validate.ts,
// filters.ts, order.ts (ordering and keyset paging), render.ts (projection) and execute.ts.
// This file re-exports the public names.
export type {
  ExecuteOptions,
  ObjectFilter,
  ObjectResult,
  ObjectTree,
  OrderDirection,
  OrderField,
  Projection,
  QuerySpec,
  QueryStatus,
  RelationSpec,
  Tenant,
  TenantLike,
} from './query/spec.ts'
export {
  DEFAULT_LIMIT,
  DEFAULT_MAX_DEPTH,
  MAX_DEPTH,
  MAX_LIMIT,
  MAX_RELATION_BLOCKS,
  ORDER_FIELDS,
  QueryBodyError,
  QueryValidationError,
  ROW_CAP,
} from './query/spec.ts'
export { decodeQuerySpec } from './query/decode.ts'
export type { ValidatedSpec } from './query/validate.ts'
export { validateQuerySpec } from './query/validate.ts'
export { decodeCursor, encodeCursor } from './query/order.ts'
export { edgeOfCluster, executeQuery, tenantSeesFleet } from './query/execute.ts'
