/**
 * End to end, `command: query`: dist/index.js as a child process against the hub emulator's
 * graph provider over a large generated fleet (loopback HTTP). Every page followed and streamed
 * to the result file, `max-objects`, an empty result explained, and malformed queries refused
 * before any request.
 */
import { describe, expect, it } from 'vitest'
import {
  expectSecretsNowhere,
  hubInputs,
  lines,
  readResultFile,
  runStep,
  useHubEmulator,
  type ActionRun,
} from './harness.ts'
import { type RecordedRequest, createLargeFleet, type FleetObject } from '../../emulator/index.ts'

const QUERY = '/services/providers/graph/api/query'
const EDGES = '/services/providers/graph/api/edges'
const PAGE = 200

/** Pods and ConfigMaps on every edge, 200 a page, only kind and name projected: as YAML. */
const PODS_AND_CONFIGMAPS = [
  'filter:',
  '  objects:',
  '    - groupKind: {kind: Pod}',
  '    - groupKind: {kind: ConfigMap}',
  `limit: ${PAGE}`,
  'objects:',
  '  cluster: true',
  '  object: {kind: true, metadata: {name: true, namespace: true}}',
].join('\n')

interface QueryResultFile {
  schema: string
  version: number
  query: Record<string, unknown>
  objects: Array<{
    id?: string
    cluster?: string
    object?: { kind?: string; metadata?: { name?: string; namespace?: string } }
  }>
  count: number
  pages: number
  complete: boolean
  stoppedBy: string
}

const hub = useHubEmulator({ fleet: createLargeFleet({ objects: 9_000 }) })

async function query(extra: Record<string, string>): Promise<ActionRun> {
  return runStep({ inputs: { command: 'query', ...hubInputs(hub), ...extra } })
}

const queries = (): RecordedRequest[] => hub.requests.filter((r) => r.method === 'POST' && r.path === QUERY)
const edgeLookups = (): RecordedRequest[] => hub.requests.filter((r) => r.method === 'GET' && r.path === EDGES)
const keyOf = (
  edge: string | undefined,
  kind: string | undefined,
  namespace: string | undefined,
  name: string | undefined,
): string => `${edge}/${kind}/${namespace}/${name}`
const fleetKey = (o: FleetObject): string => keyOf(o.edge, o.kind, o.metadata.namespace, o.metadata.name)

