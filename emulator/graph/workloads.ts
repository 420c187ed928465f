// Workload builders for the emulator's fleets: each workload comes with what its controller
// would have made (ReplicaSet and Pods, or Pods, or a Job and its Pod), owner references, the
// pod template's volumes, env, service account and labels on every Pod, and statuses complete
// enough for a rollout gate (generation and observedGeneration, replica counts, revisions,
// conditions, pod phases and ready container statuses).
import type { Builder, FleetObject, ObjectMeta, OwnerReference } from './fleet.ts'

function ownerRef(o: FleetObject): OwnerReference {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name,
    uid: o.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  }
}

function podSuffix(seed: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789'
  let s = ''
  let x = (seed * 2654435761) >>> 0
  for (let i = 0; i < 5; i++) {
    s += alphabet[x % alphabet.length]
    x = Math.floor(x / alphabet.length) + 7919 * (i + 1)
  }
  return s
}

export function container(name: string, image: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, image, ports: [{ containerPort: 8080, name: 'http' }], ...extra }
}

type Condition = { type: string; status: string; reason?: string; lastTransitionTime: string }

const cond = (type: string, status: string, since: string, reason?: string): Condition => ({
  type,
  status,
  ...(reason ? { reason } : {}),
  lastTransitionTime: since,
})

/** The status a kubelet reports for a Pod of `podSpec`: Running and ready, or Pending and not. */
function podStatus(
  podSpec: Record<string, unknown>,
  ready: boolean,
  since: string,
  phase?: string,
): Record<string, unknown> {
  const containers = Array.isArray(podSpec.containers) ? (podSpec.containers as { name: string; image: string }[]) : []
  const done = phase === 'Succeeded'
  const flag = ready ? 'True' : 'False'
  return {
    phase: phase ?? (ready ? 'Running' : 'Pending'),
    conditions: [
      cond('Initialized', 'True', since),
      cond('Ready', done ? 'False' : flag, since, done ? 'PodCompleted' : ready ? undefined : 'ContainersNotReady'),
      cond(
        'ContainersReady',
        done ? 'False' : flag,
        since,
        done ? 'PodCompleted' : ready ? undefined : 'ContainersNotReady',
      ),
      cond('PodScheduled', 'True', since),
    ],
    startTime: since,
    containerStatuses: containers.map((c) => ({
      name: c.name,
      image: c.image,
      ready: ready && !done,
      started: ready && !done,
      restartCount: 0,
      state: done
        ? { terminated: { exitCode: 0, reason: 'Completed', startedAt: since, finishedAt: since } }
        : ready
          ? { running: { startedAt: since } }
          : { waiting: { reason: 'ContainerCreating' } },
    })),
  }
}

export type WorkloadOpts = {
  replicas: number
  hash: string
  /** Labels of the pod template (and of the workload); `app: <name>` is added. */
  labels?: Record<string, string>
  /** Labels of the workload object only (e.g. a group label). */
  ownLabels?: Record<string, string>
  annotations?: Record<string, string>
  podSpec: Record<string, unknown>
  /** The selector's matchLabels; default `{app: <name>}`. */
  matchLabels?: Record<string, string>
  podSuffixes?: string[]
  unhealthy?: boolean
}

/** Deployment → ReplicaSet → Pods, with owner references, the pod template on every Pod, and rolled-out statuses. */
export function deployment(
  b: Builder,
  edge: string,
  ns: string,
  name: string,
  w: WorkloadOpts,
): { deploy: FleetObject; rs: FleetObject; pods: FleetObject[] } {
  const labels = { app: name, ...w.labels }
  const template = { metadata: { labels }, spec: w.podSpec }
  const ready = w.unhealthy ? 0 : w.replicas
  const deployMeta: Partial<ObjectMeta> = {
    labels: { ...labels, ...w.ownLabels },
    generation: 1,
    annotations: { 'deployment.kubernetes.io/revision': '1', ...w.annotations },
  }
  const matchLabels = w.matchLabels ?? { app: name }
  const deploy = b.add(edge, 'Deployment', name, ns, {
    metadata: deployMeta,
    spec: { replicas: w.replicas, selector: { matchLabels }, template, strategy: { type: 'RollingUpdate' } },
    status: {},
  })
  const since = deploy.metadata.creationTimestamp
  deploy.status = {
    observedGeneration: 1,
    replicas: w.replicas,
    updatedReplicas: w.replicas,
    readyReplicas: ready,
    availableReplicas: ready,
    ...(ready < w.replicas ? { unavailableReplicas: w.replicas - ready } : {}),
    conditions: w.unhealthy
      ? [
          cond('Available', 'False', since, 'MinimumReplicasUnavailable'),
          cond('Progressing', 'True', since, 'ReplicaSetUpdated'),
        ]
      : [
          cond('Available', 'True', since, 'MinimumReplicasAvailable'),
          cond('Progressing', 'True', since, 'NewReplicaSetAvailable'),
        ],
  }
  const podLabels = { ...labels, 'pod-template-hash': w.hash }
  const rs = b.add(edge, 'ReplicaSet', `${name}-${w.hash}`, ns, {
    metadata: {
      labels: podLabels,
      ownerReferences: [ownerRef(deploy)],
      generation: 1,
      annotations: { 'deployment.kubernetes.io/revision': '1' },
    },
    spec: {
      replicas: w.replicas,
      selector: { matchLabels: { ...matchLabels, 'pod-template-hash': w.hash } },
      template: { ...template, metadata: { labels: podLabels } },
    },
    status: {
      observedGeneration: 1,
      replicas: w.replicas,
      fullyLabeledReplicas: w.replicas,
      readyReplicas: ready,
      availableReplicas: ready,
    },
  })
  const pods: FleetObject[] = []
  for (let i = 0; i < w.replicas; i++) {
    const suffix = w.podSuffixes?.[i] ?? podSuffix(name.length + i * 31 + w.hash.length)
    const spec = { ...w.podSpec, nodeName: `${edge}-node-${i % 3}` }
    pods.push(
      b.add(edge, 'Pod', `${name}-${w.hash}-${suffix}`, ns, {
        metadata: { labels: podLabels, ownerReferences: [ownerRef(rs)] },
        spec,
        status: podStatus(spec, !w.unhealthy, since),
      }),
    )
  }
  return { deploy, rs, pods }
}

