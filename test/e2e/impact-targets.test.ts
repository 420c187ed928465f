/**
 * End to end, `command: impact` with named `targets` outside a pull request: dist/index.js as a
 * child process against the hub emulator's graph provider and MCP endpoint (demo fleet) over
 * loopback HTTP. Both impact sources, edge scoping, ConfigMap dependents, targets not found,
 * and bad `targets` refused before any request.
 */
import { describe, expect, it } from 'vitest'
import {
  expectSecretsNowhere,
  hubInputs,
  lines,
  readResultFile,
  runStep,
  useHubEmulator,
  verdictLines,
  type ActionRun,
  type ImpactReportFile,
} from './harness.ts'
import type { RecordedRequest } from '../../emulator/index.ts'

const QUERY = '/services/providers/graph/api/query'
const EDGES = '/services/providers/graph/api/edges'
const CHECKOUT_EU = '[{kind: Deployment, group: apps, name: checkout, namespace: shop, edge: prod-eu}]'
const CHECKOUT_ANY_EDGE = '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]'
const COUNT_OUTPUTS = ['targets-count', 'upstream-count', 'downstream-count', 'associated-count'] as const

const hub = useHubEmulator()

async function impact(extra: Record<string, string>): Promise<ActionRun> {
  return runStep({
    inputs: { command: 'impact', ...hubInputs(hub), ...extra },
  })
}

const queries = (): RecordedRequest[] => hub.requests.filter((r) => r.method === 'POST' && r.path === QUERY)
const edgeLookups = (): RecordedRequest[] => hub.requests.filter((r) => r.method === 'GET' && r.path === EDGES)
const mcpCalls = (): Array<{ method: string; params?: { name?: string; arguments?: Record<string, unknown> } }> =>
  hub.requests
    .filter((r) => r.method === 'POST' && r.path.startsWith('/services/mcpserver/'))
    .map(
      (r) => JSON.parse(r.body) as { method: string; params?: { name?: string; arguments?: Record<string, unknown> } },
    )
    .filter((message) => message.method === 'tools/call')
const counts = (result: ActionRun): Record<string, string | undefined> =>
  Object.fromEntries(COUNT_OUTPUTS.map((name) => [name, result.outputs[name]]))
/** Log lines of the per-target verdicts (plain text, one per target and edge). */
const logVerdicts = (result: ActionRun): string[] =>
  result.stdout
    .split('\n')
    .filter((line) => / on [a-z0-9-]+ — \d+ upstream, \d+ downstream, \d+ associated$/.test(line))

