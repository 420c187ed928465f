/**
 * A fake hub for the impact walks, answering as the graph engine does: `references` only on Pods
 * (a dotted name dropped, an object the graph does not hold never named), transitive relations as
 * nested trees whose deeper nodes have no id and no cluster, lists projected whole, and the MCP
 * tool reading only the first level of each tree.
 */
import type { ObjectResult, QuerySpec, QueryStatus } from '../../../../src/hub/graph.js'
import type { McpImpactInput, McpImpactResult } from '../../../../src/hub/mcp/impact.js'

const WS = 'acme/ws'
export const EDGE = 'prod-eu'
const meta = (name: string) => ({ name, namespace: 'shop' })
const node = (
  kind: string,
  apiVersion: string,
  name: string,
  below?: Record<string, ObjectResult[]>,
  first = false,
): ObjectResult => ({
  ...(first ? { id: `id-${name}`, cluster: `${WS}/${EDGE}` } : {}),
  object: { kind, apiVersion, metadata: meta(name) },
  ...(below ? { relations: below } : {}),
})

interface PodSpec {
  name: string
  labels: Record<string, string>
  /** Owners nearest first: [ReplicaSet, Deployment] or [Job, CronJob]. */
  owners: Array<[kind: string, apiVersion: string, name: string]>
  spec: Record<string, unknown>
  /** What the engine's `references` answer: names it holds, without a dot. */
  engineRefs: Array<[kind: string, name: string]>
}

const webSpec = {
  serviceAccountName: 'web',
  volumes: [{ name: 'conf', configMap: { name: 'app.config' } }],
  // init containers are not on the engine's paths: not a reference
  initContainers: [{ name: 'init', envFrom: [{ configMapRef: { name: 'init-only' } }] }],
  containers: [
    {
      name: 'web',
      envFrom: [{ configMapRef: { name: 'shared' } }],
      env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'web-db', key: 'p' } } }],
    },
  ],
}
const PODS: PodSpec[] = [
  ...['web-abc-1', 'web-abc-2'].map((name) => ({
    name,
    labels: { 'app.kubernetes.io/name': 'web', 'pod-template-hash': 'abc' },
    owners: [
      ['ReplicaSet', 'apps/v1', 'web-abc'] as [string, string, string],
      ['Deployment', 'apps/v1', 'web'] as [string, string, string],
    ],
    spec: webSpec,
    // app.config has a dot (dropped), Secret web-db is not synced (never named)
    engineRefs: [['ConfigMap', 'shared'] as [string, string], ['ServiceAccount', 'web'] as [string, string]],
  })),
  {
    name: 'api-def-1',
    labels: { app: 'api' },
    owners: [
      ['ReplicaSet', 'apps/v1', 'api-def'],
      ['Deployment', 'apps/v1', 'api'],
    ],
    spec: { volumes: [{ name: 'c', configMap: { name: 'shared' } }], containers: [{ name: 'api' }] },
    engineRefs: [['ConfigMap', 'shared']],
  },
  {
    name: 'nightly-1-x',
    labels: { job: 'nightly' },
    owners: [
      ['Job', 'batch/v1', 'nightly-1'],
      ['CronJob', 'batch/v1', 'nightly'],
    ],
    spec: {
      containers: [{ name: 'n', env: [{ name: 'S', valueFrom: { configMapKeyRef: { name: 'shared', key: 'k' } } }] }],
    },
    engineRefs: [['ConfigMap', 'shared']],
  },
]

function podRow(pod: PodSpec): ObjectResult {
  let owners: ObjectResult[] | undefined
  for (const [index, [kind, apiVersion, name]] of [...pod.owners.entries()].reverse())
    owners = [node(kind, apiVersion, name, owners ? { 'owners+': owners } : undefined, index === 0)]
  return {
    id: `id-${pod.name}`,
    cluster: `${WS}/${EDGE}`,
    object: { metadata: { name: pod.name, labels: pod.labels, ownerReferences: null }, spec: pod.spec },
    relations: {
      ...(owners ? { 'owners+': owners } : {}),
      references: pod.engineRefs.map(([kind, name]) => ({ object: { kind, metadata: { name } } })),
    },
  }
}

const HOLDER_ROWS: ObjectResult[] = [
  {
    id: 'svc',
    cluster: `${WS}/${EDGE}`,
    object: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: meta('web'),
      spec: { selector: { 'app.kubernetes.io/name': 'web' }, podSelector: null, scaleTargetRef: null },
    },
  },
  {
    id: 'svc2',
    cluster: `${WS}/${EDGE}`,
    object: {
      kind: 'Service',
      apiVersion: 'v1',
      metadata: meta('other'),
      spec: { selector: { app: 'other' }, podSelector: null, scaleTargetRef: null },
    },
  },
  {
    id: 'hpa',
    cluster: `${WS}/${EDGE}`,
    object: {
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v2',
      metadata: meta('web'),
      spec: {
        selector: null,
        podSelector: null,
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      },
    },
  },
  {
    id: 'np',
    cluster: `${WS}/${EDGE}`,
    object: {
      kind: 'NetworkPolicy',
      apiVersion: 'networking.k8s.io/v1',
      metadata: meta('deny-all'),
      spec: { selector: null, podSelector: {}, scaleTargetRef: null },
    },
  },
]

