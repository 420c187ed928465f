// The impact tool's logic (docs/hub-facts.md, "Impact"): the query it runs, how its result is
// sorted into impactedBy / impacts / associated, and how its arguments are checked.

import type { Fleet } from './fleet.ts'
import type { ExecuteOptions, ObjectResult, QuerySpec, QueryStatus, Tenant } from './query.ts'
import { edgeOfCluster, executeQuery } from './query.ts'
import { relationDirection } from './relations.ts'

export type ImpactInput = {
  kind: string
  name: string
  edge?: string
  group?: string
  namespace?: string
  maxDepth?: number
}

type ImpactRef = { edge?: string; group?: string; kind: string; namespace?: string; name: string; relation: string }

export type ImpactResult = {
  object: Omit<ImpactRef, 'relation'>
  found: boolean
  impactedBy: ImpactRef[] | null
  impacts: ImpactRef[] | null
  associated: ImpactRef[] | null
  summary: string
}

const IMPACT_DEFAULT_MAX_DEPTH = 5
const IMPACT_RELATIONS = [
  'descendants+',
  'references',
  'selects',
  'selected-by',
  'owners',
  'linked+',
  'grouped',
  'namespace',
  'namespaced',
] as const

/** The QuerySpec the impact tool runs (docs/hub-facts.md, "Impact"). */
export function buildImpactQuery(input: ImpactInput): QuerySpec {
  const filter: NonNullable<NonNullable<QuerySpec['filter']>['objects']>[number] = {
    groupKind: { apiGroup: input.group ?? '', kind: input.kind },
    name: input.name,
  }
  if (input.namespace) filter.namespace = input.namespace
  const related = {
    id: true,
    cluster: true,
    object: { kind: true, apiVersion: true, metadata: { name: true, namespace: true } },
  }
  const relations: NonNullable<NonNullable<QuerySpec['objects']>['relations']> = {}
  for (const r of IMPACT_RELATIONS)
    relations[r] = r === 'namespaced' ? { limit: 200, objects: related } : { objects: related }
  const spec: QuerySpec = {
    filter: { objects: [filter] },
    maxDepth: input.maxDepth ?? IMPACT_DEFAULT_MAX_DEPTH,
    objects: { id: true, cluster: true, relations },
  }
  if (input.edge) spec.cluster = { name: input.edge }
  return spec
}

function refOf(r: ObjectResult, relation: string): ImpactRef {
  const o = (r.object ?? {}) as { kind?: string; apiVersion?: string; metadata?: { name?: string; namespace?: string } }
  const ref: ImpactRef = { kind: o.kind ?? '', name: o.metadata?.name ?? '', relation }
  if (r.cluster) ref.edge = edgeOfCluster(r.cluster)
  const av = o.apiVersion ?? ''
  if (av.includes('/')) ref.group = av.slice(0, av.indexOf('/'))
  if (o.metadata?.namespace) ref.namespace = o.metadata.namespace
  // stable key order: edge, group, kind, namespace, name, relation
  const out: ImpactRef = {} as ImpactRef
  if (ref.edge !== undefined) out.edge = ref.edge
  if (ref.group !== undefined) out.group = ref.group
  out.kind = ref.kind
  if (ref.namespace !== undefined) out.namespace = ref.namespace
  out.name = ref.name
  out.relation = ref.relation
  return out
}

