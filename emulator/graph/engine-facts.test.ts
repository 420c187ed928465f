/**
 * What the graph engine really answers (docs/hub-facts.md, "Projection", "Relations", "Paging"),
 * one fact per test, pinned on the emulator the action is tested against. Each title is the fact.
 */
import { describe, expect, it } from 'vitest'
import type { FleetObject, ObjectResult, QueryStatus } from './index.ts'
import { GROUP_LABEL, LINKED_ANNOTATION, createDemoFleet, createFleet, executeQuery } from './index.ts'
import { startHubEmulator } from '../hub.ts'

const TENANT = 'acme/ws'
const at = '2025-01-01T00:00:00Z'
let uid = 0

function obj(
  edge: string,
  kind: string,
  name: string,
  namespace: string | undefined,
  rest: Partial<FleetObject> & { labels?: Record<string, string>; owner?: FleetObject } = {},
): FleetObject {
  const apiVersion =
    rest.apiVersion ?? (['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].includes(kind) ? 'apps/v1' : 'v1')
  const o: FleetObject = { edge, apiVersion, kind, metadata: { name, uid: `uid-${++uid}`, creationTimestamp: at } }
  if (namespace !== undefined) o.metadata.namespace = namespace
  if (rest.labels) o.metadata.labels = rest.labels
  if (rest.owner)
    o.metadata.ownerReferences = [
      {
        apiVersion: rest.owner.apiVersion,
        kind: rest.owner.kind,
        name: rest.owner.metadata.name,
        uid: rest.owner.metadata.uid,
      },
    ]
  if (rest.metadata) Object.assign(o.metadata, rest.metadata)
  if (rest.spec !== undefined) o.spec = rest.spec
  if (rest.status !== undefined) o.status = rest.status
  return o
}

/** One edge `e1`, namespace `app`: Deployment web → ReplicaSet web-1 → Pods web-1-a, web-1-b mounting ConfigMap `web` and `app.config`. */
function small(extra: (web: { deploy: FleetObject; rs: FleetObject }) => FleetObject[] = () => []): FleetObject[] {
  const podSpec = {
    serviceAccountName: 'runner',
    containers: [{ name: 'c', image: 'i', envFrom: [{ configMapRef: { name: 'env' } }] }],
    volumes: [
      { name: 'a', configMap: { name: 'web' } },
      { name: 'b', configMap: { name: 'app.config' } },
    ],
  }
  const labels = { app: 'web' }
  const deploy = obj('e1', 'Deployment', 'web', 'app', {
    labels,
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: podSpec } },
  })
  const rs = obj('e1', 'ReplicaSet', 'web-1', 'app', {
    labels,
    owner: deploy,
    spec: { selector: { matchLabels: labels } },
  })
  return [
    obj('e1', 'Namespace', 'app', undefined),
    deploy,
    rs,
    obj('e1', 'Pod', 'web-1-a', 'app', {
      labels,
      owner: rs,
      spec: podSpec,
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    }),
    obj('e1', 'Pod', 'web-1-b', 'app', { labels, owner: rs, spec: podSpec }),
    obj('e1', 'ConfigMap', 'web', 'app'),
    obj('e1', 'ConfigMap', 'env', 'app'),
    obj('e1', 'ConfigMap', 'app.config', 'app'),
    obj('e1', 'ServiceAccount', 'runner', 'app'),
    obj('e1', 'Service', 'web', 'app', { labels, spec: { selector: labels } }),
    ...extra({ deploy, rs }),
  ]
}

const run = (objects: FleetObject[], spec: unknown): QueryStatus => executeQuery(createFleet(objects), spec, TENANT)
const only = (kind: string, name: string) => ({ filter: { objects: [{ groupKind: { kind }, name }] } })
const NAME = { object: { kind: true, metadata: { name: true } } }
const named = (rows: ObjectResult[] | undefined): string[] =>
  (rows ?? []).map(
    (r) => `${(r.object as { kind: string }).kind}/${(r.object as { metadata: { name: string } }).metadata.name}`,
  )
