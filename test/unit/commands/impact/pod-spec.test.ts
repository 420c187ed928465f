/** What a Pod spec references on the engine's paths, and label selectors read on the client. */
import { describe, expect, it } from 'vitest'
import {
  labelSelectorMatches,
  podSpecReferences,
  serviceSelectorMatches,
} from '../../../../src/commands/impact/pod-spec.js'

describe('podSpecReferences', () => {
  it('reads every engine path: volumes, service account, pull secrets, env valueFrom and envFrom', () => {
    const refs = podSpecReferences({
      serviceAccountName: 'sa',
      imagePullSecrets: [{ name: 'pull' }],
      volumes: [
        { configMap: { name: 'cm-vol' } },
        { secret: { secretName: 's-vol' } },
        { persistentVolumeClaim: { claimName: 'data' } },
      ],
      containers: [
        {
          env: [
            { valueFrom: { configMapKeyRef: { name: 'cm-key' } } },
            { valueFrom: { secretKeyRef: { name: 's-key' } } },
            { value: 'plain' },
          ],
          envFrom: [{ configMapRef: { name: 'cm-from' } }, { secretRef: { name: 's-from' } }],
        },
      ],
    })
    expect(refs.map((r) => `${r.kind}/${r.name}`).sort()).toEqual([
      'ConfigMap/cm-from',
      'ConfigMap/cm-key',
      'ConfigMap/cm-vol',
      'PersistentVolumeClaim/data',
      'Secret/pull',
      'Secret/s-from',
      'Secret/s-key',
      'Secret/s-vol',
      'ServiceAccount/sa',
    ])
  })

  it('leaves out init containers and projected volumes, as the engine does, and survives nulls', () => {
    expect(
      podSpecReferences({
        initContainers: [{ envFrom: [{ configMapRef: { name: 'init' } }] }],
        volumes: [{ projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }] } }, null],
        containers: { env: null },
      }),
    ).toEqual([])
    expect(podSpecReferences(null)).toEqual([])
  })
})

describe('selectors', () => {
  const labels = { 'app.kubernetes.io/name': 'web', tier: 'front' }
  it('matches label keys with a dot, which the engine on SQLite never matches', () => {
    expect(labelSelectorMatches({ matchLabels: { 'app.kubernetes.io/name': 'web' } }, labels)).toBe(true)
    expect(serviceSelectorMatches({ 'app.kubernetes.io/name': 'web' }, labels)).toBe(true)
  })
  it('reads matchExpressions', () => {
    expect(
      labelSelectorMatches({ matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] }, labels),
    ).toBe(true)
    expect(
      labelSelectorMatches({ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, labels),
    ).toBe(false)
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, labels)).toBe(false)
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] }, labels)).toBe(true)
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'tier', operator: 'Bogus' }] }, labels)).toBe(false)
  })
  it('an empty label selector selects every Pod; an empty Service selector and a missing one select none', () => {
    expect(labelSelectorMatches({}, labels)).toBe(true)
    expect(labelSelectorMatches(null, labels)).toBe(false)
    expect(serviceSelectorMatches({}, labels)).toBe(false)
    expect(serviceSelectorMatches(null, labels)).toBe(false)
    expect(serviceSelectorMatches({ tier: 'back' }, labels)).toBe(false)
  })
})
