// Fleets for the third reading of the hub (docs/hub-facts.md, "Store drivers", "Relations, more
// precisely"): the demo fleet with what a real engine's table also holds, and small fleets whose
// shape meets one fact each.
import { Builder, GROUP_LABEL, createFleet, type Fleet, type FleetObject, type FleetOptions } from './fleet.ts'
import { createDemoFleet } from './demo-fleet.ts'

/** The workspace path of another workspace whose rows share the engine's table. */
export const OTHER_WORKSPACE_PATH = 'acme/ws-other'

/**
 * The demo fleet plus rows no root query of this workspace returns, which `grouped` reaches all
 * the same (it has no tenant or edge condition): Deployment `shop/checkout-legacy` of another
 * workspace (its edge is `<path>/<edge>`, emulator/graph/query/render.ts), and
 * `shop/checkout-old` left on `prod-ap`, an edge the workspace no longer has engaged (rows stay
 * until garbage collection). Both carry the checkouts' group label. Also an Ingress
 * `shop/checkout-direct` on prod-eu whose only backend is `spec.defaultBackend` → Service
 * `checkout`, which the engine's `references` does not read.
 */
export function createHubFactsFleet(opts: FleetOptions = {}): Fleet {
  const demo = createDemoFleet(opts)
  const b = new Builder(33)
  const grouped = { metadata: { labels: { [GROUP_LABEL]: 'shop-checkout', app: 'checkout' } } }
  b.add(`${OTHER_WORKSPACE_PATH}/prod-eu`, 'Deployment', 'checkout-legacy', 'shop', grouped)
  b.add('prod-ap', 'Deployment', 'checkout-old', 'shop', grouped)
  b.add('prod-eu', 'Ingress', 'checkout-direct', 'shop', {
    spec: { defaultBackend: { service: { name: 'checkout', port: { number: 80 } } } },
  })
  const fleet = createFleet([...demo.objects, ...b.objects], { ...opts, edges: [...demo.edges] })
  // Only the demo's edges are engaged: the other rows' edges are not the workspace's now.
  fleet.edges = [...demo.edges]
  return fleet
}

/**
 * `count` ConfigMaps in namespace `audit` on edge `e1`, four a day from 2025-03-01 at 09:00,
 * 10:00, 11:00 and 12:00 UTC: a page boundary inside a day shows the SQLite cursor's text
 * comparison (docs/hub-facts.md, "Store drivers").
 */
export function createTimestampFleet(count: number, opts: FleetOptions = {}): Fleet {
  const objects: FleetObject[] = []
  for (let i = 0; i < count; i++) {
    const day = String(1 + Math.floor(i / 4)).padStart(2, '0')
    const hour = String(9 + (i % 4)).padStart(2, '0')
    objects.push({
      edge: 'e1',
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: `audit-${String(i).padStart(3, '0')}`,
        namespace: 'audit',
        uid: `ts-${i}`,
        creationTimestamp: `2025-03-${day}T${hour}:00:00Z`,
      },
    })
  }
  return createFleet(objects, opts)
}
