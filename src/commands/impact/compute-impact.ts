/**
 * `command: impact` — targets → impact on every edge where each exists → one report.
 * The source is the query API (default) or the hub's graph_impact MCP tool; both feed the
 * same classification, so they report the same thing for the same fleet. What the graph's
 * relations leave out (walks.ts: the Pods that use a ConfigMap, a workload's Pods and what
 * selects them) and the tree levels the tool does not read come from the query API either way.
 */
import { HubProtocolError, HubRequestError } from '../../hub/errors.js'
import { edgeOf, type GraphClient, type QueryStatus } from '../../hub/graph.js'
import type { McpGraphClient } from '../../hub/mcp/client.js'
import { baseRelation, classifyRelated, mergeRelated, withoutOwnSelected } from './classify.js'
import type { Direction, ImpactReport, TargetImpact } from './model.js'
import { objectKey, type SkippedFile, type Target } from '../../model/target.js'
import {
  buildImpactQuery,
  DEFAULT_ROOT_LIMIT,
  dropForeignAssociated,
  impactsFromStatus,
  isUnreferenceable,
  NAMESPACED_CAP,
  requestLimiter,
  TRANSITIVE_RELATIONS,
  type Limiter,
} from './query-impact.js'
import { addPodWalks, unsyncedSecretImpacts } from './walks.js'
import type { Verdict } from '../../runner/workflow.js'
import type { ImpactSettings } from './inputs.js'
import { partitionByScope } from '../../sources/scope.js'

/** The slice of the MCP client this command needs. */
export type ImpactTool = Pick<McpGraphClient, 'impact'>

export interface ImpactDeps {
  graph: GraphClient
  tool?: ImpactTool | undefined
  log: (message: string) => void
  signal?: AbortSignal
}

export interface ImpactInputs {
  /** Every target collected; those outside `settings.scope` are listed as skipped, never queried. */
  targets: readonly Target[]
  skippedFiles: readonly SkippedFile[]
  commit?: string | undefined
}

export async function computeImpact(
  settings: ImpactSettings,
  inputs: ImpactInputs,
  deps: ImpactDeps,
): Promise<ImpactReport> {
  const warnings: string[] = []
  let edges: string[] | undefined
  // every hub request of the step, whichever fan-out sends it, waits for a place here
  const limit = requestLimiter()
  const workspaceEdges = async () => (edges ??= await limit(() => deps.graph.edges(deps.signal)))
  const { inScope: targets, skipped: skippedTargets } = partitionByScope(inputs.targets, settings.scope)

  const perTarget = await Promise.all(targets.map((target) => impactsOfTarget(target, settings, { ...deps, limit })))

  const impacts = perTarget.flatMap((found) => found.sort((a, b) => a.edge.localeCompare(b.edge)))
  let notFound = targets.filter((_, index) => (perTarget[index] ?? []).length === 0)
  if (notFound.length > 0) await workspaceEdges()
  const secrets = unsyncedSecretImpacts(notFound, edges ?? [])
  warnings.push(...(await addPodWalks(deps.graph, [...impacts, ...secrets], settings.maxDepth, limit, deps.signal)))
  for (const impact of impacts) impact.upstream = withoutOwnSelected(impact.upstream, impact.downstream)
  const secretsUsed = secrets.filter((impact) => impact.downstream.length > 0)
  if (secretsUsed.length > 0) {
    impacts.push(...secretsUsed)
    notFound = notFound.filter((target) => !secretsUsed.some((impact) => impact.target === target))
    for (const target of new Set(secretsUsed.map((impact) => impact.target)))
      warnings.push(
        `Secret ${target.namespace ?? ''}/${target.name} is not in the graph (it syncs no Secrets by default): the Pods that name it, and their owners, were read from the Pods' specs (derived).`,
      )
  }
  for (const impact of impacts) {
    if (impact.namespacedCapped)
      warnings.push(
        `Namespace ${impact.target.name} on ${impact.edge} holds at least ${NAMESPACED_CAP} objects, the most the \`namespaced\` relation lists: the rest are not in the report, and counts are a lower bound.`,
      )
    else if (impact.incomplete)
      warnings.push(
        `The hub cut the result for ${impact.target.kind} ${impact.target.name} on ${impact.edge} (row cap): counts are a lower bound.`,
      )
    if (isUnreferenceable(impact.target))
      impact.unknown = [
        ...(impact.unknown ?? []),
        `What uses ${impact.target.kind} ${impact.target.name}: the engine's \`references\` never match a cluster-scoped object (they join on equal namespaces), so the graph names none, which does not mean there are none.`,
      ]
  }
  const foreign = await dropForeignAssociated(impacts, workspaceEdges)
  if (foreign > 0)
    warnings.push(
      `${foreign} associated object${foreign === 1 ? ' was' : 's were'} left out: the graph's \`grouped\` (and \`linked\` with a \`cluster\` key) also reach other workspaces' objects and rows of edges this workspace has not engaged.`,
    )

  return {
    source: settings.source,
    targets,
    impacts,
    notFound,
    skippedFiles: [...inputs.skippedFiles],
    skippedTargets,
    edges: edges ?? [],
    totals: distinctTotals(impacts),
    maxDepth: settings.maxDepth,
    commit: inputs.commit,
    warnings,
  }
}