const rel = (spec: unknown, objects = small()) => run(objects, spec).objects?.[0]?.relations ?? {}

describe('projection', () => {
  it('has no array step: a sub-tree under a list answers an object of nulls, never the list', () => {
    const o = run(small(), {
      ...only('Pod', 'web-1-a'),
      objects: { object: { status: { conditions: { type: true } }, spec: { containers: { image: true } } } },
    }).objects?.[0]
    expect(o?.object).toEqual({ status: { conditions: { type: null } }, spec: { containers: { image: null } } })
  })

  it('answers null for a leaf the object lacks, never an absent key', () => {
    const o = run(small(), {
      ...only('Pod', 'web-1-b'),
      objects: { object: { metadata: { name: true, annotations: true }, status: { phase: true } } },
    }).objects?.[0]
    expect(o?.object).toEqual({ metadata: { name: 'web-1-b', annotations: null }, status: { phase: null } })
  })

  it('answers an object of nulls for a sub-tree none of whose leaves exist', () => {
    const o = run(small(), { ...only('ConfigMap', 'web'), objects: { object: { data: { a: true, b: { c: true } } } } })
      .objects?.[0]
    expect(o?.object).toEqual({ data: { a: null, b: { c: null } } })
  })

  it('gives rows without an objects projection neither id nor cluster', () => {
    const o = run(small(), only('ConfigMap', 'web')).objects?.[0]
    expect(o && Object.keys(o)).toEqual(['object'])
    const related = rel({ ...only('Pod', 'web-1-a'), objects: { relations: { owners: {} } } }).owners?.[0]
    expect(related && Object.keys(related)).toEqual(['object'])
  })
})