describe('a query over thousands of objects', () => {
  it('follows every page and writes each matching object once to the result file', async () => {
    const matching = hub.fleet!.objects.filter((o) => o.kind === 'Pod' || o.kind === 'ConfigMap')
    expect(matching.length).toBeGreaterThan(5_000)
    const expectedPages = Math.floor(matching.length / PAGE) + 1

    const result = await query({ query: PODS_AND_CONFIGMAPS })
    expect(result.code).toBe(0)
    expect(lines(result.stdout, '::error::')).toEqual([])
    expect(lines(result.stdout, '::warning::')).toEqual([])
    expect(result.outputs.count).toBe(String(matching.length))

    const sent = queries()
    expect(sent).toHaveLength(expectedPages)
    expect(expectedPages).toBeGreaterThanOrEqual(25)
    expect(edgeLookups()).toEqual([])
    const specs = sent.map(
      (r) =>
        JSON.parse(r.body) as {
          limit: number
          cursor: boolean
          order: Array<{ field: string }>
          page?: { cursor?: string }
          objects: { id?: boolean }
        },
    )
    for (const spec of specs) {
      expect(spec.limit).toBe(PAGE)
      expect(spec.cursor).toBe(true)
      // ordered by edge first, since the same names exist on every edge
      expect(spec.order[0]).toEqual({ field: 'cluster', direction: 'Asc' })
      expect(spec.objects.id).toBe(true)
    }
    expect(specs[0]?.page).toBeUndefined()
    const cursors = specs.slice(1).map((spec) => spec.page?.cursor)
    expect(cursors.every((cursor) => typeof cursor === 'string' && cursor.length > 0)).toBe(true)
    expect(new Set(cursors).size).toBe(cursors.length)

    const file = readResultFile<QueryResultFile>(result)
    expect(file).toMatchObject({
      schema: 'hub-action/query-result',
      version: 1,
      count: matching.length,
      pages: expectedPages,
      complete: true,
      stoppedBy: 'last-page',
    })
    expect(file.query).toMatchObject({
      limit: PAGE,
      filter: { objects: [{ groupKind: { kind: 'Pod' } }, { groupKind: { kind: 'ConfigMap' } }] },
    })
    expect(file.objects).toHaveLength(matching.length)
    const ids = file.objects.map((o) => o.id)
    expect(ids.every((id) => typeof id === 'string' && id !== '')).toBe(true)
    expect(new Set(ids).size).toBe(matching.length)
    const got = new Set(
      file.objects.map((o) =>
        keyOf(
          o.cluster?.slice(o.cluster.lastIndexOf('/') + 1),
          o.object?.kind,
          o.object?.metadata?.namespace,
          o.object?.metadata?.name,
        ),
      ),
    )
    expect(got).toEqual(new Set(matching.map(fleetKey)))

    const count = matching.length.toLocaleString('en-US')
    expect(result.summary).toContain(`## Fleet query: ${count} objects`)
    expect(result.summary).toContain(
      `Collected from ${expectedPages} pages; written to \`${result.outputs['result-file']}\` (output \`result-file\`).`,
    )
    expect(result.summary).toContain(`First 20 of ${count}:`)
    expect(result.stdout).toContain(
      `Query: ${matching.length} objects from ${expectedPages} pages → ${result.outputs['result-file']}`,
    )

    expectSecretsNowhere(result, [hub.token])
  })

  it('with the user ordering by name only (the same names exist on every edge): still every object once', async () => {
    // app-NNNNN-config exists on each edge; a keyset on name alone would skip the other edges' copies
    const matching = hub.fleet!.objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('app-'))
    expect(new Set(matching.map((o) => o.edge)).size).toBe(3)
    const spec = {
      filter: {
        objects: [
          { groupKind: { apiGroup: '', kind: 'ConfigMap' }, labelExpressions: [{ key: 'app', operator: 'Exists' }] },
        ],
      },
      order: [{ field: 'name', direction: 'Desc' }],
      limit: 97,
      objects: { cluster: true, object: { kind: true, metadata: { name: true, namespace: true } } },
    }
    const withLabel = hub.fleet!.objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.labels?.app !== undefined)
    const result = await query({ query: JSON.stringify(spec) })
    expect(result.code).toBe(0)
    expect(result.outputs.count).toBe(String(withLabel.length))
    expect(queries()).toHaveLength(Math.floor(withLabel.length / 97) + 1)
    const sentOrders = queries().map((r) => (JSON.parse(r.body) as { order: unknown }).order)
    expect(new Set(sentOrders.map((order) => JSON.stringify(order)))).toEqual(
      new Set([
        // The edge key takes the user's direction: the hub's keyset has one operator for the whole tuple;
        // kind and group close it, so objects of several kinds sharing a name cannot tie at a page boundary.
        JSON.stringify([
          { field: 'cluster', direction: 'Desc' },
          { field: 'name', direction: 'Desc' },
          { field: 'kind', direction: 'Desc' },
          { field: 'apiGroup', direction: 'Desc' },
        ]),
      ]),
    )
    const file = readResultFile<QueryResultFile>(result)
    const got = file.objects.map((o) =>
      keyOf(
        o.cluster?.slice(o.cluster.lastIndexOf('/') + 1),
        o.object?.kind,
        o.object?.metadata?.namespace,
        o.object?.metadata?.name,
      ),
    )
    expect(got).toHaveLength(withLabel.length)
    expect(new Set(got)).toEqual(new Set(withLabel.map(fleetKey)))
    for (const object of matching) expect(got).toContain(fleetKey(object))
  })

  it('stops at max-objects with a warning, having asked only for what it may keep', async () => {
    const result = await query({ query: PODS_AND_CONFIGMAPS, 'max-objects': '1000' })
    expect(result.code).toBe(0)
    expect(result.outputs.count).toBe('1000')
    expect(queries()).toHaveLength(5)
    expect(lines(result.stdout, '::warning::')).toEqual([
      '::warning::Stopped at max-objects (1000): more objects match the query.',
    ])
    const file = readResultFile<QueryResultFile>(result)
    expect(file).toMatchObject({ count: 1000, pages: 5, complete: false, stoppedBy: 'max-objects' })
    expect(new Set(file.objects.map((o) => o.id)).size).toBe(1000)
    expect(result.summary).toContain('Stopped at max-objects (1,000): more objects match.')
  })
})