/** The impact of one target on each edge where it exists; each request waits for the limiter. */
async function impactsOfTarget(
  target: Target,
  settings: ImpactSettings,
  deps: ImpactDeps & { limit: Limiter },
): Promise<TargetImpact[]> {
  const { limit } = deps
  if (settings.source === 'mcp') {
    const tool = deps.tool
    if (!tool) throw new Error('impact-source is mcp but no MCP client was given')
    // The tool answers for its first match only: ask it once per place the object exists.
    const found: TargetImpact[] = []
    for (const place of await limit(() => placesOf(deps.graph, target, deps.signal))) {
      const impact = await limit(() =>
        impactFromTool(tool, { ...target, namespace: place.namespace }, place.edge, settings.maxDepth, deps.signal),
      )
      // The tool runs the query API's own query: not finding what the query API just found means
      // it asked as another tenant, which is what an `mcp-url` with the cluster id does (docs/hub-facts.md, "MCP").
      if (!impact) throw toolMissesObject(target, place, settings.mcpUrl)
      found.push(await withDeeperLevels(impact, settings.maxDepth, deps))
    }
    return found
  }
  // A relation query across edges merges same-named objects into one node (docs/hub-facts.md, "Graph queries"):
  // ask one edge at a time, each edge where the target exists, so each gets its own relations.
  const edgesOfTarget = target.edge
    ? [target.edge]
    : [...new Set((await limit(() => placesOf(deps.graph, target, deps.signal))).map((place) => place.edge))]
  const found: TargetImpact[] = []
  for (const edge of edgesOfTarget) {
    const onEdge = { ...target, edge }
    const operation = `compute the impact of ${target.kind} ${target.name} on edge ${edge}`
    const status = onePage(
      await limit(() => deps.graph.query(buildImpactQuery(onEdge, settings.maxDepth), deps.signal, operation)),
      operation,
    )
    found.push(...impactsFromStatus(status, target))
  }
  return found
}

/**
 * The tool reads only the first level of a transitive relation's tree (docs/hub-facts.md,
 * "Impact"): when it names a first level, the levels below come from the
 * query API, so this route reaches what the query route reaches.
 */
async function withDeeperLevels(
  impact: TargetImpact,
  maxDepth: number,
  deps: ImpactDeps & { limit: Limiter },
): Promise<TargetImpact> {
  const transitive = new Set(TRANSITIVE_RELATIONS.map(baseRelation))
  const hasTree = [...impact.downstream, ...impact.associated].some((object) =>
    object.relations.some((relation) => transitive.has(relation)),
  )
  if (!hasTree) return impact
  const onEdge = { ...impact.target, edge: impact.edge }
  const operation = `read the deeper levels of the impact of ${impact.target.kind} ${impact.target.name} on edge ${impact.edge}`
  const status = onePage(
    await deps.limit(() =>
      deps.graph.query(buildImpactQuery(onEdge, maxDepth, TRANSITIVE_RELATIONS), deps.signal, operation),
    ),
    operation,
  )
  for (const deeper of impactsFromStatus(status, onEdge)) {
    impact.downstream = mergeRelated(impact.downstream, deeper.downstream)
    impact.associated = mergeRelated(impact.associated, deeper.associated)
    impact.incomplete ||= deeper.incomplete
  }
  return impact
}

