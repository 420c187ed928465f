/**
 * At the expected revision (generation observed, the manifest's images running), the graph's
 * default sync list, and the verdict that combines them with kstatus's health for one target.
 */
import { describe, expect, it } from 'vitest'
import { MAX_LIST } from '../../../../src/steps/rollout/live-object.js'
import { atExpectedRevision, rolloutState, syncedByDefault } from '../../../../src/steps/rollout/revision.js'

const NOW = Date.parse('2025-06-01T12:00:00Z')

const container = (name: string, image: string, extra: object = {}) => ({ name, image, ...extra })
const podSpec = (containers: unknown[], initContainers?: unknown[]) => ({ containers, ...(initContainers ? { initContainers } : {}) })
const WEB = [container('web', 'registry/web:1.5')]
const MIGRATE = [container('migrate', 'registry/migrate:2')]

/** A manifest: no status, and only what the author wrote. */
const manifest = (apiVersion: string, kind: string, spec: object) => ({ apiVersion, kind, metadata: { name: 'web', namespace: 'shop' }, spec })
const workload = (apiVersion: string, kind: string, pod: object) => manifest(apiVersion, kind, { template: { spec: pod } })
/** The same object as the graph stores it: defaulted fields added, generation observed. */
const live = (expected: ReturnType<typeof manifest>, spec: object = expected.spec, status: object = {}, generation = 4) => ({
  ...expected,
  metadata: { ...expected.metadata, generation, uid: 'u-1' },
  spec,
  status: { observedGeneration: 4, ...status } as Record<string, unknown>,
})

