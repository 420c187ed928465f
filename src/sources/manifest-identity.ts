/**
 * An object's identity as kubectl reads it from a manifest: its group, kind, name and namespace,
 * or the `generateName` of one the API server names. Pure.
 */
import type { Target } from '../model/target.js'
import { isRecord } from '../model/plain-value.js'

/** An object whose name the API server picks at creation (`metadata.generateName`). */
export interface UnnamedObject {
  path: string
  line: number
  kind: string
  group: string
  namespace: string | undefined
  generateName: string
}

/**
 * Kinds that live outside namespaces: a manifest object of one never gets the default namespace
 * (kubectl asks the API server's discovery; the graph's query API offers none, and a query's
 * `namespace` filter on a cluster-scoped kind matches nothing, so a wrong guess would wait for
 * an object that is there). Every cluster-scoped kind Kubernetes itself serves (1.31), and those
 * of the add-ons most clusters run. A custom kind not named here is read as namespaced, as most
 * are; docs/commands.md says so.
 */
const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  // core
  'Namespace',
  'Node',
  'PersistentVolume',
  'ComponentStatus',
  // RBAC, admission, API registration
  'ClusterRole',
  'ClusterRoleBinding',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
  'MutatingAdmissionPolicy',
  'MutatingAdmissionPolicyBinding',
  'APIService',
  'CustomResourceDefinition',
  // scheduling, nodes, storage, networking
  'PriorityClass',
  'RuntimeClass',
  'StorageClass',
  'CSIDriver',
  'CSINode',
  'VolumeAttachment',
  'VolumeAttributesClass',
  'IngressClass',
  'IPAddress',
  'ServiceCIDR',
  'DeviceClass',
  'ResourceSlice',
  // flow control, certificates, authentication and authorization reviews
  'FlowSchema',
  'PriorityLevelConfiguration',
  'CertificateSigningRequest',
  'ClusterTrustBundle',
  'TokenReview',
  'SelfSubjectReview',
  'SelfSubjectAccessReview',
  'SelfSubjectRulesReview',
  'SubjectAccessReview',
  'StorageVersion',
  'StorageVersionMigration',
  // add-ons most clusters run
  'ClusterIssuer', // cert-manager
  'GatewayClass', // Gateway API
  'ClusterPolicy', // Kyverno
  'ClusterSecretStore', // External Secrets
  'NodePool', // Karpenter
  'EC2NodeClass',
])

/** Whether objects of this kind live outside namespaces. */
function isClusterScoped(kind: string): boolean {
  return CLUSTER_SCOPED.has(kind)
}

/** The identity of a named object, in the default namespace when it is namespaced and names none. */
export function asTarget(value: unknown, defaultNamespace?: string): Omit<Target, 'origin'> | undefined {
  if (!isRecord(value) || !isRecord(value.metadata)) return undefined
  const { apiVersion, kind } = value
  const { name, namespace } = value.metadata
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string' || !name) return undefined
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  const scoped = !isClusterScoped(kind)
  const ns = scoped ? (typeof namespace === 'string' && namespace ? namespace : defaultNamespace) : undefined
  return { kind, name, group, namespace: ns }
}

/** The kind and `generateName` of an object that has no name, when it is one. */
export function generatedName(
  value: unknown,
  defaultNamespace?: string,
): Omit<UnnamedObject, 'path' | 'line'> | undefined {
  if (!isRecord(value) || !isRecord(value.metadata)) return undefined
  const { apiVersion, kind } = value
  const { name, generateName, namespace } = value.metadata
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || name !== undefined) return undefined
  if (typeof generateName !== 'string' || !generateName) return undefined
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  const ns = isClusterScoped(kind)
    ? undefined
    : typeof namespace === 'string' && namespace
      ? namespace
      : defaultNamespace
  return { kind, group, namespace: ns, generateName }
}
