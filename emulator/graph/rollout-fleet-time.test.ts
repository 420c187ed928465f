// The rollout scenarios about time (rollout-fleet-time.ts): each fact a gate relies on, read
// from the fleet at the instants the end-to-end tests use (docs/hub-facts.md, "What the graph knows").
import { describe, expect, it } from 'vitest'
import type { FleetObject } from './fleet.ts'
import { createRolloutFleet } from './rollouts.ts'

const at = (scenario: Parameters<typeof createRolloutFleet>[0]['scenario'], ms: number) => {
  const fleet = createRolloutFleet({ scenario })
  fleet.advance(ms)
  return fleet
}
const find = (objects: FleetObject[], edge: string, kind: string, name?: string) =>
  objects.filter((o) => o.edge === edge && o.kind === kind && (name === undefined || o.metadata.name === name))
const status = (o: FleetObject | undefined) => (o as unknown as { status: Record<string, any> } | undefined)?.status
const spec = (o: FleetObject | undefined) => (o as unknown as { spec: Record<string, any> } | undefined)?.spec

describe('stamped', () => {
  it('stamps app.kubernetes.io/version on the Deployment and its pod template, 1.4 before 20 s and 1.5 after', () => {
    const before = find(at('stamped', 0).objects, 'staging', 'Deployment')[0]
    expect(before?.metadata.labels?.['app.kubernetes.io/version']).toBe('1.4')
    expect(spec(before)?.template.metadata.labels['app.kubernetes.io/version']).toBe('1.4')
    expect(before?.metadata.generation).toBe(1)
    const after = find(at('stamped', 200_000).objects, 'staging', 'Deployment')[0]
    expect(after?.metadata.labels?.['app.kubernetes.io/version']).toBe('1.5')
    expect(after?.metadata.generation).toBe(2)
    expect(status(after)?.conditions[1]).toMatchObject({ type: 'Progressing', reason: 'NewReplicaSetAvailable' })
  })
})

describe('fix-forward', () => {
  it('keeps the old pods crash-looping while the fix rolls, and names the new ReplicaSet in Progressing', () => {
    const objects = at('fix-forward', 8_000).objects
    const deployment = find(objects, 'prod-eu', 'Deployment')[0]
    const message = String(status(deployment)?.conditions[1].message)
    const newRs = /ReplicaSet "([^"]+)"/.exec(message)?.[1]
    const pods = find(objects, 'prod-eu', 'Pod')
    const crashing = pods.filter((p) => status(p)?.containerStatuses[0].state.waiting?.reason === 'CrashLoopBackOff')
    expect(crashing.length).toBeGreaterThan(0)
    for (const pod of crashing) expect(pod.metadata.ownerReferences?.[0]?.name).not.toBe(newRs)
    // same image, another env: only the template differs
    const images = new Set(pods.map((p) => spec(p)?.containers[0].image))
    expect([...images]).toEqual(['registry/web:1.5'])
  })
})

describe('transient-crash', () => {
  it("shows staging's first new pod crashing twice (restartCount 1, then 2), then ready", () => {
    const restarts = (ms: number) =>
      find(at('transient-crash', ms).objects, 'staging', 'Pod')
        .map((p) => status(p)?.containerStatuses[0])
        .filter((c) => c?.state.waiting?.reason === 'CrashLoopBackOff')
        .map((c) => c.restartCount)
    expect(restarts(8_000)).toEqual([1])
    expect(restarts(20_000)).toEqual([2])
    expect(restarts(200_000)).toEqual([])
  })
})

describe('flapping', () => {
  it('shows one pod unready on about 5 % of the 100 edges at each second, a different few each time', () => {
    const dipping = (ms: number) =>
      at('flapping', ms)
        .objects.filter((o) => o.kind === 'Deployment' && status(o)?.readyReplicas !== 3)
        .map((o) => o.edge)
    const first = dipping(1_000)
    const second = dipping(2_000)
    expect(first.length).toBeGreaterThan(0)
    expect(first.length).toBeLessThan(15)
    expect(second).not.toEqual(first)
  })
})

describe('ttl-job', () => {
  it('deletes the Job and its pod 30 s after it completes (ttlSecondsAfterFinished)', () => {
    const job = (ms: number) => find(at('ttl-job', ms).objects, 'prod-eu', 'Job')[0]
    expect(spec(job(15_000))?.ttlSecondsAfterFinished).toBe(30)
    expect(status(job(40_000))?.conditions).toContainEqual(
      expect.objectContaining({ type: 'Complete', status: 'True' }),
    )
    expect(job(50_000)).toBeUndefined()
    expect(find(at('ttl-job', 50_000).objects, 'prod-eu', 'Pod')).toEqual([])
  })
})
