/**
 * End to end, the hub's keyset paging (docs/hub-facts.md, "Graph queries"): ONE comparison for the whole order
 * tuple, chosen by the first field's direction, so a mixed Asc/Desc order repeats rows from page
 * 2 on. The action must page a Desc order correctly (its own edge-first key takes the user's
 * direction) and refuse a mixed order before any request, saying why.
 */
import { describe, expect, it } from 'vitest'
import { hubInputs, lines, readResultFile, runStep, useHubEmulator, type ActionRun } from './harness.ts'
import { createLargeFleet } from '../../emulator/index.ts'

const hub = useHubEmulator({ fleet: createLargeFleet({ objects: 2_000 }) })

async function query(spec: unknown): Promise<ActionRun> {
  return runStep({
    inputs: { command: 'query', ...hubInputs(hub), query: JSON.stringify(spec) },
  })
}

const configMaps = {
  filter: { objects: [{ groupKind: { kind: 'ConfigMap' } }] },
  limit: 50,
  objects: { id: true, cluster: true },
}

describe('sort directions and paging', () => {
  it('a Desc order pages through every object, each once', async () => {
    const expected = hub.fleet!.objects.filter((o) => o.kind === 'ConfigMap').length
    expect(expected).toBeGreaterThan(150)
    const result = await query({ ...configMaps, order: [{ field: 'name', direction: 'Desc' }] })
    expect(result.code).toBe(0)
    const file = readResultFile<{
      objects: Array<{ id: string }>
      count: number
      complete: boolean
      stoppedBy: string
    }>(result)
    expect(file.stoppedBy).toBe('last-page')
    expect(file.complete).toBe(true)
    expect(file.count).toBe(expected)
    expect(new Set(file.objects.map((o) => o.id)).size).toBe(expected)
    expect(lines(result.stdout, '::warning::')).toEqual([])
  })

  it('a mixed Asc/Desc order is refused before any request, naming `query` and why', async () => {
    const result = await query({
      ...configMaps,
      order: [
        { field: 'namespace', direction: 'Asc' },
        { field: 'name', direction: 'Desc' },
      ],
    })
    expect(result.code).toBe(1)
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('Input `query`')
    expect(errors[0]).toContain('mixes Asc and Desc')
    expect(errors[0]).toContain('one comparison for the whole order tuple')
    expect(hub.requests).toEqual([])
  })
})
