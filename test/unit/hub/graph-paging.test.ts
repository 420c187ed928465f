/**
 * GraphClient.forEachPage with relations (docs/hub-facts.md, "Paging"): the hub pages such a
 * query by an internal path, so a later page can repeat objects. Those are dropped and counted,
 * paging goes on, and a page of repeats only ends it; without relations a repeat still means the
 * cursor was not accepted.
 */
import { describe, expect, it } from 'vitest'
import { GraphClient, pagedSpec, type ObjectResult, type QuerySpec, type QueryStatus } from '../../../src/hub/graph.js'
import type { HubTransport } from '../../../src/hub/transport.js'

/** A client whose hub answers the scripted pages in turn (ids only), with a next cursor on each. */
function scripted(pages: string[][]): { client: GraphClient; sent: QuerySpec[] } {
  const sent: QuerySpec[] = []
  const client = new GraphClient({} as HubTransport)
  client.query = async (spec: QuerySpec): Promise<QueryStatus> => {
    sent.push(spec)
    const ids = pages[sent.length - 1] ?? []
    return {
      objects: ids.map((id) => ({ id })),
      cursor: { next: `c${sent.length}` },
      incomplete: ids.length === spec.limit,
    }
  }
  return { client, sent }
}

async function collect(
  client: GraphClient,
  spec: QuerySpec,
): Promise<{ ids: string[]; outcome: Awaited<ReturnType<GraphClient['forEachPage']>> }> {
  const ids: string[] = []
  const outcome = await client.forEachPage(spec, { pageSize: 3, maxObjects: 100 }, (objects: ObjectResult[]) => {
    ids.push(...objects.map((o) => o.id as string))
  })
  return { ids, outcome }
}

const WITH_RELATIONS: QuerySpec = { objects: { relations: { namespace: {} } } }

describe('forEachPage over a query with relations', () => {
  it('drops and counts the objects a later page repeats, and goes on', async () => {
    const { client } = scripted([['a', 'b', 'c'], ['b', 'd', 'e'], ['f']])
    const { ids, outcome } = await collect(client, WITH_RELATIONS)
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
    expect(outcome).toMatchObject({ pages: 3, count: 6, stoppedBy: 'last-page', withRelations: true, repeated: 1 })
  })

  it('stops at a page of repeats only, which would loop', async () => {
    const { client, sent } = scripted([['a', 'b', 'c'], ['a', 'b', 'c'], ['d']])
    const { ids, outcome } = await collect(client, WITH_RELATIONS)
    expect(ids).toEqual(['a', 'b', 'c'])
    expect(outcome).toMatchObject({ pages: 2, stoppedBy: 'cursor-restart', repeated: 3 })
    expect(sent).toHaveLength(2)
  })

  it('without relations, a repeat still means page 1 came back: paging stops there', async () => {
    const { client } = scripted([
      ['a', 'b', 'c'],
      ['b', 'd', 'e'],
    ])
    const { ids, outcome } = await collect(client, { objects: { object: { metadata: { name: true } } } })
    expect(ids).toEqual(['a', 'b', 'c'])
    expect(outcome).toMatchObject({ pages: 2, stoppedBy: 'cursor-restart', withRelations: false, repeated: 0 })
  })
})

describe('pagedSpec', () => {
  it('asks for id and cluster when the query has no projection (the hub sends neither without one)', () => {
    expect(pagedSpec({ filter: {} }).objects).toEqual({ id: true, cluster: true })
    expect(pagedSpec({ objects: { object: { kind: true } } }).objects).toEqual({ object: { kind: true }, id: true })
  })
})
