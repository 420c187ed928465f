/**
 * Issue 25, item 2: impact under the graph engine's real semantics. The fake graph below answers
 * as the spec says the engine does: `references` only on Pods (a dotted name dropped, an object
 * the graph does not hold never named), transitive relations as nested trees whose deeper nodes
 * have no id and no cluster, lists projected whole, a Service selecting nothing.
 */
import { describe, expect, it } from 'vitest'
import type { ObjectResult, QuerySpec, QueryStatus } from '../../../../src/hub/graph.js'
import type { McpImpactInput, McpImpactResult } from '../../../../src/hub/mcp/impact.js'
import { computeImpact } from '../../../../src/steps/impact/compute-impact.js'
import { impactsFromStatus } from '../../../../src/steps/impact/query-impact.js'
import { PDB_UNKNOWN } from '../../../../src/steps/impact/walks.js'
import type { RelatedObject, TargetImpact } from '../../../../src/steps/impact/model.js'
import type { Target } from '../../../../src/model/target.js'
import type { ImpactSettings } from '../../../../src/settings/settings.js'

const WS = 'acme/ws'
const EDGE = 'prod-eu'
const meta = (name: string) => ({ name, namespace: 'shop' })
const node = (kind: string, apiVersion: string, name: string, below?: Record<string, ObjectResult[]>, first = false): ObjectResult => ({
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
    { name: 'web', envFrom: [{ configMapRef: { name: 'shared' } }], env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'web-db', key: 'p' } } }] },
  ],
}
const PODS: PodSpec[] = [
  ...['web-abc-1', 'web-abc-2'].map((name) => ({
    name,
    labels: { 'app.kubernetes.io/name': 'web', 'pod-template-hash': 'abc' },
    owners: [['ReplicaSet', 'apps/v1', 'web-abc'] as [string, string, string], ['Deployment', 'apps/v1', 'web'] as [string, string, string]],
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
    spec: { containers: [{ name: 'n', env: [{ name: 'S', valueFrom: { configMapKeyRef: { name: 'shared', key: 'k' } } }] }] },
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
    object: { kind: 'Service', apiVersion: 'v1', metadata: meta('other'), spec: { selector: { app: 'other' }, podSelector: null, scaleTargetRef: null } },
  },
  {
    id: 'hpa',
    cluster: `${WS}/${EDGE}`,
    object: {
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v2',
      metadata: meta('web'),
      spec: { selector: null, podSelector: null, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
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
function impactAnswer(spec: QuerySpec): QueryStatus {
  const filter = (spec.filter as { objects: Array<{ groupKind: { kind: string }; name: string }> }).objects[0]!
  const relations = (spec.objects as { relations?: Record<string, unknown> }).relations ?? {}
  const root: ObjectResult = {
    id: `id-${filter.name}`,
    cluster: `${WS}/${EDGE}`,
    object: { kind: filter.groupKind.kind, metadata: meta(filter.name) },
    relations: {},
  }
  const trees: Record<string, ObjectResult[]> = {
    'Deployment/web': [node('ReplicaSet', 'apps/v1', 'web-abc', { 'descendants+': [node('Pod', 'v1', 'web-abc-1'), node('Pod', 'v1', 'web-abc-2')] }, true)],
    'CronJob/nightly': [node('Job', 'batch/v1', 'nightly-1', { 'descendants+': [node('Pod', 'v1', 'nightly-1-x')] }, true)],
  }
  const tree = trees[`${filter.groupKind.kind}/${filter.name}`]
  if ('descendants+' in relations && tree) root.relations!['descendants+'] = tree
  // a declared link chain: web → web-mirror → web-mirror-2
  if ('linked+' in relations && filter.groupKind.kind === 'Deployment' && filter.name === 'web')
    root.relations!['linked+'] = [node('Deployment', 'apps/v1', 'web-mirror', { 'linked+': [node('Deployment', 'apps/v1', 'web-mirror-2')] }, true)]
  if ('namespace' in relations)
    root.relations!.namespace = [{ id: 'ns', cluster: `${WS}/${EDGE}`, object: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'shop' } } }]
  return { objects: [root] }
}

function fakeGraph(repeated = 0) {
  const sent: QuerySpec[] = []
  const graph = {
    sent,
    query: async (spec: QuerySpec) => (sent.push(spec), impactAnswer(spec)),
    forEachPage: async (spec: QuerySpec, _options: unknown, onPage: (rows: ObjectResult[]) => void) => {
      sent.push(spec)
      const kinds = (spec.filter as { objects: Array<{ groupKind: { kind: string } }> }).objects.map((f) => f.groupKind.kind)
      onPage(kinds.includes('Pod') ? PODS.map(podRow) : kinds.includes('Ingress') ? INGRESS_ROWS : HOLDER_ROWS)
      return { pages: 1, count: 0, stoppedBy: 'last-page', warnings: [], withRelations: true, repeated: kinds.includes('Pod') ? repeated : 0 }
    },
    edges: async () => [EDGE],
  }
  return graph
}

/** The tool: the same query, but only the first level of each tree, as the hub's tool reads it. */
function fakeTool() {
  return {
    impact: async (input: McpImpactInput): Promise<McpImpactResult> => {
      const root = impactAnswer({
        filter: { objects: [{ groupKind: { kind: input.kind }, name: input.name }] },
        objects: { relations: { 'descendants+': {}, 'linked+': {}, namespace: {} } },
      }).objects![0]!
      const first = (name: string, relation: string) =>
        (root.relations?.[name] ?? []).map((row) => {
          const object = row.object as { kind: string; apiVersion: string; metadata: { name: string; namespace?: string } }
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

const target = (kind: string, group: string, name: string): Target => ({ kind, group, name, namespace: 'shop', edge: EDGE, origin: { kind: 'input' } })
const SETTINGS = { source: 'query', maxDepth: 5, scope: { namespaces: [], kinds: [] } } as unknown as ImpactSettings

async function impactOf(targets: Target[], source: 'query' | 'mcp' = 'query', repeated = 0) {
  const graph = fakeGraph(repeated)
  const report = await computeImpact({ ...SETTINGS, source }, { targets, skippedFiles: [] }, { graph: graph as never, tool: fakeTool(), log: () => {} })
  return { report, sent: graph.sent }
}

const rows = (objects: readonly RelatedObject[]) =>
  objects.map((o) => `${o.kind} ${o.name}: ${o.relations.map((r) => (o.derived?.includes(r) ? `${r}*` : r)).join(',')}`)
const byName = (impacts: readonly TargetImpact[], name: string) => impacts.find((impact) => impact.target.name === name)!

describe('a changed ConfigMap', () => {
  it('names the Pods that reference it and every workload owning them, at every level', async () => {
    const { report } = await impactOf([target('ConfigMap', '', 'shared')])
    expect(rows(report.impacts[0]!.downstream)).toEqual([
      'CronJob nightly: owns-referrer',
      'Deployment api: owns-referrer',
      'Deployment web: owns-referrer',
      'Job nightly-1: owns-referrer',
      'Pod api-def-1: referenced-by',
      'Pod nightly-1-x: referenced-by',
      'Pod web-abc-1: referenced-by',
      'Pod web-abc-2: referenced-by',
      'ReplicaSet api-def: owns-referrer',
      'ReplicaSet web-abc: owns-referrer',
    ])
  })

  it('two changed at once, one with a dot in its name: one Pod scan, each names its own users, the dotted one derived', async () => {
    const { report, sent } = await impactOf([target('ConfigMap', '', 'shared'), target('ConfigMap', '', 'app.config')])
    expect(rows(byName(report.impacts, 'app.config').downstream)).toEqual([
      'Deployment web: owns-referrer*',
      'Pod web-abc-1: referenced-by*',
      'Pod web-abc-2: referenced-by*',
      'ReplicaSet web-abc: owns-referrer*',
    ])
    expect(
      byName(report.impacts, 'shared')
        .downstream.filter((o) => o.kind === 'Deployment')
        .map((o) => o.name),
    ).toEqual(['api', 'web'])
    // never one relation block with two names: the engine AND-s its filters
    const podScans = sent.filter((spec) => JSON.stringify(spec.filter).includes('"Pod"'))
    expect(podScans).toHaveLength(1)
    expect(JSON.stringify(podScans[0])).not.toContain('filters')
  })

  it('is not named by a Pod whose init container or an unsynchronised Secret names it', async () => {
    const { report } = await impactOf([target('ConfigMap', '', 'init-only')])
    expect(report.impacts[0]!.downstream).toEqual([])
  })
})

describe('a changed workload', () => {
  it('names its ReplicaSet and Pods, what the Pods reference, and — derived — the Service, HPA and policy around them', async () => {
    const { report } = await impactOf([target('Deployment', 'apps', 'web')])
    const impact = report.impacts[0]!
    expect(rows(impact.downstream)).toEqual([
      'HorizontalPodAutoscaler web: scales*',
      'NetworkPolicy deny-all: selects-pods*',
      'Pod web-abc-1: descendants',
      'Pod web-abc-2: descendants',
      'ReplicaSet web-abc: descendants',
      'Service web: selects-pods*',
    ])
    expect(rows(impact.upstream)).toEqual([
      'ConfigMap app.config: pod-references*',
      'ConfigMap shared: pod-references',
      'Namespace shop: namespace',
      'ServiceAccount web: pod-references',
    ])
    expect(impact.unknown).toEqual([PDB_UNKNOWN])
  })

  it('a CronJob reaches its Pods through its Jobs', async () => {
    const { report } = await impactOf([target('CronJob', 'batch', 'nightly')])
    expect(rows(report.impacts[0]!.downstream)).toEqual(['Job nightly-1: descendants', 'NetworkPolicy deny-all: selects-pods*', 'Pod nightly-1-x: descendants'])
  })

  it('through the MCP tool, which reads the first level only, reaches the same as through the query API', async () => {
    const viaQuery = await impactOf([target('Deployment', 'apps', 'web'), target('CronJob', 'batch', 'nightly')])
    const viaMcp = await impactOf([target('Deployment', 'apps', 'web'), target('CronJob', 'batch', 'nightly')], 'mcp')
    expect(rows(byName(viaQuery.report.impacts, 'web').associated)).toEqual(['Deployment web-mirror: linked', 'Deployment web-mirror-2: linked'])
    expect(viaMcp.report.impacts).toEqual(viaQuery.report.impacts)
    expect(viaMcp.report.totals).toEqual(viaQuery.report.totals)
  })
})

describe('a changed Service', () => {
  it('names the Ingress routing to it, and — derived from its selector — the Pods it routes to and their owners', async () => {
    const { report } = await impactOf([target('Service', '', 'web')])
    const impact = report.impacts[0]!
    expect(rows(impact.downstream)).toEqual(['Ingress shop: referenced-by'])
    expect(rows(impact.upstream)).toEqual([
      'Deployment web: routes-to*',
      'Namespace shop: namespace',
      'Pod web-abc-1: routes-to*',
      'Pod web-abc-2: routes-to*',
      'ReplicaSet web-abc: routes-to*',
    ])
  })
})

describe('the query route reads every level of a tree', () => {
  it('gives nested nodes, which have no cluster, their parent’s edge', () => {
    const [impact] = impactsFromStatus(
      impactAnswer({ filter: { objects: [{ groupKind: { kind: 'Deployment' }, name: 'web' }] }, objects: { relations: { 'descendants+': {} } } }),
      target('Deployment', 'apps', 'web'),
    )
    expect(impact!.downstream.map((o) => `${o.edge} ${o.kind} ${o.name}`)).toEqual([
      `${EDGE} Pod web-abc-1`,
      `${EDGE} Pod web-abc-2`,
      `${EDGE} ReplicaSet web-abc`,
    ])
  })
})

describe('cost', () => {
  it('20 changed objects in one namespace: one query each, one Pod scan and one selector scan', async () => {
    const targets = [
      ...Array.from({ length: 10 }, (_, i) => target('ConfigMap', '', `c${i}`)),
      ...Array.from({ length: 10 }, (_, i) => target('Deployment', 'apps', `d${i}`)),
    ]
    const { sent } = await impactOf(targets)
    expect(sent).toHaveLength(22)
  })
})

describe('a Pod walk whose pages repeated Pods', () => {
  it('warns that others may have been skipped', async () => {
    expect((await impactOf([target('ConfigMap', '', 'shared')])).report.warnings).toEqual([])
    expect((await impactOf([target('ConfigMap', '', 'shared')], 'query', 3)).report.warnings).toEqual([
      'The Pod walk in namespace shop on edge prod-eu stopped early (3 repeated on a later page, so others may have been skipped): Pods, and what uses or is used by them, may be missing.',
    ])
  })
})

describe('derived marks when sources agree', () => {
  it('a relation stays derived only while no source gave it from the graph', async () => {
    const { classifyRelated, mergeRelated } = await import('../../../../src/steps/impact/classify.js')
    const pod = { edge: EDGE, group: '', kind: 'Pod', namespace: 'shop', name: 'p' }
    const { downstream } = classifyRelated([
      { ...pod, relation: 'referenced-by', derived: true },
      { ...pod, relation: 'selects-pods', derived: true },
      { ...pod, relation: 'referenced-by' },
    ])
    expect(downstream).toEqual([{ ...pod, relations: ['referenced-by', 'selects-pods'], derived: ['selects-pods'] }])
    expect(mergeRelated(downstream, [{ ...pod, relations: ['selects-pods'] }])).toEqual([{ ...pod, relations: ['referenced-by', 'selects-pods'] }])
    expect(mergeRelated([{ ...pod, relations: ['descendants'] }], [{ ...pod, relations: ['scales'], derived: ['scales'] }])).toEqual([
      { ...pod, relations: ['descendants', 'scales'], derived: ['scales'] },
    ])
  })
})