/** Ingress `shop` routes to Service `web` (the engine's references, filtered to Services). */
const INGRESS_ROWS: ObjectResult[] = [
  {
    id: 'ing',
    cluster: `${WS}/${EDGE}`,
    object: { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', metadata: meta('shop') },
    relations: { references: [{ object: { kind: 'Service', metadata: { name: 'web' } } }] },
  },
  {
    id: 'ing2',
    cluster: `${WS}/${EDGE}`,
    object: { kind: 'Ingress', apiVersion: 'networking.k8s.io/v1', metadata: meta('admin') },
    relations: { references: [{ object: { kind: 'Service', metadata: { name: 'other' } } }] },
  },
]

/** The tool's relation query for a target: the tree of a Deployment, a CronJob; a namespace for the rest. */
export function impactAnswer(spec: QuerySpec): QueryStatus {
  const filter = (spec.filter as { objects: Array<{ groupKind: { kind: string }; name: string }> }).objects[0]!
  // the graph syncs no Secrets by default: a query for one answers no rows, as for no object
  if (filter.groupKind.kind === 'Secret') return {}
  const relations = (spec.objects as { relations?: Record<string, unknown> }).relations ?? {}
  const root: ObjectResult = {
    id: `id-${filter.name}`,
    cluster: `${WS}/${EDGE}`,
    object: { kind: filter.groupKind.kind, metadata: meta(filter.name) },
    relations: {},
  }
  const trees: Record<string, ObjectResult[]> = {
    'Deployment/web': [
      node(
        'ReplicaSet',
        'apps/v1',
        'web-abc',
        { 'descendants+': [node('Pod', 'v1', 'web-abc-1'), node('Pod', 'v1', 'web-abc-2')] },
        true,
      ),
    ],
    'CronJob/nightly': [
      node('Job', 'batch/v1', 'nightly-1', { 'descendants+': [node('Pod', 'v1', 'nightly-1-x')] }, true),
    ],
  }
  const tree = trees[`${filter.groupKind.kind}/${filter.name}`]
  if ('descendants+' in relations && tree) root.relations!['descendants+'] = tree
  // a declared link chain: web → web-mirror → web-mirror-2
  if ('linked+' in relations && filter.groupKind.kind === 'Deployment' && filter.name === 'web')
    root.relations!['linked+'] = [
      node('Deployment', 'apps/v1', 'web-mirror', { 'linked+': [node('Deployment', 'apps/v1', 'web-mirror-2')] }, true),
    ]
  if ('namespace' in relations)
    root.relations!.namespace = [
      {
        id: 'ns',
        cluster: `${WS}/${EDGE}`,
        object: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'shop' } },
      },
    ]
  return { objects: [root] }
}

export function fakeGraph(repeated = 0) {
  const sent: QuerySpec[] = []
  const graph = {
    sent,
    query: async (spec: QuerySpec) => (sent.push(spec), impactAnswer(spec)),
    forEachPage: async (spec: QuerySpec, _options: unknown, onPage: (rows: ObjectResult[]) => void) => {
      sent.push(spec)
      const kinds = (spec.filter as { objects: Array<{ groupKind: { kind: string } }> }).objects.map(
        (f) => f.groupKind.kind,
      )
      onPage(kinds.includes('Pod') ? PODS.map(podRow) : kinds.includes('Ingress') ? INGRESS_ROWS : HOLDER_ROWS)
      return {
        pages: 1,
        count: 0,
        stoppedBy: 'last-page',
        warnings: [],
        withRelations: true,
        repeated: kinds.includes('Pod') ? repeated : 0,
      }
    },
    edges: async () => [EDGE],
  }
  return graph
}

/** The tool: the same query, but only the first level of each tree, as the hub's tool reads it. */
export function fakeTool() {
  return {
    impact: async (input: McpImpactInput): Promise<McpImpactResult> => {
      const root = impactAnswer({
        filter: { objects: [{ groupKind: { kind: input.kind }, name: input.name }] },
        objects: { relations: { 'descendants+': {}, 'linked+': {}, namespace: {} } },
      }).objects![0]!
      const first = (name: string, relation: string) =>
        (root.relations?.[name] ?? []).map((row) => {
          const object = row.object as {
            kind: string
            apiVersion: string
            metadata: { name: string; namespace?: string }
          }
          return {
            edge: EDGE,
            group: object.apiVersion.includes('/') ? object.apiVersion.split('/')[0]! : '',
            kind: object.kind,
            name: object.metadata.name,
            relation,
            ...(object.metadata.namespace ? { namespace: object.metadata.namespace } : {}),
          }
        })
      return {
        found: true,
        object: { edge: EDGE, group: input.group, kind: input.kind, namespace: 'shop', name: input.name },
        upstream: first('namespace', 'namespace'),
        downstream: first('descendants+', 'descendants'),
        associated: first('linked+', 'linked'),
        summary: '',
      }
    },
  }
}