describe('relations', () => {
  it('reads references from Pod-level paths on every parent, so a Deployment references nothing', () => {
    expect(rel({ ...only('Deployment', 'web'), objects: { relations: { references: { objects: NAME } } } })).toEqual({})
    expect(
      named(rel({ ...only('Pod', 'web-1-a'), objects: { relations: { references: { objects: NAME } } } }).references),
    ).toContain('ConfigMap/env')
  })

  it('matches referenced names against any kind in the same namespace and edge', () => {
    // the Pod mounts ConfigMap `web`: the Service `web` and the Deployment `web` come along
    const refs = named(
      rel({ ...only('Pod', 'web-1-a'), objects: { relations: { references: { objects: NAME } } } }).references,
    )
    expect(refs.sort()).toEqual([
      'ConfigMap/env',
      'ConfigMap/web',
      'Deployment/web',
      'Service/web',
      'ServiceAccount/runner',
    ])
  })

  it('compares the kind of a reference only when the relation filters name one', () => {
    const refs = rel({
      ...only('Pod', 'web-1-a'),
      objects: { relations: { references: { filters: [{ groupKind: { kind: 'ConfigMap' } }], objects: NAME } } },
    }).references
    expect(named(refs).sort()).toEqual(['ConfigMap/env', 'ConfigMap/web'])
  })

  it('has no referenced-by relation: an unknown relation name answers nothing, not an error', () => {
    expect(rel({ ...only('ConfigMap', 'web'), objects: { relations: { 'referenced-by': {} } } })).toEqual({})
  })

  it('selects only through spec.selector.matchLabels, against any kind: a Service selects nothing', () => {
    expect(rel({ ...only('Service', 'web'), objects: { relations: { selects: {} } } })).toEqual({})
    const labelled = small(() => [obj('e1', 'ConfigMap', 'labelled', 'app', { labels: { app: 'web' } })])
    const selected = named(
      rel({ ...only('Deployment', 'web'), objects: { relations: { selects: { objects: NAME } } } }, labelled).selects,
    )
    expect(selected.sort()).toEqual([
      'ConfigMap/labelled',
      'Pod/web-1-a',
      'Pod/web-1-b',
      'ReplicaSet/web-1',
      'Service/web',
    ])
  })

  it('never matches a selector label key that contains a dot on the default store', () => {
    const labels = { 'app.kubernetes.io/name': 'api', 'x/team': 'a' }
    const objects = [
      obj('e1', 'Deployment', 'dotted', 'app', {
        spec: { selector: { matchLabels: { 'app.kubernetes.io/name': 'api' } } },
      }),
      obj('e1', 'Deployment', 'slashed', 'app', { spec: { selector: { matchLabels: { 'x/team': 'a' } } } }),
      obj('e1', 'Pod', 'api-1', 'app', { labels }),
    ]
    expect(rel({ ...only('Deployment', 'dotted'), objects: { relations: { selects: {} } } }, objects)).toEqual({})
    expect(
      named(
        rel({ ...only('Deployment', 'slashed'), objects: { relations: { selects: { objects: NAME } } } }, objects)
          .selects,
      ),
    ).toEqual(['Pod/api-1'])
  })

  it('selects the whole namespace (but not itself) with an empty matchLabels', () => {
    const objects = [
      obj('e1', 'Deployment', 'all', 'n', { spec: { selector: { matchLabels: {} } } }),
      obj('e1', 'ConfigMap', 'x', 'n'),
      obj('e1', 'Pod', 'p', 'n'),
      obj('e1', 'Pod', 'q', 'other'),
    ]
    expect(
      named(
        rel({ ...only('Deployment', 'all'), objects: { relations: { selects: { objects: NAME } } } }, objects).selects,
      ),
    ).toEqual(['ConfigMap/x', 'Pod/p'])
  })

  it('answers selected-by from the holders of matchLabels only (not a Service, not a NetworkPolicy)', () => {
    const objects = small(() => [
      obj('e1', 'NetworkPolicy', 'deny', 'app', { spec: { podSelector: { matchLabels: { app: 'web' } } } }),
    ])
    const by = named(
      rel({ ...only('Pod', 'web-1-a'), objects: { relations: { 'selected-by': { objects: NAME } } } }, objects)[
        'selected-by'
      ],
    )
    expect(by.sort()).toEqual(['Deployment/web', 'ReplicaSet/web-1'])
  })

  it('relates owners and descendants by ownerReferences uid on the same edge only', () => {
    const objects = small(({ deploy }) => [
      // same uid reference, another edge: no relation; a reference naming `web` with another uid: none either
      obj('e2', 'ReplicaSet', 'web-1', 'app', {
        metadata: {
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', uid: deploy.metadata.uid }],
        } as never,
      }),
      obj('e1', 'ReplicaSet', 'web-2', 'app', {
        metadata: {
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'other' }],
        } as never,
      }),
    ])
    const d = rel({ ...only('Deployment', 'web'), objects: { relations: { descendants: {} } } }, objects).descendants
    expect(d?.map((r) => (r.object as { metadata: { name: string } }).metadata.name)).toEqual(['web-1'])
    expect(d?.[0]).not.toHaveProperty('cluster')
  })

  it('relates a Namespace and its members on one edge (namespace, namespaced)', () => {
    const objects = [...small(), obj('e2', 'ConfigMap', 'elsewhere', 'app'), obj('e2', 'Namespace', 'app', undefined)]
    const members = rel(
      {
        cluster: { name: 'e1' },
        ...only('Namespace', 'app'),
        objects: { relations: { namespaced: { objects: NAME } } },
      },
      objects,
    ).namespaced
    // every member of `app` on e1, except the dotted ConfigMap (dropped, see below)
    expect(named(members)).not.toContain('ConfigMap/elsewhere')
    expect(named(members)).toHaveLength(8)
    const ns = rel(
      {
        ...only('ConfigMap', 'elsewhere'),
        objects: { relations: { namespace: { objects: { cluster: true, object: false } } } },
      },
      objects,
    ).namespace
    expect(ns).toEqual([{ cluster: 'acme/ws/e2' }])
  })

  it('links one way, from a JSON array in the link annotation, on the same edge', () => {
    const link = JSON.stringify([{ kind: 'Service', namespace: 'app', name: 'web' }])
    const objects = [
      ...small(),
      obj('e1', 'Deployment', 'linker', 'app', { metadata: { annotations: { [LINKED_ANNOTATION]: link } } as never }),
      obj('e2', 'Service', 'web', 'app'),
    ]
    const linked = rel(
      { ...only('Deployment', 'linker'), objects: { relations: { linked: { objects: { cluster: true, ...NAME } } } } },
      objects,
    ).linked
    expect(linked).toEqual([{ cluster: 'acme/ws/e1', object: { kind: 'Service', metadata: { name: 'web' } } }])
    expect(
      rel({ cluster: { name: 'e1' }, ...only('Service', 'web'), objects: { relations: { linked: {} } } }, objects),
    ).toEqual({})
  })

  it('groups objects sharing the group label, on any edge', () => {
    const objects = [
      obj('e1', 'ConfigMap', 'a', 'app', { labels: { [GROUP_LABEL]: 'g' } }),
      obj('e2', 'Secret', 'b', 'other', { labels: { [GROUP_LABEL]: 'g' } }),
    ]
    expect(
      rel(
        {
          ...only('ConfigMap', 'a'),
          objects: { relations: { grouped: { objects: { cluster: true, object: false } } } },
        },
        objects,
      ).grouped,
    ).toEqual([{ cluster: 'acme/ws/e2' }])
  })

  it('ANDs several filters of one relation: the references to two ConfigMaps at once are none', () => {
    const both = rel({
      ...only('Pod', 'web-1-a'),
      objects: { relations: { references: { filters: [{ name: 'web' }, { name: 'env' }] } } },
    })
    expect(both).toEqual({})
  })

  it('nests a transitive relation: each deeper node hangs under its parent relations["descendants+"]', () => {
    const tree = rel({ ...only('Deployment', 'web'), objects: { relations: { 'descendants+': { objects: NAME } } } })[
      'descendants+'
    ]
    expect(named(tree)).toEqual(['ReplicaSet/web-1'])
    expect(named(tree?.[0]?.relations?.['descendants+'])).toEqual(['Pod/web-1-a', 'Pod/web-1-b'])
  })

  it('gives nested nodes the projected object but no id and no cluster', () => {
    const tree = rel({
      ...only('Deployment', 'web'),
      objects: { relations: { 'descendants+': { objects: { id: true, cluster: true, ...NAME } } } },
    })['descendants+']
    expect(tree?.[0]).toMatchObject({ id: expect.any(String), cluster: 'acme/ws/e1' })
    expect(tree?.[0]?.relations?.['descendants+']?.[0]).toEqual({
      object: { kind: 'Pod', metadata: { name: 'web-1-a' } },
    })
  })

  it('bounds a transitive relation by maxDepth hops', () => {
    const tree = rel({
      ...only('Deployment', 'web'),
      maxDepth: 1,
      objects: { relations: { 'descendants+': { objects: NAME } } },
    })['descendants+']
    expect(named(tree)).toEqual(['ReplicaSet/web-1'])
    expect(tree?.[0]?.relations).toBeUndefined()
    const two = rel({
      ...only('Deployment', 'web'),
      maxDepth: 2,
      objects: { relations: { 'descendants+': { objects: NAME } } },
    })['descendants+']
    expect([named(two), named(two?.[0]?.relations?.['descendants+'])]).toEqual([
      ['ReplicaSet/web-1'],
      ['Pod/web-1-a', 'Pod/web-1-b'],
    ])
  })

  it('drops a related object whose name contains a dot', () => {
    const refs = named(
      rel({
        ...only('Pod', 'web-1-a'),
        objects: { relations: { references: { filters: [{ groupKind: { kind: 'ConfigMap' } }], objects: NAME } } },
      }).references,
    )
    expect(refs).not.toContain('ConfigMap/app.config')
  })

  it('drops a related object whose namespace contains a dot', () => {
    const objects = [obj('e1', 'Namespace', 'team.a', undefined), obj('e1', 'ConfigMap', 'plain', 'team.a')]
    expect(rel({ ...only('Namespace', 'team.a'), objects: { relations: { namespaced: {} } } }, objects)).toEqual({})
  })

  it('keeps a root object with a dot in its name', () => {
    const o = run(small(), {
      ...only('ConfigMap', 'app.config'),
      objects: { object: { metadata: { name: true } }, relations: { namespace: { objects: NAME } } },
    }).objects
    expect(o).toEqual([
      {
        object: { metadata: { name: 'app.config' } },
        relations: { namespace: [{ object: { kind: 'Namespace', metadata: { name: 'app' } } }] },
      },
    ])
  })

  it('caps the whole relation block with its limit, not each parent', () => {
    const st = run(small(), {
      filter: { objects: [{ groupKind: { kind: 'Pod' } }] },
      objects: { relations: { owners: { limit: 1, objects: NAME } } },
    })
    expect(st.objects?.map((o) => named(o.relations?.owners))).toEqual([['ReplicaSet/web-1'], []])
  })

  it('hangs children at one internal path under one node, whichever relation reached it last', () => {
    // the ReplicaSet is both an owner and a selector of the Pod: same path, one node gets the Deployment
    const r = rel({
      ...only('Pod', 'web-1-a'),
      objects: { relations: { 'owners+': { objects: NAME }, 'selected-by': { objects: NAME } } },
    })
    expect(r['owners+']?.[0]?.relations).toBeUndefined()
    expect(named(r['selected-by']?.find((n) => n.relations)?.relations?.['owners+'])).toEqual(['Deployment/web'])
  })
})

