/**
 * End to end, `command: rollout`, comparing as the API server stores objects and ownership
 * works (issue 32): YAML 1.1 as kubectl reads it, zero values and canonical quantities, an HPA's
 * replicas, ports by protocol, Helm hooks and tests, and a manifest the gate cannot read.
 * dist/index.js as a process against the `applied` fleet (emulator/graph/rollout-applied-fleet.ts),
 * where every object here was applied long before the step and is healthy: each gate should
 * pass at its first look, or fail for the one reason the test names.
 */
import { describe, expect, it } from 'vitest'
import { lines, readResultFile } from './harness.ts'
import { QUERY, appliedGate, fleetAt, logOf, polls, rollout, summaryText, type RolloutFile } from './rollout-harness.ts'

const gate = (
  files: Record<string, string>,
  extra: Record<string, string> = {},
  graph: { storeDriver?: 'sqlite' | 'postgres' } = {},
) => appliedGate(files, { timeoutSeconds: 8, extra, graph })

const WORKER = `apiVersion: apps/v1
kind: Deployment
metadata: {name: worker, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: worker}}
  template:
    metadata: {labels: {app: worker}}
    spec:
      hostNetwork: false
      automountServiceAccountToken: true
      containers:
        - name: worker
          image: registry/worker:1.5
          resources: {requests: {cpu: 1000m, memory: 1024Mi}}
          volumeMounts: [{name: config, mountPath: /etc/worker}]
      volumes:
        - name: config
          configMap: {name: worker, defaultMode: 0644}
`

describe('rollout gate: compared as the API server stores objects', () => {
  it('passes YAML 1.1 `defaultMode: 0644`, a dropped `hostNetwork: false` and canonical quantities', async () => {
    const { result, emulator } = await gate({ 'deploy/worker.yaml': WORKER })
    expect(result.code, result.stdout).toBe(0)
    expect(result.outputs['current-count']).toBe('2')
    expect(polls(emulator)).toBe(1)
  })

  it("passes replicas an HPA scaled past the manifest's, since the HPA owns them", async () => {
    const scaled = `apiVersion: apps/v1
kind: Deployment
metadata: {name: scaled, namespace: shop}
spec:
  replicas: 3
  selector: {matchLabels: {app: scaled}}
  template:
    metadata: {labels: {app: scaled}}
    spec:
      containers: [{name: scaled, image: registry/scaled:1.5}]
`
    const { result, emulator } = await gate({ 'deploy/scaled.yaml': scaled })
    expect(result.code, result.stdout).toBe(0)
    expect(polls(emulator)).toBe(1)
  })

  it('passes replicas an HPA in the graph scales, read in one query, where the object carries no record of its apply', async () => {
    const legacy = `apiVersion: apps/v1
kind: Deployment
metadata: {name: legacy, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: legacy}}
  template:
    metadata: {labels: {app: legacy}}
    spec:
      containers: [{name: legacy, image: registry/legacy:1.5}]
`
    const { result, emulator } = await gate({ 'deploy/legacy.yaml': legacy })
    expect(result.code, result.stdout).toBe(0)
    expect(logOf(result)).toContain(
      'Deployment.apps shop/legacy: spec.replicas is not compared, HPA shop/legacy scales it.',
    )
    const kinds = emulator.requests
      .filter((r) => r.path === QUERY)
      .map(
        (r) =>
          (JSON.parse(r.body) as { filter: { objects: { groupKind: { kind: string } }[] } }).filter.objects[0]
            ?.groupKind.kind,
      )
    expect(kinds).toEqual(['HorizontalPodAutoscaler', 'Deployment'])
  })

  it('syncs ports 53/TCP and 53/UDP as two entries', async () => {
    const dns = `apiVersion: apps/v1
kind: Deployment
metadata: {name: dns, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: dns}}
  template:
    metadata: {labels: {app: dns}}
    spec:
      containers:
        - name: dns
          image: registry/dns:1.5
          ports: [{containerPort: 53}, {containerPort: 53, protocol: UDP}]
`
    const { result, emulator } = await gate({ 'deploy/dns.yaml': dns })
    expect(result.code, result.stdout).toBe(0)
    expect(polls(emulator)).toBe(1)
  })

  it('lists Helm test and hook objects, and generateName objects, as not checked, with the reason, and passes on the release', async () => {
    const hooks = `apiVersion: batch/v1
kind: Job
metadata:
  name: web-migrate
  namespace: shop
  annotations: {helm.sh/hook: pre-upgrade, helm.sh/hook-delete-policy: hook-succeeded}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: migrate, image: registry/web-migrate:1.5}]}}
---
apiVersion: v1
kind: Pod
metadata:
  name: web-test
  namespace: shop
  annotations: {helm.sh/hook: test}
spec:
  containers: [{name: test, image: registry/web-test:1.5}]
---
apiVersion: batch/v1
kind: Job
metadata: {generateName: seed-, namespace: shop}
spec:
  template: {spec: {restartPolicy: Never, containers: [{name: seed, image: registry/seed:1.5}]}}
`
    const { result } = await gate({ 'deploy/worker.yaml': WORKER, 'deploy/hooks.yaml': hooks })
    expect(result.code, result.stdout).toBe(0)
    expect(logOf(result)).toEqual(
      expect.arrayContaining([
        'Not checked (1): Job.batch shop/web-migrate: a Helm hook (`helm.sh/hook: pre-upgrade`) runs around a release and is deleted by its policy, so it is not a release target.',
        'Not checked (1): Pod shop/web-test: a Helm test (`helm.sh/hook: test`) runs around a release and is deleted by its policy, so it is not a release target.',
        'Not checked (1): Job.batch shop/seed-… (generateName): named by `generateName`, so the API server picks its name at creation and no graph row can be matched to it.',
      ]),
    )
    expect(summaryText(result)).toContain('Not checked (1): Pod shop/web-test: a Helm test')
    const file = readResultFile<RolloutFile>(result)
    expect(file.notChecked.map((t) => t.label)).toEqual([
      'Job.batch shop/web-migrate',
      'Pod shop/web-test',
      'Job.batch shop/seed-… (generateName)',
    ])
    expect(file.edges.every((e) => e.cells.length === 1)).toBe(true)
  })
})

