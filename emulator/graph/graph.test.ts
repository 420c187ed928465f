import * as http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  buildImpactQuery,
  createDemoFleet,
  createGraphProvider,
  createLargeFleet,
  createMcpHandler,
  executeQuery,
  parseSse,
  relatedObjects,
  findObject,
  QueryValidationError,
  QueryBodyError,
} from './index.ts'
import type { GraphTenant, ObjectResult, QuerySpec, QueryStatus } from './index.ts'

const WS = '0b9f7a52-4c1e-4d8a-9a3e-5f2d6c7b8a90'
const ORG = '6a1d2c3b-8e7f-4a5b-9c0d-1e2f3a4b5c6d'
const TENANT: GraphTenant = { org: ORG, workspace: WS, user: 'ci-bot' }
const PATH = 'acme/ws-platform'
const MCP_URL = `/services/mcpserver/${PATH}/apis/hub.sh/v1alpha1/mcpservers/default/mcp`

const fleet = createDemoFleet({ workspace: WS })
// Rows carry id and cluster only when a projection asks for them (the engine's rule), so the
// helper asks whenever the query gives none.
const withFlags = (spec: any): unknown =>
  spec && typeof spec === 'object' && !Array.isArray(spec) && spec.objects === undefined
    ? { ...spec, objects: { id: true, cluster: true } }
    : spec
const q = (spec: unknown): QueryStatus => executeQuery(fleet, withFlags(spec), TENANT)
const names = (st: QueryStatus): string[] =>
  (st.objects ?? []).map(
    (o) =>
      `${o.cluster?.split('/').pop()}/${(o.object as any)?.metadata?.namespace ?? ''}/${(o.object as any)?.kind}/${(o.object as any)?.metadata?.name}`,
  )
const relNames = (r: ObjectResult | undefined, rel: string): string[] =>
  (r?.relations?.[rel] ?? []).map((x) => `${(x.object as any).kind}/${(x.object as any).metadata.name}`)

// ---------------------------------------------------------------------------
// throwaway HTTP server mounting the handlers

