/**
 * Stuck pods fail their workload before its deadline: matched by owner (a Deployment through its
 * ReplicaSet's pod-template-hash), to the new revision (the ReplicaSet the Deployment names, a
 * StatefulSet's update revision, else by image), and only once the state persists.
 */
import { describe, expect, it } from 'vitest'
import type { GraphClient, ObjectResult } from '../../../../src/hub/graph.js'
import type { Cell } from '../../../../src/commands/rollout/observe.js'
import { PULL_PERSISTS_MS, stuckPods, type StuckMemory } from '../../../../src/commands/rollout/pods.js'
import type { RolloutTarget } from '../../../../src/commands/rollout/targets.js'

const web = (image?: string): RolloutTarget => ({
  key: 'web',
  label: 'Deployment.apps shop/web',
  target: { kind: 'Deployment', group: 'apps', namespace: 'shop', name: 'web', origin: { kind: 'input' } },
  expected: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop' },
    ...(image ? { spec: { template: { spec: { containers: [{ name: 'web', image }] } } } } : {}),
  },
})

const pod = (
  owner: object,
  hash: string | undefined,
  image: string,
  reason: string,
  restartCount = 3,
): ObjectResult => ({
  cluster: 'ws/prod',
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-abc-12345',
      namespace: 'shop',
      labels: hash ? { 'pod-template-hash': hash, 'controller-revision-hash': `db-${hash}` } : null,
      ownerReferences: [owner],
    },
    status: {
      containerStatuses: [{ name: 'web', image, restartCount, state: { waiting: { reason } } }],
      initContainerStatuses: null,
    },
  },
})
const rs = (name: string) => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, controller: true })

/** A graph that answers every query with these rows, and counts the queries. */
function graph(rows: ObjectResult[]) {
  const specs: unknown[] = []
  const client = {
    forEachPage: async (spec: unknown, _o: unknown, onPage: (rows: ObjectResult[], page: number) => void) => {
      specs.push(spec)
      onPage(rows, 0)
      return { pages: 1, count: rows.length, stoppedBy: 'last-page', warnings: [] }
    },
  } as unknown as GraphClient
  return { client, specs }
}

/** One look; `cell` is what the workload's row said on edge prod (which pods are its new revision). */
const run = (rows: ObjectResult[], target: RolloutTarget, cell?: Partial<Cell>, memory?: StuckMemory, now = 0) =>
  stuckPods(graph(rows).client, [target], [0], {
    signal: new AbortController().signal,
    cells: new Map([['prod', new Map([[0, { state: 'in-progress', reason: '', ...cell }]])]]),
    now,
    memory,
  })

describe('stuckPods', () => {
  it("fails a Deployment whose new pod cannot pull its image, found through its ReplicaSet's hash", async () => {
    const { stuck } = await run(
      [pod(rs('web-7d9f8'), '7d9f8', 'registry/web:1.5', 'ImagePullBackOff')],
      web('registry/web:1.5'),
    )
    expect(stuck.get('prod')?.get(0)).toBe('pod web-abc-12345: ImagePullBackOff (container web)')
  })

  it('leaves a stuck pod running an image the manifest does not name (the old revision)', async () => {
    const { stuck } = await run(
      [pod(rs('web-7d9f8'), '7d9f8', 'registry/web:1.4', 'CrashLoopBackOff')],
      web('registry/web:1.5'),
    )
    expect(stuck.size).toBe(0)
  })

  it("takes any stuck pod of a target named without a manifest, but not another Deployment's", async () => {
    expect((await run([pod(rs('web-7d9f8'), '7d9f8', 'x', 'CrashLoopBackOff')], web())).stuck.size).toBe(1)
    expect((await run([pod(rs('web-api-7d9f8'), '7d9f8', 'x', 'CrashLoopBackOff')], web())).stuck.size).toBe(0)
    expect((await run([pod(rs('web-7d9f8'), undefined, 'x', 'CrashLoopBackOff')], web())).stuck.size).toBe(0)
  })

  it('ignores a container that is only starting or pulling for the first time', async () => {
    expect((await run([pod(rs('web-7d9f8'), '7d9f8', 'x', 'ErrImagePull')], web())).stuck.size).toBe(0)
    expect((await run([pod(rs('web-7d9f8'), '7d9f8', 'x', 'ContainerCreating')], web())).stuck.size).toBe(0)
  })

  it('asks for the unready pods of the targets’ namespaces only', async () => {
    const g = graph([])
    await stuckPods(g.client, [web()], [0], { signal: new AbortController().signal, cells: new Map(), now: 0 })
    expect(g.specs).toMatchObject([
      {
        filter: {
          objects: [
            { groupKind: { kind: 'Pod' }, namespace: 'shop', conditions: [{ type: 'Ready', status: 'False' }] },
          ],
        },
      },
    ])
  })
  it("judges only the new ReplicaSet's pods: the old pods' crashes do not fail a fix-forward", async () => {
    const crashing = [pod(rs('web-old11'), 'old11', 'registry/web:1.5', 'CrashLoopBackOff', 9)]
    expect((await run(crashing, web(), { newPods: { replicaSet: 'web-new22' } })).stuck.size).toBe(0)
    expect((await run(crashing, web(), { newPods: { replicaSet: 'web-old11' } })).stuck.size).toBe(1)
  })

  it("judges a StatefulSet's pods by their controller-revision-hash against its update revision", async () => {
    const db: RolloutTarget = {
      ...web(),
      target: { ...web().target, kind: 'StatefulSet', name: 'db' },
    }
    const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', controller: true }
    const rows = [pod(sts, '5f6d', 'registry/db:2.1', 'CrashLoopBackOff')]
    expect((await run(rows, db, { newPods: { revisionHash: 'db-5f6d' } })).stuck.size).toBe(1)
    expect((await run(rows, db, { newPods: { revisionHash: 'db-9a8b' } })).stuck.size).toBe(0)
  })

  it('counts a crash loop only from the third restart: two crashes while a migration runs are not a failure', async () => {
    const loop = (restarts: number) => [pod(rs('web-7d9f8'), '7d9f8', 'x', 'CrashLoopBackOff', restarts)]
    expect((await run(loop(2), web())).stuck.size).toBe(0)
    expect((await run(loop(3), web())).stuck.size).toBe(1)
  })

  it('counts an image pull failure once seen on two looks far enough apart', async () => {
    const memory: StuckMemory = new Map()
    const rows = [pod(rs('web-7d9f8'), '7d9f8', 'x', 'ImagePullBackOff')]
    expect((await run(rows, web(), {}, memory, 1_000)).stuck.size).toBe(0)
    expect((await run(rows, web(), {}, memory, 1_000 + PULL_PERSISTS_MS - 1)).stuck.size).toBe(0)
    expect((await run(rows, web(), {}, memory, 1_000 + PULL_PERSISTS_MS)).stuck.size).toBe(1)
    // healed in between: it starts over
    await run([], web(), {}, memory, 40_000)
    expect((await run(rows, web(), {}, memory, 41_000)).stuck.size).toBe(0)
  })
})
