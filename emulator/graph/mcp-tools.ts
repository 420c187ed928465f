// The graph provider's two tools as the MCP aggregate exposes them: their list (`tools/list`)
// and a call (`tools/call`), with the aggregate's way of wrapping bad arguments.

import type { Fleet } from './fleet.ts'
import type { ExecuteOptions, Tenant } from './query.ts'
import { QueryBodyError, QueryValidationError, executeQuery } from './query.ts'
import { ToolError, classifyImpact, parseImpactInput, runImpact, type ImpactInput } from './mcp-impact.ts'

const REF_SCHEMA = {
  type: 'object',
  properties: {
    edge: { type: 'string' },
    group: { type: 'string' },
    kind: { type: 'string' },
    namespace: { type: 'string' },
    name: { type: 'string' },
    relation: { type: 'string' },
  },
  required: ['kind', 'name', 'relation'],
}

export const TOOLS = [
  {
    name: 'graph__graph_impact',
    title: 'Fleet impact of one object',
    description:
      'For one object return upstream dependencies (impactedBy), downstream dependents (impacts) and associated peers, from declared relationships only (owner references, spec references, selectors, namespace membership, declared links). The object is identified by exact edge, group, kind, namespace and name.',
    inputSchema: {
      type: 'object',
      properties: {
        kind: { type: 'string', description: 'Kind, e.g. Deployment (resource and short names accepted)' },
        name: { type: 'string', description: 'Object name' },
        edge: { type: 'string', description: 'Edge (cluster) name; first match across edges when omitted' },
        group: { type: 'string', description: 'API group, "" for core' },
        namespace: { type: 'string', description: 'Namespace; omit for cluster-scoped objects' },
        maxDepth: {
          type: 'integer',
          minimum: 0,
          maximum: 20,
          description: 'Depth of transitive relations (default 5)',
        },
      },
      required: ['kind', 'name'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        object: { type: 'object' },
        found: { type: 'boolean' },
        impactedBy: { type: ['array', 'null'], items: REF_SCHEMA },
        impacts: { type: ['array', 'null'], items: REF_SCHEMA },
        associated: { type: ['array', 'null'], items: REF_SCHEMA },
        summary: { type: 'string' },
      },
      required: ['object', 'found', 'impactedBy', 'impacts', 'associated', 'summary'],
    },
  },
  {
    name: 'graph__graph_query',
    title: 'Query the fleet graph',
    description:
      'Query synchronized resources across workspace edges; filter by kind, namespace or labels; project fields; expand relationships. The QuerySpec goes under "spec".',
    inputSchema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          description:
            'QuerySpec: root, cluster{name}, filter{objects[]}, limit (≤10000), page{cursor}, order[]{field,direction}, count, cursor, maxDepth (≤20), objects (projection)',
          properties: {
            root: { type: 'string', enum: ['objects', 'clusters'] },
            cluster: { type: 'object', properties: { name: { type: 'string' } } },
            filter: { type: 'object', properties: { objects: { type: 'array', items: { type: 'object' } } } },
            limit: { type: 'integer', minimum: 0, maximum: 10000 },
            page: { type: 'object', properties: { first: { type: 'integer' }, cursor: { type: 'string' } } },
            order: {
              type: 'array',
              items: {
                type: 'object',
                properties: { field: { type: 'string' }, direction: { type: 'string', enum: ['Asc', 'Desc'] } },
                required: ['field'],
              },
            },
            count: { type: 'boolean' },
            cursor: { type: 'boolean' },
            maxDepth: { type: 'integer', minimum: 0, maximum: 20 },
            objects: { type: 'object' },
          },
        },
      },
      required: ['spec'],
      additionalProperties: false,
    },
  },
] as const

export type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: unknown; isError?: boolean }

function toolOk(value: unknown): ToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value }
}

function toolErr(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}

function queryErrorText(err: unknown): string {
  if (err instanceof QueryBodyError) return `invalid QuerySpec body: ${err.message}`
  if (err instanceof QueryValidationError) return `query failed: validation: ${err.message}`
  return 'query failed: internal error'
}

/** What a tool call needs from its endpoint: the fleet, the query options, the workspace path its rows carry. */
export type ToolContext = { fleet: Fleet; execOpts: ExecuteOptions; workspacePath: string }

/**
 * One `tools/call`. Graph rows carry the workspace path; a URL with the cluster id instead makes the
 * aggregate forward a tenant no row belongs to, so every tool finds nothing (docs/hub-facts.md, "MCP").
 */
export function callGraphTool(
  ctx: ToolContext,
  name: string,
  args: unknown,
  tenant: Tenant | null | undefined,
  cluster: string | undefined,
): ToolResult | { rpcError: [number, string] } {
  const { fleet, execOpts, workspacePath } = ctx
  fleet.sync?.()
  const seesRows = cluster === undefined || cluster === workspacePath
  if (name === 'graph__graph_impact') {
    let input: ImpactInput
    try {
      input = parseImpactInput(args)
    } catch (err) {
      // The aggregate wraps the provider's bad-arguments error with JSON-RPC code 0.
      if (err instanceof ToolError && !err.message.startsWith('maxDepth'))
        return { rpcError: [0, `provider "graph" tool "graph_impact": ${err.message}`] }
      return toolErr((err as Error).message)
    }
    try {
      return toolOk(seesRows ? runImpact(fleet, input, tenant, execOpts) : classifyImpact({}, input))
    } catch (err) {
      return toolErr(queryErrorText(err))
    }
  }
  if (name === 'graph__graph_query') {
    if (args === null || args === undefined || typeof args !== 'object' || Array.isArray(args))
      return {
        rpcError: [0, 'provider "graph" tool "graph_query": invalid input: arguments must be an object with "spec"'],
      }
    const a = args as Record<string, unknown>
    const extra = Object.keys(a).filter((k) => k !== 'spec')
    if (extra.length)
      return {
        rpcError: [
          0,
          `provider "graph" tool "graph_query": invalid input: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')}`,
        ],
      }
    if (a.spec === undefined)
      return { rpcError: [0, 'provider "graph" tool "graph_query": invalid input: spec is required'] }
    try {
      const status = executeQuery(fleet, a.spec, tenant, execOpts)
      return toolOk(seesRows ? status : {})
    } catch (err) {
      return toolErr(queryErrorText(err))
    }
  }
  return { rpcError: [-32602, `unknown tool "${name}"`] }
}
