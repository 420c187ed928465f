/**
 * What a row says beyond its health, for the fleet-time rules: what binds a `targets` target to
 * this release (./binding.ts), which pods are its new revision's (./pods.ts), and an OnDelete
 * workload that runs no pod of its new template. Pure.
 */
import type { Revision } from './inputs.js'
import { at, conditionsOf, generationsOf, int, str } from './live-object.js'
import type { BindingFacts, Cell } from './cell.js'
import type { ProjectionTree } from './projection.js'
import type { RolloutTarget } from './targets.js'

/** A target named in `targets`: no manifest to compare, so it needs evidence of the release. */
export function isBound(target: RolloutTarget): boolean {
  return target.target.origin.kind === 'input'
}

/**
 * The fields these rules read beyond the health projection: the resourceVersion (a change of
 * a kind without a generation) and, with `revision`, the labels and annotations it may be in.
 */
export function releaseProjection(revision: Revision | undefined): ProjectionTree {
  const stamped: ProjectionTree = revision ? { labels: true, annotations: true } : {}
  return {
    metadata: { resourceVersion: true, ...stamped },
    ...(revision ? { spec: { template: { metadata: stamped } } } : {}),
  }
}

/** The deployment controller names the new ReplicaSet in its Progressing condition (`ReplicaSet "web-7d9f8" is progressing.`). */
const NEW_REPLICA_SET = /(?:ReplicaSet|replica set) "([^"]{1,253})"/

export function cellFacts(
  object: Record<string, unknown>,
  revision: Revision | undefined,
  bound: boolean,
): Pick<Cell, 'facts' | 'newPods' | 'onDeleteIdle'> {
  const out: Pick<Cell, 'facts' | 'newPods' | 'onDeleteIdle'> = {}
  const kind = str(object.kind)
  const generations = generationsOf(object)
  const { generation, observed } = generations.ok ? generations.value : {}
  const conditions = conditionsOf(object)
  const list = conditions.ok ? conditions.value : []
  if (bound) {
    const facts: BindingFacts = { generation, observed }
    const resourceVersion = str(at(object, 'metadata', 'resourceVersion'))
    if (resourceVersion) facts.resourceVersion = resourceVersion
    if (revision) facts.stamp = stampOf(object, revision)
    if (kind === 'Job')
      facts.running = !list.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')
    out.facts = facts
  }
  // Until the controller observes the new generation, every pod is the old revision's: judge none.
  if ((kind === 'Deployment' || kind === 'StatefulSet') && generation !== observed) out.newPods = {}
  else if (kind === 'Deployment') {
    const progressing = list.find((c) => c.type === 'Progressing')
    const name = progressing && NEW_REPLICA_SET.exec(progressing.message)?.[1]
    if (name) out.newPods = { replicaSet: name }
  } else if (kind === 'StatefulSet') {
    const hash = str(at(object, 'status', 'updateRevision'))
    if (hash) out.newPods = { revisionHash: hash }
  }
  if (onDeleteIdle(object, kind, generation, observed)) out.onDeleteIdle = true
  return out
}

/** The value every place that carries the key agrees on; the first other value when they differ; undefined when none does. */
function stampOf(object: Record<string, unknown>, revision: Revision): string | undefined {
  const values = [
    at(object, 'metadata', 'labels', revision.key),
    at(object, 'metadata', 'annotations', revision.key),
    at(object, 'spec', 'template', 'metadata', 'labels', revision.key),
    at(object, 'spec', 'template', 'metadata', 'annotations', revision.key),
  ].filter((v): v is string => typeof v === 'string')
  return values.find((v) => v !== revision.value) ?? values[0]
}

/** OnDelete, the new generation observed, pods wanted, and none of them on the new template. */
function onDeleteIdle(
  object: Record<string, unknown>,
  kind: string,
  generation: number | undefined,
  observed: number | undefined,
): boolean {
  if (str(at(object, 'spec', 'updateStrategy', 'type')) !== 'OnDelete') return false
  if (generation === undefined || generation !== observed) return false
  if (kind === 'StatefulSet')
    return (
      int(at(object, 'spec', 'replicas'), 1) > 0 &&
      int(at(object, 'status', 'updatedReplicas'), 0) === 0 &&
      str(at(object, 'status', 'currentRevision')) !== str(at(object, 'status', 'updateRevision'))
    )
  if (kind === 'DaemonSet')
    // Pods scheduled, none of them on the new template (a new DaemonSet's first pods are).
    return (
      int(at(object, 'status', 'currentNumberScheduled'), 0) > 0 &&
      int(at(object, 'status', 'updatedNumberScheduled'), 0) === 0
    )
  return false
}