describe('rollout gate: a manifest it cannot read', () => {
  const BROKEN = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata:\n  a: [1, 2\n'

  it('fails the gate naming the file, line and parser message, writes the summary, and queries nothing', async () => {
    const { result, emulator } = await gate({ 'deploy/worker.yaml': WORKER, 'deploy/settings.yaml': BROKEN })
    expect(result.code).toBe(1)
    const [annotation, ...others] = lines(result.stdout, '::error title=')
    expect(others).toEqual([])
    expect(annotation).toMatch(
      /^::error title=hub-action rollout%3A unreadable manifest,file=deploy\/settings\.yaml,line=\d+::Cannot read this manifest: not valid YAML \(.+ at line \d+\)$/,
    )
    expect(result.stdout).toMatch(
      /::error::The rollout gate cannot read 1 manifest file\(s\) \(deploy\/settings\.yaml, line \d+: not valid YAML/,
    )
    expect(summaryText(result)).toContain('Unreadable manifest files (1)')
    expect(summaryText(result)).toMatch(/deploy\/settings\.yaml, line \d+: not valid YAML/)
    expect(emulator.requests.filter((r) => r.path === QUERY)).toEqual([])
  })

  it('names the parse error, not "no Kubernetes object", when it is the only file', async () => {
    const { result } = await gate({ 'deploy/settings.yaml': BROKEN })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      '::error::The rollout gate cannot read 1 manifest file(s) (deploy/settings.yaml, line',
    )
    expect(result.stdout).not.toContain('declare no Kubernetes object')
    expect(summaryText(result)).toContain('a manifest cannot be read')
  })
})

// A SQLite-backed graph (the graph provider's default store) answers a boolean leaf of a sparse
// projection as 1 or 0; Postgres keeps true and false (docs/hub-facts.md, "Store drivers").
describe('rollout gate: booleans as each store driver answers them', () => {
  for (const storeDriver of ['sqlite', 'postgres'] as const) {
    it(`passes a manifest's \`automountServiceAccountToken: true\` read back from a ${storeDriver} graph`, async () => {
      const { result, emulator } = await gate({ 'deploy/worker.yaml': WORKER }, {}, { storeDriver })
      expect(result.code, result.stdout).toBe(0)
      expect(result.outputs['current-count']).toBe('2')
      expect(polls(emulator)).toBe(1)
    })

    it(`fails a paused Deployment at the first look on a ${storeDriver} graph, naming "paused"`, async () => {
      const emulator = await fleetAt('paused', [200_000], { storeDriver })
      const result = await rollout(emulator, {})
      expect(result.code).toBe(1)
      expect(result.outputs['rollout-state']).toBe('failed')
      expect(result.stdout).toContain('prod-us · Deployment.apps shop/web: failed — paused (spec.paused)')
      expect(polls(emulator)).toBe(1)
    })
  }
})
