/**
 * End to end, `command: query` with relations against the demo fleet (docs/hub-facts.md,
 * "Relations", "Paging"): nested relation trees are exported as the engine answers them, each
 * nested node that came without an edge gets its parent's (marked), and paging a query with
 * relations says that pages may repeat or skip objects, dropping and counting the repeats.
 */
import { describe, expect, it } from 'vitest'
import { hubInputs, lines, readResultFile, runStep, useHubEmulator, type ActionRun } from './harness.ts'

type Node = {
  id?: string
  cluster?: string
  clusterFromParent?: boolean
  object?: { kind?: string; metadata?: { name?: string } }
  relations?: Record<string, Node[]>
}

interface QueryResultFile {
  objects: Node[]
  count: number
  pages: number
  complete: boolean
  stoppedBy: string
  relationPaging?: { repeatedObjectsDropped: number; mayHaveSkipped: boolean }
}

const hub = useHubEmulator()

async function query(spec: unknown): Promise<ActionRun> {
  return runStep({ inputs: { command: 'query', ...hubInputs(hub), query: JSON.stringify(spec) } })
}

const PROJECTED = { cluster: true, object: { kind: true, metadata: { name: true } } }

describe('a query with a transitive relation', () => {
  it('exports the nested tree, each node below the first level with its parent edge marked as filled in', async () => {
    const result = await query({
      cluster: { name: 'prod-eu' },
      filter: { objects: [{ groupKind: { kind: 'Deployment' }, namespace: 'shop', name: 'checkout' }] },
      objects: { ...PROJECTED, relations: { 'descendants+': { objects: PROJECTED } } },
    })
    expect(result.code).toBe(0)
    const file = readResultFile<QueryResultFile>(result)
    expect(file).toMatchObject({ count: 1, pages: 1, complete: true, stoppedBy: 'last-page' })
    expect(file.relationPaging).toBeUndefined()
    const [rs] = file.objects[0]?.relations?.['descendants+'] ?? []
    // the first level as the hub sent it: its own cluster, nothing added
    expect(rs).toMatchObject({ cluster: 'acme/ws-platform/prod-eu', object: { kind: 'ReplicaSet' } })
    expect(rs).not.toHaveProperty('clusterFromParent')
    const pods = rs?.relations?.['descendants+'] ?? []
    expect(pods).toHaveLength(3)
    for (const pod of pods)
      expect(pod).toMatchObject({
        cluster: 'acme/ws-platform/prod-eu',
        clusterFromParent: true,
        object: { kind: 'Pod' },
      })
    expect(lines(result.stdout, '::notice::')).toEqual([])
  })
})

describe('a query with relations over several pages', () => {
  it('drops and counts the objects a later page repeats, and does not call the result complete', async () => {
    const spec = {
      cluster: { name: 'prod-eu' },
      filter: {
        objects: [
          { groupKind: { kind: 'ConfigMap' }, namespace: 'shop' },
          { groupKind: { kind: 'Pod' }, namespace: 'shop' },
        ],
      },
      limit: 3,
      objects: { ...PROJECTED, relations: { namespace: { objects: PROJECTED } } },
    }
    const all = hub.fleet!.objects.filter(
      (o) => o.edge === 'prod-eu' && o.metadata.namespace === 'shop' && (o.kind === 'ConfigMap' || o.kind === 'Pod'),
    )
    const result = await query(spec)
    expect(result.code).toBe(0)
    const file = readResultFile<QueryResultFile>(result)
    const names = file.objects.map((o) => `${o.object?.kind}/${o.object?.metadata?.name}`)
    // every object once: the repeats were dropped
    expect(new Set(names).size).toBe(names.length)
    expect(file.pages).toBeGreaterThan(1)
    expect(file.complete).toBe(false)
    expect(file.relationPaging?.mayHaveSkipped).toBe(true)
    expect(file.relationPaging?.repeatedObjectsDropped).toBeGreaterThan(0)
    expect(file.count).toBe(names.length)
    // on one edge this query skips nothing (5 pages, 10 objects, 4 repeats dropped); the step cannot know that
    expect(file.count).toBe(all.length)
    const notice = lines(result.stdout, '::notice::').join('\n')
    expect(notice).toContain('Paged with relations')
    expect(notice).toContain(`${file.relationPaging?.repeatedObjectsDropped} repeated object`)
    expect(result.summary).toContain('Paged with relations')
  })

  it('a query with relations on one page is complete and says nothing about paging', async () => {
    const result = await query({
      cluster: { name: 'prod-eu' },
      filter: { objects: [{ groupKind: { kind: 'ConfigMap' }, namespace: 'shop' }] },
      objects: { ...PROJECTED, relations: { namespace: {} } },
    })
    const file = readResultFile<QueryResultFile>(result)
    expect(file).toMatchObject({ pages: 1, complete: true })
    expect(file.relationPaging).toBeUndefined()
    expect(lines(result.stdout, '::notice::')).toEqual([])
  })
})