describe('an empty result', () => {
  it('comes with its caveat and the engaged edges', async () => {
    const result = await query({
      query:
        '{"filter":{"objects":[{"groupKind":{"apiGroup":"apps","kind":"Deployment"},"name":"no-such-app"}]},"limit":50}',
    })
    expect(result.code).toBe(0)
    expect(result.outputs.count).toBe('0')
    expect(queries()).toHaveLength(1)
    expect(edgeLookups()).toHaveLength(1)
    expect(lines(result.stdout, '::notice::')).toEqual([
      '::notice::No object matched the query. An empty result does not prove absence: see the job summary.',
    ])
    expect(result.summary).toContain('## Fleet query: 0 objects')
    expect(result.summary).toContain('An empty result does not prove absence')
    expect(result.summary).toContain('Engaged edges in this workspace: `edge-00`, `edge-01`, `edge-02`.')
    const file = readResultFile<QueryResultFile>(result)
    expect(file).toMatchObject({
      schema: 'hub-action/query-result',
      version: 1,
      objects: [],
      count: 0,
      pages: 1,
      complete: true,
    })
    expectSecretsNowhere(result, [hub.token])
  })
})

describe('a malformed query', () => {
  const cases: Array<{ what: string; query: string; message: string }> = [
    { what: 'invalid JSON', query: '{"filter": {"objects": [', message: 'Input `query` is not valid JSON or YAML:' },
    {
      what: 'invalid YAML',
      query: 'filter:\n  objects: [\n limit: 3',
      message: 'Input `query` is not valid JSON or YAML:',
    },
    {
      what: 'an unknown top-level field',
      query: 'filtr:\n  objects: []\n',
      message:
        'Input `query` is not a valid QuerySpec: unknown field `filtr`; allowed: root, cluster, filter, limit, order, count, maxDepth, objects.',
    },
    // Issue 21: one problem saying why, not a type error for each.
    {
      what: 'page and cursor',
      query: 'page: 2\ncursor: abc\n',
      message: 'Invalid input: Input `query` must not set `page` or `cursor`: the action follows every page by itself',
    },
    {
      what: 'a manifest-style kind',
      query: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\n',
      message:
        'the kind goes in `filter.objects[].groupKind`: {filter: {objects: [{groupKind: {apiGroup: apps, kind: Deployment}, namespace: shop, name: checkout}]}}.',
    },
    {
      what: 'text, not an object',
      query: 'deployments',
      message:
        'Input `query` is not a valid QuerySpec: "deployments" is not an object such as {filter: {objects: [{groupKind: {apiGroup: apps, kind: Deployment}}]}}.',
    },
    // A YAML alias inside its own anchor: the parsed value contains itself (a stack overflow before).
    {
      what: 'an alias inside its own anchor',
      query: 'objects: &p {relations: {descendants+: {objects: *p}}}\n',
      message: 'Input `query` is not valid JSON or YAML: an alias (*name) stands inside the anchor (&name) it names',
    },
    {
      what: 'limit 20000',
      query: '{"limit": 20000}',
      message: 'Input `query` is not a valid QuerySpec at `limit`: "20000" is too large: the most is 10000.',
    },
    { what: 'an empty query', query: '   ', message: 'Input `query` is required for `command: query`' },
  ]

  it.each(cases)('$what: exit 1 naming `query`, with no request to the hub', async ({ query: text, message }) => {
    const result = await query({ query: text })
    expect(result.code).toBe(1)
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(message)
    expect(hub.requests).toEqual([])
    expect(result.outputs).toEqual({})
    expect(result.summary).toBe('')
  })
})
