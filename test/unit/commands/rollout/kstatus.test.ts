/**
 * The kstatus rules, one case per rule (each case fails if its rule is removed or moved), checked
 * to cover every entry of the rule tables; then hostile objects, which get 'unknown', never a throw.
 */
import { describe, expect, it } from 'vitest'
import { computeHealth, GENERIC_RULES } from '../../../../src/commands/rollout/kstatus.js'
import { KIND_RULES, SCHEDULE_WINDOW_MS } from '../../../../src/commands/rollout/kstatus-kinds.js'
import { kindKey, MAX_LIST, type HealthResult } from '../../../../src/commands/rollout/live-object.js'
import { groupOf } from '../../../../src/model/target.js'

const NOW = Date.parse('2025-06-01T12:00:00Z')
const ago = (ms: number) => new Date(NOW - ms).toISOString()

interface Parts {
  metadata?: object
  spec?: object
  status?: object
}
const object = (apiVersion: string, kind: string, parts: Parts = {}) => ({
  apiVersion,
  kind,
  metadata: { name: 'web', namespace: 'shop', ...parts.metadata },
  spec: { ...parts.spec },
  status: { ...parts.status },
})
const cond = (type: string, status: string, reason = '', message = '') => ({ type, status, reason, message })
const notReady = [cond('Ready', 'False', 'Waiting')]

const AVAILABLE = [cond('Available', 'True'), cond('Progressing', 'True', 'NewReplicaSetAvailable')]
const deployment = (status: object = {}, spec: object = {}, metadata: object = {}, apiVersion = 'apps/v1') =>
  object(apiVersion, 'Deployment', {
    metadata: { generation: 2, ...metadata },
    spec: { replicas: 3, progressDeadlineSeconds: 600, ...spec },
    status: {
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: AVAILABLE,
      ...status,
    },
  })
const statefulSet = (status: object = {}, spec: object = {}) =>
  object('apps/v1', 'StatefulSet', {
    spec: { replicas: 3, updateStrategy: { type: 'RollingUpdate' }, ...spec },
    status: {
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'web-1',
      updateRevision: 'web-1',
      ...status,
    },
  })
const daemonSet = (status: object = {}, metadata: object = { generation: 1 }, apiVersion = 'apps/v1') =>
  object(apiVersion, 'DaemonSet', {
    metadata,
    status: {
      observedGeneration: 1,
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      updatedNumberScheduled: 3,
      numberAvailable: 3,
      numberReady: 3,
      ...status,
    },
  })
const replicaSet = (status: object = {}, apiVersion = 'apps/v1') =>
  object(apiVersion, 'ReplicaSet', {
    spec: { replicas: 2 },
    status: { replicas: 2, fullyLabeledReplicas: 2, availableReplicas: 2, readyReplicas: 2, ...status },
  })
const job = (status: object = {}, spec: object = {}) => object('batch/v1', 'Job', { spec, status })
const pod = (status: object, metadata: object = {}) => object('v1', 'Pod', { metadata, status })
const waiting = (name: string, reason: string) => ({ name, state: { waiting: { reason } } })
const unschedulable = cond('PodScheduled', 'False', 'Unschedulable', '0/3 nodes are available: 3 Insufficient cpu.')
const widget = (status: object, metadata: object = {}) => object('example.com/v1', 'Widget', { metadata, status })

const result =
  (status: HealthResult['status']) =>
  (reason: string): HealthResult => ({ status, reason })
const current = result('current')
const inProgress = result('in-progress')
const failed = result('failed')
const terminating = result('terminating')
const unknown = result('unknown')