describe('a Deployment on one edge', () => {
  it('reports the same counts and verdict lines through the query API and through the MCP tool', async () => {
    const viaQuery = await impact({ targets: CHECKOUT_EU })
    const queried = queries()
    // the tool's query, then the walks the engine's relations leave to the client: the Pods of
    // shop on prod-eu (its references sit on its Pods), then what selects or scales them
    expect(queried).toHaveLength(3)
    // checkout is grouped with its twin on the other edge: associated objects are kept only on engaged edges
    expect(edgeLookups()).toHaveLength(1)
    expect(mcpCalls()).toEqual([])
    const spec = JSON.parse(queried[0]?.body ?? '{}') as {
      cluster?: { name: string }
      maxDepth?: number
      filter?: unknown
    }
    expect(spec.cluster).toEqual({ name: 'prod-eu' })
    expect(spec.maxDepth).toBe(5)
    expect(spec.filter).toEqual({
      objects: [{ groupKind: { apiGroup: 'apps', kind: 'Deployment' }, name: 'checkout', namespace: 'shop' }],
    })
    const walks = queried.slice(1).map(
      (request) =>
        JSON.parse(request.body) as {
          cluster?: { name: string }
          filter?: { objects?: Array<{ groupKind?: { kind?: string }; namespace?: string }> }
        },
    )
    expect(
      walks.map((walk) => [
        walk.cluster?.name,
        walk.filter?.objects?.map((f) => `${f.groupKind?.kind} ${f.namespace}`),
      ]),
    ).toEqual([
      ['prod-eu', ['Pod shop']],
      ['prod-eu', ['Service shop', 'PodDisruptionBudget shop', 'NetworkPolicy shop', 'HorizontalPodAutoscaler shop']],
    ])

    hub.reset()
    const viaMcp = await impact({ targets: CHECKOUT_EU, 'impact-source': 'mcp', 'mcp-url': hub.mcpUrl })
    expect(mcpCalls()).toEqual([
      {
        jsonrpc: '2.0',
        id: expect.anything(),
        method: 'tools/call',
        params: {
          name: 'graph__graph_impact',
          arguments: {
            kind: 'Deployment',
            name: 'checkout',
            group: 'apps',
            edge: 'prod-eu',
            namespace: 'shop',
            maxDepth: 5,
          },
        },
      },
    ])
    // one light lookup finds where the target exists (the tool answers for its first match only);
    // the tool reads the first level of a tree only, so the levels below come from the query API,
    // and the Pod and selector walks follow as on the query route
    expect(queries()).toHaveLength(4)
    expect(JSON.parse(queries()[0]?.body ?? '{}')).toMatchObject({
      cluster: { name: 'prod-eu' },
      objects: { id: true, cluster: true, object: { metadata: { namespace: true } } },
    })
    expect(
      Object.keys((JSON.parse(queries()[1]?.body ?? '{}') as { objects: { relations: object } }).objects.relations),
    ).toEqual(['descendants+', 'linked+'])

    for (const result of [viaQuery, viaMcp]) {
      expect(result.code).toBe(0)
      expect(lines(result.stdout, '::error::')).toEqual([])
      expect(lines(result.stdout, '::warning::')).toEqual([])
    }
    expect(counts(viaQuery)).toEqual({
      'targets-count': '1',
      'upstream-count': '7',
      'downstream-count': '8',
      'associated-count': '1',
    })
    expect(counts(viaMcp)).toEqual(counts(viaQuery))

    const expectedLine = '- **Deployment.apps shop/checkout** on prod-eu — 7 upstream, 8 downstream, 1 associated'
    expect(verdictLines(viaQuery.outputs.report ?? '')).toEqual([expectedLine])
    expect(verdictLines(viaMcp.outputs.report ?? '')).toEqual([expectedLine])
    expect(verdictLines(viaQuery.summary)).toEqual([expectedLine])
    expect(verdictLines(viaMcp.summary)).toEqual([expectedLine])
    expect(logVerdicts(viaQuery)).toEqual([
      'Deployment.apps shop/checkout on prod-eu — 7 upstream, 8 downstream, 1 associated',
    ])
    expect(logVerdicts(viaMcp)).toEqual(logVerdicts(viaQuery))
    expect(lines(viaQuery.stdout, '::notice::')).toEqual([
      '::notice::Impact: 7 upstream, 8 downstream, 1 associated across 1 target-edge pair.',
    ])
    expect(lines(viaMcp.stdout, '::notice::')).toEqual(lines(viaQuery.stdout, '::notice::'))

    expect(viaQuery.summary).toContain('read through the query API')
    expect(viaMcp.summary).toContain('read through the MCP impact tool')

    const fromQuery = readResultFile<ImpactReportFile>(viaQuery)
    const fromMcp = readResultFile<ImpactReportFile>(viaMcp)
    expect(fromQuery).toMatchObject({
      schema: 'hub-action/impact-report',
      version: 1,
      source: 'query',
      maxDepth: 5,
      notFound: [],
      skippedFiles: [],
      warnings: [],
    })
    expect(fromMcp).toMatchObject({ schema: 'hub-action/impact-report', version: 1, source: 'mcp' })
    // the same objects with the same relations, not only the same numbers
    expect(fromMcp.impacts).toEqual(fromQuery.impacts)
    expect(fromMcp.totals).toEqual(fromQuery.totals)
    expect(fromQuery.impacts.map((i) => i.edge)).toEqual(['prod-eu'])
    // its ReplicaSet and, a level below in the engine's tree, its Pods; and, derived from their own
    // fields (the engine has no such relation), what selects its Pods or scales it
    expect(
      fromQuery.impacts[0]?.downstream.map(
        (o) => `${o.kind} ${o.name} ${o.relations.join(',')}${o.derived ? ` derived:${o.derived.join(',')}` : ''}`,
      ),
    ).toEqual([
      'HorizontalPodAutoscaler checkout scales derived:scales',
      'NetworkPolicy default-deny selects-pods derived:selects-pods',
      ...hub
        .fleet!.objects.filter(
          (o) => o.edge === 'prod-eu' && o.kind === 'Pod' && o.metadata.name.startsWith('checkout-'),
        )
        .map((o) => `Pod ${o.metadata.name} descendants`)
        .sort(),
      'PodDisruptionBudget checkout selected-by,selects-pods derived:selects-pods',
      'ReplicaSet checkout-7d9f8c6b5 descendants',
      'Service checkout selects-pods derived:selects-pods',
    ])
    // a Deployment references nothing itself: what its Pods reference is upstream of it
    expect(
      fromQuery.impacts[0]?.upstream
        .filter((o) => o.relations.includes('pod-references'))
        .map((o) => `${o.kind} ${o.name}`),
    ).toEqual([
      'ConfigMap checkout-config',
      'ConfigMap feature-flags',
      'Secret checkout-db',
      'Secret regcred',
      'ServiceAccount checkout',
    ])
    expect(fromQuery.impacts[0]?.associated).toEqual([
      {
        edge: 'prod-us',
        group: 'apps',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'checkout',
        relations: ['grouped'],
      },
    ])

    expectSecretsNowhere(viaQuery, [hub.token])
    expectSecretsNowhere(viaMcp, [hub.token])
  })
})

