// The scripted rollout fleet over real loopback HTTP, queried as a rollout gate would
// (docs/hub-facts.md, "Graph queries", "What the graph knows"): POST /api/query filtered on kind and name, projecting metadata,
// spec and status; GET /api/edges. The fleet's own clock is moved by hand: nothing sleeps.
import { afterEach, describe, expect, it } from 'vitest'
import { startHubEmulator, type HubEmulator } from '../hub.ts'
import { parseSse } from './mcp.ts'
import {
  DISCONNECT_GRACE_MS,
  createRolloutFleet,
  parseRolloutFleetArg,
  type RolloutFleet,
  type RolloutFleetOptions,
} from './rollouts.ts'
import { ROLLOUT_EDGES } from './rollout-scenarios.ts'

const GRAPH = '/services/providers/graph'
let emu: HubEmulator | undefined
afterEach(async () => {
  await emu?.close()
  emu = undefined
})

async function serve(opts: RolloutFleetOptions): Promise<{ fleet: RolloutFleet; hub: HubEmulator }> {
  const fleet = createRolloutFleet(opts)
  emu = await startHubEmulator({ fleet })
  return { fleet, hub: emu }
}

type Row = { cluster: string; object: any }

/** The rows of one kind and name, keyed by edge (the text after the last `/` of `cluster`). */
async function rows(hub: HubEmulator, filter: Record<string, unknown>, limit = 1000): Promise<Map<string, any[]>> {
  const spec = {
    filter: { objects: [filter] },
    limit,
    order: [{ field: 'cluster', direction: 'Asc' }],
    objects: { cluster: true, object: { kind: true, metadata: true, spec: true, status: true } },
  }
  const res = await fetch(`${hub.url}${GRAPH}/api/query`, {
    method: 'POST',
    headers: { ...hub.headers(), 'Content-Type': 'application/json' },
    body: JSON.stringify(spec),
  })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { objects?: Row[] }
  const out = new Map<string, any[]>()
  for (const r of body.objects ?? []) {
    const edge = r.cluster.slice(r.cluster.lastIndexOf('/') + 1)
    out.set(edge, [...(out.get(edge) ?? []), r.object])
  }
  return out
}

const WEB = { groupKind: { apiGroup: 'apps', kind: 'Deployment' }, namespace: 'shop', name: 'web' }
const WEB_PODS = { groupKind: { kind: 'Pod' }, namespace: 'shop', labels: { app: 'web' } }

async function web(hub: HubEmulator): Promise<Record<string, any>> {
  const m = await rows(hub, WEB)
  return Object.fromEntries([...m].map(([edge, objs]) => [edge, objs[0]]))
}

async function edges(hub: HubEmulator): Promise<string[]> {
  const res = await fetch(`${hub.url}${GRAPH}/api/edges`, { headers: hub.headers() })
  return ((await res.json()) as { edges: string[] }).edges
}

const progressing = (d: any) => d.status.conditions.find((c: any) => c.type === 'Progressing')
const image = (d: any) => d.spec.template.spec.containers[0].image
const done = (d: any, replicas = 3) =>
  d.metadata.generation === d.status.observedGeneration &&
  d.status.updatedReplicas === replicas &&
  d.status.availableReplicas === replicas &&
  d.status.replicas === replicas &&
  progressing(d).reason === 'NewReplicaSetAvailable'