describe('paging and edges', () => {
  it('pages a query with relations by the root last in path order, so the next page repeats roots', () => {
    // Ordered by name: a-pod, b-deploy, c-cm. The answer comes in path order (.configmap… <
    // .deployment… < .pod…) and the cursor is built from the last root by path: a-pod.
    const objects = [
      obj('e1', 'Pod', 'a-pod', 'n'),
      obj('e1', 'Deployment', 'b-deploy', 'n'),
      obj('e1', 'ConfigMap', 'c-cm', 'n'),
      obj('e1', 'Namespace', 'n', undefined),
    ]
    const spec = {
      filter: { objects: [{ namespace: 'n' }] },
      order: [{ field: 'name' }],
      limit: 2,
      cursor: true,
      objects: { ...NAME, relations: { namespace: {} } },
    }
    const first = run(objects, spec)
    expect(named(first.objects)).toEqual(['Deployment/b-deploy', 'Pod/a-pod'])
    const second = run(objects, { ...spec, page: { cursor: first.cursor?.next } })
    expect(named(second.objects)).toEqual(['ConfigMap/c-cm', 'Deployment/b-deploy'])
    // without relations the answer keeps the requested order and the cursor follows it
    const flat = run(objects, { ...spec, objects: NAME })
    expect(named(flat.objects)).toEqual(['Pod/a-pod', 'Deployment/b-deploy'])
    expect(named(run(objects, { ...spec, objects: NAME, page: { cursor: flat.cursor?.next } }).objects)).toEqual([
      'ConfigMap/c-cm',
    ])
  })

  it('collapses same-named roots on several edges into one node when relations are asked', () => {
    const objects = [
      obj('e1', 'Namespace', 'n', undefined),
      obj('e2', 'Namespace', 'n', undefined),
      obj('e1', 'ConfigMap', 'x', 'n'),
      obj('e2', 'ConfigMap', 'y', 'n'),
    ]
    const st = run(objects, {
      ...only('Namespace', 'n'),
      objects: { cluster: true, relations: { namespaced: { objects: NAME } } },
    })
    const withRelations = st.objects?.filter((o) => o.relations)
    expect(st.objects).toHaveLength(2)
    expect(withRelations).toHaveLength(1)
    expect(named(withRelations?.[0]?.relations?.namespaced).sort()).toEqual(['ConfigMap/x', 'ConfigMap/y'])
  })

  it('cuts a result at 10,000 rows in path order: the crossing root keeps part of its relations', () => {
    const objects = [obj('e1', 'Namespace', 'a', undefined), obj('e1', 'Namespace', 'b', undefined)]
    for (let i = 0; i < 6000; i++)
      objects.push(obj('e1', 'ConfigMap', `cm-${i}`, 'a'), obj('e1', 'ConfigMap', `cm-${i}`, 'b'))
    const st = run(objects, {
      filter: { objects: [{ groupKind: { kind: 'Namespace' } }] },
      objects: { relations: { namespaced: { objects: { id: true } } } },
    })
    expect(st.objects?.map((o) => o.relations?.namespaced?.length)).toEqual([6000, 10_000 - 2 - 6000])
    expect(st).toMatchObject({ incomplete: true, warnings: ['response truncated at 10000 total rows'] })
  })
})

