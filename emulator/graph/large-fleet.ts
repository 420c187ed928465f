// The large, deterministic fleet of the scale and paging tests and the bench: a fan-out Deployment
// and filler units spread over many edges and namespaces, topped up to an exact object count.

import { createFleet, timestamp, type Fleet, type FleetObject, type FleetOptions, type ObjectMeta } from './fleet.ts'

export type LargeFleetOptions = FleetOptions & {
  /** Exact number of objects to generate. */
  objects: number
  /** Number of edges (`edge-00`, `edge-01`, ...); default 3. */
  edges?: number
  /** Pods of the fan-out Deployment (`bulk/fanout` on edge-00); default min(5000, objects/4). */
  fanout?: number
  /** Number of `ns-NN` namespaces for the filler objects per edge; default 10. */
  namespaces?: number
}

export function largeEdgeName(i: number): string {
  return `edge-${String(i).padStart(2, '0')}`
}

/**
 * Deterministic large fleet (no randomness). Layout:
 * - per edge: Namespaces `default`, `bulk`, `ns-00`..`ns-NN`.
 * - on edge-00, namespace `bulk`: ConfigMap `fanout-config`, Secret `fanout-secret`, ServiceAccount `fanout`,
 *   Deployment `fanout` → ReplicaSet `fanout-6f7d8c9b5` → `fanout` Pods (each referencing the ConfigMap,
 *   Secret and ServiceAccount), Service `fanout` and PDB `fanout` selecting them.
 * - filler units round-robin over edges and namespaces: Deployment `app-K` → ReplicaSet → 2 Pods,
 *   ConfigMap `app-K-config`, Service `app-K` (the same `app-K` name exists on every edge).
 * - topped up to exactly `objects` with ConfigMaps `extra-NNNNNN` on edge-00 in `bulk`.
 */
export function createLargeFleet(opts: LargeFleetOptions): Fleet {
  const total = Math.max(0, Math.floor(opts.objects))
  const edgeCount = Math.max(1, Math.floor(opts.edges ?? 3))
  const nsCount = Math.max(1, Math.floor(opts.namespaces ?? 10))
  const edges = Array.from({ length: edgeCount }, (_, i) => largeEdgeName(i))
  const objects: FleetObject[] = []
  let n = 0
  const full = () => objects.length >= total
  const mk = (
    edge: string,
    apiVersion: string,
    kind: string,
    name: string,
    namespace: string | undefined,
    labels?: Record<string, string>,
    owner?: FleetObject,
    spec?: unknown,
    status?: unknown,
  ): FleetObject => {
    const i = n++
    const metadata: ObjectMeta = {
      name,
      uid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      creationTimestamp: timestamp(i),
    }
    if (namespace !== undefined) metadata.namespace = namespace
    if (labels) metadata.labels = labels
    if (owner)
      metadata.ownerReferences = [
        {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.metadata.name,
          uid: owner.metadata.uid,
          controller: true,
        },
      ]
    const o: FleetObject = { edge, apiVersion, kind, metadata }
    if (spec !== undefined) o.spec = spec
    if (status !== undefined) o.status = status
    if (!full()) objects.push(o)
    return o
  }
  const nsNames = Array.from({ length: nsCount }, (_, i) => `ns-${String(i).padStart(2, '0')}`)

  for (const edge of edges) {
    for (const ns of ['default', 'bulk', ...nsNames])
      mk(edge, 'v1', 'Namespace', ns, undefined, { 'kubernetes.io/metadata.name': ns }, undefined, undefined, {
        phase: 'Active',
      })
  }

  // fan-out deployment on the first edge
  const fanout = Math.max(0, Math.floor(opts.fanout ?? Math.min(5000, Math.floor(total / 4))))
  const e0 = edges[0] as string
  if (fanout > 0 && !full()) {
    mk(e0, 'v1', 'ConfigMap', 'fanout-config', 'bulk', { app: 'fanout' }, undefined, undefined)
    mk(e0, 'v1', 'Secret', 'fanout-secret', 'bulk', { app: 'fanout' })
    mk(e0, 'v1', 'ServiceAccount', 'fanout', 'bulk')
    const podSpec = {
      serviceAccountName: 'fanout',
      containers: [
        {
          name: 'app',
          image: 'registry.acme.test/bulk/fanout:1.0.0',
          envFrom: [{ configMapRef: { name: 'fanout-config' } }],
          env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'fanout-secret', key: 'token' } } }],
        },
      ],
    }
    const labels = { app: 'fanout' }
    const dep = mk(
      e0,
      'apps/v1',
      'Deployment',
      'fanout',
      'bulk',
      labels,
      undefined,
      { replicas: fanout, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
      { replicas: fanout, readyReplicas: fanout },
    )
    const rs = mk(
      e0,
      'apps/v1',
      'ReplicaSet',
      'fanout-6f7d8c9b5',
      'bulk',
      { ...labels, 'pod-template-hash': '6f7d8c9b5' },
      dep,
      {
        replicas: fanout,
        selector: { matchLabels: labels },
      },
    )
    mk(e0, 'v1', 'Service', 'fanout', 'bulk', labels, undefined, { selector: labels, ports: [{ port: 80 }] })
    mk(e0, 'policy/v1', 'PodDisruptionBudget', 'fanout', 'bulk', undefined, undefined, {
      minAvailable: '90%',
      selector: { matchLabels: labels },
    })
    for (let i = 0; i < fanout && !full(); i++) {
      mk(
        e0,
        'v1',
        'Pod',
        `fanout-6f7d8c9b5-${String(i).padStart(5, '0')}`,
        'bulk',
        { ...labels, 'pod-template-hash': '6f7d8c9b5' },
        rs,
        podSpec,
        {
          phase: 'Running',
        },
      )
    }
  }

  // filler units: 6 objects each; app-K exists on every edge
  const unitSize = 6
  let u = 0
  while (total - objects.length >= unitSize) {
    const edge = edges[u % edgeCount] as string
    const k = Math.floor(u / edgeCount)
    const ns = nsNames[k % nsCount] as string
    const name = `app-${String(k).padStart(5, '0')}`
    const labels = { app: name, tier: k % 2 === 0 ? 'web' : 'backend' }
    mk(edge, 'v1', 'ConfigMap', `${name}-config`, ns, { app: name })
    const podSpec = {
      containers: [
        {
          name: 'app',
          image: `registry.acme.test/${ns}/${name}:1.${k % 10}.0`,
          envFrom: [{ configMapRef: { name: `${name}-config` } }],
        },
      ],
    }
    const dep = mk(
      edge,
      'apps/v1',
      'Deployment',
      name,
      ns,
      labels,
      undefined,
      { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels }, spec: podSpec } },
      { replicas: 2, readyReplicas: 2 },
    )
    const rs = mk(edge, 'apps/v1', 'ReplicaSet', `${name}-5d4c3b2a1`, ns, labels, dep, { replicas: 2 })
    mk(edge, 'v1', 'Pod', `${name}-5d4c3b2a1-a${u % 10}x0`, ns, labels, rs, podSpec, { phase: 'Running' })
    mk(edge, 'v1', 'Pod', `${name}-5d4c3b2a1-b${u % 10}x1`, ns, labels, rs, podSpec, { phase: 'Running' })
    mk(edge, 'v1', 'Service', name, ns, { app: name }, undefined, { selector: { app: name }, ports: [{ port: 80 }] })
    u++
  }
  for (let i = 0; !full(); i++)
    mk(e0, 'v1', 'ConfigMap', `extra-${String(i).padStart(6, '0')}`, 'bulk', { kind: 'extra' })

  return createFleet(objects, { ...opts, edges })
}
