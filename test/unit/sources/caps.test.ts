/**
 * Issue 18, item 4: what bounds an impact step's fan-out. The new inputs are read and checked
 * before any request; a file's documents are counted as it is parsed, so a hostile file stops
 * early; distinct targets are counted as files are read; targets outside the scope are set
 * apart; one limiter holds the hub requests in flight.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { InputError, readSettings } from '../../../src/settings/settings.js'
import { COMMANDS } from '../../../src/commands/index.js'
import { CapError } from '../../../src/sources/caps.js'
import { requestLimiter } from '../../../src/commands/impact/query-impact.js'
import { objectsFromManifest } from '../../../src/sources/manifests.js'
import { partitionByScope } from '../../../src/sources/scope.js'
import { collectTargets } from '../../../src/sources/targets.js'
import type { Target } from '../../../src/model/target.js'

const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: shop}\n`

function impactSettings(inputs: Record<string, string>) {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  const env: NodeJS.ProcessEnv = {
    'INPUT_HUB-URL': 'https://hub.example.com',
    INPUT_TOKEN: 'tok',
    INPUT_ORG: '11111111-2222-3333-4444-555555555555',
    INPUT_WORKSPACE: '66666666-7777-8888-9999-000000000000',
    INPUT_COMMAND: 'impact',
    INPUT_MANIFESTS: 'deploy/*.yaml',
    ...Object.fromEntries(Object.entries(inputs).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value])),
  }
  try {
    const settings = readSettings(env, COMMANDS)
    if (settings.command !== 'impact') throw new Error('expected impact')
    return settings.impact
  } finally {
    vi.restoreAllMocks()
  }
}

describe('the inputs', () => {
  it('default to 200 targets and 1,000 documents, and no scope', () => {
    const impact = impactSettings({})
    expect([impact.maxTargets, impact.maxDocuments, impact.scope]).toEqual([200, 1000, { namespaces: [], kinds: [] }])
  })

  it('read namespaces and kinds one a line or comma-separated', () => {
    const impact = impactSettings({
      'allowed-namespaces': 'shop, payments\n# comment\n',
      'allowed-kinds': 'Deployment.apps, ConfigMap\nIngress.networking.k8s.io',
    })
    expect(impact.scope).toEqual({
      namespaces: ['shop', 'payments'],
      kinds: [
        { kind: 'Deployment', group: 'apps' },
        { kind: 'ConfigMap', group: undefined },
        { kind: 'Ingress', group: 'networking.k8s.io' },
      ],
    })
  })

  it.each([
    ['max-targets', '0', 'Input `max-targets`: "0" is out of range: use 1 to 10000.'],
    ['max-documents', 'lots', 'Input `max-documents`: "lots" is not a whole number: the most YAML documents'],
    [
      'allowed-namespaces',
      'shop, Kube_System',
      'Input `allowed-namespaces`: "Kube_System" is not a namespace name (a DNS-1123 label)',
    ],
    [
      'allowed-kinds',
      'apps/v1 Deployment',
      'Input `allowed-kinds`: "apps/v1 Deployment" is not a kind: list kinds such as Deployment',
    ],
  ])('refuse a bad %s before any request', (name, value, message) => {
    expect(() => impactSettings({ [name]: value })).toThrow(InputError)
    expect(() => impactSettings({ [name]: value })).toThrow(message)
  })
})

describe('documents per file', () => {
  const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n'

  it('allows exactly max-documents, and fails past it naming the file, the cap and the input', async () => {
    await expect(objectsFromManifest('deploy/a.yaml', object.repeat(3), { maxDocuments: 3 })).resolves.toMatchObject({
      objects: { length: 3 },
    })
    const failure = objectsFromManifest('deploy/a.yaml', object.repeat(4), { maxDocuments: 3 })
    await expect(failure).rejects.toBeInstanceOf(CapError)
    await expect(failure).rejects.toThrow(
      'Too many documents in one file: deploy/a.yaml holds more than 3 YAML documents',
    )
    await expect(failure).rejects.toThrow('over `max-documents` (3)')
  })

  it("counts a List's items as documents", async () => {
    const list = (items: number) =>
      `apiVersion: v1\nkind: List\nitems:\n${'- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n'.repeat(items)}`
    await expect(objectsFromManifest('l.yaml', list(3), { maxDocuments: 3 })).resolves.toMatchObject({
      objects: { length: 3 },
    })
    await expect(objectsFromManifest('l.yaml', list(4), { maxDocuments: 3 })).rejects.toBeInstanceOf(CapError)
  })

  it('stops parsing at the cap: what follows is never read', async () => {
    // past the cap comes a document the parser would skip the file for (a nesting bomb)
    const text = `${object.repeat(2)}${'['.repeat(10_000)}\n`
    await expect(objectsFromManifest('stop.yaml', text, { maxDocuments: 3 })).resolves.toMatchObject({
      skipped: { path: 'stop.yaml' },
    })
    await expect(objectsFromManifest('stop.yaml', text, { maxDocuments: 1 })).rejects.toBeInstanceOf(CapError)
  })
})

describe('targets per step', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fan-out-'))
    writeFileSync(join(dir, 'a.yaml'), [configMap('a'), configMap('b')].join('---\n'))
    writeFileSync(join(dir, 'b.yaml'), [configMap('a'), configMap('c')].join('---\n'))
    writeFileSync(join(dir, 'c.yaml'), configMap('d'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const collect = (maxTargets: number) => {
    const read = vi.fn()
    return collectTargets({
      given: [],
      globs: ['*.yaml'],
      defaultNamespace: undefined,
      workspace: dir,
      pullRequest: undefined,
      maxTargets,
      log: read,
    })
  }

  it('counts distinct objects, so a repeated one is no new target', async () => {
    await expect(collect(4)).resolves.toMatchObject({ targets: { length: 4 } })
  })

  it('fails at the first file past the cap, with "more than" while files remain', async () => {
    await expect(collect(2)).rejects.toThrow(
      'Too many targets: `manifests` declare more than 2 distinct objects, over `max-targets` (2)',
    )
  })

  it('gives the exact count when the last file passes the cap', async () => {
    await expect(collect(3)).rejects.toThrow(
      'Too many targets: `manifests` declare 4 distinct objects, over `max-targets` (3)',
    )
  })
})

describe('scope', () => {
  const target = (kind: string, group: string, namespace?: string): Target => ({
    kind,
    group,
    name: 'x',
    namespace,
    origin: { kind: 'input' },
  })

  it('sets apart what is outside the namespaces and kinds allowed, with the reason; an empty list allows any', () => {
    const targets = [
      target('Deployment', 'apps', 'shop'),
      target('Deployment', 'apps', 'kube-system'),
      target('ConfigMap', '', 'shop'),
      target('ClusterRole', 'rbac.authorization.k8s.io'),
    ]
    expect(partitionByScope(targets, { namespaces: [], kinds: [] }).skipped).toEqual([])
    const { inScope, skipped } = partitionByScope(targets, {
      namespaces: ['shop'],
      kinds: [
        { kind: 'Deployment', group: 'apps' },
        { kind: 'ClusterRole', group: undefined },
      ],
    })
    expect(inScope).toEqual([targets[0]])
    expect(skipped.map((s) => `${s.target.kind} ${s.target.namespace ?? '-'}: ${s.reason}`)).toEqual([
      'Deployment kube-system: its namespace is not in `allowed-namespaces`: not queried',
      'ConfigMap shop: its kind is not in `allowed-kinds`: not queried',
      'ClusterRole -: it names no namespace (cluster-scoped, or none given) and `allowed-namespaces` is set: not queried',
    ])
  })

  it('matches a kind without a group in any group, and `Kind.group` in that group only', () => {
    const targets = [target('Ingress', 'networking.k8s.io', 'shop'), target('Ingress', 'extensions', 'shop')]
    expect(
      partitionByScope(targets, { namespaces: [], kinds: [{ kind: 'Ingress', group: undefined }] }).inScope,
    ).toHaveLength(2)
    expect(
      partitionByScope(targets, { namespaces: [], kinds: [{ kind: 'Ingress', group: 'networking.k8s.io' }] }).inScope,
    ).toEqual([targets[0]])
  })
})

describe('the request limiter', () => {
  it('holds at most its size in flight, starts the others in order, and frees a place when a request fails', async () => {
    const limit = requestLimiter(2)
    let inFlight = 0
    let most = 0
    const started: number[] = []
    const releases: Array<() => void> = []
    const request = (index: number) =>
      limit(async () => {
        started.push(index)
        most = Math.max(most, ++inFlight)
        await new Promise<void>((resolve) => releases.push(resolve))
        inFlight--
        if (index === 0) throw new Error('refused')
        return index
      })
    const all = Array.from({ length: 6 }, (_, index) => request(index))
    const settled = Promise.allSettled(all)
    // release whichever request is waiting, one at a time, until all are done
    for (let released = 0; released < 6; released++) {
      await vi.waitFor(() => expect(releases.length).toBeGreaterThan(released))
      releases[released]?.()
    }
    const results = await settled
    expect(most).toBe(2)
    expect(started).toEqual([0, 1, 2, 3, 4, 5])
    expect(results.map((r) => r.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ])
  })
})

describe('every fan-out of computeImpact shares the limiter', () => {
  it('keeps at most 4 hub requests in flight across targets, edges and referenced-by lookups', async () => {
    let inFlight = 0
    let most = 0
    const held = async <T>(answer: T): Promise<T> => {
      most = Math.max(most, ++inFlight)
      await new Promise((resolve) => setTimeout(resolve, 1))
      inFlight--
      return answer
    }
    const edges = ['prod-eu', 'prod-us', 'staging']
    const graph = {
      // every target exists on three edges: a lookup, then one impact query per edge
      query: (spec: { cluster?: { name: string } }) =>
        held(
          spec.cluster
            ? {
                objects: [
                  {
                    cluster: `ws/${spec.cluster.name}`,
                    object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'x', namespace: 'shop' } },
                  },
                ],
              }
            : {
                objects: edges.map((edge) => ({ cluster: `ws/${edge}`, object: { metadata: { namespace: 'shop' } } })),
              },
        ),
      forEachPage: () => held({ stoppedBy: 'last-page' }),
      edges: () => held(edges),
    }
    const targets: Target[] = Array.from({ length: 30 }, (_, index) => ({
      kind: 'ConfigMap',
      group: '',
      name: `c${index}`,
      namespace: 'shop',
      origin: { kind: 'input' },
    }))
    const { computeImpact } = await import('../../../src/commands/impact/compute-impact.js')
    const settings = { ...impactSettings({}), scope: { namespaces: [], kinds: [] } }
    const report = await computeImpact(
      settings,
      { targets, skippedFiles: [] },
      { graph: graph as never, log: () => {} },
    )
    expect(report.impacts).toHaveLength(90)
    expect(most).toBe(4)
  })
})