describe('converging', () => {
  it('rolls shop/web from 1.4 to 1.5 at a different speed on each edge', async () => {
    const { fleet, hub } = await serve({ scenario: 'converging' })
    let d = await web(hub)
    expect(Object.keys(d)).toEqual([...ROLLOUT_EDGES])
    // prod-eu has the new template, not yet observed; the others are still on 1.4, complete.
    expect(d['prod-eu'].metadata.generation).toBe(2)
    expect(d['prod-eu'].status.observedGeneration).toBe(1)
    expect(image(d['prod-eu'])).toBe('registry/web:1.5')
    expect(d['prod-eu'].spec.template.spec.initContainers[0].image).toBe('registry/web-migrate:1.5')
    expect(image(d['prod-us'])).toBe('registry/web:1.4')
    expect(done(d['prod-us'])).toBe(true)

    const seen: Record<string, number[]> = { 'prod-eu': [], 'prod-us': [], staging: [] }
    const completeAt: Record<string, number> = {}
    for (let t = 0; t <= 90_000; t += 1000) {
      fleet.advance(t)
      d = await web(hub)
      for (const edge of ROLLOUT_EDGES) {
        const s = d[edge].status
        if (image(d[edge]) === 'registry/web:1.5' && s.observedGeneration === 2) seen[edge]?.push(s.updatedReplicas)
        if (completeAt[edge] === undefined && image(d[edge]) === 'registry/web:1.5' && done(d[edge]))
          completeAt[edge] = t
        // maxUnavailable rounds down to 0 for 3 replicas: the old pods keep serving throughout.
        expect(s.availableReplicas).toBe(3)
      }
    }
    expect(completeAt).toEqual({ 'prod-eu': 16_000, 'prod-us': 41_000, staging: 81_000 })
    for (const edge of ROLLOUT_EDGES) {
      expect(seen[edge]).toEqual([...(seen[edge] ?? [])].sort()) // climbs, never falls
      expect(new Set(seen[edge])).toEqual(new Set([1, 2, 3]))
    }
    expect(fleet.settledAt).toBe(81_000)
  })

  it('shows the pods a client compares images on: new ones join as old ones go', async () => {
    const { fleet, hub } = await serve({ scenario: 'converging' })
    fleet.advance(6_000) // prod-eu: one new pod ready, a second one initialising, two old ones
    const pods = (await rows(hub, WEB_PODS)).get('prod-eu') ?? []
    const byImage = (img: string) => pods.filter((p) => p.spec.containers[0].image === img)
    expect(byImage('registry/web:1.4')).toHaveLength(2)
    expect(
      byImage('registry/web:1.5')
        .map((p) => p.status.phase)
        .sort(),
    ).toEqual(['Pending', 'Running'])
    const ready = byImage('registry/web:1.5').find((p) => p.status.phase === 'Running')
    expect(ready.status.containerStatuses[0]).toMatchObject({
      image: 'registry/web:1.5',
      ready: true,
      state: { running: {} },
    })
    expect(ready.status.initContainerStatuses[0].state.terminated.reason).toBe('Completed')
    expect(ready.metadata.ownerReferences[0]).toMatchObject({
      kind: 'ReplicaSet',
      name: `web-${ready.metadata.labels['pod-template-hash']}`,
    })
    fleet.advance(16_000)
    const after = (await rows(hub, WEB_PODS)).get('prod-eu') ?? []
    expect(after.map((p) => [p.spec.containers[0].image, p.status.phase])).toEqual(
      Array(3).fill(['registry/web:1.5', 'Running']),
    )
    // The old ReplicaSet stays, scaled to zero, as revision history.
    const sets = (await rows(hub, { groupKind: { kind: 'ReplicaSet' }, namespace: 'shop' })).get('prod-eu') ?? []
    expect(sets.map((s) => [s.metadata.annotations['deployment.kubernetes.io/revision'], s.spec.replicas])).toEqual(
      expect.arrayContaining([
        ['1', 0],
        ['2', 3],
      ]),
    )
  })
})

describe('deadline', () => {
  it('leaves prod-us stuck at ProgressDeadlineExceeded for good, its old pods serving', async () => {
    const { fleet, hub } = await serve({ scenario: 'deadline' })
    fleet.advance(70_999)
    expect(progressing((await web(hub))['prod-us'])).toMatchObject({ status: 'True', reason: 'ReplicaSetUpdated' })
    expect(fleet.settledAt).toBe(81_000) // staging completes last
    for (const t of [71_000, 81_000, 3_600_000]) {
      fleet.advance(t)
      const d = await web(hub)
      expect(progressing(d['prod-us'])).toMatchObject({
        status: 'False',
        reason: 'ProgressDeadlineExceeded',
        message: expect.stringContaining('has timed out progressing'),
      })
      expect(d['prod-us'].status).toMatchObject({
        observedGeneration: 2,
        updatedReplicas: 1,
        availableReplicas: 3,
        unavailableReplicas: 1,
      })
      expect(done(d['prod-eu'])).toBe(true)
    }
    expect(done((await web(hub)).staging)).toBe(true)
    const pending = ((await rows(hub, WEB_PODS)).get('prod-us') ?? []).filter((p) => p.status.phase === 'Pending')
    expect(pending).toHaveLength(1)
    expect(pending[0].status.conditions[0]).toMatchObject({
      type: 'PodScheduled',
      status: 'False',
      reason: 'Unschedulable',
    })
    expect(pending[0].spec.nodeName).toBeUndefined()
  })
})

