/**
 * End to end, issue 25's acceptance for impact: dist/index.js against the hub emulator, which
 * answers as the graph engine does (references only from Pods, transitive relations as nested
 * trees, a Service selecting nothing, dotted names dropped from relations), on a pull request.
 * Two ConfigMaps mounted by the Pods of two Deployments name both Deployments; a changed
 * Deployment shows its Pods and, derived, the Service that selects them; ConfigMap `app.config`
 * is not lost. The MCP route reaches the same.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  BASE_SHA,
  HEAD_SHA,
  hubInputs,
  lines,
  makeWorkspace,
  OWNER,
  pullRequestEnv,
  pullRequestEvent,
  readResultFile,
  REPO,
  runStep,
  useGitHubEmulator,
  useHubEmulator,
  type ActionRun,
  type ImpactReportFile,
} from './harness.ts'
import { ACTIONS_TOKEN } from '../../emulator/index.ts'

const PR = 25
const configMap = (name: string) =>
  ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, '  namespace: shop', 'data: {k: v}', ''].join(
    '\n',
  )
const MANIFESTS: Record<string, string> = {
  'deploy/checkout-config.yaml': configMap('checkout-config'),
  'deploy/frontend-config.yaml': configMap('frontend-config'),
  'deploy/app-config.yaml': configMap('app.config'),
  'deploy/frontend.yaml': [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: frontend',
    '  namespace: shop',
    'spec: {replicas: 2}',
    '',
  ].join('\n'),
}

const hub = useHubEmulator()
const github = useGitHubEmulator()
let workspace: { dir: string; cleanup: () => void }
beforeAll(() => {
  workspace = makeWorkspace(MANIFESTS)
})
afterAll(() => workspace.cleanup())

function changing(paths: string[]): void {
  github.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: PR,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    files: paths.map((filename) => ({ filename, status: 'modified' })),
  })
}
beforeEach(() => changing(Object.keys(MANIFESTS)))

async function onPullRequest(extra: Record<string, string> = {}): Promise<ActionRun> {
  return runStep({
    inputs: {
      command: 'impact',
      ...hubInputs(hub),
      'github-token': ACTIONS_TOKEN,
      manifests: 'deploy/*.yaml',
      comment: 'off',
      ...extra,
    },
    env: pullRequestEnv(github.url, workspace.dir),
    event: pullRequestEvent(PR),
  })
}

type Impact = ImpactReportFile['impacts'][number]
type Related = Impact['downstream'][number]
const impactOf = (file: ImpactReportFile, kind: string, name: string, edge = 'prod-eu'): Impact => {
  const found = file.impacts.find((i) => i.target.kind === kind && i.target.name === name && i.edge === edge)
  expect(found, `${kind} ${name} on ${edge} is reported`).toBeDefined()
  return found!
}
const named = (objects: readonly Related[], kind: string) => objects.filter((o) => o.kind === kind).map((o) => o.name)
const podsOf = (deployment: string, edge = 'prod-eu') =>
  hub
    .fleet!.objects.filter(
      (o) =>
        o.edge === edge &&
        o.kind === 'Pod' &&
        o.metadata.namespace === 'shop' &&
        o.metadata.name.startsWith(`${deployment}-`),
    )
    .map((o) => o.metadata.name)
    .sort()

describe('a pull request that changes two ConfigMaps mounted by the Pods of two Deployments', () => {
  it('names both Deployments, each through the Pods that mount its ConfigMap and their ReplicaSet', async () => {
    changing(['deploy/checkout-config.yaml', 'deploy/frontend-config.yaml'])
    const result = await onPullRequest()
    expect(result.code).toBe(0)
    expect(lines(result.stdout, '::warning::')).toEqual([])
    const file = readResultFile<ImpactReportFile>(result)
    for (const [config, deployment] of [
      ['checkout-config', 'checkout'],
      ['frontend-config', 'frontend'],
    ] as const) {
      const downstream = impactOf(file, 'ConfigMap', config).downstream
      expect(named(downstream, 'Deployment')).toEqual([deployment])
      expect(named(downstream, 'Pod')).toEqual(podsOf(deployment))
      expect(named(downstream, 'ReplicaSet')).toHaveLength(1)
      expect(downstream.find((o) => o.kind === 'Deployment')?.relations).toContain('owns-referrer')
    }
    // both in the report the reviewer reads
    expect(result.summary).toMatch(/\| Deployment\.apps \| shop\/checkout \| [^|]*owns-referrer/)
    expect(result.summary).toMatch(/\| Deployment\.apps \| shop\/frontend \| [^|]*owns-referrer/)
  })
})

describe('a changed Deployment', () => {
  it('shows its Pods, and the Service selecting them, derived and marked so', async () => {
    changing(['deploy/frontend.yaml'])
    const result = await onPullRequest()
    expect(result.code).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    for (const edge of ['prod-eu', 'prod-us', 'staging']) {
      const impact = impactOf(file, 'Deployment', 'frontend', edge)
      const downstream = impact.downstream
      expect(named(downstream, 'Pod')).toEqual(podsOf('frontend', edge))
      expect(named(downstream, 'Pod').length).toBeGreaterThan(0)
      const service = downstream.find((o) => o.kind === 'Service' && o.name === 'frontend')
      expect(service).toMatchObject({ relations: ['selects-pods'], derived: ['selects-pods'] })
      // what its Pods mount is upstream of it, the dotted ConfigMap included (derived: the engine drops it)
      const upstream = impact.upstream
      const frontendConfig = upstream.find((o) => o.kind === 'ConfigMap' && o.name === 'frontend-config')
      expect(frontendConfig?.relations).toContain('pod-references')
      expect(frontendConfig?.derived).toBeUndefined()
      expect(upstream.find((o) => o.name === 'app.config')).toMatchObject({
        kind: 'ConfigMap',
        relations: ['pod-references'],
        derived: ['pod-references'],
      })
    }
    expect(result.summary).toMatch(/\| Pod \| shop\/frontend-[a-z0-9]+-[a-z0-9]+ \| descendants \|/)
    expect(result.summary).toContain('| Service | shop/frontend | selects-pods \\(derived\\) |')
    expect(result.summary).toContain('> **(derived)**: worked out by the action from the objects themselves')
  })
})

describe('ConfigMap app.config', () => {
  it('is not lost: the Pods that mount it and their Deployment are named, derived, on every edge', async () => {
    changing(['deploy/app-config.yaml'])
    const result = await onPullRequest()
    expect(result.code).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.notFound).toEqual([])
    for (const edge of ['prod-eu', 'prod-us', 'staging']) {
      const downstream = impactOf(file, 'ConfigMap', 'app.config', edge).downstream
      expect(named(downstream, 'Pod')).toEqual(podsOf('frontend', edge))
      expect(named(downstream, 'Deployment')).toEqual(['frontend'])
      for (const object of downstream) expect(object.derived, `${object.kind} ${object.name}`).toEqual(object.relations)
    }
  })
})

describe('the MCP route', () => {
  it('reaches what the query route reaches for the whole pull request', async () => {
    const viaQuery = readResultFile<ImpactReportFile>(await onPullRequest())
    hub.reset()
    const viaMcp = readResultFile<ImpactReportFile>(
      await onPullRequest({ 'impact-source': 'mcp', 'mcp-url': hub.mcpUrl }),
    )
    expect(viaMcp.impacts).toEqual(viaQuery.impacts)
    expect(viaMcp.totals).toEqual(viaQuery.totals)
  })
})
