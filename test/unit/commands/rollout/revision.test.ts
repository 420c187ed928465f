/**
 * The verdict for one target on one edge: synced with the manifest first, then the generation
 * observed, then health (./synced.test.ts has each comparison rule and normalisation).
 */
import { describe, expect, it } from 'vitest'
import { rolloutState } from '../../../../src/commands/rollout/revision.js'

const NOW = Date.parse('2025-06-01T12:00:00Z')

const container = (name: string, image: string, extra: object = {}) => ({ name, image, ...extra })
const podSpec = (containers: unknown[], initContainers?: unknown[]) => ({
  containers,
  ...(initContainers ? { initContainers } : {}),
})
const WEB = [container('web', 'registry/web:1.5')]
const MIGRATE = [container('migrate', 'registry/migrate:2')]

/** A manifest: no status, and only what the author wrote. */
const manifest = (apiVersion: string, kind: string, spec: object) => ({
  apiVersion,
  kind,
  metadata: { name: 'web', namespace: 'shop' },
  spec,
})
const workload = (apiVersion: string, kind: string, pod: object) =>
  manifest(apiVersion, kind, { template: { spec: pod } })
/** The same object as the graph stores it: defaulted fields added, generation observed. */
const live = (
  expected: ReturnType<typeof manifest>,
  spec: object = expected.spec,
  status: object = {},
  generation = 4,
) => ({
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

describe('rolloutState', () => {
  it('is rolled out when healthy at the expected images', () => {
    expect(rolloutState(deployment, healthyDeployment(), NOW)).toEqual({ state: 'rolled-out', reason: 'available 3/3' })
  })

  const OLD =
    'not synced: spec.template.spec.containers[web].image is "registry/web:1.4", the manifest sets "registry/web:1.5"'

  it('is in progress at the old images, however healthy', () => {
    expect(
      rolloutState(deployment, healthyDeployment(podSpec([container('web', 'registry/web:1.4')], MIGRATE)), NOW),
    ).toEqual({
      state: 'in-progress',
      reason: OLD,
    })
  })

  it('is in progress when only an env value differs, naming the field and both values', () => {
    const want = workload(
      'apps/v1',
      'Deployment',
      podSpec([container('web', 'registry/web:1.5', { env: [{ name: 'LOG', value: 'debug' }] })]),
    )
    const have = healthyDeployment(
      podSpec([container('web', 'registry/web:1.5', { env: [{ name: 'LOG', value: 'info' }] })]),
    )
    expect(rolloutState(want, have, NOW)).toEqual({
      state: 'in-progress',
      reason: 'not synced: spec.template.spec.containers[web].env[LOG].value is "info", the manifest sets "debug"',
    })
  })

  it("reports the old revision's failure as the new one not arrived yet", () => {
    const stuck = healthyDeployment(podSpec([container('web', 'registry/web:1.4')], MIGRATE))
    stuck.status.conditions = [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }]
    expect(rolloutState(deployment, stuck, NOW)).toEqual({ state: 'in-progress', reason: OLD })
  })

  it('checks the generation after the spec and before health: synced but not yet observed is in progress', () => {
    expect(rolloutState(deployment, live(deployment, healthyDeployment().spec, HEALTHY, 5), NOW)).toEqual({
      state: 'in-progress',
      reason: 'generation 5 observed 4',
    })
  })

  it('reads a null the projection gave for a missing leaf as missing', () => {
    const answered = healthyDeployment()
    Object.assign(answered.metadata, { deletionTimestamp: null })
    Object.assign(answered.spec, { paused: null, updateStrategy: null })
    Object.assign(answered.status, { observedGeneration: 4, updatedReplicas: 3, collisionCount: null })
    expect(rolloutState(deployment, answered, NOW)).toEqual({ state: 'rolled-out', reason: 'available 3/3' })
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

  it('is unknown, with what was wrong, for a malformed expected or live object', () => {
    expect(rolloutState({ apiVersion: 'v1' }, healthyDeployment(), NOW)).toEqual({
      state: 'unknown',
      reason: 'expected object has no kind',
    })
    expect(rolloutState(['Deployment'], healthyDeployment(), NOW)).toEqual({
      state: 'unknown',
      reason: 'expected object has no kind',
    })
    expect(rolloutState(deployment, 'Deployment', NOW)).toEqual({ state: 'unknown', reason: 'not an object' })
    expect(rolloutState(deployment, { ...healthyDeployment(), status: { conditions: {} } }, NOW)).toEqual({
      state: 'unknown',
      reason: 'status.conditions is not a list',
    })
  })
})
