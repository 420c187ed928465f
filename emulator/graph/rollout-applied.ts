// What the API server stores when a manifest is applied, as the graph then holds it
// (docs/hub-facts.md, "What the API server stores"): not the manifest's text but its own form.
// - Defaults filled in (imagePullPolicy, a port's protocol, a Service's targetPort…).
// - Zero values of omitempty fields dropped (`hostNetwork: false` is simply absent), empty lists too.
// - Quantities canonical (`1000m` → `1`, `1024Mi` → `1Gi`); a volume's mode a number (kubectl
//   read `0644` as YAML 1.1, so it sent 420).
// - `metadata.managedFields`: a client-side `kubectl apply` records an update by
//   `kubectl-client-side-apply` owning every field it wrote, defaults included, and leaves the
//   applied manifest in `kubectl.kubernetes.io/last-applied-configuration`; a server-side apply
//   records an `Apply` by `kubectl` owning exactly the fields it applied.
// - A field another manager writes holds that manager's value and is its own: an HPA's scale
//   writes own `spec.replicas` (`kube-controller-manager`, subresource `scale`).
import type { FleetObject } from './fleet.ts'
import { CREATED_AT, iso, resourceVersion, uidOf } from './rollout-objects.ts'

/** How the manifest was applied; `unrecorded`: an object whose records of the apply the graph does not hold. */
export type Applier = 'client-side' | 'server-side' | 'unrecorded'

/** A manifest as kubectl sends it (YAML already read as YAML 1.1). */
export type Manifest = {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }
  [field: string]: unknown
}

/** One apply of a manifest on an edge. */
export type Apply = {
  at: number
  manifest: Manifest
  how: Applier
  /** An HPA has scaled the workload to this: its `spec.replicas`, owned by the HPA's scale writes. */
  scaledTo?: number
}

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

type Value = unknown
const isMap = (v: Value): v is Record<string, Value> => typeof v === 'object' && v !== null && !Array.isArray(v)
const clone = <T>(v: T): T => structuredClone(v)

/** Fields whose `false` the API server omits (omitempty bools). */
const OMITTED_FALSE = new Set(['hostNetwork', 'hostPID', 'hostIPC', 'stdin', 'stdinOnce', 'tty'])
const QUANTITY_MAPS = new Set(['requests', 'limits', 'hard', 'max', 'min', 'default', 'defaultRequest'])

const BINARY: [string, number][] = [
  ['Ei', 2 ** 60],
  ['Pi', 2 ** 50],
  ['Ti', 2 ** 40],
  ['Gi', 2 ** 30],
  ['Mi', 2 ** 20],
  ['Ki', 2 ** 10],
]
const DECIMAL: [string, number][] = [
  ['E', 1e18],
  ['P', 1e15],
  ['T', 1e12],
  ['G', 1e9],
  ['M', 1e6],
  ['k', 1e3],
  ['', 1],
]

/** A quantity in the API server's canonical form: the largest suffix of its own kind that divides it. */
export function canonicalQuantity(text: string): string {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?$/.exec(text)
  if (!m) return text
  const suffix = m[2] ?? ''
  const binary = suffix.endsWith('i')
  const scale = binary
    ? (BINARY.find(([s]) => s === suffix)?.[1] ?? 1)
    : suffix === 'm'
      ? 1e-3
      : (DECIMAL.find(([s]) => s === suffix)?.[1] ?? 1)
  const value = Number(m[1]) * scale
  if (binary) for (const [s, f] of BINARY) if (value % f === 0) return `${value / f}${s}`
  if (Number.isInteger(value)) for (const [s, f] of DECIMAL) if (value % f === 0) return `${value / f}${s}`
  return `${Math.round(value * 1000)}m`
}

/** The manifest as stored: zero values dropped, quantities canonical, the defaults this fleet's kinds get. */
function stored(manifest: Manifest): Record<string, Value> {
  const walk = (v: Value, key: string): Value => {
    if (Array.isArray(v)) return v.map((item) => walk(item, key))
    if (!isMap(v)) return QUANTITY_MAPS.has(key) && typeof v === 'string' ? canonicalQuantity(v) : v
    const out: Record<string, Value> = {}
    for (const [k, child] of Object.entries(v)) {
      if (child === false && OMITTED_FALSE.has(k)) continue
      if (Array.isArray(child) && child.length === 0) continue
      out[k] =
        QUANTITY_MAPS.has(k) && isMap(child) ? mapValues(child, (q) => canonicalQuantity(String(q))) : walk(child, k)
    }
    return out
  }
  const object = walk(clone(manifest), '') as Record<string, Value>
  const spec = object.spec
  if (!isMap(spec)) return object
  const pod = isMap(spec.template) && isMap(spec.template.spec) ? spec.template.spec : undefined
  if (pod) {
    Object.assign(pod, { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' })
    pod.terminationGracePeriodSeconds ??= 30
    for (const c of Array.isArray(pod.containers) ? pod.containers : []) {
      if (!isMap(c)) continue
      c.imagePullPolicy ??= 'IfNotPresent'
      c.terminationMessagePath ??= '/dev/termination-log'
      for (const p of Array.isArray(c.ports) ? c.ports : []) if (isMap(p)) p.protocol ??= 'TCP'
    }
    for (const v of Array.isArray(pod.volumes) ? pod.volumes : [])
      if (isMap(v) && isMap(v.configMap)) v.configMap.defaultMode ??= 420
  }
  if (object.kind === 'Deployment')
    Object.assign(spec, {
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    })
  if (object.kind === 'Service') {
    spec.type ??= 'ClusterIP'
    spec.sessionAffinity ??= 'None'
    for (const p of Array.isArray(spec.ports) ? spec.ports : [])
      if (isMap(p)) {
        p.protocol ??= 'TCP'
        p.targetPort ??= p.port
      }
  }
  return object
}

function mapValues(m: Record<string, Value>, f: (v: Value) => Value): Record<string, Value> {
  return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)]))
}