let base = ''
let server: http.Server
beforeAll(async () => {
  const graph = createGraphProvider(fleet, { workspace: WS })
  const mcp = createMcpHandler(fleet, { workspace: WS })
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const url = new URL(req.url ?? '/', 'http://x')
      const who = req.headers['x-test-tenant']
      const tenant =
        who === 'none'
          ? null
          : who === 'personal'
            ? { org: 'personal-org', workspace: 'personal-ws', user: 'ci-bot' }
            : TENANT
      if (url.pathname.startsWith('/services/providers/graph')) {
        graph(
          {
            method: req.method ?? 'GET',
            path: url.pathname.slice('/services/providers/graph'.length),
            query: url.searchParams,
            headers: req.headers,
            body,
            tenant,
          },
          res,
        )
      } else if (url.pathname.startsWith('/services/mcpserver/')) {
        mcp(req, res, body, tenant)
      } else {
        res.writeHead(404).end('404 page not found\n')
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

async function postQuery(spec: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/services/providers/graph/api/query`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof spec === 'string' ? spec : JSON.stringify(spec),
  })
}

let rpcId = 0
async function rpc(
  method: string,
  params?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; res: Response; msg: any }> {
  const res = await fetch(base + MCP_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
  })
  const text = await res.text()
  return {
    status: res.status,
    res,
    msg: res.headers.get('content-type')?.startsWith('text/event-stream') ? parseSse(text)[0] : text,
  }
}

// ---------------------------------------------------------------------------

describe('fleet', () => {
  it('has the documented demo objects', () => {
    expect(fleet.edges).toEqual(['prod-eu', 'prod-us', 'staging'])
    const deploys = names(q({ filter: { objects: [{ groupKind: { kind: 'Deployment' }, name: 'checkout' }] } }))
    expect(deploys).toEqual(['prod-eu/shop/Deployment/checkout', 'prod-us/shop/Deployment/checkout'])
    expect(names(q({ filter: { objects: [{ groupKind: { kind: 'cm' }, name: 'feature-flags' }] } }))).toEqual([
      'prod-eu/payments/ConfigMap/feature-flags',
      'prod-eu/shop/ConfigMap/feature-flags',
    ])
    expect(names(q({ filter: { objects: [{ groupKind: { kind: 'deploy' }, name: 'search' }] } }))).toEqual([
      'staging/shop/Deployment/search',
    ])
  })

  // How fast it builds is a figure: `npm run bench` prints it (bench/graph.ts).
  it('large fleet is deterministic and exact-sized', () => {
    const a = createLargeFleet({ objects: 20000 })
    const b = createLargeFleet({ objects: 20000 })
    expect(a.objects).toHaveLength(20000)
    expect(JSON.stringify(a.objects.slice(-50))).toBe(JSON.stringify(b.objects.slice(-50)))
    expect(new Set(a.objects.map((o) => o.metadata.uid)).size).toBe(20000)
  })
})

describe('executeQuery: filters', () => {
  it('matches kind by name, plural and short name, with apiGroup', () => {
    const a = q({ filter: { objects: [{ groupKind: { kind: 'Service' } }] }, limit: 1000 })
    const b = q({ filter: { objects: [{ groupKind: { kind: 'svc' } }] }, limit: 1000 })
    const c = q({ filter: { objects: [{ groupKind: { kind: 'services', apiGroup: '' } }] }, limit: 1000 })
    expect(a.objects?.length).toBeGreaterThan(5)
    expect(b).toEqual(a)
    expect(c).toEqual(a)
    expect(q({ filter: { objects: [{ groupKind: { kind: 'deploy', apiGroup: 'batch' } }] } })).toEqual({})
    expect(
      q({ filter: { objects: [{ groupKind: { kind: 'deploy', apiGroup: 'apps' } }] }, limit: 1000 }).objects?.length,
    ).toBe(9)
  })

  it('ANDs fields inside an entry and ORs entries', () => {
    const and = q({
      filter: { objects: [{ groupKind: { kind: 'Deployment' }, namespace: 'shop', labels: { team: 'payments' } }] },
    })
    expect(names(and)).toEqual(['prod-eu/shop/Deployment/checkout', 'prod-us/shop/Deployment/checkout'])
    const or = q({
      filter: { objects: [{ groupKind: { kind: 'deploy' }, name: 'search' }, { groupKind: { kind: 'sts' } }] },
    })
    expect(names(or).sort()).toEqual(['prod-eu/payments/StatefulSet/orders-db', 'staging/shop/Deployment/search'])
  })

  it('supports labelExpressions, cluster, id, conditions and creationTimestamp', () => {
    const ex = q({
      filter: {
        objects: [
          {
            groupKind: { kind: 'Deployment' },
            labelExpressions: [
              { key: 'team', operator: 'In', values: ['discovery', 'storefront'] },
              { key: 'track', operator: 'DoesNotExist' },
            ],
          },
        ],
      },
      limit: 100,
    })
    expect(names(ex)).toEqual([
      'prod-eu/shop/Deployment/frontend',
      'prod-us/shop/Deployment/frontend',
      'staging/shop/Deployment/frontend',
      'staging/shop/Deployment/search',
    ])
    const onUs = q({ cluster: { name: 'prod-us' }, filter: { objects: [{ groupKind: { kind: 'Deployment' } }] } })
    expect(names(onUs).every((n) => n.startsWith('prod-us/'))).toBe(true)
    const byPath = q({
      cluster: { name: `${PATH}/prod-us` },
      filter: { objects: [{ groupKind: { kind: 'Deployment' } }] },
    })
    expect(byPath).toEqual(onUs)
    const one = onUs.objects?.[0]
    expect(q({ filter: { objects: [{ id: one?.id }] } }).objects?.map((o) => o.id)).toEqual([one?.id])
    const failing = q({
      filter: {
        objects: [{ groupKind: { kind: 'Deployment' }, conditions: [{ type: 'Available', status: 'False' }] }],
      },
    })
    expect(names(failing)).toEqual(['staging/canary/Deployment/checkout-canary'])
    const all = q({ filter: { objects: [{ groupKind: { kind: 'ns' } }] }, limit: 1000 }).objects ?? []
    const late =
      q({
        filter: { objects: [{ groupKind: { kind: 'ns' }, creationTimestamp: { after: '2025-01-06T09:10:00Z' } }] },
        limit: 1000,
      }).objects ?? []
    expect(late.length).toBeGreaterThan(0)
    expect(late.length).toBeLessThan(all.length)
  })

  it('returns {} (objects absent) when nothing matched', () => {
    const st = q({ filter: { objects: [{ name: 'does-not-exist' }] }, cursor: true })
    expect(st).toEqual({})
    expect('objects' in st).toBe(false)
    expect(q({ cluster: { name: 'nowhere' } })).toEqual({})
  })
})

describe('executeQuery: projection and relations', () => {
  const checkoutEu = {
    cluster: { name: 'prod-eu' },
    filter: { objects: [{ groupKind: { kind: 'Deployment' }, namespace: 'shop', name: 'checkout' }] },
  }
  const leaf = { object: { kind: true, metadata: { name: true } } }

  it('projects id, cluster, mutablePath and a sparse object', () => {
    const st = q({
      ...checkoutEu,
      objects: {
        id: true,
        cluster: true,
        mutablePath: true,
        object: {
          metadata: { name: true, labels: true },
          spec: { replicas: true, template: { spec: { containers: { image: true } } } },
        },
      },
    })
    const o = st.objects?.[0]
    expect(o?.cluster).toBe('acme/ws-platform/prod-eu')
    expect(o?.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(o?.mutablePath).toBe('/clusters/acme/ws-platform/prod-eu/apis/apps/v1/namespaces/shop/deployments/checkout')
    expect(o?.object).toEqual({
      metadata: {
        name: 'checkout',
        labels: {
          app: 'checkout',
          tier: 'backend',
          team: 'payments',
          'app.kubernetes.io/name': 'checkout',
          'app.kubernetes.io/part-of': 'shop',
          'kuery.io/group': 'shop-checkout',
        },
      },
      // no array step: a sub-tree under a list answers an object of nulls
      spec: { replicas: 3, template: { spec: { containers: { image: null } } } },
    })
    expect(o?.relations).toBeUndefined()
  })

  it('absent object projection returns the whole object (without the emulator edge field)', () => {
    const o = q({ ...checkoutEu, objects: { cluster: true } }).objects?.[0]
    expect(o?.id).toBeUndefined()
    expect(Object.keys(o?.object ?? {})).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status'])
  })

  it('expands direct and transitive relations, bounded by maxDepth', () => {
    const st = q({
      ...checkoutEu,
      objects: {
        relations: {
          descendants: { objects: leaf },
          'descendants+': { objects: leaf },
          references: { objects: leaf },
          namespace: { objects: leaf },
          grouped: { objects: { cluster: true, ...leaf } },
          'no-such-relation': {},
        },
      },
    })
    const o = st.objects?.[0]
    expect(relNames(o, 'descendants')).toEqual(['ReplicaSet/checkout-7d9f8c6b5'])
    // transitive relations nest: the ReplicaSet at the first level, its Pods under it
    expect(relNames(o, 'descendants+')).toEqual(['ReplicaSet/checkout-7d9f8c6b5'])
    expect(relNames(o?.relations?.['descendants+']?.[0], 'descendants+')).toHaveLength(3)
    // references are read from Pod-level paths: a Deployment references nothing
    expect(o?.relations?.references).toBeUndefined()
    expect(relNames(o, 'namespace')).toEqual(['Namespace/shop'])
    expect(o?.relations?.grouped?.[0]?.cluster).toBe('acme/ws-platform/prod-us')
    expect(o?.relations && 'no-such-relation' in o.relations).toBe(false)
    const shallow = q({ ...checkoutEu, maxDepth: 1, objects: { relations: { 'descendants+': { objects: leaf } } } })
    expect(relNames(shallow.objects?.[0], 'descendants+')).toEqual(['ReplicaSet/checkout-7d9f8c6b5'])
  })

  it('owners+, selects, selected-by, namespaced, linked+ and nested relations', () => {
    const pod = q({
      cluster: { name: 'prod-eu' },
      filter: { objects: [{ groupKind: { kind: 'Pod' }, labels: { app: 'checkout' } }] },
      limit: 1,
      objects: { relations: { 'owners+': { objects: leaf }, 'selected-by': { objects: leaf } } },
    }).objects?.[0]
    expect(relNames(pod, 'owners+')).toEqual(['ReplicaSet/checkout-7d9f8c6b5'])
    // The ReplicaSet is also `selected-by` the Pod, at the same internal path: the nested owner
    // hangs under whichever of the two nodes the tree assembly met last (engine-facts.test.ts).
    const nodes = [...(pod?.relations?.['owners+'] ?? []), ...(pod?.relations?.['selected-by'] ?? [])]
    expect(nodes.flatMap((n) => relNames(n, 'owners+'))).toEqual(['Deployment/checkout'])
    // only spec.selector.matchLabels selects: not a Service's plain selector, not a NetworkPolicy's podSelector
    expect(relNames(pod, 'selected-by').sort()).toEqual([
      'Deployment/checkout',
      'PodDisruptionBudget/checkout',
      'ReplicaSet/checkout-7d9f8c6b5',
    ])
    const deploy = q({
      cluster: { name: 'prod-eu' },
      filter: { objects: [{ groupKind: { kind: 'deploy' }, namespace: 'shop', name: 'checkout' }] },
      objects: { relations: { selects: { objects: { ...leaf, relations: { owners: { objects: leaf } } } } } },
    }).objects?.[0]
    expect(relNames(deploy, 'selects')).toHaveLength(7)
    const selectedPod = deploy?.relations?.selects?.find((x) => (x.object as any).kind === 'Pod')
    expect(relNames(selectedPod, 'owners')).toEqual(['ReplicaSet/checkout-7d9f8c6b5'])
    const ns = q({
      cluster: { name: 'prod-eu' },
      filter: { objects: [{ groupKind: { kind: 'Namespace' }, name: 'shop' }] },
      objects: {
        relations: {
          namespaced: { limit: 5, objects: leaf },
        },
      },
    }).objects?.[0]
    // the limit takes 5 rows; ConfigMap app.config is one of them and, dotted, is dropped
    expect(relNames(ns, 'namespaced')).toHaveLength(4)
    const pay = q({
      cluster: { name: 'prod-eu' },
      filter: { objects: [{ groupKind: { kind: 'deploy' }, name: 'payments-api' }] },
      objects: { relations: { 'linked+': { objects: { cluster: true } } } },
    }).objects?.[0]
    // linked: one way, on the same edge
    expect(pay?.relations?.['linked+']?.map((x) => x.cluster)).toEqual(['acme/ws-platform/prod-eu'])
  })

  it('relatedObjects / findObject helpers', () => {
    const d = findObject(fleet, 'prod-us', 'shop', 'deploy', 'checkout')
    expect(d?.kind).toBe('Deployment')
    expect(relatedObjects(fleet, d!, 'descendants+').map((o) => o.kind)).toEqual(['ReplicaSet', 'Pod', 'Pod'])
    expect(relatedObjects(fleet, d!, 'bogus')).toEqual([])
  })
})

describe('executeQuery: validation', () => {
  it('rejects limit > 10000, maxDepth > 20, bad order, > 10 relation blocks', () => {
    expect(() => q({ limit: 10001 })).toThrow(QueryValidationError)
    expect(() => q({ limit: 10000 })).not.toThrow()
    expect(() => q({ maxDepth: 21 })).toThrow(/maxDepth/)
    expect(() => q({ order: [{ field: 'size' }] })).toThrow(QueryValidationError)
    expect(() => q({ order: [{ field: 'name', direction: 'up' }] })).toThrow(QueryValidationError)
    const rel: Record<string, object> = {}
    for (let i = 0; i < 11; i++) rel[`r${i}`] = {}
    expect(() => q({ objects: { relations: rel } })).toThrow(/relation blocks/)
    expect(() => q({ limit: 'ten' })).toThrow(QueryBodyError)
    expect(() => q([])).toThrow(QueryBodyError)
  })
})

describe('executeQuery: paging', () => {
  const deploys: QuerySpec = {
    filter: { objects: [{ groupKind: { kind: 'Deployment' } }] },
    order: [{ field: 'cluster' }, { field: 'name' }],
    cursor: true,
    count: true,
  }

  it('pages with cursor.next present on every page, the last one too', () => {
    const seen: string[] = []
    let cursor: string | undefined
    const pages: QueryStatus[] = []
    for (let i = 0; i < 10; i++) {
      const st = q({ ...deploys, limit: 4, page: cursor ? { cursor } : undefined })
      pages.push(st)
      seen.push(...names(st))
      if ((st.objects?.length ?? 0) < 4) break
      cursor = st.cursor?.next
    }
    expect(seen).toHaveLength(9)
    expect(new Set(seen).size).toBe(9)
    expect(pages).toHaveLength(3)
    expect(pages.map((p) => p.objects?.length)).toEqual([4, 4, 1])
    expect(pages.map((p) => p.cursor?.page)).toEqual([1, 2, 3])
    expect(pages.every((p) => typeof p.cursor?.next === 'string' && p.cursor.pageSize === 4)).toBe(true)
    expect(pages.map((p) => p.incomplete)).toEqual([true, true, undefined])
    expect(pages.every((p) => p.count === 9)).toBe(true)
    // the last page's cursor leads to an empty page: objects and cursor absent
    const after = q({ ...deploys, limit: 4, page: { cursor: pages[2]?.cursor?.next } })
    expect(after).toEqual({ count: 9 })
  })

  it('one keyset operator for the whole tuple: a mixed Asc/Desc order repeats rows on page 2, a uniform Desc does not', () => {
    const walk = (order: QuerySpec['order']): string[] => {
      const first = q({ ...deploys, order, limit: 2, objects: { id: true } })
      const second = q({ ...deploys, order, limit: 2, objects: { id: true }, page: { cursor: first.cursor?.next } })
      return [...(first.objects ?? []), ...(second.objects ?? [])].map((o) => o.id ?? '')
    }
    const mixed = walk([
      { field: 'cluster', direction: 'Asc' },
      { field: 'name', direction: 'Desc' },
    ])
    expect(new Set(mixed).size).toBeLessThan(mixed.length)
    const desc = walk([
      { field: 'cluster', direction: 'Desc' },
      { field: 'name', direction: 'Desc' },
    ])
    expect(new Set(desc).size).toBe(desc.length)
  })

  it('an exactly-full last page still says incomplete and has a cursor', () => {
    const st = q({ ...deploys, limit: 9 })
    expect(st.objects).toHaveLength(9)
    expect(st.incomplete).toBe(true)
    expect(st.cursor?.next).toBeTruthy()
    expect(q({ ...deploys, limit: 9, page: { cursor: st.cursor?.next } }).objects).toBeUndefined()
  })

  it('an unreadable cursor is silently ignored: page 1 again', () => {
    const first = q({ ...deploys, limit: 3 })
    for (const bad of ['not-a-cursor!!', 'eyJ4IjoxfQ==', Buffer.from('{"v":1,"k":["a"]}').toString('base64')]) {
      expect(q({ ...deploys, limit: 3, page: { cursor: bad } })).toEqual(first)
    }
  })

  it('keyset ignores the edge: ordering by name alone skips a same-named object on another edge', () => {
    const spec = {
      filter: { objects: [{ groupKind: { kind: 'Deployment' }, name: 'checkout' }] },
      cursor: true,
      limit: 1,
    }
    const walk = (order: QuerySpec['order']) => {
      const got: string[] = []
      let cursor: string | undefined
      for (let i = 0; i < 5; i++) {
        const st = q({ ...spec, order, page: cursor ? { cursor } : undefined })
        got.push(...names(st))
        if ((st.objects?.length ?? 0) < 1) break
        cursor = st.cursor?.next
      }
      return got
    }
    expect(walk([{ field: 'name' }])).toEqual(['prod-eu/shop/Deployment/checkout']) // prod-us skipped: the trap
    expect(walk([{ field: 'cluster' }, { field: 'name' }])).toEqual([
      'prod-eu/shop/Deployment/checkout',
      'prod-us/shop/Deployment/checkout',
    ])
    expect(walk([{ field: 'cluster', direction: 'Desc' }])).toEqual([
      'prod-us/shop/Deployment/checkout',
      'prod-eu/shop/Deployment/checkout',
    ])
  })

  it('pages a 20,000-object fleet with limit 500', () => {
    const large = createLargeFleet({ objects: 20000 })
    const ids = new Set<string>()
    let cursor: string | undefined
    let pages = 0
    for (;;) {
      const st = executeQuery(
        large,
        {
          limit: 500,
          cursor: true,
          order: [{ field: 'cluster' }, { field: 'kind' }],
          objects: { id: true, cluster: true, object: { metadata: { name: true } } },
          page: cursor ? { cursor } : undefined,
        },
        TENANT,
      )
      pages++
      for (const o of st.objects ?? []) ids.add(o.id as string)
      if ((st.objects?.length ?? 0) < 500) break
      cursor = st.cursor?.next
    }
    expect(ids.size).toBe(20000)
    expect(pages).toBe(41)
    // fan-out: a Deployment with thousands of downstream objects
    const fan = executeQuery(large, buildImpactQuery({ kind: 'Deployment', name: 'fanout', namespace: 'bulk' }), TENANT)
    expect(fan.objects?.[0]?.relations?.['descendants+']?.length).toBe(1)
    // its Pods hang one level down, under the ReplicaSet node of whichever relation reached it
    // at that path last (`selects` reaches the ReplicaSet too)
    // at that path last (`selects` reaches the ReplicaSet too). `selects` also lists the 5,000
    // Pods, so the answer crosses the 10,000-row cap and the last rows by path are cut.
    const firstLevel = Object.values(fan.objects?.[0]?.relations ?? {}).flat()
    expect(firstLevel.reduce((n, node) => n + (node.relations?.['descendants+']?.length ?? 0), 0)).toBeGreaterThan(4900)
    expect(fan).toMatchObject({ incomplete: true, warnings: ['response truncated at 10000 total rows'] })
    expect(fan.objects?.[0]?.relations?.['descendants+']?.[0]?.object).toEqual({
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      metadata: { name: 'fanout-6f7d8c9b5', namespace: 'bulk' },
    })
  })
})

describe('graph provider over HTTP', () => {
  it('POST /api/query answers JSON', async () => {
    const res = await postQuery({
      filter: { objects: [{ groupKind: { kind: 'deploy' }, name: 'checkout' }] },
      objects: { cluster: true, object: { metadata: { name: true } } },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/json')
    expect(await res.json()).toEqual({
      objects: [
        { cluster: 'acme/ws-platform/prod-eu', object: { metadata: { name: 'checkout' } } },
        { cluster: 'acme/ws-platform/prod-us', object: { metadata: { name: 'checkout' } } },
      ],
    })
  })

  it('plain-text errors: 401, 400 body, 400 validation, 405', async () => {
    let res = await postQuery({}, { 'x-test-tenant': 'none' })
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([
      401,
      'text/plain; charset=utf-8',
      'missing tenant identity\n',
    ])
    res = await postQuery('{"limit":')
    expect(res.status).toBe(400)
    expect(await res.text()).toMatch(/^invalid QuerySpec body: /)
    res = await postQuery({ limit: 'x' })
    expect(await res.text()).toMatch(/^invalid QuerySpec body: json: cannot unmarshal string/)
    res = await postQuery({ limit: 20000 })
    expect([res.status, await res.text()]).toEqual([
      400,
      'query failed: validation: limit 20000 exceeds the maximum of 10000\n',
    ])
    res = await fetch(`${base}/services/providers/graph/api/query`, { method: 'PUT', body: '{}' })
    expect(res.status).toBe(405)
    res = await fetch(`${base}/services/providers/graph/api/query`)
    expect(res.status).toBe(405)
  })

  it('any other GET path answers the portal HTML with 200', async () => {
    for (const p of ['/api/qeury', '/', '/api/edge', '/anything/else']) {
      const res = await fetch(`${base}/services/providers/graph${p}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^text\/html/)
      expect(await res.text()).toMatch(/^<!doctype html>/)
    }
  })

  it('GET /api/edges and the personal-org fallback', async () => {
    let res = await fetch(`${base}/services/providers/graph/api/edges`)
    expect(await res.json()).toEqual({ edges: ['prod-eu', 'prod-us', 'staging'] })
    res = await fetch(`${base}/services/providers/graph/api/edges`, { headers: { 'x-test-tenant': 'personal' } })
    expect([res.status, await res.json()]).toEqual([200, { edges: [] }])
    res = await postQuery({ cursor: true, count: true }, { 'x-test-tenant': 'personal' })
    expect([res.status, await res.json()]).toEqual([200, {}])
    res = await fetch(`${base}/services/providers/graph/api/edges`, { headers: { 'x-test-tenant': 'none' } })
    expect(res.status).toBe(401)
  })
})

