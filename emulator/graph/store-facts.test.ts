/**
 * The graph side of the third reading of the hub (docs/hub-facts.md, "Store drivers", "Relations,
 * more precisely"), one fact per test, pinned on the emulator. Each title is the fact.
 */
import { describe, expect, it } from 'vitest'
import type { ExecuteOptions, FleetObject, QueryStatus } from './index.ts'
import { GROUP_LABEL, LINKED_ANNOTATION, QueryInternalError, createFleet, executeQuery } from './index.ts'
import { createHubFactsFleet, createTimestampFleet, OTHER_WORKSPACE_PATH } from './hub-facts-fleet.ts'
import { startHubEmulator } from '../hub.ts'

const TENANT = 'acme/ws'
const at = '2025-01-01T00:00:00Z'
let uid = 0
function obj(edge: string, kind: string, name: string, ns: string | undefined, rest: Partial<FleetObject> = {}) {
  const o: FleetObject = {
    edge,
    apiVersion: kind === 'Deployment' ? 'apps/v1' : 'v1',
    kind,
    metadata: { name, uid: `s-${++uid}`, creationTimestamp: at, ...(rest.metadata ?? {}) },
  }
  if (ns !== undefined) o.metadata.namespace = ns
  if (rest.spec !== undefined) o.spec = rest.spec
  return o
}
const run = (objects: FleetObject[], spec: unknown, opts: ExecuteOptions = {}): QueryStatus =>
  executeQuery(createFleet(objects), spec, TENANT, opts)
const names = (status: QueryStatus) => (status.objects ?? []).map((o) => (o.object as any)?.metadata?.name as string)

describe('store drivers', () => {
  const deploy = obj('e1', 'Deployment', 'web', 'app', {
    spec: { paused: false, template: { spec: { automountServiceAccountToken: true } }, strategy: { x: true } },
  })
  const projection = {
    filter: { objects: [{ name: 'web' }] },
    objects: {
      object: { spec: { paused: true, template: { spec: { automountServiceAccountToken: true } }, strategy: true } },
    },
  }

  it('on SQLite a boolean leaf of a sparse projection comes back 1/0; a sub-object projected whole keeps real booleans', () => {
    expect(run([deploy], projection, { storeDriver: 'sqlite' }).objects?.[0]?.object).toEqual({
      spec: { paused: 0, template: { spec: { automountServiceAccountToken: 1 } }, strategy: { x: true } },
    })
  })

  it('on Postgres booleans stay booleans', () => {
    expect(run([deploy], projection, { storeDriver: 'postgres' }).objects?.[0]?.object).toEqual({
      spec: { paused: false, template: { spec: { automountServiceAccountToken: true } }, strategy: { x: true } },
    })
  })

  it.each([
    ['Asc', 'skips'],
    ['Desc', 'repeats'],
  ] as const)('on SQLite a cursor over creationTimestamp %s the rest of its calendar day (%s)', (direction, what) => {
    const fleet = createTimestampFleet(12)
    const page = (cursor?: string, opts: ExecuteOptions = { storeDriver: 'sqlite' }) =>
      executeQuery(
        fleet,
        {
          order: [{ field: 'creationTimestamp', direction }],
          limit: 5,
          cursor: true,
          objects: { object: { metadata: { name: true } } },
          ...(cursor ? { page: { cursor } } : {}),
        },
        TENANT,
        opts,
      )
    const first = page()
    const second = page(first.cursor?.next)
    const exact = page(first.cursor?.next, { storeDriver: 'postgres' })
    const seen = [...names(first), ...names(second)]
    if (what === 'skips') {
      // page 1 ends at day 2 09:00; day 2's 10:00 to 12:00 never come
      expect(names(second)[0]).toBe('audit-008')
      expect(names(exact)[0]).toBe('audit-005')
    } else {
      // page 1 ends on day 2 (Desc); every row of day 2 comes again
      expect(new Set(seen).size).toBeLessThan(seen.length)
      expect(names(exact).some((n) => names(first).includes(n))).toBe(false)
    }
  })

  it('dotted selector keys never match on SQLite (and by default), and match on Postgres', () => {
    const labels = { 'app.kubernetes.io/name': 'web' }
    const objects = [
      obj('e1', 'Deployment', 'web', 'app', { spec: { selector: { matchLabels: labels } } }),
      obj('e1', 'Pod', 'web-1', 'app', { metadata: { name: 'web-1', uid: 'p1', creationTimestamp: at, labels } }),
    ]
    const spec = {
      filter: { objects: [{ groupKind: { kind: 'Deployment' } }] },
      objects: { relations: { selects: {} } },
    }
    expect(run(objects, spec, { storeDriver: 'sqlite' }).objects?.[0]?.relations).toBeUndefined()
    expect(run(objects, spec).objects?.[0]?.relations).toBeUndefined()
    expect(run(objects, spec, { storeDriver: 'postgres' }).objects?.[0]?.relations?.selects).toHaveLength(1)
  })

  it('GET /api/status names the store, with no tenant needed; a provider without a store option has no such route', async () => {
    const hub = await startHubEmulator({ storeDriver: 'sqlite' })
    const older = await startHubEmulator()
    try {
      const status = await fetch(`${hub.url}/services/providers/graph/api/status`, {
        headers: { Authorization: `Bearer ${hub.token}` },
      })
      expect(await status.json()).toEqual({ storeDriver: 'sqlite', engagedEdges: 3 })
      const none = await fetch(`${older.url}/services/providers/graph/api/status`, { headers: older.headers() })
      expect(none.headers.get('content-type')).toMatch(/^text\/html/)
    } finally {
      await hub.close()
      await older.close()
    }
  })
})

