/**
 * End to end, the hub's 10,000-row cap (docs/hub-facts.md, "Paging"): rows are cut in path order,
 * so the root that crosses the cap keeps part of its relations, whole trailing roots are missing, the page is short, and the hub says `incomplete` with a
 * warning. `command: query` must not call that result complete: the result file, the log and
 * the summary say it is incomplete and that the count is a lower bound.
 */
import { describe, expect, it } from 'vitest'
import { hubInputs, lines, readResultFile, runStep, useHubEmulator, type ActionRun } from './harness.ts'
import { createFleet, type FleetObject } from '../../emulator/index.ts'

const NAMESPACES = 3
const CONFIGMAPS_PER_NAMESPACE = 4_000

/** Three namespaces of 4,000 ConfigMaps each: asking for every namespace with its members crosses 10,000 rows. */
function crowdedFleet(): FleetObject[] {
  const objects: FleetObject[] = []
  const at = '2024-01-01T00:00:00Z'
  for (let n = 0; n < NAMESPACES; n++) {
    const namespace = `team-${n}`
    objects.push({
      edge: 'prod-eu',
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace, uid: `ns-${n}`, creationTimestamp: at },
    })
    for (let c = 0; c < CONFIGMAPS_PER_NAMESPACE; c++) {
      objects.push({
        edge: 'prod-eu',
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${c}`, namespace, uid: `cm-${n}-${c}`, creationTimestamp: at },
      })
    }
  }
  return objects
}

const hub = useHubEmulator({ fleet: createFleet(crowdedFleet()) })

const NAMESPACES_WITH_MEMBERS = JSON.stringify({
  filter: { objects: [{ groupKind: { kind: 'Namespace' } }] },
  objects: {
    cluster: true,
    object: { metadata: { name: true } },
    relations: { namespaced: { objects: { id: true } } },
  },
})

async function query(spec: string): Promise<ActionRun> {
  return runStep({ inputs: { command: 'query', ...hubInputs(hub), query: spec } })
}

describe('a result cut by the row cap', () => {
  it('is reported incomplete in the result file, the log and the summary, with the count as a lower bound', async () => {
    const result = await query(NAMESPACES_WITH_MEMBERS)
    expect(result.code).toBe(0)
    const file = readResultFile<{
      objects: { relations?: { namespaced?: unknown[] } }[]
      count: number
      complete: boolean
      stoppedBy: string
      hubWarnings: string[]
    }>(result)
    // Rows are cut in path order: the first two namespaces with all their members, the third
    // with what fitted under the cap (any namespace after it would be missing whole), on one short page.
    expect(file.objects).toHaveLength(3)
    expect(file.objects.map((o) => o.relations?.namespaced?.length)).toEqual([
      CONFIGMAPS_PER_NAMESPACE,
      CONFIGMAPS_PER_NAMESPACE,
      10_000 - 3 - 2 * CONFIGMAPS_PER_NAMESPACE,
    ])
    expect(file.count).toBe(3)
    expect(file.complete).toBe(false)
    expect(file.stoppedBy).toBe('truncated')
    expect(file.hubWarnings.join(' ')).toContain('truncated at 10000 total rows')
    const warnings = lines(result.stdout, '::warning::').join('\n')
    expect(warnings).toContain('Incomplete')
    expect(warnings).toContain('lower bound')
    expect(result.summary).toContain('≥ 3 objects')
    expect(result.summary).toContain('Incomplete')
  })

  it('a short page without the warning is still the complete last page', async () => {
    const result = await query(JSON.stringify({ filter: { objects: [{ groupKind: { kind: 'Namespace' } }] } }))
    const file = readResultFile<{ count: number; complete: boolean; stoppedBy: string }>(result)
    expect(file.count).toBe(NAMESPACES)
    expect(file.complete).toBe(true)
    expect(lines(result.stdout, '::warning::')).toEqual([])
  })
})
