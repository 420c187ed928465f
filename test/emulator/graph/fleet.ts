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
/** Annotation declaring lateral links: comma-separated `<edge>/<namespace>/<kind>/<name>` (namespace empty for cluster-scoped). */
export const LINKED_ANNOTATION = 'hub.sh/linked'
/** Annotation declaring group membership: comma-separated group names; members of one group are `grouped`. */
export const GROUP_ANNOTATION = 'hub.sh/group'

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
  { kind: 'PersistentVolumeClaim', group: '', version: 'v1', plural: 'persistentvolumeclaims', shortNames: ['pvc'], namespaced: true },
  { kind: 'PersistentVolume', group: '', version: 'v1', plural: 'persistentvolumes', shortNames: ['pv'], namespaced: false },
  { kind: 'Endpoints', group: '', version: 'v1', plural: 'endpoints', shortNames: ['ep'], namespaced: true },
  { kind: 'Event', group: '', version: 'v1', plural: 'events', shortNames: ['ev'], namespaced: true },
  { kind: 'Deployment', group: 'apps', version: 'v1', plural: 'deployments', shortNames: ['deploy'], namespaced: true },
  { kind: 'ReplicaSet', group: 'apps', version: 'v1', plural: 'replicasets', shortNames: ['rs'], namespaced: true },
  { kind: 'StatefulSet', group: 'apps', version: 'v1', plural: 'statefulsets', shortNames: ['sts'], namespaced: true },
  { kind: 'DaemonSet', group: 'apps', version: 'v1', plural: 'daemonsets', shortNames: ['ds'], namespaced: true },
  { kind: 'Job', group: 'batch', version: 'v1', plural: 'jobs', shortNames: [], namespaced: true },
  { kind: 'CronJob', group: 'batch', version: 'v1', plural: 'cronjobs', shortNames: ['cj'], namespaced: true },
  { kind: 'Ingress', group: 'networking.k8s.io', version: 'v1', plural: 'ingresses', shortNames: ['ing'], namespaced: true },
  { kind: 'NetworkPolicy', group: 'networking.k8s.io', version: 'v1', plural: 'networkpolicies', shortNames: ['netpol'], namespaced: true },
  { kind: 'PodDisruptionBudget', group: 'policy', version: 'v1', plural: 'poddisruptionbudgets', shortNames: ['pdb'], namespaced: true },
  { kind: 'HorizontalPodAutoscaler', group: 'autoscaling', version: 'v2', plural: 'horizontalpodautoscalers', shortNames: ['hpa'], namespaced: true },
  { kind: 'StorageClass', group: 'storage.k8s.io', version: 'v1', plural: 'storageclasses', shortNames: ['sc'], namespaced: false },
  { kind: 'Role', group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', shortNames: [], namespaced: true },
  { kind: 'RoleBinding', group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'rolebindings', shortNames: [], namespaced: true },
  { kind: 'ClusterRole', group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterroles', shortNames: [], namespaced: false },
  { kind: 'ClusterRoleBinding', group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'clusterrolebindings', shortNames: [], namespaced: false },
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
class Builder {
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
    const metadata: ObjectMeta = { name, uid: uidFor(n, this.salt), creationTimestamp: timestamp(n * 7), ...rest.metadata }
    if (namespace !== undefined) metadata.namespace = namespace
    const o: FleetObject = { edge, apiVersion, kind: info?.kind ?? kind, metadata }
    if (rest.spec !== undefined) o.spec = rest.spec
    if (rest.status !== undefined) o.status = rest.status
    this.objects.push(o)
    return o
  }
}

function ownerRef(o: FleetObject): OwnerReference {
  return { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid, controller: true, blockOwnerDeletion: true }
}

function readyConditions(kind: string): { type: string; status: string; reason?: string }[] {
  if (kind === 'Pod')
    return [
      { type: 'Ready', status: 'True' },
      { type: 'ContainersReady', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ]
  return [
    { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
    { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
  ]
}

type WorkloadOpts = {
  replicas: number
  hash: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
  podSpec: Record<string, unknown>
  podSuffixes?: string[]
  unhealthy?: boolean
}

/** Deployment → ReplicaSet → Pods, with owner references and a pod template. */
function deployment(b: Builder, edge: string, ns: string, name: string, w: WorkloadOpts): { deploy: FleetObject; rs: FleetObject; pods: FleetObject[] } {
  const labels = { app: name, ...w.labels }
  const template = { metadata: { labels }, spec: w.podSpec }
  const deployMeta: Partial<ObjectMeta> = { labels: { ...labels } }
  if (w.annotations) deployMeta.annotations = { ...w.annotations }
  const deploy = b.add(edge, 'Deployment', name, ns, {
    metadata: deployMeta,
    spec: { replicas: w.replicas, selector: { matchLabels: { app: name } }, template },
    status: {
      replicas: w.replicas,
      readyReplicas: w.unhealthy ? 0 : w.replicas,
      conditions: w.unhealthy ? [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }] : readyConditions('Deployment'),
    },
  })
  const rs = b.add(edge, 'ReplicaSet', `${name}-${w.hash}`, ns, {
    metadata: { labels: { ...labels, 'pod-template-hash': w.hash }, ownerReferences: [ownerRef(deploy)] },
    spec: { replicas: w.replicas, selector: { matchLabels: { app: name, 'pod-template-hash': w.hash } }, template },
    status: { replicas: w.replicas, readyReplicas: w.unhealthy ? 0 : w.replicas },
  })
  const pods: FleetObject[] = []
  for (let i = 0; i < w.replicas; i++) {
    const suffix = w.podSuffixes?.[i] ?? podSuffix(name.length + i * 31 + w.hash.length)
    pods.push(
      b.add(edge, 'Pod', `${name}-${w.hash}-${suffix}`, ns, {
        metadata: { labels: { ...labels, 'pod-template-hash': w.hash }, ownerReferences: [ownerRef(rs)] },
        spec: { ...w.podSpec, nodeName: `${edge}-node-${i % 3}` },
        status: {
          phase: w.unhealthy ? 'Pending' : 'Running',
          conditions: w.unhealthy ? [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady' }] : readyConditions('Pod'),
        },
      }),
    )
  }
  return { deploy, rs, pods }
}

function podSuffix(seed: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789'
  let s = ''
  let x = (seed * 2654435761) >>> 0
  for (let i = 0; i < 5; i++) {
    s += alphabet[x % alphabet.length]
    x = Math.floor(x / alphabet.length) + 7919 * (i + 1)
  }
  return s
}

function container(name: string, image: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, image, ports: [{ containerPort: 8080, name: 'http' }], ...extra }
}

// ---------------------------------------------------------------------------
// Demo fleet

const DEMO_EDGES = ['prod-eu', 'prod-us', 'staging'] as const

/**
 * A realistic fleet over three edges:
 * - prod-eu, prod-us: namespaces `shop`, `payments`; staging: `shop`, `canary` (canary only on staging).
 * - Deployment `checkout` (ns `shop`) on prod-eu (3 pods) and prod-us (2 pods), pods use ConfigMap
 *   `checkout-config`, Secret `checkout-db`, imagePullSecret `regcred`, ServiceAccount `checkout`;
 *   Service `checkout` + PDB `checkout` select its pods; Ingress `shop` references Services;
 *   both checkouts are `grouped` (annotation hub.sh/group=shop-checkout).
 * - ConfigMap `feature-flags` exists in namespaces `shop` and `payments` on prod-eu.
 * - Deployment `payments-api` (ns `payments`) on prod-eu is `linked` to the one on prod-us.
 * - StatefulSet `orders-db` (prod-eu, payments) with a PVC; Deployment `search` only on staging.
 */
export function createDemoFleet(opts: FleetOptions = {}): Fleet {
  const b = new Builder(0xa11)
  const stdNamespaces = (edge: string, names: string[]) => {
    for (const ns of ['default', 'kube-system', ...names]) {
      b.add(edge, 'Namespace', ns, undefined, {
        metadata: { labels: { 'kubernetes.io/metadata.name': ns } },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      })
      b.add(edge, 'ServiceAccount', 'default', ns)
    }
    b.add(edge, 'StorageClass', 'standard', undefined, {
      apiVersion: 'storage.k8s.io/v1',
      spec: undefined,
      metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    })
  }

  const checkoutPodSpec = (image: string) => ({
    serviceAccountName: 'checkout',
    imagePullSecrets: [{ name: 'regcred' }],
    containers: [
      container('checkout', image, {
        envFrom: [{ configMapRef: { name: 'checkout-config' } }],
        env: [
          { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'checkout-db', key: 'password' } } },
          { name: 'FEATURE_FLAGS', valueFrom: { configMapKeyRef: { name: 'feature-flags', key: 'flags', optional: true } } },
        ],
        volumeMounts: [{ name: 'config', mountPath: '/etc/checkout' }],
      }),
    ],
    volumes: [{ name: 'config', configMap: { name: 'checkout-config' } }],
  })

  const shopCommon = (edge: string, withCheckout: boolean, checkoutReplicas: number, checkoutHash: string) => {
    b.add(edge, 'ServiceAccount', 'frontend', 'shop')
    b.add(edge, 'Secret', 'regcred', 'shop', { spec: undefined, metadata: {}, status: undefined })
    b.add(edge, 'ConfigMap', 'frontend-config', 'shop', { metadata: { labels: { app: 'frontend' } } })
    const fe = deployment(b, edge, 'shop', 'frontend', {
      replicas: 2,
      hash: '5c8d9f7b46',
      labels: { tier: 'web', team: 'storefront' },
      podSpec: {
        serviceAccountName: 'frontend',
        imagePullSecrets: [{ name: 'regcred' }],
        containers: [container('frontend', 'registry.acme.test/shop/frontend:1.14.2', { envFrom: [{ configMapRef: { name: 'frontend-config' } }] })],
      },
    })
    void fe
    b.add(edge, 'Service', 'frontend', 'shop', {
      metadata: { labels: { app: 'frontend' } },
      spec: { selector: { app: 'frontend' }, ports: [{ port: 80, targetPort: 'http' }], type: 'ClusterIP' },
    })
    if (withCheckout) {
      b.add(edge, 'ServiceAccount', 'checkout', 'shop')
      b.add(edge, 'ConfigMap', 'checkout-config', 'shop', { metadata: { labels: { app: 'checkout' } } })
      b.add(edge, 'Secret', 'checkout-db', 'shop', { metadata: { labels: { app: 'checkout' } } })
      const co = deployment(b, edge, 'shop', 'checkout', {
        replicas: checkoutReplicas,
        hash: checkoutHash,
        labels: { tier: 'backend', team: 'payments' },
        annotations: { [GROUP_ANNOTATION]: 'shop-checkout' },
        podSpec: checkoutPodSpec('registry.acme.test/shop/checkout:2.3.1'),
      })
      b.add(edge, 'Service', 'checkout', 'shop', {
        metadata: { labels: { app: 'checkout' } },
        spec: { selector: { app: 'checkout' }, ports: [{ port: 80, targetPort: 'http' }], type: 'ClusterIP' },
      })
      b.add(edge, 'PodDisruptionBudget', 'checkout', 'shop', { spec: { minAvailable: 1, selector: { matchLabels: { app: 'checkout' } } } })
      b.add(edge, 'HorizontalPodAutoscaler', 'checkout', 'shop', {
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout' }, minReplicas: 2, maxReplicas: 10 },
      })
      void co
    }
    b.add(edge, 'Ingress', 'shop', 'shop', {
      spec: {
        ingressClassName: 'nginx',
        tls: [{ hosts: [`shop.${edge}.acme.test`], secretName: 'shop-tls' }],
        rules: [
          {
            host: `shop.${edge}.acme.test`,
            http: {
              paths: [
                { path: '/', pathType: 'Prefix', backend: { service: { name: 'frontend', port: { number: 80 } } } },
                ...(withCheckout ? [{ path: '/checkout', pathType: 'Prefix', backend: { service: { name: 'checkout', port: { number: 80 } } } }] : []),
              ],
            },
          },
        ],
      },
    })
    b.add(edge, 'Secret', 'shop-tls', 'shop', { metadata: { annotations: { 'cert-manager.io/issuer-name': 'letsencrypt' } } })
    b.add(edge, 'NetworkPolicy', 'default-deny', 'shop', { spec: { podSelector: {}, policyTypes: ['Ingress'] } })
  }

  const payments = (edge: string, linkTo: string) => {
    b.add(edge, 'ServiceAccount', 'payments-api', 'payments')
    b.add(edge, 'ConfigMap', 'payments-api-config', 'payments')
    b.add(edge, 'Secret', 'payments-api-keys', 'payments')
    deployment(b, edge, 'payments', 'payments-api', {
      replicas: 2,
      hash: '7f6b8d5c9a',
      labels: { tier: 'backend', team: 'payments' },
      annotations: { [LINKED_ANNOTATION]: `${linkTo}/payments/Deployment/payments-api`, [GROUP_ANNOTATION]: 'payments' },
      podSpec: {
        serviceAccountName: 'payments-api',
        containers: [
          container('api', 'registry.acme.test/payments/api:4.0.0', {
            envFrom: [{ configMapRef: { name: 'payments-api-config' } }, { secretRef: { name: 'payments-api-keys' } }],
          }),
        ],
      },
    })
    b.add(edge, 'Service', 'payments-api', 'payments', { spec: { selector: { app: 'payments-api' }, ports: [{ port: 443, targetPort: 'http' }] } })
  }

  // prod-eu -----------------------------------------------------------------
  stdNamespaces('prod-eu', ['shop', 'payments', 'monitoring'])
  shopCommon('prod-eu', true, 3, '7d9f8c6b5')
  b.add('prod-eu', 'ConfigMap', 'feature-flags', 'shop', { metadata: { labels: { team: 'storefront' } } })
  payments('prod-eu', 'prod-us')
  b.add('prod-eu', 'ConfigMap', 'feature-flags', 'payments', { metadata: { labels: { team: 'payments' } } })
  // StatefulSet orders-db with a PVC (prod-eu only)
  b.add('prod-eu', 'Secret', 'orders-db-credentials', 'payments')
  const sts = b.add('prod-eu', 'StatefulSet', 'orders-db', 'payments', {
    metadata: { labels: { app: 'orders-db' } },
    spec: {
      replicas: 1,
      serviceName: 'orders-db',
      selector: { matchLabels: { app: 'orders-db' } },
      template: {
        metadata: { labels: { app: 'orders-db' } },
        spec: {
          containers: [
            container('postgres', 'postgres:16.4', {
              env: [{ name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'orders-db-credentials', key: 'password' } } }],
            }),
          ],
        },
      },
    },
    status: { replicas: 1, readyReplicas: 1 },
  })
  const pvc = b.add('prod-eu', 'PersistentVolumeClaim', 'data-orders-db-0', 'payments', {
    metadata: { labels: { app: 'orders-db' } },
    spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '20Gi' } } },
    status: { phase: 'Bound' },
  })
  void pvc
  b.add('prod-eu', 'Pod', 'orders-db-0', 'payments', {
    metadata: { labels: { app: 'orders-db', 'statefulset.kubernetes.io/pod-name': 'orders-db-0' }, ownerReferences: [ownerRef(sts)] },
    spec: {
      serviceAccountName: 'default',
      containers: [
        container('postgres', 'postgres:16.4', {
          env: [{ name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: 'orders-db-credentials', key: 'password' } } }],
        }),
      ],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data-orders-db-0' } }],
    },
    status: { phase: 'Running', conditions: readyConditions('Pod') },
  })
  b.add('prod-eu', 'Service', 'orders-db', 'payments', { spec: { clusterIP: 'None', selector: { app: 'orders-db' }, ports: [{ port: 5432 }] } })
  b.add('prod-eu', 'PodDisruptionBudget', 'orders-db', 'payments', { spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'orders-db' } } } })
  // monitoring: DaemonSet node-exporter with one pod per node
  const ds = b.add('prod-eu', 'DaemonSet', 'node-exporter', 'monitoring', {
    metadata: { labels: { app: 'node-exporter' } },
    spec: {
      selector: { matchLabels: { app: 'node-exporter' } },
      template: {
        metadata: { labels: { app: 'node-exporter' } },
        spec: { hostNetwork: true, containers: [container('node-exporter', 'quay.io/prometheus/node-exporter:v1.8.2')] },
      },
    },
    status: { desiredNumberScheduled: 3, numberReady: 3 },
  })
  for (let i = 0; i < 3; i++) {
    b.add('prod-eu', 'Pod', `node-exporter-${podSuffix(100 + i)}`, 'monitoring', {
      metadata: { labels: { app: 'node-exporter' }, ownerReferences: [ownerRef(ds)] },
      spec: {
        nodeName: `prod-eu-node-${i}`,
        serviceAccountName: 'default',
        containers: [container('node-exporter', 'quay.io/prometheus/node-exporter:v1.8.2')],
      },
      status: { phase: 'Running', conditions: readyConditions('Pod') },
    })
  }

  // prod-us -----------------------------------------------------------------
  stdNamespaces('prod-us', ['shop', 'payments'])
  shopCommon('prod-us', true, 2, '6c7b9d8f4')
  payments('prod-us', 'prod-eu')

  // staging -----------------------------------------------------------------
  stdNamespaces('staging', ['shop', 'canary'])
  shopCommon('staging', false, 0, '')
  b.add('staging', 'ConfigMap', 'search-config', 'shop')
  deployment(b, 'staging', 'shop', 'search', {
    replicas: 1,
    hash: '84c5f6d7b9',
    labels: { tier: 'backend', team: 'discovery' },
    podSpec: {
      serviceAccountName: 'default',
      containers: [container('search', 'registry.acme.test/shop/search:0.9.0-rc1', { envFrom: [{ configMapRef: { name: 'search-config' } }] })],
    },
  })
  b.add('staging', 'Service', 'search', 'shop', { spec: { selector: { app: 'search' }, ports: [{ port: 80, targetPort: 'http' }] } })
  deployment(b, 'staging', 'canary', 'checkout-canary', {
    replicas: 1,
    hash: '9b8c7d6e5f',
    labels: { track: 'canary' },
    unhealthy: true,
    podSpec: checkoutPodSpec('registry.acme.test/shop/checkout:2.4.0-rc2'),
  })
  b.add('staging', 'ConfigMap', 'checkout-config', 'canary')

  return createFleet(b.objects, { ...opts, edges: [...DEMO_EDGES] })
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
    const metadata: ObjectMeta = { name, uid: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`, creationTimestamp: timestamp(i) }
    if (namespace !== undefined) metadata.namespace = namespace
    if (labels) metadata.labels = labels
    if (owner)
      metadata.ownerReferences = [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true }]
    const o: FleetObject = { edge, apiVersion, kind, metadata }
    if (spec !== undefined) o.spec = spec
    if (status !== undefined) o.status = status
    if (!full()) objects.push(o)
    return o
  }
  const nsNames = Array.from({ length: nsCount }, (_, i) => `ns-${String(i).padStart(2, '0')}`)

  for (const edge of edges) {
    for (const ns of ['default', 'bulk', ...nsNames])
      mk(edge, 'v1', 'Namespace', ns, undefined, { 'kubernetes.io/metadata.name': ns }, undefined, undefined, { phase: 'Active' })
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
    const rs = mk(e0, 'apps/v1', 'ReplicaSet', 'fanout-6f7d8c9b5', 'bulk', { ...labels, 'pod-template-hash': '6f7d8c9b5' }, dep, {
      replicas: fanout,
      selector: { matchLabels: labels },
    })
    mk(e0, 'v1', 'Service', 'fanout', 'bulk', labels, undefined, { selector: labels, ports: [{ port: 80 }] })
    mk(e0, 'policy/v1', 'PodDisruptionBudget', 'fanout', 'bulk', undefined, undefined, { minAvailable: '90%', selector: { matchLabels: labels } })
    for (let i = 0; i < fanout && !full(); i++) {
      mk(e0, 'v1', 'Pod', `fanout-6f7d8c9b5-${String(i).padStart(5, '0')}`, 'bulk', { ...labels, 'pod-template-hash': '6f7d8c9b5' }, rs, podSpec, {
        phase: 'Running',
      })
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
      containers: [{ name: 'app', image: `registry.acme.test/${ns}/${name}:1.${k % 10}.0`, envFrom: [{ configMapRef: { name: `${name}-config` } }] }],
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
  for (let i = 0; !full(); i++) mk(e0, 'v1', 'ConfigMap', `extra-${String(i).padStart(6, '0')}`, 'bulk', { kind: 'extra' })

  return createFleet(objects, { ...opts, edges })
}
