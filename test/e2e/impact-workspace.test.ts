/**
 * Outside a pull request, `manifests` takes the matching files in the workspace: every
 * Kubernetes object in them becomes a target (multi-document YAML, `kind: List`, the
 * `namespace` input as default), templates and non-objects are listed as skipped, and no
 * GitHub request is made.
 */
import { expect, it } from 'vitest'
import { hubInputs, makeWorkspace, readResultFile, runAction, useHubEmulator } from './harness.ts'

const hub = useHubEmulator()

interface ReportFile {
  targets: Array<{
    kind: string
    name: string
    namespace?: string
    origin: { kind: string; path?: string; change?: string }
  }>
  skippedFiles: Array<{ path: string; reason: string }>
  impacts: Array<{ target: { name: string }; edge: string }>
}

it('reads matching workspace files on a push, skipping templates and files without objects', async () => {
  const workspace = makeWorkspace({
    'deploy/checkout.yaml': [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: checkout}',
      '---',
      'apiVersion: v1',
      'kind: List',
      'items:',
      '  - {apiVersion: v1, kind: ConfigMap, metadata: {name: checkout-config}}',
      '  - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}',
    ].join('\n'),
    'deploy/chart/templates/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Values.name }}\n',
    'deploy/values.yaml': 'replicas: 3\n',
    'docs/not-matched.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ignored}\n',
  })
  try {
    const result = await runAction({
      inputs: {
        command: 'impact',
        ...hubInputs(hub),
        manifests: 'deploy/**/*.yaml',
        namespace: 'shop',
      },
      env: { GITHUB_WORKSPACE: workspace.dir, GITHUB_EVENT_NAME: 'push', GITHUB_API_URL: 'http://127.0.0.1:9' },
    })
    expect(result.code).toBe(0)
    expect(result.outputs['targets-count']).toBe('3')
    const file = readResultFile<ReportFile>(result)
    expect(file.targets.map((t) => `${t.kind} ${t.namespace ?? '-'} ${t.name} ${t.origin.change}`).sort()).toEqual([
      'ConfigMap shop checkout-config workspace',
      'Deployment shop checkout workspace',
      'Namespace - shop workspace',
    ])
    expect(file.skippedFiles.map((s) => s.path).sort()).toEqual([
      'deploy/chart/templates/svc.yaml',
      'deploy/values.yaml',
    ])
    expect(file.skippedFiles.find((s) => s.path === 'deploy/chart/templates/svc.yaml')?.reason).toContain('template')
    expect(new Set(file.impacts.map((i) => `${i.target.name}@${i.edge}`))).toEqual(
      new Set([
        'checkout@prod-eu',
        'checkout@prod-us',
        'checkout-config@prod-eu',
        'checkout-config@prod-us',
        'shop@prod-eu',
        'shop@prod-us',
        'shop@staging',
      ]),
    )
    expect(result.summary).toContain('deploy/chart/templates/svc.yaml')
    result.cleanup()
  } finally {
    workspace.cleanup()
  }
})
