// Kubernetes objects as the graph stores them (docs/hub-facts.md, "What the graph knows": the whole object, status
// included), for the scripted rollout fleet (rollouts.ts). Fields are the ones the API server
// defaults and the controllers write, so a client can apply kstatus rules and compare images.
import { createHash } from 'node:crypto'
import type { FleetObject, ObjectMeta, OwnerReference } from './fleet.ts'

/** Instant 0 of every rollout timeline; times in a timeline are ms after it. */
const ROLLOUT_EPOCH = Date.UTC(2025, 5, 2, 10, 0, 0)
/** Workloads, their old pods and namespaces were created this long before instant 0. */
export const CREATED_AT = -7 * 86_400_000

// The same times, names and hashes recur in every keyframe: remembering them keeps a large
// fleet's rebuilds cheap (they were mostly garbage collection).
function memo<K, V>(fn: (k: K) => V): (k: K) => V {
  const seen = new Map<K, V>()
  return (k) => {
    let v = seen.get(k)
    if (v === undefined) seen.set(k, (v = fn(k)))
    return v
  }
}

/** RFC 3339 second-precision UTC, as Kubernetes renders times. */
export const iso: (at: number) => string = memo((at: number) =>
  new Date(ROLLOUT_EPOCH + Math.floor(at / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
)

const SAFE = 'bcdfghjklmnpqrstvwxz2456789'

const digest = memo((seed: string): Buffer => createHash('sha256').update(seed).digest())
const hexDigest = memo((seed: string): string => digest(seed).toString('hex'))

/** A name suffix in Kubernetes' safe alphabet (pod-template-hash, generated pod names). */
export function nameHash(seed: string, length: number): string {
  const d = digest(seed)
  let s = ''
  for (let i = 0; i < length; i++) s += SAFE[(d[i] as number) % SAFE.length]
  return s
}

export function uidOf(seed: string): string {
  const h = hexDigest(seed)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** `registry/web:1.5` → `registry/web@sha256:…`, what a container status reports as imageID. */
function imageIdOf(image: string): string {
  const repo = image.replace(/:[^/:]+$/, '')
  return `${repo}@sha256:${hexDigest(image)}`
}

/** One version of a workload's pod template: its images, and the app container's env when it sets one. */
export type PodImages = { app: string; init: string; env?: Record<string, string> }

/** One workload on one edge: the container is named after the workload. */
export type Workload = {
  edge: string
  namespace: string
  name: string
  replicas: number
  labels?: Record<string, string>
  annotations?: Record<string, string>
}

export function podTemplate(
  w: Workload,
  images: PodImages,
): { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> } {
  return {
    metadata: { labels: { app: w.name, ...w.labels } },
    spec: {
      initContainers: [
        {
          name: 'migrate',
          image: images.init,
          command: ['/migrate', '--wait'],
          imagePullPolicy: 'IfNotPresent',
          resources: { requests: { cpu: '50m', memory: '64Mi' } },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      containers: [
        {
          name: w.name,
          image: images.app,
          ...(images.env ? { env: Object.entries(images.env).map(([name, value]) => ({ name, value })) } : {}),
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          readinessProbe: {
            httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
            periodSeconds: 5,
            successThreshold: 1,
            failureThreshold: 3,
            timeoutSeconds: 1,
          },
          imagePullPolicy: 'IfNotPresent',
          resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { memory: '512Mi' } },
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      securityContext: {},
      schedulerName: 'default-scheduler',
    },
  }
}

/** pod-template-hash / controller-revision suffix: equal templates hash equally on every edge. */
export function templateHash(w: Workload, images: PodImages, length = 10): string {
  return nameHash(
    `${w.namespace}/${w.name}/${images.app}/${images.init}${images.env ? JSON.stringify(images.env) : ''}`,
    length,
  )
}

/** What a pod is doing; `since` is when it was created. */
export type PodState =
  | { kind: 'creating'; since: number }
  | { kind: 'ready'; since: number }
  | { kind: 'unschedulable'; since: number }
  | { kind: 'crashloop'; since: number; restarts: number; lastFailAt: number; backoffSeconds: number }

export type PodPlan = {
  w: Workload
  images: PodImages
  name: string
  labels: Record<string, string>
  owner: FleetObject
  state: PodState
  node: number
  /** The frame's instant (resourceVersion). */
  at: number
  generateName?: string
}

/** Metadata with the fields the API server adds that the fleet model leaves optional. */
export type StoredMeta = ObjectMeta & { generation?: number; resourceVersion?: string; generateName?: string }

export function meta(m: StoredMeta): ObjectMeta {
  return m
}

export function ownerRef(o: FleetObject): OwnerReference {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name,
    uid: o.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  }
}

/** A resourceVersion that grows with the frame's instant (unique enough for a client's eye). */
export function resourceVersion(at: number, salt: number): string {
  return String(1_000_000 + Math.floor((at - CREATED_AT) / 100) * 10 + (salt % 10))
}

function cond(type: string, ok: boolean, at: number, reason?: string, message?: string): Record<string, unknown> {
  const c: Record<string, unknown> = {
    type,
    status: ok ? 'True' : 'False',
    lastProbeTime: null,
    lastTransitionTime: iso(at),
  }
  if (reason) c.reason = reason
  if (message) c.message = message
  return c
}

export function pod(p: PodPlan): FleetObject {
  const { w, images, state: s } = p
  const uid = uidOf(`${w.edge}/${w.namespace}/Pod/${p.name}/${s.since}`)
  const metadata: StoredMeta = {
    name: p.name,
    namespace: w.namespace,
    uid,
    labels: p.labels,
    ownerReferences: [ownerRef(p.owner)],
    creationTimestamp: iso(s.since),
  }
  if (p.generateName) metadata.generateName = p.generateName
  metadata.resourceVersion = resourceVersion(p.at, p.node + 3)
  const spec: Record<string, unknown> = { ...podTemplate(w, images).spec }
  if (s.kind !== 'unschedulable') spec.nodeName = `${w.edge}-node-${p.node % 3}`
  const status: Record<string, unknown> = { qosClass: 'Burstable' }
  if (s.kind === 'unschedulable') {
    status.phase = 'Pending'
    status.conditions = [
      cond(
        'PodScheduled',
        false,
        s.since,
        'Unschedulable',
        '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.',
      ),
    ]
    return { edge: w.edge, apiVersion: 'v1', kind: 'Pod', metadata, spec, status }
  }
  const started = s.since + 2000
  const unready = `containers with unready status: [${w.name}]`
  const ready = s.kind === 'ready'
  // A pod being created is still running its init container (`Init:0/1`).
  const creating = s.kind === 'creating'
  status.phase = creating ? 'Pending' : 'Running'
  status.hostIP = `10.0.${p.node % 3}.10`
  status.podIP = `10.244.${p.node % 3}.${(p.name.charCodeAt(p.name.length - 1) % 200) + 20}`
  status.startTime = iso(s.since)
  status.conditions = [
    cond('PodReadyToStartContainers', true, s.since + 1000),
    cond(
      'Initialized',
      !creating,
      creating ? s.since : started,
      creating ? 'ContainersNotInitialized' : undefined,
      creating ? 'containers with incomplete status: [migrate]' : undefined,
    ),
    cond(
      'Ready',
      ready,
      ready ? started + 3000 : s.since,
      ready ? undefined : 'ContainersNotReady',
      ready ? undefined : unready,
    ),
    cond(
      'ContainersReady',
      ready,
      ready ? started + 3000 : s.since,
      ready ? undefined : 'ContainersNotReady',
      ready ? undefined : unready,
    ),
    cond('PodScheduled', true, s.since),
  ]
  status.initContainerStatuses = [
    {
      name: 'migrate',
      image: images.init,
      imageID: imageIdOf(images.init),
      containerID: `containerd://${hexDigest(`${uid}/migrate`)}`,
      ready: !creating,
      started: creating,
      restartCount: 0,
      state: creating
        ? { running: { startedAt: iso(s.since + 1000) } }
        : {
            terminated: { exitCode: 0, reason: 'Completed', startedAt: iso(s.since + 1000), finishedAt: iso(started) },
          },
    },
  ]
  const main: Record<string, unknown> = {
    name: w.name,
    image: images.app,
    imageID: '',
    ready,
    started: ready,
    restartCount: 0,
  }
  if (creating) main.state = { waiting: { reason: 'PodInitializing' } }
  else {
    main.imageID = imageIdOf(images.app)
    main.containerID = `containerd://${hexDigest(`${uid}/${w.name}/${s.kind === 'crashloop' ? s.restarts : 0}`)}`
  }
  if (s.kind === 'ready') main.state = { running: { startedAt: iso(started) } }
  if (s.kind === 'crashloop') {
    main.restartCount = s.restarts
    main.state = {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off ${s.backoffSeconds}s restarting failed container=${w.name} pod=${p.name}_${w.namespace}(${uid})`,
      },
    }
    main.lastState = {
      terminated: { exitCode: 1, reason: 'Error', startedAt: iso(s.lastFailAt - 1000), finishedAt: iso(s.lastFailAt) },
    }
  }
  status.containerStatuses = [main]
  return { edge: w.edge, apiVersion: 'v1', kind: 'Pod', metadata, spec, status }
}

/** Zero counts are absent from a workload's status (omitempty), as the API renders them. */
export function counts(c: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(c)) if (v !== 0) out[k] = v
  return out
}

export function namespace(edge: string, name: string): FleetObject {
  return {
    edge,
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: uidOf(`${edge}/Namespace/${name}`),
      labels: { 'kubernetes.io/metadata.name': name },
      creationTimestamp: iso(CREATED_AT - 86_400_000),
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }
}
