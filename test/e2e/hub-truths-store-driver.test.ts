/**
 * End to end, the graph's store (issue 33, item 4): on SQLite a cursor over creationTimestamp is
 * compared as text in another format, so a later page skips (Asc) or repeats (Desc) the rows of
 * the cursor's calendar day (docs/hub-facts.md, "Store drivers"). `query` reads the driver when
 * its order depends on it, reads such an order in one page, and says so; on Postgres it pages as
 * asked. dist/index.js against the hub emulator, one per store.
 */
import { describe, expect, it } from 'vitest'
import { hubInputs, readResultFile, runStep, useHubEmulator } from './harness.ts'
import { createTimestampFleet } from '../../emulator/index.ts'

const COUNT = 30
const sqlite = useHubEmulator({ fleet: createTimestampFleet(COUNT), storeDriver: 'sqlite' })
const postgres = useHubEmulator({ fleet: createTimestampFleet(COUNT), storeDriver: 'postgres' })
/** An older graph provider: no status route (the portal's HTML answers it). */
const older = useHubEmulator({ fleet: createTimestampFleet(COUNT) })

const spec = (direction: 'Asc' | 'Desc') =>
  JSON.stringify({
    filter: { objects: [{ namespace: 'audit' }] },
    order: [{ field: 'creationTimestamp', direction }],
    limit: 5,
    objects: { id: true, object: { metadata: { name: true } } },
  })
const queries = (hub: typeof sqlite) => hub.requests.filter((r) => r.path.endsWith('/graph/api/query'))
const statusReads = (hub: typeof sqlite) => hub.requests.filter((r) => r.path.endsWith('/graph/api/status'))

describe('an order by creationTimestamp on a SQLite store', () => {
  it.each(['Asc', 'Desc'] as const)(
    '%s: every object once, read in one page, and the summary says why',
    async (direction) => {
      const result = await runStep({ inputs: hubInputs(sqlite, { command: 'query', query: spec(direction) }) })
      expect(result.code).toBe(0)
      expect(result.outputs.count).toBe(String(COUNT))
      const file = readResultFile<{ objects: Array<{ id: string }>; complete: boolean }>(result)
      expect(new Set(file.objects.map((o) => o.id)).size).toBe(COUNT)
      expect(statusReads(sqlite)).toHaveLength(1)
      expect(queries(sqlite)).toHaveLength(1)
      expect(result.stdout).toContain(
        'Ordered by creationTimestamp: The hub keeps its graph in SQLite (GET /api/status), where such an order cannot be paged with a cursor, so it was read in one page of up to 10,000.',
      )
      expect(result.summary).toContain('> [!NOTE]\n> Ordered by creationTimestamp')
    },
  )
})

describe('the same order on a Postgres store', () => {
  it('pages as asked, and every object comes once', async () => {
    const result = await runStep({ inputs: hubInputs(postgres, { command: 'query', query: spec('Asc') }) })
    expect(result.code).toBe(0)
    expect(result.outputs.count).toBe(String(COUNT))
    expect(queries(postgres)).toHaveLength(COUNT / 5 + 1)
    expect(result.stdout).toContain('the hub keeps its graph in Postgres, whose cursor pages such an order exactly')
  })
})

describe('a hub that does not name its store', () => {
  it('is taken as possibly SQLite, its default: one page, and the log says why', async () => {
    const result = await runStep({ inputs: hubInputs(older, { command: 'query', query: spec('Asc') }) })
    expect(result.code).toBe(0)
    expect(result.outputs.count).toBe(String(COUNT))
    expect(queries(older)).toHaveLength(1)
    expect(result.stdout).toContain('The hub does not say which store it keeps its graph in (no GET /api/status)')
  })
})