describe('disconnect', () => {
  it('keeps staging looking live for 90 s after it goes, then drops its objects and the edge', async () => {
    const { fleet, hub } = await serve({ scenario: 'disconnect' })
    fleet.advance(44_999)
    const before = (await web(hub)).staging
    expect(before.status).toMatchObject({ observedGeneration: 2, updatedReplicas: 2 })
    for (const t of [45_000, 81_000, 45_000 + DISCONNECT_GRACE_MS - 1]) {
      fleet.advance(t)
      expect((await web(hub)).staging).toEqual(before) // no event arrives: the row is frozen
      expect(await edges(hub)).toEqual([...ROLLOUT_EDGES])
    }
    for (const t of [45_000 + DISCONNECT_GRACE_MS, 3_600_000]) {
      fleet.advance(t)
      expect(await edges(hub)).toEqual(['prod-eu', 'prod-us'])
      const d = await web(hub)
      expect(Object.keys(d)).toEqual(['prod-eu', 'prod-us'])
      expect(done(d['prod-eu']) && done(d['prod-us'])).toBe(true)
      expect((await rows(hub, { namespace: 'shop' })).has('staging')).toBe(false)
    }
    expect(fleet.settledAt).toBe(135_000)
  })
})

describe('stale-generation', () => {
  it('shows generation 2 against observedGeneration 1 on prod-us while every old pod is ready', async () => {
    const { fleet, hub } = await serve({ scenario: 'stale-generation' })
    for (const t of [10_000, 40_000, 69_999]) {
      fleet.advance(t)
      const d = (await web(hub))['prod-us']
      expect(d.metadata.generation).toBe(2)
      expect(d.status.observedGeneration).toBe(1)
      expect(image(d)).toBe('registry/web:1.5')
      // Every count and condition still describes the complete 1.4 rollout.
      expect(d.status).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 })
      expect(progressing(d).reason).toBe('NewReplicaSetAvailable')
      const pods = (await rows(hub, WEB_PODS)).get('prod-us') ?? []
      expect(
        pods.map((p) => [p.spec.containers[0].image, p.status.conditions.find((c: any) => c.type === 'Ready').status]),
      ).toEqual(Array(3).fill(['registry/web:1.4', 'True']))
    }
    fleet.advance(70_000)
    expect((await web(hub))['prod-us'].status.observedGeneration).toBe(2)
    fleet.advance(101_000)
    expect(done((await web(hub))['prod-us'])).toBe(true)
  })
})

describe('statefulset-partition', () => {
  it('updates only the ordinals at or above the partition; the revisions stay apart', async () => {
    const { fleet, hub } = await serve({ scenario: 'statefulset-partition' })
    fleet.advance(fleet.settledAt)
    const sts = await rows(hub, { groupKind: { apiGroup: 'apps', kind: 'StatefulSet' }, namespace: 'shop', name: 'db' })
    const eu = sts.get('prod-eu')?.[0]
    expect(eu.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 2 } })
    expect(eu.status).toMatchObject({
      observedGeneration: 2,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 2,
      updatedReplicas: 1,
    })
    expect(eu.status.currentRevision).not.toBe(eu.status.updateRevision)
    const us = sts.get('prod-us')?.[0]
    expect(us.status).toMatchObject({
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: us.status.updateRevision,
    })
    const pods =
      (await rows(hub, { groupKind: { kind: 'Pod' }, namespace: 'shop', labels: { app: 'db' } })).get('prod-eu') ?? []
    expect(
      pods.map((p) => [p.metadata.name, p.spec.containers[0].image, p.metadata.labels['controller-revision-hash']]),
    ).toEqual([
      ['db-0', 'registry/db:2.0', eu.status.currentRevision],
      ['db-1', 'registry/db:2.0', eu.status.currentRevision],
      ['db-2', 'registry/db:2.1', eu.status.updateRevision],
    ])
    fleet.advance(5_000) // prod-eu: db-2 recreated at the new revision, not ready yet
    const mid = (await rows(hub, { groupKind: { kind: 'StatefulSet' }, name: 'db' })).get('prod-eu')?.[0]
    expect(mid.status).toMatchObject({ readyReplicas: 2, currentReplicas: 2, updatedReplicas: 1 })
  })
})