/** StatefulSet → Pods `<name>-<i>`, each mounting its claim `<claim>-<name>-<i>` when `claim` is given. */
export function statefulSet(
  b: Builder,
  edge: string,
  ns: string,
  name: string,
  w: { replicas: number; podSpec: Record<string, unknown>; claim?: string; labels?: Record<string, string> },
): { sts: FleetObject; pods: FleetObject[] } {
  const labels = { app: name, ...w.labels }
  const revision = `${name}-5b6c7d8e9f`
  const sts = b.add(edge, 'StatefulSet', name, ns, {
    metadata: { labels, generation: 1 },
    spec: {
      replicas: w.replicas,
      serviceName: name,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels }, spec: w.podSpec },
      ...(w.claim
        ? {
            volumeClaimTemplates: [
              {
                metadata: { name: w.claim },
                spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } },
              },
            ],
          }
        : {}),
    },
    status: {
      observedGeneration: 1,
      replicas: w.replicas,
      readyReplicas: w.replicas,
      currentReplicas: w.replicas,
      updatedReplicas: w.replicas,
      availableReplicas: w.replicas,
      currentRevision: revision,
      updateRevision: revision,
      collisionCount: 0,
    },
  })
  const pods: FleetObject[] = []
  for (let i = 0; i < w.replicas; i++) {
    const volumes = [
      ...((w.podSpec.volumes as unknown[] | undefined) ?? []),
      ...(w.claim ? [{ name: w.claim, persistentVolumeClaim: { claimName: `${w.claim}-${name}-${i}` } }] : []),
    ]
    const spec = { ...w.podSpec, ...(volumes.length ? { volumes } : {}), nodeName: `${edge}-node-${i % 3}` }
    pods.push(
      b.add(edge, 'Pod', `${name}-${i}`, ns, {
        metadata: {
          labels: {
            ...labels,
            'controller-revision-hash': revision,
            'statefulset.kubernetes.io/pod-name': `${name}-${i}`,
          },
          ownerReferences: [ownerRef(sts)],
        },
        spec,
        status: podStatus(spec, true, sts.metadata.creationTimestamp),
      }),
    )
  }
  return { sts, pods }
}

/** DaemonSet → one Pod per node. */
export function daemonSet(
  b: Builder,
  edge: string,
  ns: string,
  name: string,
  w: { nodes: number; podSpec: Record<string, unknown> },
): FleetObject {
  const labels = { app: name }
  const ds = b.add(edge, 'DaemonSet', name, ns, {
    metadata: { labels, generation: 1 },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: w.podSpec } },
    status: {
      observedGeneration: 1,
      desiredNumberScheduled: w.nodes,
      currentNumberScheduled: w.nodes,
      updatedNumberScheduled: w.nodes,
      numberReady: w.nodes,
      numberAvailable: w.nodes,
      numberMisscheduled: 0,
    },
  })
  for (let i = 0; i < w.nodes; i++) {
    const spec = { ...w.podSpec, nodeName: `${edge}-node-${i}` }
    b.add(edge, 'Pod', `${name}-${podSuffix(100 + i)}`, ns, {
      metadata: { labels: { ...labels, 'controller-revision-hash': '6d5c4b3a2' }, ownerReferences: [ownerRef(ds)] },
      spec,
      status: podStatus(spec, true, ds.metadata.creationTimestamp),
    })
  }
  return ds
}

/** CronJob → its last Job (complete) → that Job's Pod (Succeeded). */
export function cronJob(
  b: Builder,
  edge: string,
  ns: string,
  name: string,
  w: { schedule: string; podSpec: Record<string, unknown> },
): FleetObject {
  const labels = { app: name }
  const jobTemplate = {
    spec: { template: { metadata: { labels }, spec: { restartPolicy: 'OnFailure', ...w.podSpec } } },
  }
  const cj = b.add(edge, 'CronJob', name, ns, {
    metadata: { labels, generation: 1 },
    spec: { schedule: w.schedule, jobTemplate },
  })
  const since = cj.metadata.creationTimestamp
  cj.status = { lastScheduleTime: since, lastSuccessfulTime: since }
  const jobName = `${name}-28903680`
  const job = b.add(edge, 'Job', jobName, ns, {
    metadata: {
      labels: { ...labels, 'batch.kubernetes.io/job-name': jobName },
      ownerReferences: [ownerRef(cj)],
      generation: 1,
    },
    spec: { completions: 1, parallelism: 1, backoffLimit: 6, template: jobTemplate.spec.template },
    status: {
      succeeded: 1,
      active: 0,
      failed: 0,
      ready: 0,
      startTime: since,
      completionTime: since,
      conditions: [cond('SuccessCriteriaMet', 'True', since), cond('Complete', 'True', since)],
    },
  })
  const spec = { ...jobTemplate.spec.template.spec, nodeName: `${edge}-node-0` }
  b.add(edge, 'Pod', `${jobName}-${podSuffix(7 + name.length)}`, ns, {
    metadata: { labels: { ...labels, 'batch.kubernetes.io/job-name': jobName }, ownerReferences: [ownerRef(job)] },
    spec,
    status: podStatus(spec, true, since, 'Succeeded'),
  })
  return cj
}
