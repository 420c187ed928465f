/** The graph's default sync list (docs/hub-facts.md), and `synced-kinds` widening it. */
import { describe, expect, it } from 'vitest'
import { isChecked, syncedByDefault } from '../../../../src/commands/rollout/checked-kinds.js'

describe('syncedByDefault', () => {
  it.each([
    ['', 'Pod'],
    ['', 'Service'],
    ['', 'Endpoints'],
    ['', 'ConfigMap'],
    ['', 'Namespace'],
    ['', 'PersistentVolumeClaim'],
    ['', 'ServiceAccount'],
    ['', 'ResourceQuota'],
    ['apps', 'Deployment'],
    ['apps', 'ReplicaSet'],
    ['apps', 'StatefulSet'],
    ['apps', 'DaemonSet'],
    ['batch', 'Job'],
    ['batch', 'CronJob'],
    ['networking.k8s.io', 'Ingress'],
    ['networking.k8s.io', 'NetworkPolicy'],
    ['autoscaling', 'HorizontalPodAutoscaler'],
    ['rbac.authorization.k8s.io', 'ClusterRoleBinding'],
    ['storage.k8s.io', 'StorageClass'],
    ['apiextensions.k8s.io', 'CustomResourceDefinition'],
    ['apps', 'deployments'],
    ['', 'pvc'],
  ])('syncs %s/%s', (group, kind) => {
    expect(syncedByDefault(group, kind)).toBe(true)
  })

  it.each([
    ['', 'Secret'],
    ['', 'Event'],
    ['policy', 'PodDisruptionBudget'],
    ['networking.k8s.io', 'IngressClass'],
    ['helm.toolkit.fluxcd.io', 'HelmRelease'],
    ['argoproj.io', 'Rollout'],
    ['', 'Deployment'],
    ['', 'constructor'],
    ['__proto__', 'Pod'],
  ])('does not sync %s/%s', (group, kind) => {
    expect(syncedByDefault(group, kind)).toBe(false)
  })
})

describe('isChecked', () => {
  it('checks a kind named in synced-kinds, in any group or the one given', () => {
    expect(isChecked('', 'Secret', [])).toBe(false)
    expect(isChecked('', 'Secret', [{ kind: 'Secret', group: undefined }])).toBe(true)
    expect(
      isChecked('helm.toolkit.fluxcd.io', 'HelmRelease', [{ kind: 'HelmRelease', group: 'helm.toolkit.fluxcd.io' }]),
    ).toBe(true)
    expect(isChecked('example.com', 'HelmRelease', [{ kind: 'HelmRelease', group: 'helm.toolkit.fluxcd.io' }])).toBe(
      false,
    )
  })
})