describe('the demo fleet', () => {
  const fleet = createDemoFleet()
  const of = (kind: string) => fleet.objects.filter((o) => o.kind === kind)
  const owned = (owner: FleetObject) =>
    fleet.objects.filter((o) => o.metadata.ownerReferences?.some((r) => r.uid === owner.metadata.uid))

  it('has workloads that own their Pods (Deployment → ReplicaSet, StatefulSet, DaemonSet, CronJob → Job) with the template on each Pod', () => {
    for (const kind of ['Deployment', 'StatefulSet', 'DaemonSet', 'CronJob']) {
      expect(of(kind).length, kind).toBeGreaterThan(0)
      for (const w of of(kind)) {
        const template = kind === 'CronJob' ? w.spec.jobTemplate.spec.template : w.spec.template
        const pods = (kind === 'Deployment' || kind === 'CronJob' ? owned(w).flatMap(owned) : owned(w)).filter(
          (o) => o.kind === 'Pod',
        )
        if (w.spec.replicas === 0) continue
        expect(pods.length, `${kind} ${w.metadata.name}`).toBeGreaterThan(0)
        for (const p of pods) {
          expect(p.metadata.labels).toMatchObject(template.metadata.labels)
          for (const key of ['serviceAccountName', 'containers'])
            expect(p.spec[key], `${p.metadata.name} ${key}`).toEqual(template.spec[key])
          // a StatefulSet's Pods add the volumes of their claims to the template's
          expect(p.spec.volumes ?? [], `${p.metadata.name} volumes`).toEqual(
            expect.arrayContaining(template.spec.volumes ?? []),
          )
        }
      }
    }
  })

  it('has statuses a rollout gate accepts: observed generation, replicas ready, Pods ready', () => {
    const healthy = fleet.objects.filter(
      (o) => ['Deployment', 'StatefulSet', 'DaemonSet'].includes(o.kind) && o.metadata.name !== 'checkout-canary',
    )
    for (const w of healthy) expect(w.status.observedGeneration, w.metadata.name).toBe(w.metadata.generation)
    for (const p of of('Pod').filter((o) => !o.metadata.name.startsWith('checkout-canary'))) {
      expect(['Running', 'Succeeded']).toContain(p.status.phase)
      if (p.status.phase === 'Running')
        expect(
          p.status.containerStatuses.every((c: { ready: boolean }) => c.ready),
          p.metadata.name,
        ).toBe(true)
    }
  })

  it('holds the impact scenarios: ConfigMaps mounted by two Deployments, a Service selecting Pods, app.config, an HPA, recommended labels', () => {
    const mounts = (cm: string) =>
      of('Pod').filter((p) => p.spec.volumes?.some((v: { configMap?: { name: string } }) => v.configMap?.name === cm))
    expect(mounts('checkout-config').length).toBeGreaterThan(0)
    expect(mounts('frontend-config').length).toBeGreaterThan(0)
    expect(mounts('app.config').length).toBeGreaterThan(0)
    expect(of('HorizontalPodAutoscaler').some((h) => h.spec.scaleTargetRef.kind === 'Deployment')).toBe(true)
    expect(of('Service').some((s) => s.spec.selector?.app === 'checkout')).toBe(true)
    expect(of('Pod').some((p) => p.metadata.labels?.['app.kubernetes.io/name'])).toBe(true)
  })
})