/** [the rule it pins, the live object, what kstatus says]. */
const CASES: [string, unknown, HealthResult][] = [
  // Generic rules, in order.
  ['deletion timestamp', deployment({}, {}, { deletionTimestamp: ago(1000) }), terminating('being deleted')],
  [
    'deletion timestamp',
    deployment({ observedGeneration: 1 }, {}, { deletionTimestamp: ago(1000) }),
    terminating('being deleted'),
  ],
  [
    'observed generation',
    deployment({ observedGeneration: 1 }, {}, { generation: 2 }),
    inProgress('generation 2 observed 1'),
  ],
  [
    'Reconciling',
    widget({ conditions: [cond('Reconciling', 'True', 'Progressing'), cond('Ready', 'True')] }),
    inProgress('Reconciling: Progressing'),
  ],
  [
    'Reconciling',
    widget({ conditions: [cond('Reconciling', 'True', 'Progressing'), cond('Stalled', 'True', 'InstallFailed')] }),
    inProgress('Reconciling: Progressing'),
  ],
  [
    'Stalled',
    widget({ conditions: [cond('Stalled', 'True', 'InstallFailed'), cond('Ready', 'True')] }),
    failed('Stalled: InstallFailed'),
  ],
  [
    'Stalled',
    deployment({ conditions: [...AVAILABLE, cond('Stalled', 'True', '', 'quota exceeded')] }),
    failed('Stalled: quota exceeded'),
  ],
  // Deployment.
  ['apps/Deployment', deployment(), current('available 3/3')],
  [
    'apps/Deployment',
    deployment({ conditions: [cond('Progressing', 'False', 'ProgressDeadlineExceeded'), cond('Available', 'True')] }),
    failed('deadline exceeded'),
  ],
  ['apps/Deployment', deployment({ replicas: 1 }), inProgress('replicas 1/3')],
  // Release semantics, not kstatus's: a paused Deployment fails at once, whatever its counts.
  [
    'apps/Deployment',
    deployment({}, { paused: true }),
    failed('paused (spec.paused): it rolls out only once resumed, e.g. kubectl rollout resume'),
  ],
  ['apps/Deployment', deployment({}, { paused: null }), current('available 3/3')],
  ['apps/Deployment', deployment({ updatedReplicas: 1, availableReplicas: 1 }), inProgress('updated 1/3')],
  ['apps/Deployment', deployment({ replicas: 4 }), inProgress('old replicas terminating: 1')],
  ['apps/Deployment', deployment({ availableReplicas: 2 }), inProgress('available 2/3')],
  ['apps/Deployment', deployment({ readyReplicas: 2 }), inProgress('ready 2/3')],
  [
    'apps/Deployment',
    deployment({ conditions: [cond('Available', 'True')] }),
    inProgress('new ReplicaSet not available yet'),
  ],
  [
    'apps/Deployment',
    deployment({ conditions: [cond('Available', 'True')] }, { progressDeadlineSeconds: 2 ** 31 - 1 }),
    current('available 3/3'),
  ],
  ['apps/Deployment', deployment({ conditions: [AVAILABLE[1]] }), inProgress('Available? no')],
  [
    'apps/Deployment',
    deployment({ replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 }, { replicas: undefined }),
    current('available 1/1'),
  ],
  ['extensions/Deployment', deployment({ readyReplicas: 0 }, {}, {}, 'extensions/v1beta1'), inProgress('ready 0/3')],
  // StatefulSet.
  ['apps/StatefulSet', statefulSet(), current('ready 3/3')],
  // Release semantics, not kstatus's: OnDelete is judged on its updated and ready pods.
  [
    'apps/StatefulSet',
    statefulSet({ updatedReplicas: 1 }, { updateStrategy: { type: 'OnDelete' } }),
    inProgress('OnDelete: updated 1/3 (a pod takes the new template only when deleted)'),
  ],
  [
    'apps/StatefulSet',
    statefulSet({ updatedReplicas: 3, readyReplicas: 2 }, { updateStrategy: { type: 'OnDelete' } }),
    inProgress('OnDelete: ready 2/3 (a pod takes the new template only when deleted)'),
  ],
  [
    'apps/StatefulSet',
    statefulSet({ updatedReplicas: 3, readyReplicas: 3 }, { updateStrategy: { type: 'OnDelete' } }),
    current('OnDelete: updated and ready 3/3'),
  ],
  ['apps/StatefulSet', statefulSet({ replicas: 2, readyReplicas: 2 }), inProgress('replicas 2/3')],
  ['apps/StatefulSet', statefulSet({ readyReplicas: 2 }), inProgress('ready 2/3')],
  ['apps/StatefulSet', statefulSet({ replicas: 4 }), inProgress('extra replicas terminating: 1')],
  [
    'apps/StatefulSet',
    statefulSet({ updatedReplicas: 0 }, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } }),
    inProgress('updated 0/1 (partition 2)'),
  ],
  [
    'apps/StatefulSet',
    statefulSet(
      { updatedReplicas: 1, currentReplicas: 2, updateRevision: 'web-2' },
      { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } },
    ),
    current('updated 1 above partition 2'),
  ],
  ['apps/StatefulSet', statefulSet({ currentReplicas: 1 }), inProgress('current 1/3')],
  ['apps/StatefulSet', statefulSet({ updateRevision: 'web-2' }), inProgress('revision web-1, updating to web-2')],
  // DaemonSet.
  ['apps/DaemonSet', daemonSet(), current('ready 3/3')],
  ['apps/DaemonSet', daemonSet({}, {}), inProgress('no generation yet')],
  ['apps/DaemonSet', daemonSet({ observedGeneration: undefined }), inProgress('generation not observed yet')],
  ['apps/DaemonSet', daemonSet({ desiredNumberScheduled: undefined }), inProgress('desired count not reported yet')],
  ['apps/DaemonSet', daemonSet({ currentNumberScheduled: 2 }), inProgress('scheduled 2/3')],
  ['apps/DaemonSet', daemonSet({ updatedNumberScheduled: 2 }), inProgress('updated 2/3')],
  ['apps/DaemonSet', daemonSet({ numberAvailable: 2 }), inProgress('available 2/3')],
  ['apps/DaemonSet', daemonSet({ numberReady: 2 }), inProgress('ready 2/3')],
  [
    'extensions/DaemonSet',
    daemonSet({ numberReady: 1 }, { generation: 1 }, 'extensions/v1beta1'),
    inProgress('ready 1/3'),
  ],
  // ReplicaSet.
  ['apps/ReplicaSet', replicaSet(), current('available 2/2')],
  [
    'apps/ReplicaSet',
    replicaSet({ conditions: [cond('ReplicaFailure', 'True', 'FailedCreate')] }),
    inProgress('replica failure: FailedCreate'),
  ],
  ['apps/ReplicaSet', replicaSet({ fullyLabeledReplicas: 1 }), inProgress('labelled 1/2')],
  ['apps/ReplicaSet', replicaSet({ availableReplicas: 1 }), inProgress('available 1/2')],
  ['apps/ReplicaSet', replicaSet({ readyReplicas: 1 }), inProgress('ready 1/2')],
  ['apps/ReplicaSet', replicaSet({ replicas: 3 }), inProgress('extra replicas terminating: 1')],
  ['extensions/ReplicaSet', replicaSet({ readyReplicas: 0 }, 'extensions/v1beta1'), inProgress('ready 0/2')],
  // Job.
  [
    'batch/Job',
    job({ succeeded: 3, conditions: [cond('Complete', 'True')] }, { parallelism: 3 }),
    current('complete 3/3'),
  ],
  [
    'batch/Job',
    job({ failed: 6, conditions: [cond('Failed', 'True', 'BackoffLimitExceeded')] }),
    failed('job failed: BackoffLimitExceeded'),
  ],
  // Release semantics, not kstatus's: a Job passes only when Complete.
  [
    'batch/Job',
    job({ conditions: [cond('Suspended', 'True')] }, { suspend: true }),
    inProgress('suspended (spec.suspend)'),
  ],
  ['batch/Job', job({ conditions: [cond('Suspended', 'True')] }), inProgress('not started')],
  ['batch/Job', job({ startTime: ago(5000), active: 1 }), inProgress('running: 0/1 succeeded, 1 active, 0 failed')],
  // The rest of kstatus's kinds; "always ready" ones carry Ready=False, which the fallback would heed.
  ['batch/CronJob', object('batch/v1', 'CronJob', { status: { conditions: notReady } }), current('exists')],
  ['ConfigMap', object('v1', 'ConfigMap', { status: { conditions: notReady } }), current('exists')],
  ['Secret', object('v1', 'Secret', { status: { conditions: notReady } }), current('exists')],
  [
    'policy/PodDisruptionBudget',
    object('policy/v1', 'PodDisruptionBudget', { status: { conditions: notReady } }),
    current('exists'),
  ],
  ['PersistentVolumeClaim', object('v1', 'PersistentVolumeClaim', { status: { phase: 'Bound' } }), current('Bound')],
  [
    'PersistentVolumeClaim',
    object('v1', 'PersistentVolumeClaim', { status: { phase: 'Pending' } }),
    inProgress('Bound? no: Pending'),
  ],
  // Release semantics, beyond kstatus: a Lost claim fails at once.
  [
    'PersistentVolumeClaim',
    object('v1', 'PersistentVolumeClaim', { status: { phase: 'Lost' } }),
    failed('Lost: its volume is gone'),
  ],
  ['PersistentVolumeClaim', object('v1', 'PersistentVolumeClaim'), inProgress('Bound? no: no phase')],
  [
    'Service',
    object('v1', 'Service', { spec: { type: 'ClusterIP' }, status: { conditions: notReady } }),
    current('exists'),
  ],
  [
    'Service',
    object('v1', 'Service', { spec: { type: 'LoadBalancer', clusterIP: '10.0.0.7' } }),
    inProgress('no load-balancer address'),
  ],
  [
    'Service',
    object('v1', 'Service', { spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: [{ ports: [] }] } } }),
    inProgress('no load-balancer address'),
  ],
  [
    'Service',
    object('v1', 'Service', {
      spec: { type: 'LoadBalancer' },
      status: { loadBalancer: { ingress: [{ hostname: 'lb.example.net' }] } },
    }),
    current('load-balancer address assigned'),
  ],
  [
    'Service',
    object('v1', 'Service', { spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: 'x' } } }),
    unknown('status.loadBalancer.ingress is not a list'),
  ],
  // Pod.
  ['Pod', pod({ phase: 'Running', conditions: [cond('Ready', 'True')] }), current('Ready')],
  [
    'Pod',
    pod({ phase: 'Running', containerStatuses: [waiting('web', 'CrashLoopBackOff')] }),
    failed('CrashLoopBackOff (container web)'),
  ],
  [
    'Pod',
    pod({
      phase: 'Running',
      containerStatuses: [
        waiting('web', 'CrashLoopBackOff'),
        waiting('proxy', 'ContainerCreating'),
        waiting('log', 'CrashLoopBackOff'),
      ],
    }),
    failed('CrashLoopBackOff (containers web, log)'),
  ],
  [
    'Pod',
    pod({ phase: 'Pending', initContainerStatuses: [waiting('migrate', 'CrashLoopBackOff')] }),
    failed('CrashLoopBackOff (container migrate)'),
  ],
  // Release semantics, beyond kstatus: an image that cannot be pulled fails without waiting.
  [
    'Pod',
    pod({ phase: 'Pending', containerStatuses: [waiting('web', 'ImagePullBackOff')] }),
    failed('ImagePullBackOff (container web)'),
  ],
  [
    'Pod',
    pod({ phase: 'Pending', containerStatuses: [waiting('web', 'InvalidImageName')] }),
    failed('InvalidImageName (container web)'),
  ],
  ['Pod', pod({ phase: 'Pending', containerStatuses: [waiting('web', 'ErrImagePull')] }), inProgress('Pending')],
  [
    'Pod',
    pod({ phase: 'Running', containerStatuses: [waiting('web', 'ContainerCreating')] }),
    inProgress('running, Ready? no'),
  ],
  [
    'Pod',
    pod({ phase: 'Pending', conditions: [unschedulable] }, { creationTimestamp: ago(60_000) }),
    failed('unschedulable: 0/3 nodes are available: 3 Insufficient cpu.'),
  ],
  [
    'Pod',
    pod({ phase: 'Pending', conditions: [unschedulable] }, { creationTimestamp: ago(SCHEDULE_WINDOW_MS - 1) }),
    inProgress('not scheduled yet'),
  ],
  ['Pod', pod({ phase: 'Pending' }), inProgress('Pending')],
  ['Pod', pod({ phase: 'Succeeded' }), current('succeeded')],
  // Release semantics, not kstatus's: a failed pod did not roll out.
  ['Pod', pod({ phase: 'Failed' }), failed('phase Failed')],
  ['Pod', pod({ phase: 'Failed', reason: 'Evicted' }), failed('phase Failed: Evicted')],
  ['Pod', pod({}), inProgress('phase not reported yet')],
  ['Pod', pod({ phase: 'Sideways' }), unknown('phase Sideways')],
  // CustomResourceDefinition.
  [
    'apiextensions.k8s.io/CustomResourceDefinition',
    crd([cond('NamesAccepted', 'True'), cond('Established', 'True')]),
    current('Established'),
  ],
  [
    'apiextensions.k8s.io/CustomResourceDefinition',
    crd([cond('NamesAccepted', 'False', 'ListKindConflict')]),
    failed('names not accepted: ListKindConflict'),
  ],
  [
    'apiextensions.k8s.io/CustomResourceDefinition',
    crd([cond('Established', 'False', 'NotAccepted')]),
    failed('not established: NotAccepted'),
  ],
  [
    'apiextensions.k8s.io/CustomResourceDefinition',
    crd([cond('Established', 'False', 'Installing')]),
    inProgress('installing'),
  ],
  // Any other kind: its Ready condition, else current once it exists.
  ['Ready condition', widget({ conditions: [cond('Ready', 'True')] }), current('Ready')],
  ['Ready condition', widget({ conditions: [cond('Ready', 'False', 'Waiting')] }), inProgress('Ready? no: Waiting')],
  [
    'Ready condition',
    widget({ conditions: [cond('Ready', 'Unknown', '', 'dependency not ready')] }),
    inProgress('Ready? unknown: dependency not ready'),
  ],
  ['Ready condition', widget({}), current('exists')],
]