describe('MCP aggregate endpoint', () => {
  it('requires POST, both Accept types and a known protocol version', async () => {
    let res = await fetch(base + MCP_URL, { headers: { Accept: 'application/json, text/event-stream' } })
    expect(res.status).toBe(405)
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
    res = await fetch(base + MCP_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body,
    })
    expect(res.status).toBe(400)
    expect(await res.text()).toMatch(/Accept must contain both/)
    res = await fetch(base + MCP_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body,
    })
    expect(res.status).toBe(400)
    const bad = await rpc('tools/list', {}, { 'MCP-Protocol-Version': '2099-01-01' })
    expect(bad.status).toBe(400)
    for (const v of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])
      expect((await rpc('tools/list', {}, { 'MCP-Protocol-Version': v })).status).toBe(200)
  })

  it('initialize answers SSE with capabilities and no session id; notifications get 202', async () => {
    const res = await fetch(base + MCP_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(res.headers.get('mcp-session-id')).toBeNull()
    const text = await res.text()
    expect(text).toMatch(/^event: message\ndata: \{.*\}\n\n$/)
    const msg = parseSse(text)[0] as any
    expect(msg).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: expect.any(String) } },
    })
    const note = await fetch(base + MCP_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
    expect(note.status).toBe(202)
    expect(await note.text()).toBe('')
  })

  it('lists the two graph tools; unknown tool and method are JSON-RPC errors', async () => {
    const list = await rpc('tools/list')
    expect(list.msg.result.tools.map((t: any) => t.name)).toEqual(['graph__graph_impact', 'graph__graph_query'])
    expect(list.msg.result.tools[0].inputSchema.required).toEqual(['kind', 'name'])
    const unknown = await rpc('tools/call', { name: 'graph__nope', arguments: {} })
    expect(unknown.msg.error.code).toBe(-32602)
    expect(unknown.msg.error.message).toMatch(/unknown tool/)
    expect((await rpc('resources/list')).msg.error.code).toBe(-32601)
  })

  it('graph__graph_impact equals the classification of the raw query run over HTTP', async () => {
    for (const input of [
      { kind: 'Deployment', name: 'checkout', namespace: 'shop', edge: 'prod-eu', group: 'apps' },
      { kind: 'deploy', name: 'checkout', namespace: 'shop' },
      { kind: 'Deployment', name: 'payments-api', namespace: 'payments', edge: 'prod-eu' },
      { kind: 'Pod', name: 'orders-db-0', namespace: 'payments', edge: 'prod-eu', group: '' },
      { kind: 'Namespace', name: 'shop', edge: 'prod-us' },
    ]) {
      const call = await rpc('tools/call', { name: 'graph__graph_impact', arguments: input })
      const result = call.msg.result
      expect(result.isError).toBeUndefined()
      expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent)
      // independent client-side classification of the same query, over the REST API
      const raw = (await (await postQuery(buildImpactQuery(input))).json()) as QueryStatus
      const dir: Record<string, 'impactedBy' | 'impacts' | 'associated'> = {
        owners: 'impactedBy',
        references: 'impactedBy',
        selects: 'impactedBy',
        namespace: 'impactedBy',
        descendants: 'impacts',
        'selected-by': 'impacts',
        namespaced: 'impacts',
        linked: 'associated',
        grouped: 'associated',
      }
      const expected: Record<string, object[]> = { impactedBy: [], impacts: [], associated: [] }
      for (const [rel, list] of Object.entries(raw.objects?.[0]?.relations ?? {})) {
        const relation = rel.replace(/\+$/, '')
        for (const r of list) {
          const o = r.object as any
          const ref: Record<string, string> = { edge: r.cluster!.split('/').pop()! }
          if (o.apiVersion.includes('/')) ref.group = o.apiVersion.split('/')[0]
          ref.kind = o.kind
          if (o.metadata.namespace) ref.namespace = o.metadata.namespace
          ref.name = o.metadata.name
          ref.relation = relation
          expected[dir[relation]!]!.push(ref)
        }
      }
      const sc = result.structuredContent
      expect(sc.found).toBe(true)
      for (const k of ['impactedBy', 'impacts', 'associated'])
        expect(sc[k]).toEqual(expected[k]!.length ? expected[k] : null)
    }
  })

  it('impact details: counts, null lists, not found, input errors', async () => {
    const call = async (args: unknown) =>
      (await rpc('tools/call', { name: 'graph__graph_impact', arguments: args })).msg.result
    const co = (await call({ kind: 'Deployment', name: 'checkout', namespace: 'shop', edge: 'prod-eu' }))
      .structuredContent
    expect(co.object).toEqual({
      edge: 'prod-eu',
      group: 'apps',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'checkout',
    })
    // the tool reads the first level only: selects (7) + namespace; the ReplicaSet (its Pods are nested) + the PDB selecting it
    expect([co.impactedBy.length, co.impacts.length, co.associated.length]).toEqual([8, 2, 1])
    expect(co.impacts[0]).toEqual({
      edge: 'prod-eu',
      group: 'apps',
      kind: 'ReplicaSet',
      namespace: 'shop',
      name: 'checkout-7d9f8c6b5',
      relation: 'descendants',
    })
    expect(co.associated[0]).toEqual({
      edge: 'prod-us',
      group: 'apps',
      kind: 'Deployment',
      namespace: 'shop',
      name: 'checkout',
      relation: 'grouped',
    })
    const cm = (
      await call({ kind: 'ConfigMap', name: 'checkout-config', namespace: 'shop', edge: 'prod-eu', group: '' })
    ).structuredContent
    // a ConfigMap labelled app: checkout is selected by what holds matchLabels app: checkout
    expect(cm).toMatchObject({
      found: true,
      impacts: [
        {
          edge: 'prod-eu',
          group: 'apps',
          kind: 'Deployment',
          namespace: 'shop',
          name: 'checkout',
          relation: 'selected-by',
        },
        {
          edge: 'prod-eu',
          group: 'policy',
          kind: 'PodDisruptionBudget',
          namespace: 'shop',
          name: 'checkout',
          relation: 'selected-by',
        },
      ],
      associated: null,
      impactedBy: [{ edge: 'prod-eu', kind: 'Namespace', name: 'shop', relation: 'namespace' }],
    })
    const missing = (await call({ kind: 'Deployment', name: 'checkout', namespace: 'shop', edge: 'staging' }))
      .structuredContent
    expect(missing).toMatchObject({ found: false, impactedBy: null, impacts: null, associated: null })
    expect(missing.summary).toMatch(/sync may still be catching up/)
    // Bad arguments: the aggregate wraps the provider's error with JSON-RPC code 0 (docs/hub-facts.md, "MCP").
    const extra = (
      await rpc('tools/call', {
        name: 'graph__graph_impact',
        arguments: { kind: 'Deployment', name: 'checkout', cluster: 'prod-eu' },
      })
    ).msg
    expect(extra.error).toEqual({
      code: 0,
      message: 'provider "graph" tool "graph_impact": invalid input: unknown field "cluster"',
    })
    expect(
      (await rpc('tools/call', { name: 'graph__graph_impact', arguments: { name: 'checkout' } })).msg.error.code,
    ).toBe(0)
    // The tool's own refusal stays a result with isError.
    const deep = await call({ kind: 'Deployment', name: 'checkout', maxDepth: 21 })
    expect(deep.isError).toBe(true)
    expect(deep.content[0].text).toMatch(/maxDepth/)
  })

  it('graph__graph_query returns the QueryStatus as structuredContent', async () => {
    const spec = {
      filter: { objects: [{ groupKind: { kind: 'deploy' } }] },
      order: [{ field: 'cluster' }],
      limit: 2,
      cursor: true,
      objects: { cluster: true },
    }
    const r = (await rpc('tools/call', { name: 'graph__graph_query', arguments: { spec } })).msg.result
    expect(r.structuredContent).toEqual(JSON.parse(JSON.stringify(q(spec))))
    expect(JSON.parse(r.content[0].text)).toEqual(r.structuredContent)
    const bad = (await rpc('tools/call', { name: 'graph__graph_query', arguments: { spec: { limit: 10001 } } })).msg
      .result
    expect(bad).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^query failed: validation: /) }],
    })
    const extra = (await rpc('tools/call', { name: 'graph__graph_query', arguments: { spec: {}, limit: 1 } })).msg.error
    expect(extra).toEqual({
      code: 0,
      message: 'provider "graph" tool "graph_query": invalid input: unknown field "limit"',
    })
  })
})

