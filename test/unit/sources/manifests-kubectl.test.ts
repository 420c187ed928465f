/**
 * Manifests read as kubectl and Helm read them (go-yaml v2, YAML 1.1): octal modes, yes/no
 * booleans, merge keys; timestamps and base-60-looking text stay strings, as go-yaml keeps them
 * for untyped values. A file the parser cannot read says where it stopped; an object named by
 * `generateName` is reported, not dropped.
 */
import { describe, expect, it } from 'vitest'
import { objectsFromManifest, targetsFromManifest } from '../../../src/sources/manifests.js'

const read = async (text: string) => await objectsFromManifest('deploy/app.yaml', text, { defaultNamespace: 'shop' })

describe('a manifest read as kubectl reads it', () => {
  it('reads 0644 as 420, yes/no/on/off as booleans and merges `<<` keys', async () => {
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'x-defaults: &defaults {imagePullPolicy: IfNotPresent, tty: yes}',
      'spec:',
      '  paused: off',
      '  template:',
      '    spec:',
      '      automountServiceAccountToken: no',
      '      containers:',
      '        - <<: *defaults',
      '          name: web',
      '          stdin: on',
      '      volumes:',
      '        - {name: cfg, configMap: {name: cfg, defaultMode: 0644}}',
      '        - {name: key, secret: {secretName: key, defaultMode: 0o400}}',
    ].join('\n')
    const [object] = (await read(text)).objects
    const spec = object?.value.spec as { paused: unknown; template: { spec: Record<string, unknown> } }
    expect(spec.paused).toBe(false)
    expect(spec.template.spec.automountServiceAccountToken).toBe(false)
    expect(spec.template.spec.containers).toEqual([
      { imagePullPolicy: 'IfNotPresent', tty: true, name: 'web', stdin: true },
    ])
    expect(spec.template.spec.volumes).toEqual([
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
      { name: 'key', secret: { secretName: 'key', defaultMode: 256 } },
    ])
  })

  it('keeps a date and a base-60-looking value as text, as go-yaml does for untyped values', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  released: 2025-06-02\n  port: 22:22\n'
    expect((await read(text)).objects[0]?.value.data).toEqual({ released: '2025-06-02', port: '22:22' })
  })

  it('says where the parser stopped in a file it cannot read', async () => {
    const broken = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\nkey: : :\n'
    expect((await read(broken)).skipped).toEqual({
      path: 'deploy/app.yaml',
      reason: 'not valid YAML (Nested mappings are not allowed in compact mappings at line 5)',
      unreadable: { line: 5 },
    })
    // A template or a file of no object was read: it is skipped, not unreadable.
    expect((await read('kind: Kustomization\nresources: [a.yaml]\n')).skipped?.unreadable).toBeUndefined()
  })

  it('reports an object named by generateName beside the named ones', async () => {
    const text = [
      'apiVersion: batch/v1',
      'kind: Job',
      'metadata: {generateName: migrate-}',
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata: {name: c}',
    ].join('\n')
    const found = await targetsFromManifest(
      'deploy/app.yaml',
      text,
      { kind: 'manifest', path: 'deploy/app.yaml', change: 'workspace' },
      { defaultNamespace: 'shop' },
    )
    expect(found.targets.map((t) => t.name)).toEqual(['c'])
    expect(found.unnamed).toEqual([
      { path: 'deploy/app.yaml', line: 2, kind: 'Job', group: 'batch', namespace: 'shop', generateName: 'migrate-' },
    ])
  })

  it('puts no cluster-scoped kind in the default namespace, those of add-ons included', async () => {
    const text = ['ClusterIssuer', 'GatewayClass', 'PriorityClass', 'ValidatingAdmissionPolicy']
      .map((kind) => `apiVersion: x/v1\nkind: ${kind}\nmetadata: {name: a}\n`)
      .join('---\n')
    expect((await read(text)).objects.map((o) => o.target.namespace)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })
})