function crd(conditions: object[]) {
  return object('apiextensions.k8s.io/v1', 'CustomResourceDefinition', { status: { conditions } })
}

describe('computeHealth: kstatus rules', () => {
  it.each(
    CASES.map(([rule, live, want], i) => ({ name: `${rule} #${i}: ${want.status}, ${want.reason}`, live, want })),
  )('$name', ({ live, want }) => {
    expect(computeHealth(live, NOW)).toEqual(want)
  })

  it('has cases for every generic rule and every kind in the table', () => {
    const pinned = new Set(CASES.map(([rule]) => rule))
    for (const [name] of GENERIC_RULES) expect(pinned, name).toContain(name)
    for (const key of KIND_RULES.keys()) expect(pinned, key).toContain(key)
    // Each kind case's object is of that kind, so the case exercises the rule it names.
    for (const [rule, live] of CASES) {
      if (!KIND_RULES.has(rule)) continue
      const { apiVersion, kind } = live as { apiVersion: string; kind: string }
      expect(kindKey(groupOf(apiVersion), kind)).toBe(rule)
    }
  })
})

describe('computeHealth: hostile objects', () => {
  it.each([
    [null, 'not an object'],
    [42, 'not an object'],
    ['Deployment', 'not an object'],
    [[deployment()], 'not an object'],
    [{}, 'no kind'],
    [{ kind: 7, status: {} }, 'no kind'],
    [{ ...deployment(), status: { conditions: 'all good' } }, 'status.conditions is not a list'],
    [
      { ...deployment(), status: { conditions: Array.from({ length: 100_000 }, () => cond('Ready', 'True')) } },
      `status.conditions has 100000 entries (more than ${MAX_LIST})`,
    ],
    [deployment({}, {}, { generation: '2' }), 'metadata.generation is not a whole number'],
    [deployment({ observedGeneration: 1.5 }), 'status.observedGeneration is not a whole number'],
    [
      pod({ phase: 'Running', containerStatuses: Array.from({ length: MAX_LIST + 1 }, () => ({})) }),
      `status.containerStatuses has ${MAX_LIST + 1} entries (more than ${MAX_LIST})`,
    ],
  ])('%# says unknown: %s', (live, reason) => {
    expect(computeHealth(live, NOW)).toEqual(unknown(reason))
  })

  it('reads wrongly typed fields as absent, as kstatus does, and skips malformed conditions', () => {
    expect(computeHealth({ ...deployment(), spec: ['x'], status: 5 }, NOW)).toEqual({
      status: 'in-progress',
      reason: 'replicas 0/1',
    })
    expect(computeHealth(deployment({ readyReplicas: '3' }), NOW)).toEqual({
      status: 'in-progress',
      reason: 'ready 0/3',
    })
    expect(
      computeHealth(widget({ conditions: [null, 5, { type: 7 }, { status: 'True' }, cond('Ready', 'True')] }), NOW),
    ).toEqual({
      status: 'current',
      reason: 'Ready',
    })
    expect(computeHealth({ kind: 'Widget', metadata: 'x', status: { conditions: [] } }, NOW)).toEqual({
      status: 'current',
      reason: 'exists',
    })
  })

  it('does not read inherited keys: "__proto__" and "constructor" are plain data', () => {
    const live = JSON.parse(
      '{"kind":"Pod","apiVersion":"v1","status":{"__proto__":{"phase":"Succeeded"},"constructor":{"phase":"x"}}}',
    )
    expect(computeHealth(live, NOW)).toEqual({ status: 'in-progress', reason: 'phase not reported yet' })
    expect(
      computeHealth({ kind: 'Pod', apiVersion: 'v1', status: Object.create({ phase: 'Succeeded' }) }, NOW),
    ).toEqual({
      status: 'in-progress',
      reason: 'phase not reported yet',
    })
  })

  it('flattens and clips hub text to one short line', () => {
    const reason = `Bad\nthing\u001b[31m ${'x'.repeat(5000)}`
    const result = computeHealth(widget({ conditions: [cond('Stalled', 'True', reason)] }), NOW)
    expect(result.status).toBe('failed')
    expect(result.reason).toMatch(/^Stalled: Bad thing \[31m x+…$/)
    expect(result.reason.length).toBeLessThanOrEqual(100)
  })

  it('never throws on random JSON shapes, and always answers one of its statuses', () => {
    let seed = 7
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    const values = (depth: number): unknown => {
      const pick = Math.floor(random() * 8)
      if (depth > 3 || pick < 3)
        return [null, true, -1, 0, 3, 2 ** 53, 'True', 'Running', 'LoadBalancer', '', 'OnDelete'][
          Math.floor(random() * 11)
        ]
      if (pick < 5) return Array.from({ length: Math.floor(random() * 4) }, () => values(depth + 1))
      const keys = [
        'kind',
        'apiVersion',
        'metadata',
        'spec',
        'status',
        'conditions',
        'type',
        'phase',
        'replicas',
        'generation',
        'observedGeneration',
        'reason',
        'state',
      ]
      return Object.fromEntries(keys.filter(() => random() < 0.4).map((key) => [key, values(depth + 1)]))
    }
    for (const kind of [...KIND_RULES.keys(), 'Widget']) {
      const [group, name] = kind.includes('/') ? kind.split('/') : ['', kind]
      for (let i = 0; i < 100; i++) {
        const live = {
          apiVersion: group ? `${group}/v1` : 'v1',
          kind: name,
          metadata: values(1),
          spec: values(1),
          status: values(1),
        }
        const result = computeHealth(live, NOW)
        expect(['current', 'in-progress', 'failed', 'terminating', 'unknown']).toContain(result.status)
        expect(typeof result.reason).toBe('string')
      }
    }
  })
})
