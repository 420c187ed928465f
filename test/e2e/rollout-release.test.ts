/**
 * End to end, `command: rollout` on what releases really do (issue 26): dist/index.js as a
 * process against the scripted rollout fleets, answered through the emulator's engine-faithful
 * projection. Each poll moves the fleet to the next instant of a script, so nothing sleeps.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { makeWorkspace, readResultFile } from './harness.ts'
import { QUERY, fleetAt, polls, rollout, summaryText, type RolloutFile } from './rollout-harness.ts'
import { FRONTEND_DEPLOYED } from '../../scripts/demo/fixtures.ts'

const deployment = (env: string) =>
  [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: web, namespace: shop}',
    'spec:',
    '  template:',
    '    spec:',
    `      containers: [{name: web, image: "registry/web:1.5"${env}}]`,
  ].join('\n')

function workspace(files: Record<string, string>): { GITHUB_WORKSPACE: string } {
  const ws = makeWorkspace(files)
  onTestFinished(ws.cleanup)
  return { GITHUB_WORKSPACE: ws.dir }
}

describe('rollout gate on releases', () => {
  it('holds an env-only change until every edge runs it, naming the field and both values', async () => {
    const emulator = await fleetAt('env-change', [0, 30_000, 200_000])
    const env = workspace({ 'deploy/web.yaml': deployment(', env: [{name: LOG_LEVEL, value: debug}]') })
    const result = await rollout(emulator, { targets: '', manifests: 'deploy/*.yaml' }, env)
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain(
      'staging · Deployment.apps shop/web: in progress — not synced: spec.template.spec.containers[web].env[LOG_LEVEL].value is "info", the manifest sets "debug"',
    )
    expect(result.outputs['rollout-state']).toBe('current')
    expect(polls(emulator)).toBe(3)
  })

  it('lists a Secret beside a Deployment as not checked and passes on the Deployment', async () => {
    const emulator = await fleetAt('converging', [200_000])
    const secret =
      'apiVersion: v1\nkind: Secret\nmetadata: {name: web-tls, namespace: shop}\nstringData: {tls.key: x}\n'
    const env = workspace({ 'deploy/web.yaml': `${secret}---\n${deployment('')}\n` })
    const result = await rollout(emulator, { targets: '', manifests: 'deploy/*.yaml' }, env)
    expect(result.code, result.stdout).toBe(0)
    expect(result.outputs['current-count']).toBe('3')
    expect(result.stdout).toContain(
      'Not checked (1), the graph does not sync their kind by default: Secret shop/web-tls.',
    )
    expect(readResultFile<RolloutFile>(result).notChecked.map((t) => t.label)).toEqual(['Secret shop/web-tls'])
    expect(summaryText(result)).toContain('Not checked (1)')
  })

  it('never passes with a named edge that was gone before the start, and says why when `require` tolerates it', async () => {
    const emulator = await fleetAt('disconnect', [200_000])
    // the manifest, not `targets`: a `targets` gate never passes on an object unchanged since its first read
    const env = workspace({ 'deploy/web.yaml': deployment('') })
    const inputs = { targets: '', manifests: 'deploy/*.yaml', edges: 'prod-eu, staging' }
    const strict = await rollout(emulator, { ...inputs, 'timeout-seconds': '3' }, env)
    expect(strict.code).toBe(1)
    expect(strict.outputs['rollout-state']).toBe('timeout')
    expect(strict.stdout).toContain('staging not reporting (not engaged); 1 of 2 edge(s) current, every edge required')
    expect(strict.stdout).toContain('More time helps only if those edges reconnect')
    expect(strict.stdout).not.toContain('Raise `timeout-seconds`')
    const tolerant = await rollout(emulator, { ...inputs, require: '1' }, env)
    expect(tolerant.code, tolerant.stdout).toBe(0)
    expect(tolerant.stdout).toContain(
      'tolerated by `require` (at least 1 edge(s)): staging not reporting (not engaged)',
    )
    expect(summaryText(tolerant)).toContain('Tolerated by require (not reporting): staging (not engaged)')
  })

  it('passes a release Job only once it is Complete on every edge', async () => {
    const emulator = await fleetAt('release-job', [15_000, 200_000])
    const result = await rollout(emulator, {
      targets: '[{kind: Job, group: batch, namespace: shop, name: migrate-1-5}]',
    })
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain(
      'staging · Job.batch shop/migrate-1-5: in progress — running: 0/1 succeeded, 1 active, 0 failed',
    )
    expect(result.stdout).toContain('staging · Job.batch shop/migrate-1-5: current — complete 1/1')
    expect(polls(emulator)).toBe(2)
  })

  it('fails an OnDelete StatefulSet whose pods nobody replaces ("needs pod deletion"), though kstatus would call it current', async () => {
    const emulator = await fleetAt('statefulset-ondelete', [200_000])
    const env = workspace({
      'deploy/db.yaml':
        'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: shop}\nspec:\n  template:\n    spec:\n      containers: [{name: db, image: "registry/db:2.1"}]\n',
    })
    const result = await rollout(emulator, { targets: '', manifests: 'deploy/*.yaml' }, env)
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('failed')
    const cells = readResultFile<RolloutFile>(result).edges.map((e) => [e.edge, e.cells[0]?.state, e.cells[0]?.reason])
    expect(cells).toEqual([
      ['prod-eu', 'current', 'OnDelete: updated and ready 3/3'],
      ['prod-us', 'current', 'OnDelete: updated and ready 3/3'],
      ['staging', 'failed', expect.stringMatching(/^needs pod deletion: updateStrategy OnDelete/)],
    ])
    // the first look sees it; the second, with no pod replaced still, fails it: no wait for the timeout
    expect(polls(emulator)).toBe(2)
  })

  it('fails a paused Deployment at the first look, naming "paused"', async () => {
    const emulator = await fleetAt('paused', [200_000])
    const result = await rollout(emulator, {})
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('failed')
    expect(result.stdout).toContain('prod-us · Deployment.apps shop/web: failed — paused (spec.paused)')
    expect(polls(emulator)).toBe(1)
  })

  it('fails at once when every target is of a kind the graph does not sync, before any graph request', async () => {
    const emulator = await fleetAt('unsynced-kind', [0])
    const result = await rollout(emulator, {
      targets: '[{kind: HelmRelease, group: helm.toolkit.fluxcd.io, namespace: shop, name: web}]',
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(
      /::error::Nothing this gate can check: every target is of a kind the graph does not sync by default \(HelmRelease\.helm\.toolkit\.fluxcd\.io\)/,
    )
    expect(result.stdout).toContain('`synced-kinds`')
    expect(emulator.requests.filter((r) => r.path === QUERY)).toHaveLength(0)
  })

  it('checks a kind named in synced-kinds instead of listing it', async () => {
    const emulator = await fleetAt('unsynced-kind', [0])
    const targets = '[{kind: HelmRelease, group: helm.toolkit.fluxcd.io, namespace: shop, name: web}]'
    const result = await rollout(emulator, {
      targets,
      'synced-kinds': 'HelmRelease.helm.toolkit.fluxcd.io',
      'timeout-seconds': '2',
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('HelmRelease.helm.toolkit.fluxcd.io shop/web: in progress — not applied yet')
  })

  it('fails at the first look when no edge is engaged, naming org and workspace, never asking for more time', async () => {
    const emulator = await fleetAt('no-edges', [0])
    const result = await rollout(emulator, {})
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('failed')
    expect(result.stdout).toContain('::error::Rollout failed: The workspace has no engaged edge')
    expect(result.stdout).toContain('Check `org` and `workspace`')
    expect(result.stdout).not.toContain('timeout-seconds')
    expect(polls(emulator)).toBe(1)
  })

  it('applies allowed-namespaces as impact does: a target outside is listed and never queried', async () => {
    // from instant 0, so that the release is seen landing (a `targets` gate needs that evidence)
    const emulator = await fleetAt('converging', [0, 200_000])
    const targets =
      '[{kind: Deployment, group: apps, namespace: shop, name: web}, {kind: Deployment, group: apps, namespace: kube-system, name: dns}]'
    const result = await rollout(emulator, { targets, 'allowed-namespaces': 'shop' })
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain('Outside the allowed scope, not queried: Deployment.apps kube-system/dns')
    const filters = emulator.requests
      .filter((r) => r.path === QUERY)
      .flatMap((r) => (JSON.parse(r.body) as { filter: { objects: { namespace: string }[] } }).filter.objects)
    expect([...new Set(filters.map((f) => f.namespace))]).toEqual(['shop'])
  })
})

describe("rollout gate on the emulator's default (demo) fleet", () => {
  it('passes on frontend, every edge; names the lagging edge of the unhealthy canary', async () => {
    const { startHubEmulator } = await import('../../emulator/index.ts')
    const hub = await startHubEmulator()
    onTestFinished(() => hub.close())
    // the demo's own manifest: the frontend as deployed, which every edge of the demo fleet runs
    const env = workspace({ 'deploy/frontend.yaml': FRONTEND_DEPLOYED })
    const passed = await rollout(hub, { targets: '', manifests: 'deploy/*.yaml' }, env)
    expect(passed.code, passed.stdout).toBe(0)
    expect(passed.outputs['current-count']).toBe('3')
    const canary = await rollout(hub, {
      targets: '[{kind: Deployment, group: apps, namespace: canary, name: checkout-canary, edge: staging}]',
      'timeout-seconds': '3',
    })
    expect(canary.code).toBe(1)
    expect(JSON.parse(canary.outputs.lagging ?? '[]')).toEqual([
      expect.objectContaining({
        edge: 'staging',
        name: 'checkout-canary',
        state: expect.stringMatching(/failed|in-progress/),
      }),
    ])
  })
})