const deployment = workload('apps/v1', 'Deployment', podSpec(WEB, MIGRATE))
const HEALTHY = {
  replicas: 3,
  updatedReplicas: 3,
  readyReplicas: 3,
  availableReplicas: 3,
  conditions: [
    { type: 'Available', status: 'True' },
    { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
  ],
}
const healthyDeployment = (pod: object = podSpec(WEB, MIGRATE)) =>
  live(deployment, { replicas: 3, progressDeadlineSeconds: 600, template: { spec: pod } }, HEALTHY)

describe('atExpectedRevision', () => {
  it('is at the revision when every image matches, whatever else the API server defaulted or sidecars were added', () => {
    const defaulted = podSpec(
      [container('web', 'registry/web:1.5', { imagePullPolicy: 'IfNotPresent', resources: {} }), container('istio-proxy', 'istio/proxyv2:1.22')],
      [container('migrate', 'registry/migrate:2', { terminationMessagePath: '/dev/termination-log' })],
    )
    expect(atExpectedRevision(deployment, live(deployment, { replicas: 1, template: { spec: defaulted } }))).toEqual({
      atRevision: true,
      reason: '2 images match',
    })
  })

  it('names the image a container still runs', () => {
    const old = podSpec([container('web', 'registry/web:1.4')], MIGRATE)
    expect(atExpectedRevision(deployment, live(deployment, { template: { spec: old } }))).toEqual({
      atRevision: false,
      reason: 'image still registry/web:1.4 (container web)',
    })
  })

  it('names the image an init container still runs', () => {
    const old = podSpec(WEB, [container('migrate', 'registry/migrate:1')])
    expect(atExpectedRevision(deployment, live(deployment, { template: { spec: old } }))).toEqual({
      atRevision: false,
      reason: 'image still registry/migrate:1 (init container migrate)',
    })
  })

  it('says which container the live object does not have yet', () => {
    expect(atExpectedRevision(deployment, live(deployment, { template: { spec: podSpec([], MIGRATE) } }))).toEqual({
      atRevision: false,
      reason: 'no container web yet',
    })
  })

  it('is behind while the controller has not observed the latest generation, images aside', () => {
    expect(atExpectedRevision(deployment, live(deployment, deployment.spec, {}, 5))).toEqual({ atRevision: false, reason: 'generation 5 observed 4' })
  })

  it.each([
    ['StatefulSet', workload('apps/v1', 'StatefulSet', podSpec(WEB)), ['template', 'spec']],
    ['DaemonSet', workload('apps/v1', 'DaemonSet', podSpec(WEB)), ['template', 'spec']],
    ['ReplicaSet', workload('apps/v1', 'ReplicaSet', podSpec(WEB)), ['template', 'spec']],
    ['Job', workload('batch/v1', 'Job', podSpec(WEB)), ['template', 'spec']],
    ['CronJob', manifest('batch/v1', 'CronJob', { jobTemplate: { spec: { template: { spec: podSpec(WEB) } } } }), ['jobTemplate', 'spec', 'template', 'spec']],
    ['Pod', manifest('v1', 'Pod', podSpec(WEB)), []],
  ])("compares a %s's pod spec where that kind keeps it", (_kind, expected, path) => {
    const nest = (value: object) => path.reduceRight<object>((inner, key) => ({ [key]: inner }), value)
    expect(atExpectedRevision(expected, live(expected, nest(podSpec([container('web', 'registry/web:1.4')]))))).toEqual({
      atRevision: false,
      reason: 'image still registry/web:1.4 (container web)',
    })
    expect(atExpectedRevision(expected, live(expected, nest(podSpec(WEB))))).toEqual({ atRevision: true, reason: 'image matches' })
  })

  it('compares no spec field of a kind without a pod template', () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { a: '1' } }
    expect(atExpectedRevision(configMap, { ...configMap, data: { a: '2' } })).toEqual({ atRevision: true, reason: 'generation observed' })
  })

  it('is behind, with what was wrong, for malformed or oversized container lists, and skips nameless or imageless containers', () => {
    const huge = Array.from({ length: MAX_LIST + 1 }, (_, i) => container(`c${i}`, 'x'))
    expect(atExpectedRevision(workload('apps/v1', 'Deployment', podSpec(huge)), healthyDeployment())).toEqual({
      atRevision: false,
      reason: `expected containers has ${MAX_LIST + 1} entries (more than ${MAX_LIST})`,
    })
    expect(atExpectedRevision(deployment, healthyDeployment({ containers: 'web', initContainers: MIGRATE }))).toEqual({
      atRevision: false,
      reason: 'live containers is not a list',
    })
    expect(atExpectedRevision(deployment, live(deployment, deployment.spec, {}, '4' as unknown as number))).toEqual({
      atRevision: false,
      reason: 'metadata.generation is not a whole number',
    })
    const sloppy = workload('apps/v1', 'Deployment', podSpec([null, 5, { name: 'web' }, { image: 'x' }, container('web', 'registry/web:1.5')]))
    expect(atExpectedRevision(sloppy, healthyDeployment(podSpec([null, { name: 3 }, ...WEB])))).toEqual({ atRevision: true, reason: 'image matches' })
    for (const garbage of [null, 5, 'x', [], {}]) {
      expect(atExpectedRevision(garbage, garbage)).toEqual({ atRevision: true, reason: 'generation observed' })
      expect(atExpectedRevision(deployment, garbage)).toEqual({ atRevision: false, reason: 'no init container migrate yet' })
    }
  })
})

describe('syncedByDefault', () => {
  it.each([
    ['', 'Pod'],
    ['', 'Service'],
    ['', 'ConfigMap'],
    ['', 'PersistentVolumeClaim'],
    ['apps', 'Deployment'],
    ['apps', 'ReplicaSet'],
    ['apps', 'StatefulSet'],
    ['apps', 'DaemonSet'],
    ['batch', 'Job'],
    ['networking.k8s.io', 'Ingress'],
    ['autoscaling', 'HorizontalPodAutoscaler'],
    ['rbac.authorization.k8s.io', 'Role'],
    ['rbac.authorization.k8s.io', 'ClusterRoleBinding'],
    ['apiextensions.k8s.io', 'CustomResourceDefinition'],
    ['apps', 'deployments'],
    ['', 'pvc'],
  ])('syncs %s/%s', (group, kind) => {
    expect(syncedByDefault(group, kind)).toBe(true)
  })

  it.each([
    ['', 'Secret'],
    ['', 'Event'],
    ['events.k8s.io', 'Event'],
    ['helm.toolkit.fluxcd.io', 'HelmRelease'],
    ['kustomize.toolkit.fluxcd.io', 'Kustomization'],
    ['argoproj.io', 'Application'],
    ['argoproj.io', 'Rollout'],
    ['', 'Deployment'],
    ['example.com', 'Pod'],
    ['', 'constructor'],
    ['__proto__', 'Pod'],
  ])('does not sync %s/%s', (group, kind) => {
    expect(syncedByDefault(group, kind)).toBe(false)
  })
})