describe('relations, more precisely', () => {
  it('grouped reaches rows of other workspaces and of unengaged edges; roots never do', () => {
    const fleet = createHubFactsFleet()
    const group = {
      cluster: { name: 'prod-eu' },
      filter: { objects: [{ groupKind: { kind: 'Deployment' }, namespace: 'shop', name: 'checkout' }] },
      objects: { relations: { grouped: { objects: { cluster: true, object: { metadata: { name: true } } } } } },
    }
    const related = executeQuery(fleet, group, TENANT).objects?.[0]?.relations?.grouped ?? []
    expect(related.map((r) => `${r.cluster}:${(r.object as any).metadata.name}`).sort()).toEqual([
      `${OTHER_WORKSPACE_PATH}/prod-eu:checkout-legacy`,
      `${TENANT}/prod-ap:checkout-old`,
      `${TENANT}/prod-us:checkout`,
    ])
    const roots = executeQuery(fleet, { filter: { objects: [{ name: 'checkout-legacy' }] } }, TENANT)
    expect(roots.objects).toBeUndefined()
  })

  it.each([
    ['a transitive form other than descendants+, owners+, linked+', { relations: { 'selects+': {} } }],
    ['a kind filter on a + relation', { relations: { 'descendants+': { filters: [{ groupKind: { kind: 'Pod' } }] } } }],
    ['a name filter on a + relation', { relations: { 'owners+': { filters: [{ name: 'x' }] } } }],
  ])('%s is a 500', (_name, objects) => {
    expect(() => run([obj('e1', 'Deployment', 'web', 'app')], { objects })).toThrow(QueryInternalError)
  })

  it('a malformed link annotation on an object the query reads fails the whole query', () => {
    const broken = obj('e1', 'Deployment', 'web', 'app', {
      metadata: { name: 'web', uid: 'b1', creationTimestamp: at, annotations: { [LINKED_ANNOTATION]: '[{"kind":' } },
    })
    expect(() => run([broken], { objects: { relations: { linked: {} } } })).toThrow(QueryInternalError)
  })

  it('linked follows a cluster key to another edge', () => {
    const link = JSON.stringify([{ kind: 'ConfigMap', name: 'shared', namespace: 'app', cluster: 'e2' }])
    const objects = [
      obj('e1', 'Deployment', 'web', 'app', {
        metadata: { name: 'web', uid: 'l1', creationTimestamp: at, annotations: { [LINKED_ANNOTATION]: link } },
      }),
      obj('e2', 'ConfigMap', 'shared', 'app'),
    ]
    const status = run(objects, {
      filter: { objects: [{ groupKind: { kind: 'Deployment' } }] },
      objects: { relations: { linked: { objects: { cluster: true } } } },
    })
    expect(status.objects?.[0]?.relations?.linked?.map((r) => r.cluster)).toEqual([`${TENANT}/e2`])
  })

  it('the validator is lenient: a negative limit is the default, In without values is dropped (matching everything)', () => {
    const objects = Array.from({ length: 3 }, (_, i) =>
      obj('e1', 'ConfigMap', `c${i}`, 'app', {
        metadata: { name: `c${i}`, uid: `v${i}`, creationTimestamp: at, labels: { tier: `t${i}` } },
      }),
    )
    expect(names(run(objects, { limit: -1 }))).toHaveLength(3)
    expect(names(run(objects, { maxDepth: -3 }))).toHaveLength(3)
    expect(
      names(run(objects, { filter: { objects: [{ labelExpressions: [{ key: 'tier', operator: 'In' }] }] } })),
    ).toHaveLength(3)
    expect(
      names(
        run(objects, {
          filter: { objects: [{ labelExpressions: [{ key: 'tier', operator: 'Near', values: ['x'] }] }] },
        }),
      ),
    ).toHaveLength(3)
  })

  it("an Ingress's spec.defaultBackend is not a reference; only rule backends are", () => {
    const objects = [
      obj('e1', 'Service', 'web', 'app'),
      obj('e1', 'Ingress', 'direct', 'app', { spec: { defaultBackend: { service: { name: 'web' } } } }),
    ]
    const status = run(objects, {
      filter: { objects: [{ groupKind: { kind: 'Ingress' } }] },
      objects: { relations: { references: {} } },
    })
    expect(status.objects?.[0]?.relations).toBeUndefined()
  })

  it('references never match a cluster-scoped object', () => {
    const objects = [
      obj('e1', 'StorageClass', 'fast', undefined),
      obj('e1', 'PersistentVolumeClaim', 'data', 'app', { spec: { storageClassName: 'fast' } }),
    ]
    const status = run(objects, {
      filter: { objects: [{ groupKind: { kind: 'PersistentVolumeClaim' } }] },
      objects: { relations: { references: {} } },
    })
    expect(status.objects?.[0]?.relations).toBeUndefined()
  })

  it('root: clusters rows carry id = cluster = <workspace path>/<edge> and a synthetic Cluster with status.phase', () => {
    const status = run([obj('e1', 'ConfigMap', 'a', 'app')], {
      root: 'clusters',
      objects: { id: true, cluster: true, object: { kind: true, status: { phase: true } } },
    })
    expect(status.objects).toEqual([
      { id: `${TENANT}/e1`, cluster: `${TENANT}/e1`, object: { kind: 'Cluster', status: { phase: 'Ready' } } },
    ])
  })

  it("the group label and link annotation are the engine's own names", () => {
    expect([GROUP_LABEL, LINKED_ANNOTATION]).toEqual(['kuery.io/group', 'kuery.io/relates-to'])
  })
})
