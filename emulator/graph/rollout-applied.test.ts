// The `applied` rollout scenario over real loopback HTTP: each fact a rollout gate relies on
// about what the API server stores (docs/hub-facts.md, "What the API server stores", "One row
// per object"), read back through POST /api/query as the gate reads it.
import { afterEach, describe, expect, it } from 'vitest'
import { startHubEmulator, type HubEmulator } from '../hub.ts'
import { canonicalQuantity, LAST_APPLIED } from './rollout-applied.ts'
import { FLIP_MS, FLIP_UNTIL, RELEASE_AT } from './rollout-applied-fleet.ts'
import { createRolloutFleet, type RolloutFleet } from './rollouts.ts'

const QUERY = '/services/providers/graph/api/query'
let emu: HubEmulator | undefined
afterEach(async () => {
  await emu?.close()
  emu = undefined
})

async function serve(): Promise<{ fleet: RolloutFleet; hub: HubEmulator }> {
  const fleet = createRolloutFleet({ scenario: 'applied' })
  emu = await startHubEmulator({ fleet })
  return { fleet, hub: emu }
}

/** One object per edge, whole (no projection but cluster), as `{edge: object}`. */
async function read(hub: HubEmulator, kind: string, name: string, group = ''): Promise<Record<string, any>> {
  const res = await fetch(`${hub.url}${QUERY}`, {
    method: 'POST',
    headers: { ...hub.headers(), 'Content-Type': 'application/json' },
    body: JSON.stringify({
      filter: { objects: [{ groupKind: { apiGroup: group, kind }, namespace: 'shop', name }] },
      objects: { cluster: true, object: { apiVersion: true, kind: true, metadata: true, spec: true, rules: true } },
    }),
  })
  expect(res.status).toBe(200)
  const body = (await res.json()) as { objects?: { cluster: string; object: any }[] }
  return Object.fromEntries(
    (body.objects ?? []).map((r) => [r.cluster.slice(r.cluster.lastIndexOf('/') + 1), r.object]),
  )
}

const managers = (o: any) =>
  (o.metadata.managedFields as any[]).map((e) => [e.manager, e.operation, e.subresource ?? ''])

describe('objects as the API server stores applied manifests', () => {
  it('keeps the last-applied annotation after a client-side apply, and the exact applied field set after a server-side one', async () => {
    const { fleet, hub } = await serve()
    let web = await read(hub, 'Deployment', 'web', 'apps')
    expect(JSON.parse(web['prod-eu'].metadata.annotations[LAST_APPLIED]).spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: 'on' },
      { name: 'B', value: 'on' },
    ])
    expect(managers(web['prod-eu'])).toEqual([
      ['kubectl-client-side-apply', 'Update', ''],
      ['kube-controller-manager', 'Update', 'status'],
    ])
    expect(web['prod-us'].metadata.annotations).toBeUndefined()
    const applied = web['prod-us'].metadata.managedFields[0]
    expect([applied.manager, applied.operation]).toEqual(['kubectl', 'Apply'])
    const container = applied.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}']
    expect(Object.keys(container['f:env'])).toEqual(['k:{"name":"A"}', 'k:{"name":"B"}'])
    // An update owns the defaults it wrote; an apply owns only what it applied.
    expect(container['f:imagePullPolicy']).toBeUndefined()
    expect(
      web['prod-eu'].metadata.managedFields[0].fieldsV1['f:spec']['f:template']['f:spec']['f:containers'][
        'k:{"name":"web"}'
      ]['f:imagePullPolicy'],
    ).toEqual({})

    fleet.advance(RELEASE_AT)
    web = await read(hub, 'Deployment', 'web', 'apps')
    for (const edge of ['prod-eu', 'prod-us'])
      expect(web[edge].spec.template.spec.containers[0].env).toEqual([{ name: 'A', value: 'on' }])
    expect(
      JSON.parse(web['prod-eu'].metadata.annotations[LAST_APPLIED]).spec.template.spec.containers[0].env,
    ).toHaveLength(1)
    expect(web['prod-us'].metadata.generation).toBe(2)
  })

  it('drops the zero values it omits, keeps canonical quantities and a numeric mode', async () => {
    const { hub } = await serve()
    const worker = (await read(hub, 'Deployment', 'worker', 'apps'))['prod-us']
    const pod = worker.spec.template.spec
    expect(pod.hostNetwork).toBeUndefined()
    expect(pod.containers[0].resources).toEqual({ requests: { cpu: '1', memory: '1Gi' } })
    expect(pod.volumes[0].configMap.defaultMode).toBe(420)
    expect([
      canonicalQuantity('1000m'),
      canonicalQuantity('1024Mi'),
      canonicalQuantity('0.5'),
      canonicalQuantity('1536Mi'),
    ]).toEqual(['1', '1Gi', '500m', '1536Mi'])
    const dns = (await read(hub, 'Deployment', 'dns', 'apps'))['prod-us']
    expect(dns.spec.template.spec.containers[0].ports).toEqual([
      { containerPort: 53, protocol: 'TCP' },
      { containerPort: 53, protocol: 'UDP' },
    ])
  })

  it("holds an HPA's value in spec.replicas, owned by its scale writes", async () => {
    const { hub } = await serve()
    for (const scaled of Object.values(await read(hub, 'Deployment', 'scaled', 'apps'))) {
      expect(scaled.spec.replicas).toBe(5)
      expect(managers(scaled)).toContainEqual(['kube-controller-manager', 'Update', 'scale'])
      expect(scaled.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas']).toBeUndefined()
    }
  })

  it('holds an object with neither record of its apply, its replicas written by an HPA in the graph', async () => {
    const { hub } = await serve()
    const legacy = (await read(hub, 'Deployment', 'legacy', 'apps'))['prod-eu']
    expect([legacy.spec.replicas, legacy.metadata.managedFields, legacy.metadata.annotations]).toEqual([
      4,
      undefined,
      undefined,
    ])
    const hpa = (await read(hub, 'HorizontalPodAutoscaler', 'legacy', 'autoscaling'))['prod-eu']
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'legacy' })
  })

  it('keeps one HPA row whatever the version: its apiVersion and shape flip until the v2 informer wins', async () => {
    const { fleet, hub } = await serve()
    const hpa = async () => (await read(hub, 'HorizontalPodAutoscaler', 'web', 'autoscaling'))['prod-eu']
    let row = await hpa()
    expect([row.apiVersion, row.spec.targetCPUUtilizationPercentage, row.spec.metrics]).toEqual([
      'autoscaling/v1',
      80,
      undefined,
    ])
    fleet.advance(FLIP_MS)
    row = await hpa()
    expect([row.apiVersion, row.spec.metrics[0].resource.name]).toEqual(['autoscaling/v2', 'cpu'])
    fleet.advance(2 * FLIP_MS)
    expect((await hpa()).apiVersion).toBe('autoscaling/v1')
    fleet.advance(FLIP_UNTIL)
    expect((await hpa()).apiVersion).toBe('autoscaling/v2')
  })

  it('holds no row for Helm hooks and tests their delete policy removed', async () => {
    const { hub } = await serve()
    expect(await read(hub, 'Job', 'web-migrate', 'batch')).toEqual({})
    expect(await read(hub, 'Pod', 'web-test')).toEqual({})
    expect(Object.keys(await read(hub, 'Role', 'reader', 'rbac.authorization.k8s.io'))).toEqual(['prod-eu', 'prod-us'])
  })
})
