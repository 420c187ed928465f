/**
 * The rollout projection as the engine reads it: no array step (a list is projected whole), a
 * map whose keys no JSON path can name is projected whole, the health fields always included.
 */
import { describe, expect, it } from 'vitest'
import { HEALTH_PROJECTION, mergeProjection, rolloutProjection } from '../../../../src/commands/rollout/projection.js'

const web = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web' } },
  spec: {
    replicas: 2,
    template: {
      metadata: { labels: { app: 'web' }, annotations: { 'checksum/config': 'abc' } },
      spec: { containers: [{ name: 'web', image: 'web:1', env: [{ name: 'A', value: '1' }] }], securityContext: {} },
    },
  },
}

/** Every path of a projection tree that ends in `true`, dotted. */
function leaves(tree: object, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    v === true ? [`${prefix}${k}`] : leaves(v as object, `${prefix}${k}.`),
  )
}

describe('rolloutProjection', () => {
  it('projects every list whole, never a subtree inside one (the engine has no array step)', () => {
    const spec = leaves(rolloutProjection([web])).filter((p) => p.startsWith('spec.template'))
    expect(spec).toEqual([
      'spec.template.metadata.labels.app',
      'spec.template.metadata.annotations',
      'spec.template.spec.containers',
      'spec.template.spec.securityContext',
    ])
    expect(leaves(HEALTH_PROJECTION)).toContain('status.conditions')
    expect(leaves(HEALTH_PROJECTION)).toContain('status.containerStatuses')
    expect(leaves(HEALTH_PROJECTION).some((p) => /conditions\.|containerStatuses\./.test(p))).toBe(false)
  })

  it('projects a map whose keys a JSON path cannot name (dots, slashes) whole', () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { 'app.yaml': 'x' } }
    expect(leaves(rolloutProjection([configMap]))).toContain('data')
  })

  it("projects the manifest's labels (whole: their keys hold dots), and the annotations and managedFields that prove a release where a manifest sets something", () => {
    expect(leaves(rolloutProjection([web])).filter((p) => p.startsWith('metadata'))).toEqual([
      ...leaves({ metadata: HEALTH_PROJECTION.metadata as object }),
      'metadata.annotations',
      'metadata.managedFields',
      'metadata.labels',
    ])
    // A target named in `targets` has nothing to compare: no provenance is read for it.
    const named = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } }
    expect(leaves(rolloutProjection([named]))).not.toContain('metadata.managedFields')
  })

  it("projects every top-level field a manifest sets but identity and status: a Role's rules, a ServiceAccount's fields", () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r' },
      rules: [{ verbs: ['get'] }],
    }
    const account = {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'sa' },
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
      status: { x: 1 },
    }
    const projected = leaves(rolloutProjection([role, account]))
    expect(projected).toEqual(expect.arrayContaining(['rules', 'imagePullSecrets', 'automountServiceAccountToken']))
    expect(projected).not.toContain('status.x')
  })

  it('keeps a path whole when one manifest projects it whole and another a part of it', () => {
    expect(mergeProjection({ spec: { a: { b: true } } }, { spec: { a: true } })).toEqual({ spec: { a: true } })
    expect(mergeProjection({ spec: { a: true } }, { spec: { a: { b: true } } })).toEqual({ spec: { a: true } })
    expect(mergeProjection({ spec: { a: { b: true } } }, { spec: { a: { c: true } } })).toEqual({
      spec: { a: { b: true, c: true } },
    })
  })
})