/** Sorts the anchor's (first object's) relations into impactedBy / impacts / associated, as the tool does. */
export function classifyImpact(status: QueryStatus, input: ImpactInput): ImpactResult {
  const anchor = status.objects?.[0]
  const requested: Omit<ImpactRef, 'relation'> = { kind: input.kind, name: input.name }
  if (input.edge) requested.edge = input.edge
  if (input.group) requested.group = input.group
  if (input.namespace) requested.namespace = input.namespace
  if (!anchor) {
    const where = `${input.namespace ? `${input.namespace}/` : ''}${input.name}`
    return {
      object: requested,
      found: false,
      impactedBy: null,
      impacts: null,
      associated: null,
      summary: `${input.kind} ${where} was not found${input.edge ? ` on edge ${input.edge}` : ''}. The object may not exist, or the fleet sync may still be catching up; an empty result does not prove absence.`,
    }
  }
  const up: ImpactRef[] = []
  const down: ImpactRef[] = []
  const lateral: ImpactRef[] = []
  const seen = new Set<string>()
  for (const [name, list] of Object.entries(anchor.relations ?? {})) {
    const dir = relationDirection(name)
    if (!dir) continue
    const relation = name.endsWith('+') ? name.slice(0, -1) : name
    for (const r of list) {
      const ref = refOf(r, relation)
      const key = JSON.stringify(ref)
      if (seen.has(key)) continue
      seen.add(key)
      ;(dir === 'upstream' ? up : dir === 'downstream' ? down : lateral).push(ref)
    }
  }
  const self = refOf({ ...anchor, object: anchor.object ?? {} }, '')
  const { relation: _drop, ...object } = self
  void _drop
  const where = `${object.namespace ? `${object.namespace}/` : ''}${object.name}`
  const summary = `${object.kind} ${where}${object.edge ? ` on edge ${object.edge}` : ''}: ${up.length} upstream dependenc${up.length === 1 ? 'y' : 'ies'} (impactedBy), ${down.length} downstream dependent${down.length === 1 ? '' : 's'} (impacts), ${lateral.length} associated. Derived from declared relationships only (owner references, spec references, selectors, namespace membership, declared links); runtime traffic is not traced.${status.incomplete ? ' The result was truncated at the row cap.' : ''}`
  return {
    object,
    found: true,
    impactedBy: up.length ? up : null,
    impacts: down.length ? down : null,
    associated: lateral.length ? lateral : null,
    summary,
  }
}

/** A bad argument to the impact tool, as the provider reports it. */
export class ToolError extends Error {}

const IMPACT_KEYS = new Set(['kind', 'name', 'edge', 'group', 'namespace', 'maxDepth'])

export function parseImpactInput(args: unknown): ImpactInput {
  if (args === undefined || args === null) throw new ToolError('invalid input: kind and name are required')
  if (typeof args !== 'object' || Array.isArray(args)) throw new ToolError('invalid input: arguments must be an object')
  const a = args as Record<string, unknown>
  const extra = Object.keys(a).filter((k) => !IMPACT_KEYS.has(k))
  if (extra.length)
    throw new ToolError(
      `invalid input: unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `"${k}"`).join(', ')}`,
    )
  for (const k of ['kind', 'name', 'edge', 'group', 'namespace']) {
    if (a[k] !== undefined && typeof a[k] !== 'string') throw new ToolError(`invalid input: ${k} must be a string`)
  }
  if (!a.kind) throw new ToolError('invalid input: kind is required')
  if (!a.name) throw new ToolError('invalid input: name is required')
  if (a.maxDepth !== undefined && (typeof a.maxDepth !== 'number' || !Number.isInteger(a.maxDepth) || a.maxDepth < 0))
    throw new ToolError('invalid input: maxDepth must be a non-negative integer')
  if (typeof a.maxDepth === 'number' && a.maxDepth > 20)
    throw new ToolError(`maxDepth ${a.maxDepth} exceeds the maximum of 20`)
  const input: ImpactInput = { kind: a.kind as string, name: a.name as string }
  for (const k of ['edge', 'group', 'namespace'] as const) if (typeof a[k] === 'string') input[k] = a[k]
  if (typeof a.maxDepth === 'number' && a.maxDepth > 0) input.maxDepth = a.maxDepth
  return input
}

/** Runs the impact tool directly (what `graph__graph_impact` returns as structuredContent). */
export function runImpact(
  fleet: Fleet,
  input: ImpactInput,
  tenant?: Tenant | string | null,
  opts: ExecuteOptions = {},
): ImpactResult {
  return classifyImpact(executeQuery(fleet, buildImpactQuery(input), tenant, opts), input)
}
