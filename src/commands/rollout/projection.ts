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

/** Top-level fields "synced" never compares: the identity, and what the API server and controllers write. */
const NOT_COMPARED = new Set(['apiVersion', 'kind', 'metadata', 'status'])
/** kubectl's copy of the applied manifest: read as provenance (./provenance.ts), never compared as an annotation. */
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/**
 * Labels and annotations a delivery tool adds to what it applies (Argo CD's tracking, Flux's
 * owner labels, kapp's, Helm's): the applied configuration holds them and the manifest does not,
 * which is no removal waiting to be applied.
 */
const DELIVERY_KEY =
  /^(?:argocd\.argoproj\.io\/|kustomize\.toolkit\.fluxcd\.io\/|helm\.toolkit\.fluxcd\.io\/|kapp\.k14s\.io\/|meta\.helm\.sh\/|app\.kubernetes\.io\/(?:instance|managed-by)$|kubectl\.kubernetes\.io\/last-applied-configuration$)/

/** A label or annotation key a delivery tool adds on apply (or kubectl's own record). */
export function isDeliveryKey(key: string): boolean {
  return DELIVERY_KEY.test(key)
}

/**
 * What of a manifest "synced" compares: every top-level field but identity and status (`spec`,
 * `data`, `rules`, `subjects`, `roleRef`, a ServiceAccount's `imagePullSecrets`, `secrets`,
 * `automountServiceAccountToken`…), and the labels and annotations it sets.
 */
export function comparedPart(expected: Record<string, unknown>): Record<string, unknown> {
  const part: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(expected))
    if (!NOT_COMPARED.has(field) && value !== undefined && value !== null) part[field] = value
  const metadata = expected.metadata
  if (isRecord(metadata)) {
    const labels = isRecord(metadata.labels) ? metadata.labels : undefined
    const annotations = isRecord(metadata.annotations)
      ? Object.fromEntries(Object.entries(metadata.annotations).filter(([k]) => k !== LAST_APPLIED))
      : undefined
    if (labels || annotations)
      part.metadata = { ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) }
  }
  return part
}

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
  metadata: {
    name: true,
    namespace: true,
    generation: true,
    creationTimestamp: true,
    deletionTimestamp: true,
  },
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

/** `a` widened by `b`: a path projected whole in either stays whole. */
export function mergeProjection(a: ProjectionTree, b: ProjectionTree): ProjectionTree {
  const out: ProjectionTree = { ...a }
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key]
    out[key] = mine === true || value === true ? true : mine ? mergeProjection(mine, value) : value
  }
  return out
}

/**
 * What shows which release wrote an object (./provenance.ts): a map and a list, so whole. Asked
 * only where a manifest sets something to compare: the last-applied annotation is a copy of the
 * manifest and managedFields are as long again, so a gate on `targets` alone does not pay for them.
 */
const PROVENANCE: ProjectionTree = { metadata: { annotations: true, managedFields: true } }

/** The health fields, widened by what each manifest sets under the compared fields, and the provenance fields then. */
export function rolloutProjection(expected: Iterable<Record<string, unknown>>): ProjectionTree {
  const set: ProjectionTree = {}
  let compares = false
  for (const object of expected) {
    const part = comparedPart(object)
    if (Object.keys(part).length > 0) compares = true
    addPaths(set, part, 0)
  }
  return mergeProjection(compares ? mergeProjection(HEALTH_PROJECTION, PROVENANCE) : HEALTH_PROJECTION, set)
}
