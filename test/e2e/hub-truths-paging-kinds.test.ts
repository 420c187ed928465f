/**
 * End to end, pages that skip (issue 33, item 7). The engine's keyset is the order fields plus
 * namespace and name: objects of several kinds sharing a namespace and name on one edge tie, and a
 * page boundary between them skips the later ones (docs/hub-facts.md, "Relations, more
 * precisely"); every paged query orders by kind and group too. And a `namespaced` block capped at
 * 200 is an incomplete count, on which `fail-on-downstream` never passes. dist/index.js against
 * the hub emulator.
 */
import { describe, expect, it } from 'vitest'
import { errorLines as errors, hubInputs, runStep, useHubEmulator } from './harness.ts'
import { createLargeFleet } from '../../emulator/index.ts'

describe('objects of several kinds sharing a name', () => {
  const hub = useHubEmulator()
  it('are each read once however small the pages', async () => {
    const same = hub.fleet!.objects.filter(
      (o) => o.edge === 'prod-eu' && o.metadata.namespace === 'shop' && o.metadata.name === 'checkout',
    )
    expect(new Set(same.map((o) => o.kind)).size).toBeGreaterThan(2)
    const query = JSON.stringify({
      cluster: { name: 'prod-eu' },
      filter: { objects: [{ namespace: 'shop', name: 'checkout' }] },
      limit: 1,
    })
    const result = await runStep({ inputs: hubInputs(hub, { command: 'query', query }) })
    expect(result.code).toBe(0)
    expect(result.outputs.count).toBe(String(same.length))
  })
})

describe('a namespaced block at its cap', () => {
  const hub = useHubEmulator({ fleet: createLargeFleet({ objects: 2_000 }) })
  it.each([
    ['query', {}],
    ['mcp', { 'impact-source': 'mcp' }],
  ])(
    'is reported incomplete, and fail-on-downstream does not pass on it (impact-source: %s)',
    async (_source, extra) => {
      const result = await runStep({
        inputs: hubInputs(hub, {
          command: 'impact',
          targets: '[{kind: Namespace, name: bulk, edge: edge-00}]',
          'fail-on-downstream': '100000',
          ...extra,
          ...('impact-source' in extra ? { 'mcp-url': hub.mcpUrl } : {}),
        }),
      })
      expect(result.code).toBe(1)
      expect(result.stdout).toContain('Namespace bulk on edge-00 holds at least 200 objects')
      expect(errors(result).join('\n')).toContain('is a lower bound')
      expect(errors(result).join('\n')).toContain('so fail-on-downstream (100000) cannot pass on it')
    },
  )
})
