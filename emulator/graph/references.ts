// The engine's reference paths (docs/hub-facts.md, "Relations"): one fixed list, applied to every
// parent whatever its kind. Pod-level paths only (no init containers, no projected volumes), then
// Ingress backends and TLS secrets, a PVC's class and volume, a binding's roleRef.
import type { FleetObject } from './fleet.ts'

type RefPath = { target: string; names: (o: any) => unknown[] }

export const list = (v: unknown): any[] => (Array.isArray(v) ? v : [])
const containers = (o: any): any[] => list(o?.spec?.containers)

const REF_PATHS: readonly RefPath[] = [
  { target: 'Secret', names: (o) => list(o?.spec?.volumes).map((v) => v?.secret?.secretName) },
  { target: 'ConfigMap', names: (o) => list(o?.spec?.volumes).map((v) => v?.configMap?.name) },
  {
    target: 'PersistentVolumeClaim',
    names: (o) => list(o?.spec?.volumes).map((v) => v?.persistentVolumeClaim?.claimName),
  },
  { target: 'ServiceAccount', names: (o) => [o?.spec?.serviceAccountName] },
  { target: 'Secret', names: (o) => list(o?.spec?.imagePullSecrets).map((s) => s?.name) },
  {
    target: 'Secret',
    names: (o) => containers(o).flatMap((c) => list(c?.env).map((x) => x?.valueFrom?.secretKeyRef?.name)),
  },
  {
    target: 'ConfigMap',
    names: (o) => containers(o).flatMap((c) => list(c?.env).map((x) => x?.valueFrom?.configMapKeyRef?.name)),
  },
  { target: 'Secret', names: (o) => containers(o).flatMap((c) => list(c?.envFrom).map((x) => x?.secretRef?.name)) },
  {
    target: 'ConfigMap',
    names: (o) => containers(o).flatMap((c) => list(c?.envFrom).map((x) => x?.configMapRef?.name)),
  },
  {
    target: 'Service',
    names: (o) => list(o?.spec?.rules).flatMap((r) => list(r?.http?.paths).map((p) => p?.backend?.service?.name)),
  },
  { target: 'Secret', names: (o) => list(o?.spec?.tls).map((t) => t?.secretName) },
  { target: 'StorageClass', names: (o) => [o?.spec?.storageClassName] },
  { target: 'PersistentVolume', names: (o) => [o?.spec?.volumeName] },
  { target: 'ClusterRole', names: (o) => [o?.roleRef?.name] },
]

/** The names `o` references through every path, or only the paths towards `kinds` when given. */
export function referencedNames(o: FleetObject, kinds: readonly string[]): Set<string> {
  const names = new Set<string>()
  for (const p of REF_PATHS) {
    if (kinds.length > 0 && !kinds.includes(p.target)) continue
    for (const n of p.names(o)) if (typeof n === 'string' && n !== '') names.add(n)
  }
  return names
}