describe('edge scoping', () => {
  it('reports a target without `edge` on every edge where it exists, and nowhere else', async () => {
    const result = await impact({ targets: CHECKOUT_ANY_EDGE })
    expect(result.code).toBe(0)
    // One light lookup of where it exists, then one relation query per edge: a relation query
    // across edges merges same-named objects into one node (docs/hub-facts.md, "Graph queries").
    const specs = queries().map(
      (request) => JSON.parse(request.body) as { cluster?: { name?: string }; objects?: { relations?: unknown } },
    )
    // Then, per edge, the Pod and selector walks.
    expect(specs).toHaveLength(7)
    expect(specs[0]?.cluster).toBeUndefined()
    expect(specs[0]?.objects?.relations).toBeUndefined()
    expect(specs.slice(1, 3).map((spec) => spec.cluster?.name)).toEqual(['prod-eu', 'prod-us'])
    expect(
      specs
        .slice(3)
        .map((spec) => spec.cluster?.name)
        .sort(),
    ).toEqual(['prod-eu', 'prod-eu', 'prod-us', 'prod-us'])

    const file = readResultFile<ImpactReportFile>(result)
    expect(file.impacts.map((i) => i.edge)).toEqual(['prod-eu', 'prod-us'])
    expect(file.notFound).toEqual([])
    expect(verdictLines(result.outputs.report ?? '')).toEqual([
      '- **Deployment.apps shop/checkout** on prod-eu — 7 upstream, 8 downstream, 1 associated',
      // prod-us has no feature-flags ConfigMap (an optional reference) and one Pod fewer, which the
      // Deployment both owns (downstream) and selects (upstream, as the engine says)
      '- **Deployment.apps shop/checkout** on prod-us — 6 upstream, 7 downstream, 1 associated',
    ])
    expect(result.outputs['targets-count']).toBe('1')
    // distinct objects across both edges: each edge's namespace and ConfigMaps are different objects; its own Pods and ReplicaSet are downstream only
    expect(result.outputs['upstream-count']).toBe('13')
    expect(result.outputs['downstream-count']).toBe('15')
    // each checkout is grouped with the other one
    expect(result.outputs['associated-count']).toBe('2')
    expect(result.summary).not.toContain('staging')
  })

  it('gives the same per-edge report through the MCP tool, which is asked once per edge where the target exists', async () => {
    const viaQuery = await impact({ targets: CHECKOUT_ANY_EDGE })
    hub.reset()
    const viaMcp = await impact({ targets: CHECKOUT_ANY_EDGE, 'impact-source': 'mcp', 'mcp-url': hub.mcpUrl })
    expect(viaMcp.code).toBe(0)
    // checkout is grouped with its twin on the other edge: associated objects are kept only on engaged edges
    expect(edgeLookups()).toHaveLength(1)
    expect(mcpCalls().map((call) => call.params?.arguments?.edge)).toEqual(['prod-eu', 'prod-us'])
    expect(counts(viaMcp)).toEqual(counts(viaQuery))
    expect(verdictLines(viaMcp.outputs.report ?? '')).toEqual(verdictLines(viaQuery.outputs.report ?? ''))
    expect(readResultFile<ImpactReportFile>(viaMcp).impacts).toEqual(readResultFile<ImpactReportFile>(viaQuery).impacts)
  })

  it('reports a target with `edge` only on that edge', async () => {
    const result = await impact({
      targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop, edge: prod-us}]',
    })
    expect(result.code).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.impacts.map((i) => i.edge)).toEqual(['prod-us'])
    for (const direction of ['upstream', 'downstream'] as const) {
      expect(new Set(file.impacts[0]?.[direction].map((o) => o.edge))).toEqual(new Set(['prod-us']))
    }
    expect(JSON.parse(queries()[0]?.body ?? '{}')).toMatchObject({ cluster: { name: 'prod-us' } })
    expect(verdictLines(result.summary)).toEqual([
      '- **Deployment.apps shop/checkout** on prod-us — 6 upstream, 7 downstream, 1 associated',
    ])
    // the other edge's checkout appears only as the declared group peer
    expect(file.impacts[0]?.associated).toEqual([
      {
        edge: 'prod-eu',
        group: 'apps',
        kind: 'Deployment',
        namespace: 'shop',
        name: 'checkout',
        relations: ['grouped'],
      },
    ])
  })
})