interface Place {
  edge: string
  namespace: string | undefined
  /** The tenant path the graph labels rows with (`cluster` is `<workspace path>/<edge>`). */
  workspacePath: string | undefined
}

/** Every (edge, namespace) where the target exists, from one light query. */
async function placesOf(graph: GraphClient, target: Target, signal?: AbortSignal): Promise<Place[]> {
  const filter: Record<string, unknown> = {
    groupKind: { apiGroup: target.group, kind: target.kind },
    name: target.name,
  }
  if (target.namespace) filter.namespace = target.namespace
  const spec: Record<string, unknown> = {
    filter: { objects: [filter] },
    objects: { id: true, cluster: true, object: { metadata: { namespace: true } } },
  }
  if (target.edge) spec.cluster = { name: target.edge }
  const operation = `look up ${target.kind} ${target.name} on the workspace's edges`
  const status = onePage(await graph.query(spec, signal, operation), operation)
  return (status.objects ?? []).map((object) => {
    const namespace = (object.object?.metadata as { namespace?: unknown } | undefined)?.namespace
    const cut = object.cluster?.lastIndexOf('/') ?? -1
    return {
      edge: edgeOf(object.cluster) ?? target.edge ?? '',
      namespace: typeof namespace === 'string' && namespace ? namespace : undefined,
      workspacePath: object.cluster && cut > 0 ? object.cluster.slice(0, cut) : undefined,
    }
  })
}

/**
 * These queries set no `limit`, so the hub answers one page of at most 100 roots. More is an
 * answer no hub gives, and each root would be classified and fan out into further queries.
 */
function onePage(status: QueryStatus, operation: string): QueryStatus {
  const roots = status.objects?.length ?? 0
  if (roots <= DEFAULT_ROOT_LIMIT) return status
  throw new HubProtocolError({
    operation,
    hubMessage: `${roots.toLocaleString('en-US')} objects in one page`,
    hint: `A page of this query holds at most ${DEFAULT_ROOT_LIMIT} objects, so the answer was not used and no query followed from it. Check that \`hub-url\` is the hub.`,
  })
}

const MCP_PATH = /^(.*\/services\/mcpserver\/)([^]+?)(\/apis\/hub\.sh\/v1alpha1\/mcpservers\/[^/]+\/mcp\/?)$/

/**
 * The query API found the target and the tool did not. Say which `mcp-url` form works, with the
 * exact URL when the one given has the hub's MCP path and the workspace path is known.
 */
function toolMissesObject(target: Target, place: Place, mcpUrl: URL | undefined): HubRequestError {
  const what = `${target.group ? `${target.kind}.${target.group}` : target.kind} ${place.namespace ? `${place.namespace}/` : ''}${target.name} on edge ${place.edge}`
  const form = '…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp'
  let fix = `Set \`mcp-url\` to the form ${form}, with the workspace path where the hub's connect page puts the cluster id.`
  const parts = mcpUrl ? MCP_PATH.exec(mcpUrl.pathname) : null
  if (mcpUrl && parts && place.workspacePath) {
    let given = parts[2] ?? ''
    try {
      given = decodeURIComponent(given)
    } catch {
      // keep it as written
    }
    if (given !== place.workspacePath) {
      const fixed = new URL(mcpUrl)
      fixed.pathname = `${parts[1] ?? ''}${encodeURIComponent(place.workspacePath)}${parts[3] ?? ''}`
      fix = `\`mcp-url\` names "${given}" where the graph tools need the workspace path "${place.workspacePath}" (the hub's connect page hands out the cluster-id form, which finds nothing): set \`mcp-url\` to ${fixed.href}`
    }
  }
  return new HubRequestError({
    operation: `get the impact of ${what} from the MCP tool`,
    hubMessage: 'found:false, although the query API finds the object there',
    hint: `The MCP tool asked the graph as another tenant than the query API, so every answer it gives would be "not found". ${fix} Or use \`impact-source: query\`.`,
  })
}

