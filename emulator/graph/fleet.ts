// In-memory fleet model for the graph-provider emulator: synchronized
// Kubernetes-style objects spread over the edges of one workspace.
//
// Objects are plain JSON-like values. `edge` is the emulator's own field (the
// edge/cluster the object was synchronized from); it is never rendered inside
// `object` in a query response.

export type OwnerReference = {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

export type ObjectMeta = {
  name: string
  namespace?: string
  uid: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: OwnerReference[]
  creationTimestamp: string
  generation?: number
  /** Who set which field (the API server's record; ./rollout-applied.ts writes it as a cluster does). */
  managedFields?: object[]
}

export type FleetObject = {
  edge: string
  apiVersion: string
  kind: string
  metadata: ObjectMeta
  spec?: any
  status?: any
}

export type Fleet = {
  /** Workspace UUID the fleet belongs to. When set, tenants of another workspace see nothing. */
  workspace?: string
  /** Workspace path rendered in `cluster` (`<workspacePath>/<edge>`). */
  workspacePath: string
  /** Edge names (an edge may have no objects). */
  edges: string[]
  objects: FleetObject[]
  /** Bumped on every mutation; indexes and caches are rebuilt when it changes. */
  version: number
  /** A scripted fleet (rollouts.ts) brings itself to its clock's instant here; read paths call it first. */
  sync?: () => void
}

export type FleetOptions = { workspace?: string; workspacePath?: string }

const DEFAULT_WORKSPACE_PATH = 'acme/ws-platform'
/** Annotation declaring one-way links: a JSON array of `{kind, name, namespace?, group?, cluster?}`. */
export const LINKED_ANNOTATION = 'kuery.io/relates-to'
/** Label declaring group membership (one group name); objects sharing it are `grouped`, on any edge. */
export const GROUP_LABEL = 'kuery.io/group'

// ---------------------------------------------------------------------------
// Kind catalogue (resource plural and short names for filters and links)

export type KindInfo = {
  kind: string
  group: string
  version: string
  plural: string
  shortNames: string[]
  namespaced: boolean
}

const KINDS: readonly KindInfo[] = [
  { kind: 'Namespace', group: '', version: 'v1', plural: 'namespaces', shortNames: ['ns'], namespaced: false },
  { kind: 'Node', group: '', version: 'v1', plural: 'nodes', shortNames: ['no'], namespaced: false },
  { kind: 'Pod', group: '', version: 'v1', plural: 'pods', shortNames: ['po'], namespaced: true },
  { kind: 'Service', group: '', version: 'v1', plural: 'services', shortNames: ['svc'], namespaced: true },
  { kind: 'ConfigMap', group: '', version: 'v1', plural: 'configmaps', shortNames: ['cm'], namespaced: true },
  { kind: 'Secret', group: '', version: 'v1', plural: 'secrets', shortNames: [], namespaced: true },
  { kind: 'ServiceAccount', group: '', version: 'v1', plural: 'serviceaccounts', shortNames: ['sa'], namespaced: true },
  {
    kind: 'PersistentVolumeClaim',
    group: '',
    version: 'v1',
    plural: 'persistentvolumeclaims',
    shortNames: ['pvc'],
    namespaced: true,
  },
  {
    kind: 'PersistentVolume',
    group: '',
    version: 'v1',
    plural: 'persistentvolumes',
    shortNames: ['pv'],
    namespaced: false,
  },
  { kind: 'Endpoints', group: '', version: 'v1', plural: 'endpoints', shortNames: ['ep'], namespaced: true },
  { kind: 'Event', group: '', version: 'v1', plural: 'events', shortNames: ['ev'], namespaced: true },
  { kind: 'Deployment', group: 'apps', version: 'v1', plural: 'deployments', shortNames: ['deploy'], namespaced: true },
  { kind: 'ReplicaSet', group: 'apps', version: 'v1', plural: 'replicasets', shortNames: ['rs'], namespaced: true },
  { kind: 'StatefulSet', group: 'apps', version: 'v1', plural: 'statefulsets', shortNames: ['sts'], namespaced: true },
  { kind: 'DaemonSet', group: 'apps', version: 'v1', plural: 'daemonsets', shortNames: ['ds'], namespaced: true },
  { kind: 'Job', group: 'batch', version: 'v1', plural: 'jobs', shortNames: [], namespaced: true },
  { kind: 'CronJob', group: 'batch', version: 'v1', plural: 'cronjobs', shortNames: ['cj'], namespaced: true },
  {
    kind: 'Ingress',
    group: 'networking.k8s.io',
    version: 'v1',
    plural: 'ingresses',
    shortNames: ['ing'],
    namespaced: true,
  },
  {
    kind: 'NetworkPolicy',
    group: 'networking.k8s.io',
    version: 'v1',
    plural: 'networkpolicies',
    shortNames: ['netpol'],
    namespaced: true,
  },
  {
    kind: 'PodDisruptionBudget',
    group: 'policy',
    version: 'v1',
    plural: 'poddisruptionbudgets',
    shortNames: ['pdb'],
    namespaced: true,
  },
  {
    kind: 'HorizontalPodAutoscaler',
    group: 'autoscaling',
    version: 'v2',
    plural: 'horizontalpodautoscalers',
    shortNames: ['hpa'],
    namespaced: true,
  },
  {
    kind: 'StorageClass',
    group: 'storage.k8s.io',
    version: 'v1',
    plural: 'storageclasses',
    shortNames: ['sc'],
    namespaced: false,
  },
  {
    kind: 'Role',
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'roles',
    shortNames: [],
    namespaced: true,
  },
  {
    kind: 'RoleBinding',
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'rolebindings',
    shortNames: [],
    namespaced: true,
  },
  {
    kind: 'ClusterRole',
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterroles',
    shortNames: [],
    namespaced: false,
  },
  {
    kind: 'ClusterRoleBinding',
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'clusterrolebindings',
    shortNames: [],
    namespaced: false,
  },
]

const kindAliases = new Map<string, KindInfo>()
for (const k of KINDS) {
  for (const alias of [k.kind, k.plural, k.kind.toLowerCase(), ...k.shortNames]) kindAliases.set(alias.toLowerCase(), k)
}

/** Kind (any case), resource plural, singular or short name → kind info; undefined when unknown. */
export function resolveKind(nameOrAlias: string): KindInfo | undefined {
  return kindAliases.get(nameOrAlias.toLowerCase())
}

/** Canonical Kind for an alias; unknown names come back unchanged. */
export function canonicalKind(nameOrAlias: string): string {
  return resolveKind(nameOrAlias)?.kind ?? nameOrAlias
}

/** API group of an apiVersion: `apps/v1` → `apps`, `v1` → ``. */
export function groupOf(apiVersion: string): string {
  const i = apiVersion.indexOf('/')
  return i < 0 ? '' : apiVersion.slice(0, i)
}

// ---------------------------------------------------------------------------
// Fleet construction helpers

export function createFleet(objects: FleetObject[] = [], opts: FleetOptions & { edges?: string[] } = {}): Fleet {
  const edges = [...(opts.edges ?? [])]
  for (const o of objects) if (!edges.includes(o.edge)) edges.push(o.edge)
  const fleet: Fleet = { workspacePath: opts.workspacePath ?? DEFAULT_WORKSPACE_PATH, edges, objects, version: 0 }
  if (opts.workspace !== undefined) fleet.workspace = opts.workspace
  return fleet
}

function uidFor(n: number, salt: number): string {
  const hex = (v: number, w: number) => (v >>> 0).toString(16).padStart(w, '0').slice(-w)
  // deterministic, UUID-shaped (version 4 / variant bits set)
  const a = Math.imul(n + 1, 0x9e3779b1) ^ salt
  const b = Math.imul(n ^ 0x5bd1e995, 0x85ebca6b) ^ (salt >>> 3)
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b, 3)}-${hex(0x8000 | ((a >>> 7) & 0x3fff), 4)}-${hex(salt, 4)}${hex(n, 8)}`
}

const BASE_TIME = Date.UTC(2025, 0, 6, 9, 0, 0)

const dayPrefixes = new Map<number, string>()
const pad2 = (v: number) => (v < 10 ? `0${v}` : String(v))

/** RFC 3339 second-precision UTC timestamp (as Kubernetes renders creationTimestamp). */
function timestamp(secondsAfterBase: number): string {
  const ms = BASE_TIME + secondsAfterBase * 1000
  const day = Math.floor(ms / 86_400_000)
  let prefix = dayPrefixes.get(day)
  if (prefix === undefined) {
    prefix = new Date(day * 86_400_000).toISOString().slice(0, 11)
    dayPrefixes.set(day, prefix)
  }
  const sod = Math.floor((ms - day * 86_400_000) / 1000)
  return `${prefix}${pad2(Math.floor(sod / 3600))}:${pad2(Math.floor(sod / 60) % 60)}:${pad2(sod % 60)}Z`
}

/** A small builder that assigns deterministic uids and creation timestamps. */
export class Builder {
  objects: FleetObject[] = []
  private n = 0
  private readonly salt: number

  constructor(salt: number) {
    this.salt = salt
  }

  add(
    edge: string,
    kind: string,
    name: string,
    namespace: string | undefined,
    rest: Partial<Omit<FleetObject, 'edge' | 'kind' | 'metadata'>> & { metadata?: Partial<ObjectMeta> } = {},
  ): FleetObject {
    const info = resolveKind(kind)
    const apiVersion = rest.apiVersion ?? (info ? (info.group ? `${info.group}/${info.version}` : info.version) : 'v1')
    const n = this.n++
    const metadata: ObjectMeta = {
      name,
      uid: uidFor(n, this.salt),
      creationTimestamp: timestamp(n * 7),
      ...rest.metadata,
    }
    if (namespace !== undefined) metadata.namespace = namespace
    const o: FleetObject = { edge, apiVersion, kind: info?.kind ?? kind, metadata }
    if (rest.spec !== undefined) o.spec = rest.spec
    if (rest.status !== undefined) o.status = rest.status
    this.objects.push(o)
    return o
  }
}

// ---------------------------------------------------------------------------
// Large fleet for scale and paging tests

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
