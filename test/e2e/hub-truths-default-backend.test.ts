/**
 * End to end, what the engine does not relate (issue 33, item 8): an Ingress whose only backend is
 * `spec.defaultBackend` is no `references` of the Service to the engine, yet impact of the Service
 * lists it, derived (docs/hub-facts.md, "Relations, more precisely"); and impact of a
 * cluster-scoped object says references never reach one. dist/index.js against the hub emulator.
 */
import { expect, it } from 'vitest'
import { hubInputs, readResultFile, runStep, useHubEmulator, type ImpactReportFile } from './harness.ts'
import { createHubFactsFleet } from '../../emulator/index.ts'

const hub = useHubEmulator({ fleet: createHubFactsFleet() })
const impact = (targets: string) => runStep({ inputs: hubInputs(hub, { command: 'impact', targets }) })

it('lists an Ingress that uses a Service as its defaultBackend, derived', async () => {
  const result = await impact('[{kind: Service, name: checkout, namespace: shop, edge: prod-eu}]')
  expect(result.code).toBe(0)
  const downstream = readResultFile<ImpactReportFile>(result).impacts[0]?.downstream ?? []
  expect(downstream.find((o) => o.kind === 'Ingress' && o.name === 'checkout-direct')).toEqual({
    edge: 'prod-eu',
    group: 'networking.k8s.io',
    kind: 'Ingress',
    namespace: 'shop',
    name: 'checkout-direct',
    relations: ['referenced-by'],
    derived: ['referenced-by'],
  })
  // The rule backend stays the engine's own relation.
  expect(downstream.find((o) => o.kind === 'Ingress' && o.name === 'shop')).not.toHaveProperty('derived')
})

it('says that references never reach a cluster-scoped target', async () => {
  const result = await impact('[{kind: StorageClass, group: storage.k8s.io, name: standard, edge: prod-eu}]')
  expect(result.code).toBe(0)
  const [found] = readResultFile<ImpactReportFile & { impacts: Array<{ unknown?: string[] }> }>(result).impacts
  expect(found?.unknown).toEqual([
    "What uses StorageClass standard: the engine's `references` never match a cluster-scoped object (they join on equal namespaces), so the graph names none, which does not mean there are none.",
  ])
  expect(result.summary).toContain('never match a cluster-scoped object')
})
