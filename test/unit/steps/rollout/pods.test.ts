/**
 * Stuck pods fail their workload at once: matched by owner (a Deployment through its ReplicaSet's
 * pod-template-hash) and by image (a stuck pod of the old revision is not this release's).
 */
import { describe, expect, it } from 'vitest'
import type { GraphClient, ObjectResult } from '../../../../src/hub/graph.js'
import { stuckPods } from '../../../../src/steps/rollout/pods.js'
import type { RolloutTarget } from '../../../../src/steps/rollout/targets.js'

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

const pod = (owner: object, hash: string | undefined, image: string, reason: string): ObjectResult => ({
  cluster: 'ws/prod',
  object: {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-abc-12345',
      namespace: 'shop',
      labels: hash ? { 'pod-template-hash': hash } : null,
      ownerReferences: [owner],
    },
    status: {
      containerStatuses: [{ name: 'web', image, state: { waiting: { reason } } }],
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

const run = (rows: ObjectResult[], target: RolloutTarget) =>
  stuckPods(graph(rows).client, [target], [0], new AbortController().signal)

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
    await stuckPods(g.client, [web()], [0], new AbortController().signal)
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
})