describe('MCP aggregate endpoint: URL forms, sessions and priming', () => {
  const sessionMcp = createMcpHandler(fleet, { workspace: WS, sessions: true, primingEvents: true })
  let sessionBase = ''
  let sessionServer: http.Server
  beforeAll(async () => {
    sessionServer = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => sessionMcp(req, res, Buffer.concat(chunks), TENANT))
    })
    await new Promise<void>((r) => sessionServer.listen(0, '127.0.0.1', r))
    sessionBase = `http://127.0.0.1:${(sessionServer.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => sessionServer.close(() => r())))

  const post = (message: unknown, headers: Record<string, string> = {}) =>
    fetch(sessionBase + MCP_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(message),
    })
  const impactCall = {
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'graph__graph_impact', arguments: { kind: 'Deployment', name: 'checkout', namespace: 'shop' } },
  }

  it('finds nothing through a URL with the cluster id instead of the workspace path, as the hub does', async () => {
    const byClusterId = MCP_URL.replace(PATH, 'c-7f3a9e')
    const res = await fetch(base + byClusterId, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(impactCall),
    })
    const msg = parseSse(await res.text())[0] as any
    expect(msg.result.structuredContent).toMatchObject({ found: false, impacts: null })
    expect((await rpc('tools/call', impactCall.params)).msg.result.structuredContent.found).toBe(true)
  })

  it('asks for a session, answers within it after a priming event, forgets it on DELETE', async () => {
    const refused = await post(impactCall)
    expect(refused.status).toBe(400)
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' },
    })
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    })
    const session = init.headers.get('mcp-session-id') ?? ''
    expect(session).not.toBe('')
    expect(await init.text()).toMatch(/^id: \d+\ndata: \n\nevent: message\ndata: \{.*"protocolVersion":"2025-11-25"/)
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' }
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(202)
    const call = await post(impactCall, headers)
    expect((parseSse(await call.text())[0] as any).result.structuredContent.found).toBe(true)
    const end = await fetch(sessionBase + MCP_URL, { method: 'DELETE', headers })
    expect(end.status).toBe(200)
    const gone = await post(impactCall, headers)
    expect(gone.status).toBe(404)
    expect(((await gone.json()) as any).error).toEqual({ code: -32001, message: 'Session not found' })
  })
})
