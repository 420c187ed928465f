/**
 * Which targets the graph can show at all. The graph syncs a fixed list of kinds unless its
 * operator widens it; every other kind (Secrets, custom resources such as HelmRelease, a
 * PodDisruptionBudget) resolves in a filter but ships no objects, so a query answers exactly as
 * for an object that does not exist (docs/hub-facts.md, "What the graph knows"). A gate cannot
 * wait for those: they are listed as not checked, unless `synced-kinds` says the list was widened.
 */
import type { AllowedKind } from '../../settings/target-limits.js'

/** The graph's default sync list by API group; each kind with its resource and short names. */
const SYNCED_BY_DEFAULT: ReadonlyMap<string, readonly string[]> = new Map([
  [
    '',
    [
      ...[
        'pod',
        'pods',
        'po',
        'service',
        'services',
        'svc',
        'endpoints',
        'ep',
        'configmap',
        'configmaps',
        'cm',
        'namespace',
        'namespaces',
        'ns',
      ],
      ...[
        'node',
        'nodes',
        'no',
        'persistentvolumeclaim',
        'persistentvolumeclaims',
        'pvc',
        'persistentvolume',
        'persistentvolumes',
        'pv',
      ],
      ...[
        'serviceaccount',
        'serviceaccounts',
        'sa',
        'limitrange',
        'limitranges',
        'limits',
        'resourcequota',
        'resourcequotas',
        'quota',
      ],
    ],
  ],
  [
    'apps',
    [
      'deployment',
      'deployments',
      'deploy',
      'replicaset',
      'replicasets',
      'rs',
      'statefulset',
      'statefulsets',
      'sts',
      'daemonset',
      'daemonsets',
      'ds',
    ],
  ],
  ['batch', ['job', 'jobs', 'cronjob', 'cronjobs', 'cj']],
  ['networking.k8s.io', ['ingress', 'ingresses', 'ing', 'networkpolicy', 'networkpolicies', 'netpol']],
  ['autoscaling', ['horizontalpodautoscaler', 'horizontalpodautoscalers', 'hpa']],
  [
    'rbac.authorization.k8s.io',
    [
      'role',
      'roles',
      'rolebinding',
      'rolebindings',
      'clusterrole',
      'clusterroles',
      'clusterrolebinding',
      'clusterrolebindings',
    ],
  ],
  ['storage.k8s.io', ['storageclass', 'storageclasses', 'sc']],
  ['apiextensions.k8s.io', ['customresourcedefinition', 'customresourcedefinitions', 'crd', 'crds']],
])

/** Whether the graph syncs this group/kind without its operator widening the list. @internal */
export function syncedByDefault(group: string, kind: string): boolean {
  return SYNCED_BY_DEFAULT.get(group)?.includes(kind.toLowerCase()) ?? false
}

/** Synced by default, or named in `synced-kinds` (the operator widened the graph's list). */
export function isChecked(group: string, kind: string, widened: readonly AllowedKind[]): boolean {
  if (syncedByDefault(group, kind)) return true
  return widened.some(
    (k) => k.kind.toLowerCase() === kind.toLowerCase() && (k.group === undefined || k.group === group),
  )
}
