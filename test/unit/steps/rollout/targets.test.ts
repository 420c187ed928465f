/** The rollout's targets: a manifest without a namespace is in `namespace`, else `default`; scope and sync list partition them. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RolloutSettings } from '../../../../src/settings/rollout.js'
import { collectRolloutTargets } from '../../../../src/steps/rollout/targets.js'

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
})