describe('a target without namespace', () => {
  it('is reported in every namespace where the name exists, the same through both sources', async () => {
    // ConfigMap feature-flags exists in namespaces shop and payments on prod-eu
    const targets = '[{kind: ConfigMap, name: feature-flags, edge: prod-eu}]'
    const viaQuery = await impact({ targets })
    expect(viaQuery.code).toBe(0)
    expect(verdictLines(viaQuery.outputs.report ?? '')).toEqual([
      '- **ConfigMap payments/feature-flags** on prod-eu — 1 upstream, 0 downstream, 0 associated',
      '- **ConfigMap shop/feature-flags** on prod-eu — 1 upstream, 5 downstream, 0 associated',
    ])

    // action.yml promises the same report from both sources. The graph_impact tool answers for
    // the first match only, so one call per edge cannot see the second namespace.
    hub.reset()
    const viaMcp = await impact({ targets, 'impact-source': 'mcp', 'mcp-url': hub.mcpUrl })
    expect(viaMcp.code).toBe(0)
    expect(counts(viaMcp)).toEqual(counts(viaQuery))
    expect(verdictLines(viaMcp.outputs.report ?? '')).toEqual(verdictLines(viaQuery.outputs.report ?? ''))
    expect(readResultFile<ImpactReportFile>(viaMcp).impacts).toEqual(readResultFile<ImpactReportFile>(viaQuery).impacts)
  })
})

describe('a ConfigMap', () => {
  it('reaches the pods that use it, as `referenced-by` dependents on each edge', async () => {
    const result = await impact({ targets: '[{kind: ConfigMap, name: checkout-config, namespace: shop}]' })
    expect(result.code).toBe(0)
    expect(lines(result.stdout, '::warning::')).toEqual([])

    const file = readResultFile<ImpactReportFile>(result)
    expect(file.schema).toBe('hub-action/impact-report')
    expect(file.version).toBe(1)
    expect(file.impacts.map((i) => i.edge)).toEqual(['prod-eu', 'prod-us'])
    for (const impact of file.impacts) {
      const usesIt = hub
        .fleet!.objects.filter(
          (o) =>
            o.edge === impact.edge &&
            o.kind === 'Pod' &&
            o.metadata.namespace === 'shop' &&
            o.metadata.name.startsWith('checkout-'),
        )
        .map((o) => o.metadata.name)
        .sort()
      expect(usesIt.length).toBeGreaterThanOrEqual(2)
      const pods = impact.downstream.filter((o) => o.kind === 'Pod')
      expect(pods).toEqual(
        usesIt.map((name) => ({
          edge: impact.edge,
          group: '',
          kind: 'Pod',
          namespace: 'shop',
          name,
          relations: ['referenced-by'],
        })),
      )
      // and the workload that owns them, through its ReplicaSet
      expect(
        impact.downstream.filter((o) => o.relations.includes('owns-referrer')).map((o) => `${o.kind} ${o.name}`),
      ).toEqual(['Deployment checkout', expect.stringMatching(/^ReplicaSet checkout-[a-z0-9]+$/)])
      // frontend pods use another ConfigMap: not dependents
      expect(impact.downstream.some((o) => o.name.startsWith('frontend'))).toBe(false)
    }
    // one lookup, one impact query per edge, then one Pod scan per (edge, namespace): the engine has
    // no reverse of `references`, which starts at Pods
    const scans = queries()
      .map((r) => JSON.parse(r.body) as { cluster?: { name: string }; filter?: { objects?: Array<{ name?: string }> } })
      .filter((spec) => spec.cluster !== undefined && spec.filter?.objects?.[0]?.name === undefined)
    expect(scans.map((s) => s.cluster?.name).sort()).toEqual(['prod-eu', 'prod-us'])
    expect(
      scans.every(
        (s) =>
          JSON.stringify(s.filter) ===
          JSON.stringify({ objects: [{ groupKind: { apiGroup: '', kind: 'Pod' }, namespace: 'shop' }] }),
      ),
    ).toBe(true)

    expect(result.outputs['downstream-count']).toBe(
      String(file.impacts.reduce((sum, i) => sum + i.downstream.length, 0)),
    )
    // Per target and edge: no Edge column repeating that edge.
    expect(result.summary).toMatch(/\| Pod \| shop\/checkout-7d9f8c6b5-[a-z0-9]+ \| referenced-by \|/)
  })
})

