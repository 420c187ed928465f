/**
 * End to end, `associated` (issue 33, item 5): the engine's `grouped` has no tenant or edge
 * condition, so it reaches another workspace's objects and rows of an edge this workspace no
 * longer has engaged (docs/hub-facts.md, "Relations, more precisely"). impact leaves them out of
 * the report and counts them in a note. dist/index.js against the hub emulator.
 */
import { expect, it } from 'vitest'
import { hubInputs, readResultFile, runStep, useHubEmulator, type ImpactReportFile } from './harness.ts'
import { createHubFactsFleet } from '../../emulator/index.ts'

const hub = useHubEmulator({ fleet: createHubFactsFleet(), storeDriver: 'sqlite' })

it('leaves out grouped objects of another workspace and of an unengaged edge, and says how many', async () => {
  const result = await runStep({
    inputs: hubInputs(hub, {
      command: 'impact',
      targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop, edge: prod-eu}]',
    }),
  })
  expect(result.code).toBe(0)
  const file = readResultFile<ImpactReportFile>(result)
  expect(file.impacts[0]?.associated.map((o) => `${o.edge}/${o.namespace}/${o.name}`)).toEqual([
    'prod-us/shop/checkout',
  ])
  expect(result.outputs['associated-count']).toBe('1')
  expect(result.stdout).toContain(
    "::warning::2 associated objects were left out: the graph's `grouped` (and `linked` with a `cluster` key) also reach other workspaces' objects and rows of edges this workspace has not engaged.",
  )
  expect(result.stdout).not.toContain('checkout-legacy')
})
