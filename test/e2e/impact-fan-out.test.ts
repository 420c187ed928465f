/**
 * Issue 18, item 4, end to end: dist/index.js as a process. What a pull request declares is
 * capped before any hub request — documents per file (`max-documents`) while the file is parsed,
 * distinct targets per step (`max-targets`) while files are read — and the error names the cap,
 * what was declared and the input that raises it. Targets outside the workflow's scope
 * (`allowed-namespaces`, `allowed-kinds`) are listed as skipped and never sent to the hub.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { hostileProvider } from '../../emulator/index.ts'
import {
  errorLines,
  hubInputs,
  makeWorkspace,
  readResultFile,
  runStep,
  useHubEmulator,
  type ActionRun,
  type ImpactReportFile,
} from './harness.ts'

const hub = useHubEmulator()

const configMap = (name: string, namespace = 'shop') =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: ${namespace}}\n`

function onPush(files: Record<string, string>, extra: Record<string, string> = {}): Promise<ActionRun> {
  const workspace = makeWorkspace(files)
  onTestFinished(() => workspace.cleanup())
  return runStep({
    inputs: { command: 'impact', ...hubInputs(hub), manifests: 'deploy/**/*.yaml', ...extra },
    env: { GITHUB_WORKSPACE: workspace.dir, GITHUB_EVENT_NAME: 'push', GITHUB_API_URL: 'http://127.0.0.1:9' },
    killAfterMs: 60_000,
  })
}

describe('caps on what a pull request declares, before any hub request', () => {
  it('fails on a 4 MiB manifest of 76,000 objects at max-documents, naming the file, the cap and the input', async () => {
    const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n'
    // just under the 4 MiB read for a manifest file, so it is parsed rather than refused unread
    const bundle = object.repeat(Math.floor((4 * 1024 * 1024 - 1024) / object.length))
    const result = await onPush({
      'deploy/checkout.yaml': configMap('checkout-config'),
      'deploy/zz-bundle.yaml': bundle,
    })
    expect(result.code, result.stdout).toBe(1)
    expect(errorLines(result)).toEqual([
      "::error::Too many documents in one file: deploy/zz-bundle.yaml holds more than 1,000 YAML documents (a List's items each count as one), over `max-documents` (1,000); reading stopped there and nothing was sent to the hub. Raise `max-documents`, or split the file.",
    ])
    expect(hub.requests).toEqual([])
    expect(result.stdout).not.toMatch(/Impact of \d+ target/)
  }, 70_000)

  it('fails when the files together declare more distinct objects than max-targets, and passes once it is raised', async () => {
    const files = {
      'deploy/a.yaml': [configMap('a1'), configMap('a2')].join('---\n'),
      'deploy/b.yaml': [configMap('b1'), configMap('b2')].join('---\n'),
      // the same objects again are no new targets
      'deploy/c.yaml': [configMap('a1'), configMap('b2'), configMap('c1')].join('---\n'),
      'deploy/d.yaml': configMap('d1'),
    }
    // "more than": reading stopped at c.yaml, before d.yaml
    const capped = await onPush(files, { 'max-targets': '4' })
    expect(capped.code).toBe(1)
    expect(errorLines(capped)).toEqual([
      '::error::Too many targets: `manifests` declare more than 4 distinct objects, over `max-targets` (4); nothing was sent to the hub. Raise `max-targets` if every one should be reported, or narrow the globs (a pull request you do not trust chooses them: set `allowed-namespaces` and `allowed-kinds` too).',
    ])
    expect(hub.requests).toEqual([])

    const raised = await onPush(files, { 'max-targets': '6' })
    expect(raised.code).toBe(0)
    expect(raised.outputs['targets-count']).toBe('6')
    expect(hub.requests.length).toBeGreaterThan(0)
  }, 70_000)

  it('counts `targets` against max-targets with the exact number when nothing else is read', async () => {
    const workspace = makeWorkspace({})
    onTestFinished(() => workspace.cleanup())
    const result = await runStep({
      inputs: {
        command: 'impact',
        ...hubInputs(hub),
        targets: '[{kind: ConfigMap, name: a}, {kind: ConfigMap, name: b}, {kind: ConfigMap, name: c}]',
        'max-targets': '2',
      },
      env: { GITHUB_WORKSPACE: workspace.dir, GITHUB_EVENT_NAME: 'push' },
    })
    expect(result.code).toBe(1)
    expect(errorLines(result)[0]).toContain(
      'Too many targets: `targets` declare 3 distinct objects, over `max-targets` (2)',
    )
    expect(hub.requests).toEqual([])
  })
})