describe('a target that is not synchronized', () => {
  it('is reported as not synchronized with the engaged edges, and the step passes', async () => {
    const result = await impact({
      targets:
        '[{kind: Deployment, group: apps, name: checkout, namespace: shop, edge: prod-eu}, {kind: Deployment, group: apps, name: brand-new, namespace: shop}]',
    })
    expect(result.code).toBe(0)
    expect(lines(result.stdout, '::error::')).toEqual([])
    expect(result.stdout).toContain(
      'Deployment.apps shop/brand-new: not found on any edge (new object, stale edge, or no visibility).',
    )
    expect(edgeLookups()).toHaveLength(1)

    expect(result.outputs['targets-count']).toBe('2')
    expect(result.outputs['downstream-count']).toBe('8')
    expect(result.summary).toContain('Not found on any edge: 1')
    expect(result.summary).toContain('### Not synchronized (1)')
    expect(result.summary).toContain('Their impact is unknown, not empty.')
    expect(result.summary).toContain('Engaged edges in this workspace: prod-eu, prod-us, staging.')
    expect(result.summary).toContain('- Deployment.apps shop/brand-new — named in the targets input')
    expect(verdictLines(result.summary)).toEqual([
      '- **Deployment.apps shop/checkout** on prod-eu — 7 upstream, 8 downstream, 1 associated',
    ])

    const file = readResultFile<ImpactReportFile>(result)
    expect(file.notFound).toMatchObject([{ kind: 'Deployment', group: 'apps', name: 'brand-new', namespace: 'shop' }])
    expect(file.edges).toEqual(['prod-eu', 'prod-us', 'staging'])
  })
})

describe('bad targets', () => {
  const cases: Array<{ what: string; targets: string; message: string }> = [
    {
      what: 'not a list',
      targets: 'kind: Deployment\nname: checkout',
      message:
        'Input `targets` must be a list of objects, each with `kind` and `name` (and optional `group`, `namespace`, `edge`); it is "kind: Deployment\\nname: checkout". Give a list such as [{kind: Deployment, name: checkout}].',
    },
    {
      what: 'an item without a name',
      targets: '[{kind: Deployment, namespace: shop}]',
      message: 'Input `targets`: item 1 (`name`): is required: the object name.',
    },
    {
      what: 'an unknown key',
      targets: '[{kind: Deployment, name: checkout, colour: red}]',
      message:
        'Input `targets`: item 1 (unknown `colour`; allowed: kind, name, group, namespace, edge): has fields the action does not know.',
    },
    {
      what: 'a bad namespace in the second item',
      targets:
        '- {kind: Deployment, group: apps, name: checkout, namespace: shop}\n- {kind: ConfigMap, name: checkout-config, namespace: Shop_Prod}\n',
      message: 'Input `targets`: item 2 (`namespace`): "Shop_Prod" must be a namespace name (a DNS-1123 label).',
    },
    {
      what: 'invalid YAML',
      targets: '[{kind: Deployment, name: checkout',
      message: 'Input `targets` is not valid YAML or JSON:',
    },
  ]

  it.each(cases)(
    '$what: exit 1 naming `targets` and the item, with no request to the hub',
    async ({ targets, message }) => {
      const result = await impact({ targets })
      expect(result.code).toBe(1)
      const errors = lines(result.stdout, '::error::')
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain(message)
      expect(hub.requests).toEqual([])
      expect(result.summary).toBe('')
      expect(result.outputs).toEqual({})
    },
  )
})

describe('a folder given as `manifests`', () => {
  it('fails naming the input, the folder and the glob to write, with no request to the hub', async () => {
    // GITHUB_WORKSPACE is the project: `test/fixtures` is a folder there
    const result = await impact({ manifests: 'test/fixtures' })
    expect(result.code).toBe(1)
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(
      '`manifests`: `test/fixtures` is a folder, and `manifests` takes globs of files: write `test/fixtures/**/*.yaml`',
    )
    expect(hub.requests).toEqual([])
    expect(result.outputs).toEqual({})
  })
})