/** List fields merged by key (server-side apply's list map keys), with the defaults of their keys. */
const LIST_KEYS: Record<string, [string, string?][]> = {
  containers: [['name']],
  initContainers: [['name']],
  env: [['name']],
  volumes: [['name']],
  volumeMounts: [['mountPath']],
  imagePullSecrets: [['name']],
  ports: [['containerPort'], ['port'], ['protocol', 'TCP']],
}

/** `{"containerPort":53,"protocol":"UDP"}`: the `k:` of a list entry in a field set. */
function entryKey(field: string, item: Value): string | undefined {
  const keys = LIST_KEYS[field]
  if (!keys || !isMap(item)) return undefined
  const out: Record<string, Value> = {}
  for (const [k, fallback] of keys) if (item[k] !== undefined || fallback) out[k] = item[k] ?? fallback
  return JSON.stringify(out)
}

/** The FieldsV1 set of every field `value` sets: `f:` per map key, `k:` per keyed entry, atomic lists whole. */
function fieldsOf(value: Value, key = ''): Record<string, Value> {
  if (isMap(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [`f:${k}`, fieldsOf(v, k)]))
  if (Array.isArray(value) && LIST_KEYS[key])
    return Object.fromEntries(value.map((item) => [`k:${entryKey(key, item)}`, { '.': {}, ...fieldsOf(item, key) }]))
  return {}
}

/** What a field set covers of an object: everything but its identity, and of metadata only labels and annotations. */
function ownedPart(object: Record<string, Value>): Record<string, Value> {
  const { apiVersion: _v, kind: _k, metadata, status: _s, ...rest } = object
  const meta = isMap(metadata) ? metadata : {}
  const kept: Record<string, Value> = {}
  if (isMap(meta.labels)) kept.labels = meta.labels
  if (isMap(meta.annotations) && Object.keys(meta.annotations).length > 0) kept.annotations = meta.annotations
  return Object.keys(kept).length > 0 ? { ...rest, metadata: kept } : rest
}

const entry = (manager: string, operation: string, apiVersion: string, at: number, fieldsV1: object, sub?: string) => ({
  manager,
  operation,
  apiVersion,
  time: iso(at),
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...(sub ? { subresource: sub } : {}),
})

/** The object an edge holds after `apply`, its `generation`-th change of spec. */
function appliedObject(edge: string, apply: Apply, generation: number): FleetObject {
  const { manifest, how, at } = apply
  const object = stored(manifest)
  const name = manifest.metadata.name
  const namespace = manifest.metadata.namespace
  const annotations: Record<string, string> = { ...manifest.metadata.annotations }
  if (how === 'client-side') annotations[LAST_APPLIED] = JSON.stringify(manifest)
  const spec = isMap(object.spec) ? object.spec : undefined
  const labels = manifest.metadata.labels
  const applied = how === 'client-side' ? { ...object, metadata: { labels, annotations } } : clone(manifest)
  const fields = fieldsOf(ownedPart(applied))
  const managedFields: object[] = [
    how === 'client-side'
      ? entry('kubectl-client-side-apply', 'Update', manifest.apiVersion, at, fields)
      : entry('kubectl', 'Apply', manifest.apiVersion, at, fields),
  ]
  if (apply.scaledTo !== undefined && spec) {
    // The HPA's scale writes took spec.replicas over: the applier no longer owns it.
    spec.replicas = apply.scaledTo
    if (isMap(fields['f:spec'])) delete fields['f:spec']['f:replicas']
    managedFields.push(
      entry('kube-controller-manager', 'Update', 'apps/v1', at + 30_000, { 'f:spec': { 'f:replicas': {} } }, 'scale'),
    )
  }
  let status: Record<string, Value> | undefined
  if (how === 'unrecorded') managedFields.length = 0
  if (manifest.kind === 'Deployment') {
    const replicas = typeof spec?.replicas === 'number' ? spec.replicas : 1
    status = {
      observedGeneration: generation,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      conditions: [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
        { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
      ],
    }
    if (how !== 'unrecorded')
      managedFields.push(
        entry('kube-controller-manager', 'Update', 'apps/v1', at + 1000, { 'f:status': fieldsOf(status) }, 'status'),
      )
  }
  return {
    ...(object as Omit<FleetObject, 'edge' | 'metadata'>),
    edge,
    metadata: {
      name,
      ...(namespace ? { namespace } : {}),
      uid: uidOf(`${edge}/${namespace ?? ''}/${manifest.kind}/${name}`),
      ...(manifest.metadata.labels ? { labels: manifest.metadata.labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      creationTimestamp: iso(CREATED_AT),
      generation,
      resourceVersion: resourceVersion(at, generation),
      ...(managedFields.length > 0 ? { managedFields } : {}),
    } as FleetObject['metadata'],
    ...(status ? { status } : {}),
  }
}

/** Keyframes of one object on one edge: each apply from its instant; its generation grows when its spec changes. */
export function appliedTrack(edge: string, applies: readonly Apply[]): { at: number; objects: () => FleetObject[] }[] {
  let generation = 0
  let spec = ''
  return applies.map((apply) => {
    const next = JSON.stringify(apply.manifest.spec ?? null)
    if (next !== spec) generation++
    spec = next
    const g = generation
    return { at: apply.at, objects: () => [appliedObject(edge, apply, g)] }
  })
}