async function impactFromTool(
  tool: ImpactTool,
  target: Target,
  edge: string,
  maxDepth: number,
  signal?: AbortSignal,
): Promise<TargetImpact | undefined> {
  const input: Parameters<ImpactTool['impact']>[0] = {
    kind: target.kind,
    name: target.name,
    group: target.group,
    edge,
    maxDepth,
  }
  if (target.namespace) input.namespace = target.namespace
  const result = await tool.impact(input, signal)
  if (!result.found) return undefined
  const self = { ...result.object, group: result.object.group ?? '', edge: result.object.edge ?? edge }
  const refs = [...result.upstream, ...result.downstream, ...result.associated].map((ref) => ({
    ...ref,
    relation: baseRelation(ref.relation),
  }))
  // The tool caps `namespaced` as the query does: at the cap, the list is incomplete.
  const namespacedCapped = refs.filter((ref) => ref.relation === 'namespaced').length >= NAMESPACED_CAP
  return {
    target: { ...target, namespace: target.namespace ?? self.namespace },
    edge: self.edge,
    ...classifyRelated(refs, objectKey(self)),
    incomplete: namespacedCapped,
    ...(namespacedCapped ? { namespacedCapped } : {}),
  }
}

/** Distinct objects per direction across every target and edge. */
function distinctTotals(impacts: readonly TargetImpact[]): Record<Direction, number> {
  const count = (direction: Direction) => new Set(impacts.flatMap((impact) => impact[direction].map(objectKey))).size
  return { upstream: count('upstream'), downstream: count('downstream'), associated: count('associated') }
}

export function impactVerdict(report: ImpactReport, failOnDownstream: number | undefined): Verdict {
  const counts = `${report.totals.upstream} upstream, ${report.totals.downstream} downstream, ${report.totals.associated} associated`
  if (report.nothing) {
    const { searched, quiet } = report.nothing
    // A gate that checked nothing must not pass: a mistyped glob would otherwise gate every change green.
    if (failOnDownstream !== undefined && !quiet)
      return {
        status: 'fail',
        message: `Impact: nothing was checked: ${searched}. fail-on-downstream (${failOnDownstream}) cannot pass on no target: fix the globs (relative to the workspace), or write the files in an earlier step.`,
      }
    return { status: 'pass', message: `Impact: nothing was checked: ${searched}.` }
  }
  if (report.impacts.length === 0) {
    return {
      status: 'pass',
      message: `Impact: none of the ${report.targets.length} target(s) was found on any edge; see the job summary for why that proves nothing.`,
    }
  }
  const scope = `${report.impacts.length} target-edge pair${report.impacts.length === 1 ? '' : 's'}`
  const cut = report.impacts.filter((impact) => impact.incomplete).length
  if (failOnDownstream !== undefined && cut > 0 && report.totals.downstream <= failOnDownstream) {
    return {
      status: 'fail',
      message: `Impact: ${report.totals.downstream} distinct objects downstream is a lower bound (the result was incomplete for ${cut} target-edge pair${cut === 1 ? '' : 's'}: see the warnings), so fail-on-downstream (${failOnDownstream}) cannot pass on it. ${counts} across ${scope}.`,
    }
  }
  if (failOnDownstream !== undefined && report.totals.downstream > failOnDownstream) {
    return {
      status: 'fail',
      message: `Impact: ${report.totals.downstream} distinct objects downstream, more than fail-on-downstream (${failOnDownstream}). ${counts} across ${scope}.`,
    }
  }
  return { status: 'pass', message: `Impact: ${counts} across ${scope}.` }
}
