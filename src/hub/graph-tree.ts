/**
 * Reading the relation trees of a query row (docs/hub-facts.md, "Relations"): the engine nests a
 * transitive relation, and nested nodes carry no `cluster`.
 */
/** A row of a query answer, or a node of its relation trees, as the hub sent it. */
export interface ObjectResult {
  id?: string | undefined
  cluster?: string | undefined
  mutablePath?: unknown
  object?: Record<string, unknown> | undefined
  relations?: Record<string, ObjectResult[]> | undefined
  [key: string]: unknown
}

/** One node of a relation tree, as `walkRelations` hands it out. */
export interface RelationNode {
  /** The node exactly as the hub sent it. */
  node: ObjectResult
  /** The relation key it hangs under, as requested (`descendants+`, `references`). */
  relation: string
  /** 1 for the root's own relations, 2 for what hangs under those, and so on. */
  depth: number
  /** The object it hangs under (the root at depth 1). */
  parent: ObjectResult
  /**
   * The node's edge: its own `cluster` when the hub sent one, else the nearest ancestor's.
   * Nodes below the first level of a transitive relation come without `cluster` (docs/hub-facts.md,
   * "Relations"), and every relation but `linked` and `grouped` stays on its parent's edge.
   */
  cluster: string | undefined
  /** True when `cluster` came from an ancestor, not from the hub for this node. */
  inherited: boolean
}

/**
 * Every node of the relation trees under `root`, depth first, parents before children, each
 * relation's nodes in the order the hub sent them. Iterative, so a deep tree cannot overflow
 * the stack. The engine nests a transitive relation (a Deployment's ReplicaSets, under each
 * its Pods), so a reader of the first level alone misses the deeper objects.
 */
export function* walkRelations(root: ObjectResult): Generator<RelationNode> {
  const stack: RelationNode[] = []
  const pushChildren = (parent: ObjectResult, depth: number, cluster: string | undefined): void => {
    const children: RelationNode[] = []
    // Rows paged shallowly are not checked below the first level: skip what is not an object.
    const relations: unknown = parent.relations
    if (!relations || typeof relations !== 'object') return
    for (const [relation, nodes] of Object.entries(relations as Record<string, unknown>)) {
      if (!Array.isArray(nodes)) continue
      for (const node of nodes as unknown[]) {
        if (!node || typeof node !== 'object' || Array.isArray(node)) continue
        const own = clusterOf(node as ObjectResult)
        children.push({
          node: node as ObjectResult,
          relation,
          depth,
          parent,
          cluster: own ?? cluster,
          inherited: own === undefined && cluster !== undefined,
        })
      }
    }
    // Reversed onto the stack, so they come off in the hub's order.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as RelationNode)
  }
  pushChildren(root, 1, clusterOf(root))
  while (stack.length > 0) {
    const entry = stack.pop() as RelationNode
    yield entry
    pushChildren(entry.node, entry.depth + 1, entry.cluster)
  }
}

function clusterOf(object: ObjectResult): string | undefined {
  return typeof object.cluster === 'string' && object.cluster !== '' ? object.cluster : undefined
}
