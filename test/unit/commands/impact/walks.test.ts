/**
 * Issue 25, item 2: impact under the graph engine's real semantics. The fake graph below answers
 * as the spec says the engine does: `references` only on Pods (a dotted name dropped, an object
 * the graph does not hold never named), transitive relations as nested trees whose deeper nodes
 * have no id and no cluster, lists projected whole, a Service selecting nothing.
 */
import { describe, expect, it } from 'vitest'
import { computeImpact } from '../../../../src/commands/impact/compute-impact.js'
import { impactsFromStatus } from '../../../../src/commands/impact/query-impact.js'
import { PDB_UNKNOWN } from '../../../../src/commands/impact/walks.js'
import { withoutOwnSelected } from '../../../../src/commands/impact/classify.js'
import type { RelatedObject, TargetImpact } from '../../../../src/commands/impact/model.js'
import type { Target } from '../../../../src/model/target.js'
import type { ImpactSettings } from '../../../../src/commands/impact/inputs.js'
import { EDGE, fakeGraph, fakeTool, impactAnswer } from './fake-engine.js'

const target = (kind: string, group: string, name: string): Target => ({
  kind,
  group,
  name,
  namespace: 'shop',
  edge: EDGE,
  origin: { kind: 'input' },
})
const SETTINGS = { source: 'query', maxDepth: 5, scope: { namespaces: [], kinds: [] } } as unknown as ImpactSettings

async function impactOf(targets: Target[], source: 'query' | 'mcp' = 'query', repeated = 0) {
  const graph = fakeGraph(repeated)
  const report = await computeImpact(
    { ...SETTINGS, source },
    { targets, skippedFiles: [] },
    { graph: graph as never, tool: fakeTool(), log: () => {} },
  )
  return { report, sent: graph.sent }
}

const rows = (objects: readonly RelatedObject[]) =>
  objects.map((o) => `${o.kind} ${o.name}: ${o.relations.map((r) => (o.derived?.includes(r) ? `${r}*` : r)).join(',')}`)
const byName = (impacts: readonly TargetImpact[], name: string) =>
  impacts.find((impact) => impact.target.name === name)!

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

describe("a workload's own objects (withoutOwnSelected)", () => {
  const object = (kind: string, name: string, relations: string[]): RelatedObject => ({
    edge: EDGE,
    group: '',
    kind,
    namespace: 'shop',
    name,
    relations,
  })
  it('drops what its selector matches of what it owns from upstream, and nothing else', () => {
    const downstream = [object('Pod', 'web-abc-1', ['descendants']), object('ConfigMap', 'labelled', ['selected-by'])]
    const upstream = [
      object('Pod', 'web-abc-1', ['selects']),
      object('ConfigMap', 'labelled', ['selects']),
      object('Pod', 'web-abc-1-twin', ['selects']),
      object('Namespace', 'shop', ['namespace']),
    ]
    expect(withoutOwnSelected(upstream, downstream).map((o) => `${o.kind} ${o.name}`)).toEqual([
      'ConfigMap labelled',
      'Pod web-abc-1-twin',
      'Namespace shop',
    ])
    // an object it also references stays upstream, for that relation
    const both = [object('Pod', 'web-abc-1', ['selects', 'references'])]
    expect(withoutOwnSelected(both, downstream)).toEqual(both)
  })
})

describe('a changed Secret the graph does not hold (no Secret is synced by default)', () => {
  it("still names, derived, the Pods whose specs name it and their owners, and says it read them from the Pods' specs", async () => {
    const { report } = await impactOf([target('Secret', '', 'web-db')])
    expect(report.notFound).toEqual([])
    expect(rows(byName(report.impacts, 'web-db').downstream)).toEqual([
      'Deployment web: owns-referrer*',
      'Pod web-abc-1: referenced-by*',
      'Pod web-abc-2: referenced-by*',
      'ReplicaSet web-abc: owns-referrer*',
    ])
    expect(report.warnings.join('\n')).toContain('Secret shop/web-db is not in the graph')
  })

  it('a Secret no Pod names stays not found', async () => {
    const { report } = await impactOf([target('Secret', '', 'nobody-uses-me')])
    expect(report.impacts).toEqual([])
    expect(report.notFound.map((t) => t.name)).toEqual(['nobody-uses-me'])
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
    expect(rows(report.impacts[0]!.downstream)).toEqual([
      'Job nightly-1: descendants',
      'NetworkPolicy deny-all: selects-pods*',
      'Pod nightly-1-x: descendants',
    ])
  })

  it('through the MCP tool, which reads the first level only, reaches the same as through the query API', async () => {
    const viaQuery = await impactOf([target('Deployment', 'apps', 'web'), target('CronJob', 'batch', 'nightly')])
    const viaMcp = await impactOf([target('Deployment', 'apps', 'web'), target('CronJob', 'batch', 'nightly')], 'mcp')
    expect(rows(byName(viaQuery.report.impacts, 'web').associated)).toEqual([
      'Deployment web-mirror: linked',
      'Deployment web-mirror-2: linked',
    ])
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
      impactAnswer({
        filter: { objects: [{ groupKind: { kind: 'Deployment' }, name: 'web' }] },
        objects: { relations: { 'descendants+': {} } },
      }),
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
    const { classifyRelated, mergeRelated } = await import('../../../../src/commands/impact/classify.js')
    const pod = { edge: EDGE, group: '', kind: 'Pod', namespace: 'shop', name: 'p' }
    const { downstream } = classifyRelated([
      { ...pod, relation: 'referenced-by', derived: true },
      { ...pod, relation: 'selects-pods', derived: true },
      { ...pod, relation: 'referenced-by' },
    ])
    expect(downstream).toEqual([{ ...pod, relations: ['referenced-by', 'selects-pods'], derived: ['selects-pods'] }])
    expect(mergeRelated(downstream, [{ ...pod, relations: ['selects-pods'] }])).toEqual([
      { ...pod, relations: ['referenced-by', 'selects-pods'] },
    ])
    expect(
      mergeRelated([{ ...pod, relations: ['descendants'] }], [{ ...pod, relations: ['scales'], derived: ['scales'] }]),
    ).toEqual([{ ...pod, relations: ['descendants', 'scales'], derived: ['scales'] }])
  })
})