describe('crashloop', () => {
  it('shows the new pod on staging in CrashLoopBackOff, its restarts climbing', async () => {
    const { fleet, hub } = await serve({ scenario: 'crashloop' })
    const crashing = async () =>
      ((await rows(hub, WEB_PODS)).get('staging') ?? []).find((p) => p.spec.containers[0].image === 'registry/web:1.5')
    fleet.advance(41_000)
    const first = (await crashing()).status.containerStatuses[0]
    expect(first).toMatchObject({
      ready: false,
      restartCount: 1,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { reason: 'Error', exitCode: 1 } },
    })
    fleet.advance(300_000)
    expect((await crashing()).status.containerStatuses[0].restartCount).toBeGreaterThan(3)
    const d = (await web(hub)).staging
    expect(d.status).toMatchObject({ updatedReplicas: 1, availableReplicas: 3, unavailableReplicas: 1 })
    expect(progressing(d).reason).toBe('ReplicaSetUpdated')
    fleet.advance(621_000)
    expect(progressing((await web(hub)).staging).reason).toBe('ProgressDeadlineExceeded')
  })
})

describe('release scenarios', () => {
  it('env-change: only the env of the pod template changes, the images stay', async () => {
    const { hub } = await serve({ scenario: 'env-change', clock: () => 0 })
    const d = await web(hub)
    expect(d['prod-eu'].spec.template.spec.containers[0]).toMatchObject({
      image: 'registry/web:1.5',
      env: [{ name: 'LOG_LEVEL', value: 'debug' }],
    })
    expect(d['prod-us'].spec.template.spec.containers[0]).toMatchObject({
      image: 'registry/web:1.5',
      env: [{ name: 'LOG_LEVEL', value: 'info' }],
    })
  })

  it('paused: prod-us observes the paused template and rolls nothing', async () => {
    const { fleet, hub } = await serve({ scenario: 'paused' })
    fleet.advance(fleet.settledAt)
    const us = (await web(hub))['prod-us']
    expect(us.spec.paused).toBe(true)
    expect(us.status).toMatchObject({ observedGeneration: 2, replicas: 3, availableReplicas: 3 })
    expect(us.status.updatedReplicas).toBeUndefined()
    expect(progressing(us)).toMatchObject({ status: 'Unknown', reason: 'DeploymentPaused' })
  })

  it('release-job: the Job runs, then is Complete with its pod Succeeded', async () => {
    const { fleet, hub } = await serve({ scenario: 'release-job' })
    const job = async () =>
      (await rows(hub, { groupKind: { apiGroup: 'batch', kind: 'Job' }, name: 'migrate-1-5' })).get('staging')?.[0]
    fleet.advance(30_000)
    expect((await job()).status).toMatchObject({ active: 1 })
    fleet.advance(fleet.settledAt)
    expect((await job()).status.conditions.map((c: any) => [c.type, c.status])).toEqual([
      ['SuccessCriteriaMet', 'True'],
      ['Complete', 'True'],
    ])
    const pods =
      (await rows(hub, { groupKind: { kind: 'Pod' }, labels: { 'job-name': 'migrate-1-5' } })).get('staging') ?? []
    expect(pods.map((p) => p.status.phase)).toEqual(['Succeeded'])
  })

  it('statefulset-ondelete: pods take the new template only where they are deleted', async () => {
    const { fleet, hub } = await serve({ scenario: 'statefulset-ondelete' })
    fleet.advance(fleet.settledAt)
    const sts = await rows(hub, { groupKind: { apiGroup: 'apps', kind: 'StatefulSet' }, name: 'db' })
    expect(sts.get('prod-eu')?.[0].spec.updateStrategy).toEqual({ type: 'OnDelete' })
    expect(sts.get('prod-eu')?.[0].status).toMatchObject({
      observedGeneration: 2,
      updatedReplicas: 3,
      readyReplicas: 3,
    })
    expect(sts.get('staging')?.[0].status).toMatchObject({ observedGeneration: 2, readyReplicas: 3 })
    expect(sts.get('staging')?.[0].status.updatedReplicas).toBeUndefined()
  })

  it('no-edges: the workspace has no engaged edge', async () => {
    const { hub } = await serve({ scenario: 'no-edges' })
    expect(await edges(hub)).toEqual([])
  })
})

