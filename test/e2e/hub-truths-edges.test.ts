/**
 * End to end, relations across edges (docs/hub-facts.md, "Graph queries"): a relation query over several edges
 * orders and assembles rows by a path without the edge, so same-named objects on different
 * edges merge into one node (one edge gets every edge's relations, the others none). Impact
 * must ask one edge at a time, so each edge where the target exists gets exactly its own.
 */
import { describe, expect, it } from 'vitest'
import { hubInputs, readResultFile, runStep, useHubEmulator, type ActionRun, type ImpactReportFile } from './harness.ts'

const hub = useHubEmulator()

async function impact(targets: string): Promise<ActionRun> {
  return runStep({ inputs: { command: 'impact', ...hubInputs(hub), targets } })
}

describe('a target that exists on several edges, without `edge`', () => {
  it('each edge gets exactly its own upstream and downstream objects', async () => {
    // shop/checkout exists on prod-eu and prod-us with different pods and references.
    const result = await impact('[{kind: Deployment, group: apps, name: checkout, namespace: shop}]')
    expect(result.code).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.impacts.map((i) => i.edge)).toEqual(['prod-eu', 'prod-us'])
    for (const found of file.impacts) {
      expect(found.downstream.length, `downstream on ${found.edge}`).toBeGreaterThan(0)
      expect(found.upstream.length, `upstream on ${found.edge}`).toBeGreaterThan(0)
      // No other edge's objects in this edge's own relations.
      for (const direction of ['upstream', 'downstream'] as const) {
        expect(new Set(found[direction].map((o) => o.edge)), `${direction} on ${found.edge}`).toEqual(
          new Set([found.edge]),
        )
      }
      // Its pods are the fleet's pods of checkout on that edge, no more, no fewer.
      const pods = hub
        .fleet!.objects.filter(
          (o) =>
            o.edge === found.edge &&
            o.kind === 'Pod' &&
            o.metadata.namespace === 'shop' &&
            o.metadata.name.startsWith('checkout-'),
        )
        .map((o) => o.metadata.name)
        .sort()
      expect(found.downstream.filter((o) => o.kind === 'Pod').map((o) => o.name)).toEqual(pods)
    }
  })
})