describe('rolloutState', () => {
  it('is rolled out when healthy at the expected images', () => {
    expect(rolloutState(deployment, healthyDeployment(), NOW)).toEqual({ state: 'rolled-out', reason: 'available 3/3' })
  })

  it('is in progress at the old images, however healthy', () => {
    expect(rolloutState(deployment, healthyDeployment(podSpec([container('web', 'registry/web:1.4')], MIGRATE)), NOW)).toEqual({
      state: 'in-progress',
      reason: 'image still registry/web:1.4 (container web)',
    })
  })

  it("reports the old revision's failure as the new one not arrived yet", () => {
    const stuck = healthyDeployment(podSpec([container('web', 'registry/web:1.4')], MIGRATE))
    stuck.status.conditions = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }]
    expect(rolloutState(deployment, stuck, NOW)).toEqual({ state: 'in-progress', reason: 'image still registry/web:1.4 (container web)' })
  })

  it("is failed or in progress at the expected images as kstatus says, with kstatus's reason", () => {
    const stuck = healthyDeployment()
    stuck.status.conditions = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }]
    expect(rolloutState(deployment, stuck, NOW)).toEqual({ state: 'failed', reason: 'deadline exceeded' })
    const rolling = healthyDeployment()
    rolling.status.readyReplicas = 2
    expect(rolloutState(deployment, rolling, NOW)).toEqual({ state: 'in-progress', reason: 'ready 2/3' })
  })

  it('is terminating when the live object is being deleted, whatever its images', () => {
    const deleting = healthyDeployment(podSpec([container('web', 'registry/web:1.4')]))
    Object.assign(deleting.metadata, { deletionTimestamp: '2025-06-01T11:59:00Z' })
    expect(rolloutState(deployment, deleting, NOW)).toEqual({ state: 'terminating', reason: 'being deleted' })
  })

  it('treats an absent object of a synced kind as not in the graph yet, and of any other kind as not synced', () => {
    expect(rolloutState(deployment, undefined, NOW)).toEqual({ state: 'in-progress', reason: 'not in the graph yet' })
    expect(rolloutState(manifest('helm.toolkit.fluxcd.io/v2', 'HelmRelease', {}), undefined, NOW)).toEqual({
      state: 'unknown',
      reason: 'not synced by the graph (helm.toolkit.fluxcd.io/HelmRelease)',
    })
    expect(rolloutState(manifest('v1', 'Secret', {}), null, NOW)).toEqual({ state: 'unknown', reason: 'not synced by the graph (Secret)' })
  })

  it('is unknown, with what was wrong, for a malformed expected or live object', () => {
    expect(rolloutState({ apiVersion: 'v1' }, healthyDeployment(), NOW)).toEqual({ state: 'unknown', reason: 'expected object has no kind' })
    expect(rolloutState(['Deployment'], healthyDeployment(), NOW)).toEqual({ state: 'unknown', reason: 'expected object has no kind' })
    expect(rolloutState(deployment, 'Deployment', NOW)).toEqual({ state: 'unknown', reason: 'not an object' })
    expect(rolloutState(deployment, { ...healthyDeployment(), status: { conditions: {} } }, NOW)).toEqual({
      state: 'unknown',
      reason: 'status.conditions is not a list',
    })
  })
})
