// QuerySpec execution for the graph-provider emulator (docs/hub-facts.md, "Graph queries"), split by concern
// under query/: spec.ts (types, errors, limits), decode.ts (body → QuerySpec), validate.ts,
// filters.ts, order.ts (ordering and keyset paging), render.ts (projection) and execute.ts.
// This file re-exports the public names.
export type { ExecuteOptions, ObjectResult, QuerySpec, QueryStatus, Tenant } from './query/spec.ts'
export { QueryBodyError, QueryInternalError, QueryValidationError } from './query/spec.ts'
export { edgeOfCluster, executeQuery, tenantSeesFleet } from './query/execute.ts'
