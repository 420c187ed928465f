/**
 * The impact report: what the `impact` command found, before any rendering. Renderers and
 * the result file read this model; nothing here knows about markdown or the hub's wire format.
 */
import type { NothingCollected, SkippedFile, SkippedTarget, Target } from '../../model/target.js'

export type Direction = 'upstream' | 'downstream' | 'associated'

/** A related object, listed once per direction with every relation that links it. */
export interface RelatedObject {
  edge?: string | undefined
  group: string
  kind: string
  namespace?: string | undefined
  name: string
  /** Relation names without the transitive "+", sorted; e.g. ["descendants", "selected-by"]. */
  relations: string[]
  /**
   * The relations (among `relations`) the action worked out itself from the objects the graph
   * stores, where the graph has no relation for them: a Service's selector, an HPA's target, a
   * name with a dot. Absent when every relation came from the graph.
   */
  derived?: string[] | undefined
}

/** The impact of one target on one edge where it exists. */
export interface TargetImpact {
  target: Target
  edge: string
  upstream: RelatedObject[]
  downstream: RelatedObject[]
  associated: RelatedObject[]
  /** The hub said the result was cut (row cap or limit), or the `namespaced` block hit its cap. */
  incomplete: boolean
  /** The `namespaced` block came back at its cap (200): more objects of the Namespace were not listed. */
  namespacedCapped?: boolean | undefined
  /** Associated objects left out: on another workspace, or on an edge this workspace has not engaged. */
  foreign?: number | undefined
  /** What the graph cannot tell about this target, said plainly rather than left as an empty list. */
  unknown?: string[] | undefined
}

export interface ImpactReport {
  source: 'query' | 'mcp'
  /** Distinct targets named by input or manifests, before edge lookup. */
  targets: Target[]
  impacts: TargetImpact[]
  /** Targets found on no edge: a new object, a stale edge, or missing visibility. */
  notFound: Target[]
  skippedFiles: SkippedFile[]
  /** Targets outside the allowed scope, listed and never queried. */
  skippedTargets: SkippedTarget[]
  /** The workspace's engaged edges, when they were read. */
  edges: string[]
  /** Distinct objects per direction across all targets and edges. */
  totals: Record<Direction, number>
  maxDepth: number
  /** The commit the report describes (PR head or GITHUB_SHA). */
  commit?: string | undefined
  warnings: string[]
  /** Set when no target was collected: what was searched. */
  nothing?: NothingCollected | undefined
}
