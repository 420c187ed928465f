// The `applied` rollout scenario: objects applied by kubectl, stored as the API server stores
// them (./rollout-applied.ts), on two edges that apply differently: prod-eu with a client-side
// `kubectl apply` (last-applied annotation), prod-us with a server-side one (managedFields).
// Each object pins one fact a rollout gate must read right (docs/hub-facts.md, "What the API
// server stores", "One row per object"):
// - Deployment web: env B removed at 20 s, nothing else changes (a removal-only release).
// - Service web: only its annotation changes at 20 s (internal load balancer false → true).
// - Deployment worker: a configMap volume of mode 420 (`0644`), `hostNetwork: false` (dropped),
//   resources of `1000m`/`1024Mi` (stored `1`/`1Gi`); applied long ago, unchanged.
// - Deployment scaled, replicas 3, which HPA scaled (autoscaling/v2) scaled to 5.
// - Deployment dns: container ports 53/TCP and 53/UDP.
// - Role reader: verbs get, list, watch → get, list at 20 s on prod-us; never on prod-eu.
// - HPA web: one row whatever the version, flipping between autoscaling/v1 (from 0 s, then every
//   other 10 s) and autoscaling/v2 (from 10 s, then every other 10 s), settled on v2 at 600 s.
// - Deployment legacy, replicas 2, with neither last-applied nor managedFields (records the graph
//   does not hold), scaled to 4 by HPA legacy: only the HPA in the graph says who owns the count.
// - Helm's hook Job web-migrate and test Pod web-test ran before instant 0 and were deleted by
//   their policy: the graph holds no row for them.
import type { FleetObject } from './fleet.ts'
import { appliedTrack, type Applier, type Apply, type Manifest } from './rollout-applied.ts'
import { CREATED_AT, iso, uidOf } from './rollout-objects.ts'
import type { Keyframe } from './rollout-workloads.ts'

export const APPLIED_EDGES = { 'prod-eu': 'client-side', 'prod-us': 'server-side' } as const satisfies Record<
  string,
  Applier
>
type Edge = keyof typeof APPLIED_EDGES
/** When the release is applied on every edge. */
export const RELEASE_AT = 20_000
/** Until then the HPA row flips every FLIP_MS. */
export const FLIP_UNTIL = 600_000
export const FLIP_MS = 10_000

const meta = (name: string, extra: object = {}) => ({ name, namespace: 'shop', ...extra })
const deployment = (name: string, pod: object, replicas = 2): Manifest => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: meta(name),
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: pod },
  },
})
const container = (name: string, extra: object = {}) => ({ name, image: `registry/${name}:1.5`, ...extra })

const WEB = (env: string[]) =>
  deployment('web', { containers: [container('web', { env: env.map((n) => ({ name: n, value: 'on' })) })] })
const WEB_SERVICE = (internal: string): Manifest => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: meta('web', { annotations: { 'service.beta.kubernetes.io/aws-load-balancer-internal': internal } }),
  spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80 }] },
})
const WORKER = deployment('worker', {
  hostNetwork: false,
  // a boolean a sparse projection reads back as 1 on a SQLite-backed graph
  automountServiceAccountToken: true,
  containers: [
    container('worker', {
      resources: { requests: { cpu: '1000m', memory: '1024Mi' } },
      volumeMounts: [{ name: 'config', mountPath: '/etc/worker' }],
    }),
  ],
  volumes: [{ name: 'config', configMap: { name: 'worker', defaultMode: 420 } }],
})
const SCALED = deployment('scaled', { containers: [container('scaled')] }, 3)
const hpa = (name: string): Manifest => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: meta(name),
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
    minReplicas: 2,
    maxReplicas: 10,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
  },
})
const LEGACY = deployment('legacy', { containers: [container('legacy')] }, 2)
const DNS = deployment('dns', {
  containers: [container('dns', { ports: [{ containerPort: 53 }, { containerPort: 53, protocol: 'UDP' }] })],
})
const READER = (verbs: string[]): Manifest => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: meta('reader'),
  rules: [{ apiGroups: [''], resources: ['pods'], verbs }],
})

/** The v1 row of an autoscaling/v2 HPA: the same object as the v1 informer writes it. */
function asV1(object: FleetObject): FleetObject {
  const spec = object.spec as { scaleTargetRef: object; minReplicas: number; maxReplicas: number }
  return {
    ...object,
    apiVersion: 'autoscaling/v1',
    spec: {
      scaleTargetRef: spec.scaleTargetRef,
      minReplicas: spec.minReplicas,
      maxReplicas: spec.maxReplicas,
      targetCPUUtilizationPercentage: 80,
    },
  }
}

/** A hook that ran from `from` to `to` (ms) and was then deleted by its policy. */
function deletedHook(edge: string, kind: 'Job' | 'Pod', name: string, from: number, to: number): Keyframe[] {
  const object: FleetObject = {
    edge,
    apiVersion: kind === 'Job' ? 'batch/v1' : 'v1',
    kind,
    metadata: {
      name,
      namespace: 'shop',
      uid: uidOf(`${edge}/shop/${kind}/${name}`),
      annotations: {
        'helm.sh/hook': kind === 'Job' ? 'pre-upgrade' : 'test',
        'helm.sh/hook-delete-policy': 'hook-succeeded',
      },
      creationTimestamp: iso(from),
    },
    spec: {},
    status: kind === 'Job' ? { succeeded: 1 } : { phase: 'Succeeded' },
  }
  return [
    { at: from, objects: () => [object] },
    { at: to, objects: () => [] },
  ]
}

export function appliedTracks(): { edge: string; frames: Keyframe[] }[] {
  const tracks: { edge: string; frames: Keyframe[] }[] = []
  for (const [edge, how] of Object.entries(APPLIED_EDGES) as [Edge, Applier][]) {
    const apply = (manifest: Manifest, at = CREATED_AT, extra: Partial<Apply> = {}): Apply => ({
      at,
      manifest,
      how,
      ...extra,
    })
    const track = (applies: Apply[]) => tracks.push({ edge, frames: appliedTrack(edge, applies) })
    track([apply(WEB(['A', 'B'])), apply(WEB(['A']), RELEASE_AT)])
    track([apply(WEB_SERVICE('false')), apply(WEB_SERVICE('true'), RELEASE_AT)])
    track([apply(WORKER)])
    track([apply(SCALED, CREATED_AT, { scaledTo: 5 })])
    track([apply(hpa('scaled'))])
    track([apply(DNS)])
    track([{ at: CREATED_AT, manifest: LEGACY, how: 'unrecorded', scaledTo: 4 }])
    track([apply(hpa('legacy'))])
    track([
      apply(READER(['get', 'list', 'watch'])),
      ...(edge === 'prod-us' ? [apply(READER(['get', 'list']), RELEASE_AT)] : []),
    ])
    const [hpaFrame] = appliedTrack(edge, [apply(hpa('web'))])
    const v2 = (hpaFrame as Keyframe).objects
    const flips: Keyframe[] = [{ at: CREATED_AT, objects: v2 }]
    for (let at = 0; at < FLIP_UNTIL; at += FLIP_MS)
      flips.push({ at, objects: (at / FLIP_MS) % 2 === 0 ? () => v2().map(asV1) : v2 })
    flips.push({ at: FLIP_UNTIL, objects: v2 })
    tracks.push({ edge, frames: flips })
    tracks.push({ edge, frames: deletedHook(edge, 'Job', 'web-migrate', -60_000, -50_000) })
    tracks.push({ edge, frames: deletedHook(edge, 'Pod', 'web-test', -40_000, -30_000) })
  }
  return tracks
}
