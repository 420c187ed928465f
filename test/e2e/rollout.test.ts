/**
 * End to end, `command: rollout`: dist/index.js as a process against the scripted rollout
 * fleet (docs/hub-facts.md, "What the graph knows"). The fleet's clock is not the action's: each poll (its
 * GET /api/edges) moves the fleet to the next instant of a script, so a test sees a rollout of
 * minutes in a few polls, ordered by requests rather than by sleeping.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { judgeGfm, textOf } from '../oracles/gfm.ts'
import { lines, makeWorkspace, readResultFile } from './harness.ts'
import { QUERY, fleetAt, logOf, polls, rollout, summaryText, type RolloutFile } from './rollout-harness.ts'

describe('rollout gate', () => {
  it('passes once every edge converges, checking the images the manifest asks for', async () => {
    const emulator = await fleetAt('converging', [0, 30_000, 200_000])
    const manifest = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  template:',
      '    spec:',
      '      initContainers: [{name: migrate, image: "registry/web-migrate:1.5"}]',
      '      containers: [{name: web, image: "registry/web:1.5"}]',
    ].join('\n')
    const ws = makeWorkspace({ 'deploy/web.yaml': manifest })
    try {
      const result = await rollout(emulator, { targets: '', manifests: 'deploy/*.yaml' }, { GITHUB_WORKSPACE: ws.dir })
      expect(result.code, result.stdout).toBe(0)
      expect(result.outputs['rollout-state']).toBe('current')
      expect(result.outputs['current-count']).toBe('3')
      expect(JSON.parse(result.outputs.lagging ?? '')).toEqual([])
      // At 0 s prod-us and staging still run 1.4: the manifest's images are what say so.
      expect(result.stdout).toContain(
        'staging · Deployment.apps shop/web: in progress — not synced: spec.template.spec.initContainers[migrate].image is "registry/web-migrate:1.4", the manifest sets "registry/web-migrate:1.5"',
      )
      expect(polls(emulator)).toBe(3)
      // One line per change, not one per poll: prod-eu is current from the second poll on and said so once.
      expect(logOf(result).filter((l) => l.startsWith('Edge prod-eu: current'))).toHaveLength(1)
      const doc = judgeGfm(result.summary)
      expect(textOf(doc.tree)).toContain('Rolled out')
      expect(doc.rawHtml).toEqual([])
      expect(doc.tables.map((t) => [t.header, t.rows])).toEqual([
        [['Edge', 'State', 'Last change seen'], 3],
        [['Target', 'prod-eu', 'prod-us', 'staging'], 1],
      ])
    } finally {
      ws.cleanup()
    }
  })

  it('fails on a deadline, naming the edge and the reason, with one query of the targets a poll', async () => {
    const emulator = await fleetAt('deadline', [0, 200_000])
    const ws = makeWorkspace({
      'deploy/web.yaml':
        '# the shop front\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n',
    })
    onTestFinished(ws.cleanup)
    const result = await rollout(emulator, { targets: '', manifests: 'deploy/*.yaml' }, { GITHUB_WORKSPACE: ws.dir })
    // The annotation sits on the manifest's `kind:` line and names the edge and the reason.
    expect(lines(result.stdout, '::error title=')).toEqual([
      '::error title=hub-action rollout%3A Deployment.apps shop/web,file=deploy/web.yaml,line=3::Failed to roll out on 1 edge(s): prod-us: deadline exceeded',
    ])
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('failed')
    expect(result.stdout).toMatch(/::error::Rollout failed: A target failed to roll out on prod-us\./)
    expect(result.stdout).toContain('prod-us · Deployment.apps shop/web: failed — deadline exceeded')
    expect(JSON.parse(result.outputs.lagging ?? '')).toEqual([
      { edge: 'prod-us', group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web', state: 'failed' },
    ])
    // One query of the targets a poll, and one of unready pods while a workload is in progress (the first poll).
    const kinds = emulator.requests
      .filter((r) => r.path === QUERY)
      .map(
        (r) =>
          (JSON.parse(r.body) as { filter: { objects: { groupKind: { kind: string } }[] } }).filter.objects[0]
            ?.groupKind.kind,
      )
    expect(kinds).toEqual(['Deployment', 'Pod', 'Deployment'])
    expect(summaryText(result)).toContain('deadline exceeded')
  })

  it('reports a disconnected edge as not reporting, with its last state, and fails on timeout', async () => {
    const emulator = await fleetAt('disconnect', [0, 60_000, 200_000])
    const result = await rollout(emulator, { 'timeout-seconds': '6' })
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('timeout')
    expect(result.outputs['not-reporting-count']).toBe('1')
    const file = readResultFile<RolloutFile>(result)
    const staging = file.edges.find((e) => e.edge === 'staging')
    expect(staging?.state).toBe('not-reporting')
    expect(staging?.cells[0]?.reason).toMatch(
      /^not reporting since \d\d:\d\d:\d\d UTC \(edge not engaged; last in progress: /,
    )
    expect(result.stdout).toContain('staging not reporting')
  })

  it('passes a disconnected edge when `require` tolerates it, and says which', async () => {
    const emulator = await fleetAt('disconnect', [0, 60_000, 200_000])
    const result = await rollout(emulator, { require: '2' })
    expect(result.code, result.stdout).toBe(0)
    expect(result.outputs['rollout-state']).toBe('current')
    expect(readResultFile<RolloutFile>(result).tolerated).toEqual(['staging'])
    expect(result.stdout).toContain('tolerated by `require` (at least 2 edge(s)): staging not reporting')
  })

  it('holds an unobserved generation in progress although every count looks done', async () => {
    const emulator = await fleetAt('stale-generation', [0, 40_000, 200_000])
    const result = await rollout(emulator, {})
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('prod-us · Deployment.apps shop/web: in progress — generation 2 observed 1')
  })

  it('counts a partitioned StatefulSet current once the pods above the partition are updated', async () => {
    const emulator = await fleetAt('statefulset-partition', [0, 100_000])
    const result = await rollout(emulator, { targets: '[{kind: StatefulSet, group: apps, namespace: shop, name: db}]' })
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain('prod-eu · StatefulSet.apps shop/db: current — updated 1 above partition 2')
  })

  it('fails a crash-looping rollout as soon as its new pod crash-loops, not at its deadline', async () => {
    const emulator = await fleetAt('crashloop', [0, 100_000, 700_000])
    const result = await rollout(emulator, {})
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(
      /staging · Deployment\.apps shop\/web: failed — pod web-\w+-\w+: CrashLoopBackOff \(container web\)/,
    )
    expect(polls(emulator)).toBe(2)
  })

  it('lists a custom resource the graph does not sync as not checked, and passes on the Deployment beside it', async () => {
    const emulator = await fleetAt('unsynced-kind', [0, 200_000])
    const targets =
      '[{kind: HelmRelease, group: helm.toolkit.fluxcd.io, namespace: shop, name: web}, {kind: Deployment, group: apps, namespace: shop, name: web}]'
    const result = await rollout(emulator, { targets })
    expect(result.code, result.stdout).toBe(0)
    expect(result.outputs['rollout-state']).toBe('current')
    expect(result.stdout).toContain(
      'Not checked (1), the graph does not sync their kind by default: HelmRelease.helm.toolkit.fluxcd.io shop/web.',
    )
    expect(summaryText(result)).toContain('Not checked (1)')
    expect(readResultFile<RolloutFile>(result).notChecked.map((t) => t.label)).toEqual([
      'HelmRelease.helm.toolkit.fluxcd.io shop/web',
    ])
  })

  it('fails on timeout with on-timeout: fail while an edge is still rolling out', async () => {
    // from instant 0, where prod-eu's new generation is not yet observed: the release is seen landing
    const emulator = await fleetAt('converging', [0, 30_000])
    const result = await rollout(emulator, { 'timeout-seconds': '3' })
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('timeout')
    expect(result.stdout).toMatch(
      /::error::Rollout not complete after 3 s \(timeout-seconds\): Still rolling out on prod-us, staging\./,
    )
  })

  it('warns instead with on-timeout: warn, advising more time only because an edge is still rolling out', async () => {
    const emulator = await fleetAt('converging', [0, 30_000])
    const result = await rollout(emulator, { 'timeout-seconds': '3', 'on-timeout': 'warn' })
    expect(result.code).toBe(0)
    expect(result.outputs['rollout-state']).toBe('timeout')
    expect(result.stdout).toMatch(
      /::warning::Rollout not complete after 3 s \(timeout-seconds\): Still rolling out on prod-us, staging\. Raise `timeout-seconds` if the rollout is only slow/,
    )
  })

  it('counts a named edge that is not engaged as not reporting', async () => {
    const emulator = await fleetAt('converging', [0, 200_000])
    const result = await rollout(emulator, { edges: 'prod-eu, mars', 'timeout-seconds': '2' })
    expect(result.code).toBe(1)
    const file = readResultFile<RolloutFile>(result)
    expect(file.edges.map((e) => [e.edge, e.state, e.cells[0]?.reason])).toEqual([
      ['prod-eu', 'current', expect.any(String)],
      ['mars', 'not-reporting', 'edge not engaged'],
    ])
  })

  it('prints its query in a dry run and sends nothing', async () => {
    const emulator = await fleetAt('converging', [0])
    const result = await rollout(emulator, { 'dry-run': 'true' })
    expect(result.code).toBe(0)
    expect(emulator.requests).toHaveLength(0)
    expect(result.stdout).toContain('read the targets on every edge')
    expect(result.stdout).toContain('"groupKind": {')
  })

  it('refuses a bad quorum before any request', async () => {
    const emulator = await fleetAt('converging', [0])
    const result = await rollout(emulator, { require: 'most' })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('Input `require`: "most" is not a quorum')
    expect(emulator.requests).toHaveLength(0)
  })
})