describe('unsynced-kind', () => {
  it('never shows the HelmRelease target, only the Deployment it renders', async () => {
    const { fleet, hub } = await serve({ scenario: 'unsynced-kind' })
    for (const t of [0, 30_000, fleet.settledAt, 3_600_000]) {
      fleet.advance(t)
      expect(
        (
          await rows(hub, {
            groupKind: { apiGroup: 'helm.toolkit.fluxcd.io', kind: 'HelmRelease' },
            namespace: 'shop',
            name: 'web',
          })
        ).size,
      ).toBe(0)
      expect((await rows(hub, { groupKind: { kind: 'HelmRelease' } })).size).toBe(0)
      const d = await web(hub)
      expect(Object.keys(d)).toEqual([...ROLLOUT_EDGES])
      expect(d['prod-eu'].metadata.labels['helm.toolkit.fluxcd.io/name']).toBe('web')
    }
  })
})

describe('large', () => {
  it('converges 100 targets on 20 edges within two minutes', async () => {
    const { fleet, hub } = await serve({ scenario: 'large' })
    const count = async () => {
      const all = await rows(hub, { groupKind: { kind: 'Deployment' }, namespace: 'bench' }, 10_000)
      const list = [...all.values()].flat()
      return {
        edges: all.size,
        total: list.length,
        done: list.filter((d) => image(d).endsWith(':1.1') && done(d, 2)).length,
      }
    }
    expect(await count()).toMatchObject({ edges: 20, total: 2000 })
    fleet.advance(60_000)
    const mid = await count()
    expect(mid.done).toBeGreaterThan(0)
    expect(mid.done).toBeLessThan(2000)
    fleet.advance(120_000)
    expect(await count()).toEqual({ edges: 20, total: 2000, done: 2000 })
    expect(fleet.settledAt).toBeLessThanOrEqual(120_000)
    expect((await edges(hub)).length).toBe(20)
  })
})

describe('clock', () => {
  it('reads an injected clock on each request and refuses advance()', async () => {
    let now = 0
    const { fleet, hub } = await serve({ scenario: 'converging', clock: () => now })
    expect(image((await web(hub))['prod-us'])).toBe('registry/web:1.4')
    now = 41_000
    expect(done((await web(hub))['prod-us'])).toBe(true)
    expect(image((await web(hub))['prod-us'])).toBe('registry/web:1.5')
    expect(() => fleet.advance(0)).toThrow(/injected `clock`/)
  })

  it('shows the MCP graph query tool the same instant as the query API', async () => {
    let now = 0
    const { hub } = await serve({ scenario: 'converging', clock: () => now })
    const spec = {
      filter: { objects: [WEB] },
      objects: { cluster: true, object: { status: { observedGeneration: true } } },
      order: [{ field: 'cluster' }],
    }
    const viaMcp = async () => {
      const res = await fetch(hub.mcpUrl, {
        method: 'POST',
        headers: {
          ...hub.headers(),
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'graph__graph_query', arguments: { spec } },
        }),
      })
      const msg = parseSse(await res.text())[0] as any
      return msg.result.structuredContent.objects.map((o: any) => o.object.status.observedGeneration)
    }
    expect(await viaMcp()).toEqual([1, 1, 1])
    now = 41_000
    expect(await viaMcp()).toEqual([2, 2, 2])
  })

  it('names the scenarios the standalone server takes', () => {
    expect(parseRolloutFleetArg('rollout')).toBe('converging')
    expect(parseRolloutFleetArg('rollout:crashloop')).toBe('crashloop')
    expect(parseRolloutFleetArg('rollout:nope')).toBeUndefined()
    expect(parseRolloutFleetArg('demo')).toBeUndefined()
  })
})
