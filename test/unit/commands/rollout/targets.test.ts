/** The rollout's targets: a manifest without a namespace is in `namespace`, else `default`; scope and sync list partition them. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RolloutSettings } from '../../../../src/commands/rollout/inputs.js'
import { collectRolloutTargets, releaseContext } from '../../../../src/commands/rollout/targets.js'
import { notCheckedReason } from '../../../../src/commands/rollout/unchecked.js'

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

async function collect(manifest: string, over: Partial<RolloutSettings> = {}) {
  dir = mkdtempSync(join(tmpdir(), 'rollout-targets-'))
  mkdirSync(join(dir, 'deploy'))
  writeFileSync(join(dir, 'deploy', 'app.yaml'), manifest)
  const settings: RolloutSettings = {
    targets: [],
    manifests: ['deploy/*.yaml'],
    renderedHead: [],
    defaultNamespace: undefined,
    edges: undefined,
    require: { kind: 'all' },
    timeoutSeconds: 60,
    onTimeout: 'fail',
    githubToken: '',
    maxTargets: 200,
    maxDocuments: 1000,
    scope: { namespaces: [], kinds: [] },
    syncedKinds: [],
    ...over,
  }
  return collectRolloutTargets(settings, {
    workspace: dir,
    pullRequest: undefined,
    signal: new AbortController().signal,
    log: () => {},
  })
}

const WEB =
  'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: tls}\n'

describe('collectRolloutTargets', () => {
  it('puts a manifest object without a namespace in `default`, never in any namespace', async () => {
    const collected = await collect(WEB)
    expect(collected.targets.map((t) => t.label)).toEqual(['Deployment.apps default/web'])
  })

  it('puts it in the `namespace` input when given', async () => {
    const collected = await collect(WEB, { defaultNamespace: 'shop' })
    expect(collected.targets.map((t) => t.label)).toEqual(['Deployment.apps shop/web'])
  })

  it('lists a kind the graph does not sync as unchecked, unless synced-kinds names it', async () => {
    expect((await collect(WEB)).unchecked.map((t) => t.label)).toEqual(['Secret default/tls'])
    const widened = await collect(WEB, { syncedKinds: [{ kind: 'Secret', group: undefined }] })
    expect(widened.unchecked).toEqual([])
    expect(widened.targets.map((t) => t.label)).toEqual(['Deployment.apps default/web', 'Secret default/tls'])
  })

  it('leaves a target outside allowed-kinds out, with its reason', async () => {
    const collected = await collect(WEB, { scope: { namespaces: [], kinds: [{ kind: 'Secret', group: undefined }] } })
    expect(collected.targets).toEqual([])
    expect(collected.outOfScope.map((s) => [s.target.name, s.reason])).toEqual([
      ['web', 'its kind is not in `allowed-kinds`: not queried'],
    ])
  })

  it('stops at max-targets as impact does', async () => {
    await expect(collect(WEB, { maxTargets: 1 })).rejects.toThrow(/max-targets/)
  })

  it('lists Helm hooks and tests, and generateName objects, as not checked with their reason', async () => {
    const manifest = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: web-test, annotations: {"helm.sh/hook": test}}',
      '---',
      'apiVersion: batch/v1',
      'kind: Job',
      'metadata: {name: migrate, annotations: {"helm.sh/hook": "pre-upgrade,pre-install", "helm.sh/hook-delete-policy": hook-succeeded}}',
      '---',
      'apiVersion: batch/v1',
      'kind: Job',
      'metadata: {generateName: seed-}',
      '---',
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
    ].join('\n')
    const collected = await collect(manifest, { defaultNamespace: 'shop' })
    expect(collected.targets.map((t) => t.label)).toEqual(['Deployment.apps shop/web'])
    expect(collected.unchecked.map((t) => [t.label, notCheckedReason(t)])).toEqual([
      [
        'Pod shop/web-test',
        'not checked: a Helm test (`helm.sh/hook: test`) runs around a release and is deleted by its policy, so it is not a release target',
      ],
      [
        'Job.batch shop/migrate',
        'not checked: a Helm hook (`helm.sh/hook: pre-upgrade,pre-install`) runs around a release and is deleted by its policy, so it is not a release target',
      ],
      [
        'Job.batch shop/seed-… (generateName)',
        'not checked: named by `generateName`, so the API server picks its name at creation and no graph row can be matched to it',
      ],
    ])
  })

  it("hands the comparison the step's start, that the target is a manifest, and spec.replicas to skip under an HPA among the manifests", async () => {
    const manifest = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec: {replicas: 3}',
      '---',
      'apiVersion: autoscaling/v2',
      'kind: HorizontalPodAutoscaler',
      'metadata: {name: web}',
      'spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 9}',
    ].join('\n')
    const before = Date.now()
    const collected = await collect(manifest, { defaultNamespace: 'shop' })
    const [web, hpa] = collected.targets
    expect(releaseContext(web?.expected ?? {})).toEqual({
      startedAt: expect.any(Number),
      manifest: true,
      skip: ['spec.replicas'],
    })
    expect(releaseContext(web?.expected ?? {})?.startedAt).toBeGreaterThanOrEqual(before)
    expect(releaseContext(hpa?.expected ?? {})?.skip).toEqual([])
    const named = await collect('', {
      manifests: [],
      targets: [{ kind: 'Deployment', group: 'apps', name: 'web', namespace: 'shop', origin: { kind: 'input' } }],
    })
    expect(releaseContext(named.targets[0]?.expected ?? {})?.manifest).toBe(false)
  })

  it('marks a manifest file it cannot parse as unreadable, with the line', async () => {
    const collected = await collect('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: [\n')
    const reason = expect.stringMatching(/^not valid YAML \(.* at line \d\)$/) as string
    expect(collected.unreadable).toEqual([
      { path: 'deploy/app.yaml', reason, unreadable: { line: expect.any(Number) } },
    ])
    // what impact reports of it is as it was
    expect(collected.skippedFiles).toEqual([{ path: 'deploy/app.yaml', reason }])
  })
})