describe('the scope the workflow allows', () => {
  it('lists targets outside allowed-namespaces and allowed-kinds as skipped and never queries them', async () => {
    const result = await onPush(
      {
        'deploy/shop.yaml': [
          'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\n',
          configMap('checkout-config'),
          'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: coredns-outsider, namespace: kube-system}\n',
          'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: clusterrole-outsider}\n',
        ].join('---\n'),
      },
      { 'allowed-namespaces': 'shop, payments', 'allowed-kinds': 'Deployment.apps\nService' },
    )
    expect(result.code).toBe(0)
    expect(result.outputs['targets-count']).toBe('1')
    const file = readResultFile<
      ImpactReportFile & { skippedTargets: Array<{ target: { kind: string; name: string }; reason: string }> }
    >(result)
    expect(file.targets.map((t) => `${t.kind} ${t.name}`)).toEqual(['Deployment checkout'])
    expect(file.skippedTargets.map((s) => `${s.target.kind} ${s.target.name}: ${s.reason}`)).toEqual([
      'ConfigMap checkout-config: its kind is not in `allowed-kinds`: not queried',
      'Deployment coredns-outsider: its namespace is not in `allowed-namespaces`: not queried',
      'ClusterRole clusterrole-outsider: its kind is not in `allowed-kinds`: not queried',
    ])
    expect(result.summary).toContain('### Outside the allowed scope (3)')
    expect(result.stdout).toContain(
      'Skipped Deployment.apps kube-system/coredns-outsider: its namespace is not in `allowed-namespaces`: not queried.',
    )
    const sent = hub.requests.map((request) => request.body ?? '').join('\n')
    expect(sent).toContain('"checkout"')
    for (const name of ['checkout-config', 'coredns-outsider', 'clusterrole-outsider']) expect(sent).not.toContain(name)
  }, 70_000)
})

describe('a hostile hub cannot widen the fan-out', () => {
  it('refuses a lookup page of more roots than a page holds, before any query follows from it', async () => {
    // 2,000 places on 2,000 edges: each would be one more impact query
    const body = JSON.stringify({
      objects: Array.from({ length: 2000 }, (_, index) => ({ id: String(index), cluster: `ws/edge-${index}` })),
    })
    const hostility = hostileProvider(
      hub,
      (req) => req.method === 'POST' && req.path === '/api/query',
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(body)
      },
      'graph',
    )
    onTestFinished(() => hostility.restore())
    const workspace = makeWorkspace({})
    onTestFinished(() => workspace.cleanup())
    const result = await runStep({
      inputs: {
        command: 'impact',
        ...hubInputs(hub),
        targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]',
      },
      env: { GITHUB_WORKSPACE: workspace.dir, GITHUB_EVENT_NAME: 'push' },
      killAfterMs: 60_000,
    })
    expect(result.code).toBe(1)
    expect(errorLines(result)).toEqual([
      "::error::Could not look up Deployment checkout on the workspace's edges (hub answered an error: 2,000 objects in one page). A page of this query holds at most 100 objects, so the answer was not used and no query followed from it. Check that `hub-url` is the hub.",
    ])
    expect(hostility.answered).toBe(1)
  }, 70_000)
})