describe('the hub around the graph', () => {
  const A = '/services/providers/agents'

  it('answers a service-account token on the graph routes with a plain-text 401', async () => {
    const emu = await startHubEmulator()
    try {
      const sa = emu.headers({ Authorization: `Bearer ${emu.serviceAccountToken}`, 'Content-Type': 'application/json' })
      const res = await fetch(`${emu.url}/services/providers/graph/api/query`, {
        method: 'POST',
        headers: sa,
        body: '{}',
      })
      expect([res.status, res.headers.get('content-type'), (await res.text()).trim()]).toEqual([
        401,
        'text/plain; charset=utf-8',
        'missing tenant identity',
      ])
      const edges = await fetch(`${emu.url}/services/providers/graph/api/edges`, { headers: sa })
      expect(edges.status).toBe(401)
    } finally {
      await emu.close()
    }
  })

  it('answers the s2s route with a 409 JSON Status until a user route was used in the workspace', async () => {
    const emu = await startHubEmulator({ unmappedCluster: true })
    try {
      const sa = emu.headers({ Authorization: `Bearer ${emu.serviceAccountToken}`, 'Content-Type': 'application/json' })
      const start = () =>
        fetch(`${emu.url}${A}/s2s/clusters/${emu.clusterId}/agents/quick/runs`, {
          method: 'POST',
          headers: sa,
          body: '{"task":"x"}',
        })
      const refused = await start()
      expect(refused.status).toBe(409)
      expect(await refused.json()).toMatchObject({
        kind: 'Status',
        reason: 'Conflict',
        code: 409,
        message: expect.stringMatching(/is not mapped yet/),
      })
      // whoami does not write the mapping (docs/hub-facts.md, "Service-account route"); reading a run does.
      expect((await fetch(`${emu.url}${A}/api/whoami`, { headers: emu.headers() })).status).toBe(200)
      expect((await start()).status).toBe(409)
      expect((await fetch(`${emu.url}${A}/api/runs/nope`, { headers: emu.headers() })).status).toBe(404)
      expect((await start()).status).toBeLessThan(300)
    } finally {
      await emu.close()
    }
  })

  it('may answer a cancel with cancelling: false, and the run goes on', async () => {
    const emu = await startHubEmulator({
      agents: {
        remote: {
          elsewhere: true,
          steps: [
            { phase: 'Running', afterMs: 0 },
            { phase: 'Succeeded', afterMs: 200 },
          ],
          output: 'done',
        },
      },
    })
    try {
      const h = { ...emu.headers(), 'Content-Type': 'application/json' }
      const started = (await (
        await fetch(`${emu.url}${A}/api/agents/remote/runs`, { method: 'POST', headers: h, body: '{"task":"x"}' })
      ).json()) as {
        runId: string
      }
      const cancel = await fetch(`${emu.url}${A}/api/runs/${started.runId}/cancel`, { method: 'POST', headers: h })
      expect([cancel.status, await cancel.json()]).toEqual([202, { id: started.runId, cancelling: false }])
      const done = (await (
        await fetch(`${emu.url}${A}/api/runs/${started.runId}/wait?timeoutSeconds=5`, { headers: h })
      ).json()) as { phase: string }
      expect(done.phase).toBe('Succeeded')
    } finally {
      await emu.close()
    }
  })
})
