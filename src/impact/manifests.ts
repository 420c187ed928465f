/**
 * Kubernetes objects in manifest files. A file can hold many YAML documents and `kind: List`
 * objects. Templates (Helm's `{{ }}`) and files that hold no Kubernetes object are skipped
 * with a reason, never dropped silently.
 */
import { parseAllDocuments } from 'yaml'
import type { SkippedFile, Target, TargetOrigin } from './model.js'

/** Kinds that live outside namespaces: they never get the default namespace. */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'StorageClass',
  'PriorityClass',
  'IngressClass',
  'RuntimeClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'APIService',
  'CSIDriver',
  'VolumeAttachment',
])

export interface ManifestTargets {
  targets: Target[]
  skipped?: SkippedFile
}

export function targetsFromManifest(path: string, text: string, origin: TargetOrigin, defaultNamespace?: string): ManifestTargets {
  if (/\{\{.*?\}\}/s.test(text))
    return { targets: [], skipped: { path, reason: 'a template (contains {{ }}): render it first, or name its objects in `targets`' } }
  let documents
  try {
    documents = parseAllDocuments(text)
  } catch (error) {
    return { targets: [], skipped: { path, reason: `not readable as YAML (${firstLine(error)})` } }
  }
  const list = Array.isArray(documents) ? documents : [documents]
  const broken = list.find((document) => document.errors.length > 0)
  if (broken) return { targets: [], skipped: { path, reason: `not valid YAML (${firstLine(broken.errors[0])})` } }

  const targets: Target[] = []
  for (const document of list) {
    const value = document.toJS({ maxAliasCount: 100 }) as unknown
    for (const object of expandLists(value)) {
      const target = asTarget(object, origin, defaultNamespace)
      if (target) targets.push(target)
    }
  }
  if (targets.length === 0) return { targets, skipped: { path, reason: 'holds no Kubernetes object (apiVersion, kind and metadata.name)' } }
  return { targets }
}

function expandLists(value: unknown): unknown[] {
  if (!isRecord(value)) return []
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) return value.items.flatMap(expandLists)
  return [value]
}

function asTarget(value: unknown, origin: TargetOrigin, defaultNamespace?: string): Target | undefined {
  if (!isRecord(value) || !isRecord(value.metadata)) return undefined
  const { apiVersion, kind } = value
  const { name, namespace } = value.metadata
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string' || !name) return undefined
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  const scoped = !CLUSTER_SCOPED.has(kind)
  const ns = scoped ? (typeof namespace === 'string' && namespace ? namespace : defaultNamespace) : undefined
  return { kind, name, group, namespace: ns, origin }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}
