// In-memory fleet model for the graph-provider emulator: synchronized
// Kubernetes-style objects spread over the edges of one workspace.
//
// The large fleet of the scale tests is in large-fleet.ts.
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

/** RFC 3339 second-precision UTC timestamp (as Kubernetes renders creationTimestamp), `secondsAfterBase` past a fixed instant. */
export function timestamp(secondsAfterBase: number): string {
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
