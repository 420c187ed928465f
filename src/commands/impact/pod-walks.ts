/**
 * The graph's `references` start only at Pods, and there is no reverse relation
 * (docs/hub-facts.md, "Relations"): what uses a ConfigMap, and what a workload's Pods use, is
 * read from the Pods. One scan per (edge, namespace) lists its Pods with their spec's
 * reference fields, their labels, the engine's own `references` and their `owners+` tree.
 * Pure reading of the scanned rows lives here; walks.ts sends the queries.
 */
import { walkRelations, type ObjectResult, type QuerySpec } from '../../hub/graph.js'
import { podSpecReferences, stringMap, type NamedRef } from './pod-spec.js'
import { refOf } from './query-impact.js'
import { isRecord } from '../../model/plain-value.js'

export interface OwnerNode {
  group: string
  kind: string
  name: string
  /** From the Pod's `ownerReferences` only: the graph dropped it (a dot in its name). */
  derived: boolean
  /** The owners between the Pod and this one, nearest the Pod first. */
  between: OwnerNode[]
}

interface PodReference extends NamedRef {
  /** The engine's `references` of the Pod named it too. */
  confirmed: boolean
}

export interface PodFacts {
  name: string
  labels: Record<string, string>
  references: PodReference[]
  /** Every owner at every level of the Pod's `owners+` tree. */
  owners: OwnerNode[]
}

const RELATED = { object: { kind: true, apiVersion: true, metadata: { name: true } } }

/**
 * The Pods of one (edge, namespace). Lists are projected whole: the engine's projection has no
 * array step, so `containers: {env: true}` would come back as an object of nulls.
 */
export function podScanQuery(edge: string, namespace: string, maxDepth: number): QuerySpec {
  return {
    cluster: { name: edge },
    filter: { objects: [{ groupKind: { apiGroup: '', kind: 'Pod' }, namespace }] },
    maxDepth,
    objects: {
      id: true,
      cluster: true,
      object: {
        metadata: { name: true, labels: true, ownerReferences: true },
        spec: { volumes: true, containers: true, serviceAccountName: true, imagePullSecrets: true },
      },
      relations: { 'owners+': { objects: RELATED }, references: { objects: RELATED } },
    },
  }
}

export function podFacts(row: ObjectResult): PodFacts | undefined {
  const object = row.object ?? {}
  const metadata = isRecord(object.metadata) ? object.metadata : {}
  if (typeof metadata.name !== 'string' || metadata.name === '') return undefined
  const confirmed = new Set<string>()
  for (const related of row.relations?.references ?? []) {
    const ref = refOf(related, 'references')
    confirmed.add(`${ref.kind}/${ref.name}`)
  }
  const references: PodReference[] = []
  for (const ref of podSpecReferences(object.spec)) {
    const known = confirmed.has(`${ref.kind}/${ref.name}`)
    // The engine answers every reference to an object it holds, except a name with a dot, which
    // its tree drops. Any other name it does not confirm is an object the graph does not hold
    // (Secrets are not synced by default): kept, unconfirmed, so a changed Secret still finds the
    // Pods that name it; never listed as what a Pod uses (walks.ts).
    references.push({ ...ref, confirmed: known })
  }
  return {
    name: metadata.name,
    labels: stringMap(metadata.labels),
    references,
    owners: ownersOf(row, metadata.ownerReferences),
  }
}

function ownersOf(row: ObjectResult, ownerReferences: unknown): OwnerNode[] {
  const nodes = new Map<ObjectResult, OwnerNode>()
  const owners: OwnerNode[] = []
  for (const { node, relation, parent } of walkRelations(row)) {
    if (relation !== 'owners+') continue
    const ref = refOf(node, 'owners')
    const above = nodes.get(parent)
    const owner: OwnerNode = {
      group: ref.group,
      kind: ref.kind,
      name: ref.name,
      derived: false,
      between: above ? [...above.between, above] : [],
    }
    nodes.set(node, owner)
    owners.push(owner)
  }
  // A direct owner with a dot in its name is dropped from the tree; its reference still names it.
  for (const reference of Array.isArray(ownerReferences) ? ownerReferences.filter(isRecord) : []) {
    const { kind, name, apiVersion } = reference
    if (typeof kind !== 'string' || typeof name !== 'string' || !name.includes('.')) continue
    const group =
      typeof apiVersion === 'string' && apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
    if (!owners.some((owner) => owner.kind === kind && owner.name === name && owner.group === group))
      owners.push({ group, kind, name, derived: true, between: [] })
  }
  return owners
}

/** The Pods that are `target` or that it owns at any depth, each with the owners in between. */
export function podsOf(
  pods: readonly PodFacts[],
  target: { group: string; kind: string; name: string },
): Array<{ pod: PodFacts; between: OwnerNode[] }> {
  const found: Array<{ pod: PodFacts; between: OwnerNode[] }> = []
  for (const pod of pods) {
    if (target.group === '' && target.kind === 'Pod') {
      if (pod.name === target.name) found.push({ pod, between: [] })
      continue
    }
    const owner = pod.owners.find(
      (node) => node.group === target.group && node.kind === target.kind && node.name === target.name,
    )
    if (owner) found.push({ pod, between: owner.between })
  }
  return found
}
