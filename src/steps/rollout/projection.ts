/**
 * What a rollout poll asks the graph for: the fields the health rules read, and the fields each
 * manifest sets (what "synced" compares), each path cut at its first list. The engine's sparse
 * projection has no array step: a subtree under a list answers an object of nulls, never the
 * list, so a list is projected whole; and a leaf the object lacks answers `null`
 * (docs/hub-facts.md, "Projection"). Pure.
 */
import { isRecord } from '../../model/plain-value.js'

export type ProjectionTree = { [key: string]: true | ProjectionTree }

/**
 * A key the engine can look up as one step of a JSON path. A map with any other key (labels such
 * as `app.kubernetes.io/name`, annotations, a ConfigMap's `app.yaml`) is projected whole.
 */
const PATH_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Nesting past this is projected whole: no manifest goes deeper, and the walk stays bounded. */
const MAX_DEPTH = 12

/** The top-level fields of a manifest that "synced" compares (a ConfigMap's data has no `spec`). */
export const COMPARED_FIELDS = ['spec', 'data', 'binaryData'] as const

/** The status fields the health rules read; lists (conditions, container statuses) whole. */
const STATUS: ProjectionTree = {
  observedGeneration: true,
  conditions: true,
  containerStatuses: true,
  initContainerStatuses: true,
  loadBalancer: { ingress: true },
  ...Object.fromEntries(
    [
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'currentReplicas',
      'fullyLabeledReplicas',
      'currentRevision',
      'updateRevision',
      'desiredNumberScheduled',
      'currentNumberScheduled',
      'updatedNumberScheduled',
      'numberAvailable',
      'numberReady',
      'phase',
      'active',
      'succeeded',
      'failed',
      'startTime',
    ].map((field) => [field, true] as const),
  ),
}

/** What the health rules read of every kind. @internal */
export const HEALTH_PROJECTION: ProjectionTree = {
  apiVersion: true,
  kind: true,
  metadata: { name: true, namespace: true, generation: true, creationTimestamp: true, deletionTimestamp: true },
  spec: {
    replicas: true,
    paused: true,
    progressDeadlineSeconds: true,
    updateStrategy: true,
    completions: true,
    parallelism: true,
    suspend: true,
    type: true,
  },
  status: STATUS,
}

/** Adds to `tree` every path `value` sets, cut at the first list or at a map with a key no path can name. */
function addPaths(tree: ProjectionTree, value: Record<string, unknown>, depth: number): void {
  for (const [key, child] of Object.entries(value)) {
    if (tree[key] === true) continue
    const whole =
      !isRecord(child) ||
      depth >= MAX_DEPTH ||
      Object.keys(child).length === 0 ||
      !Object.keys(child).every((k) => PATH_KEY.test(k))
    if (whole) {
      tree[key] = true
      continue
    }
    const sub = (tree[key] ??= {}) as ProjectionTree
    addPaths(sub, child, depth + 1)
  }
}

/** `a` widened by `b`: a path projected whole in either stays whole. @internal */
export function mergeProjection(a: ProjectionTree, b: ProjectionTree): ProjectionTree {
  const out: ProjectionTree = { ...a }
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key]
    out[key] = mine === true || value === true ? true : mine ? mergeProjection(mine, value) : value
  }
  return out
}

/** The health fields, widened by what each manifest sets under the compared fields. */
export function rolloutProjection(expected: Iterable<Record<string, unknown>>): ProjectionTree {
  const set: ProjectionTree = {}
  for (const object of expected) {
    const compared: Record<string, unknown> = {}
    for (const field of COMPARED_FIELDS)
      if (object[field] !== undefined && object[field] !== null) compared[field] = object[field]
    addPaths(set, compared, 0)
  }
  return mergeProjection(HEALTH_PROJECTION, set)
}
