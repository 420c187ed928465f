/**
 * End to end, `command: rollout`, a green bound to this release (issue 32): dist/index.js as a
 * process against the `applied` fleet, whose objects carry what a real API server records of an
 * apply (emulator/graph/rollout-applied-fleet.ts). prod-eu applies client-side (the
 * last-applied annotation), prod-us server-side (managedFields). Each poll (GET /api/edges)
 * moves the fleet to the next instant of the script.
 */
import { describe, expect, it } from 'vitest'
import { readResultFile } from './harness.ts'
import { appliedGate, logOf, polls, type RolloutFile } from './rollout-harness.ts'

const RELEASE_AT = 20_000

const gate = (files: Record<string, string>, instants: number[], extra: Record<string, string> = {}) =>
  appliedGate(files, { timeoutSeconds: 20, instants, extra })

const WEB_WITHOUT_B = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: registry/web:1.5
          env: [{name: A, value: "on"}]
`

describe('rollout gate: green only for this release', () => {
  it('holds a removal-only change until it lands, seen through last-applied and the applied field set', async () => {
    const { result, emulator } = await gate({ 'deploy/web.yaml': WEB_WITHOUT_B }, [0, RELEASE_AT + 10_000])
    expect(result.code, result.stdout).toBe(0)
    expect(result.outputs['rollout-state']).toBe('current')
    // Before the apply every field the manifest sets is already live: only the records of the last apply differ.
    const log = logOf(result)
    expect(log).toContain(
      'prod-eu · Deployment.apps shop/web: in progress — not applied yet: last-applied-configuration sets spec.template.spec.containers[0].env to [{"name":"A","value":"on"},{"name":"B","value":"on"}], the manifest to [{"name":"A","value":"on"}]',
    )
    expect(log).toContain(
      'prod-us · Deployment.apps shop/web: in progress — not applied yet: kubectl still applies spec.template.spec.containers[web].env[B], which the manifest removes',
    )
    expect(polls(emulator)).toBe(2)
  })

  it('compares an annotation-only change (a Service whose configuration is its annotations)', async () => {
    const service = `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
  annotations: {service.beta.kubernetes.io/aws-load-balancer-internal: "true"}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80}]
`
    const { result, emulator } = await gate({ 'deploy/service.yaml': service }, [0, RELEASE_AT + 10_000])
    expect(result.code, result.stdout).toBe(0)
    expect(logOf(result)).toContain(
      'prod-us · Service shop/web: in progress — not synced: metadata.annotations["service.beta.kubernetes.io/aws-load-balancer-internal"] is "false", the manifest sets "true"',
    )
    expect(polls(emulator)).toBe(2)
  })

  it('calls a row of another API version "cannot compare", never "not synced", and passes on a row of its own', async () => {
    const hpa = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
    - type: Resource
      resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}
`
    const { result } = await gate({ 'deploy/hpa.yaml': hpa }, [0, 10_000])
    expect(result.code, result.stdout).toBe(0)
    const first = logOf(result).filter((l) => l.includes('HorizontalPodAutoscaler.autoscaling shop/web: in progress'))
    expect(first).toHaveLength(2)
    for (const line of first)
      expect(line).toMatch(
        /in progress — cannot compare this read: the graph holds autoscaling\/v1 \(one row per object whatever the version\)/,
      )
    expect(logOf(result).some((l) => l.includes('not synced'))).toBe(false)
  })

  it('does not pass a Role whose rules differ from the manifest on an edge', async () => {
    const role = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: shop}
rules:
  - apiGroups: [""]
    resources: [pods]
    verbs: [get, list]
`
    const { result } = await gate({ 'deploy/role.yaml': role }, [0, RELEASE_AT + 10_000], { 'timeout-seconds': '6' })
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('timeout')
    const file = readResultFile<RolloutFile>(result)
    expect(file.edges.map((e) => [e.edge, e.state, e.cells[0]?.reason])).toEqual([
      [
        'prod-eu',
        'in-progress',
        'not synced: rules[0].verbs is ["get","list","watch"], the manifest sets ["get","list"]',
      ],
      ['prod-us', 'current', expect.any(String)],
    ])
  })
})
