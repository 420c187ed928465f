/**
 * The hub's graph impact tool (`graph__graph_impact`, docs/hub-facts.md, "MCP", "Limits"): the arguments it
 * accepts, the words that name a call in messages, and its structured output read into ours.
 */
import * as z from '../../zod.js'
import { unexpected } from './failures.js'

export const IMPACT_TOOL = 'graph__graph_impact'

export interface McpImpactInput {
  kind: string
  name: string
  /** API group; "" for core. */
  group: string
  namespace?: string | undefined
  edge?: string | undefined
  maxDepth: number
}

export interface McpRelated {
  edge?: string
  /** "" for the core group. */
  group: string
  kind: string
  namespace?: string
  name: string
  /** Relation name without the transitive "+". */
  relation: string
}

export interface McpImpactResult {
  found: boolean
  object: Omit<McpRelated, 'relation'>
  /** The tool's `impactedBy`. */
  upstream: McpRelated[]
  /** The tool's `impacts`. */
  downstream: McpRelated[]
  associated: McpRelated[]
  summary: string
}

const Ref = z.looseObject({
  edge: z.optional(z.string()),
  group: z.optional(z.string()),
  kind: z.string(),
  namespace: z.optional(z.string()),
  name: z.string(),
  relation: z.string(),
})
type Ref = z.infer<typeof Ref>
// Empty lists arrive as null; a server that omits them means the same.
const RefList = z.nullish(z.array(Ref))
const ImpactOutput = z.looseObject({
  object: z.omit(Ref, { relation: true }),
  found: z.boolean(),
  impactedBy: RefList,
  impacts: RefList,
  associated: RefList,
  summary: z.string(),
})

/** Only the keys the tool accepts: it rejects extra ones, and undefined is not "absent" in JSON. */
export function impactArguments(input: McpImpactInput): Record<string, string | number> {
  const args: Record<string, string | number> = { kind: input.kind, name: input.name, group: input.group }
  if (input.namespace !== undefined) args.namespace = input.namespace
  if (input.edge !== undefined) args.edge = input.edge
  args.maxDepth = input.maxDepth
  return args
}

/** The call in a message's words: `get the impact of Deployment.apps shop/checkout from the MCP tool …`. */
export function impactOperation(input: McpImpactInput): string {
  const where = `${input.namespace ? `${input.namespace}/` : ''}${input.name}`
  return `get the impact of ${input.group ? `${input.kind}.${input.group}` : input.kind} ${where}${input.edge ? ` on edge ${input.edge}` : ''} from the MCP tool ${IMPACT_TOOL}`
}

/** The tool's structured output as ours; a shape we do not know is a protocol error. */
export function readImpact(structured: unknown, operation: string): McpImpactResult {
  const parsed = ImpactOutput.safeParse(structured)
  if (!parsed.success) throw unexpected(operation, 'tool output', parsed.error)
  const out = parsed.data
  const { relation: _relation, ...object } = related({ ...out.object, relation: '' })
  return {
    found: out.found,
    object,
    upstream: (out.impactedBy ?? []).map(related),
    downstream: (out.impacts ?? []).map(related),
    associated: (out.associated ?? []).map(related),
    summary: out.summary,
  }
}

/** Normalise a tool reference: missing group is the core group "", absent keys stay absent. */
function related(ref: Ref): McpRelated {
  const out: McpRelated = { group: ref.group ?? '', kind: ref.kind, name: ref.name, relation: ref.relation }
  if (ref.edge !== undefined) out.edge = ref.edge
  if (ref.namespace !== undefined) out.namespace = ref.namespace
  return out
}
