/**
 * What a Pod's own fields say, read on the client: the objects its spec names on the graph
 * engine's reference paths, and whether a label selector matches its labels. The engine's
 * `references` come from Pods only and its `selects` reads only `spec.selector.matchLabels`
 * (docs/hub-facts.md, "Relations"), so impact reads the Pods and selectors itself. Pure.
 */
import { isRecord } from '../../model/plain-value.js'

export interface NamedRef {
  kind: 'ConfigMap' | 'Secret' | 'PersistentVolumeClaim' | 'ServiceAccount'
  name: string
}

/** The kinds a Pod spec references, the ones whose dependents are found from the Pod side. */
export const REFERENCED_KINDS: ReadonlySet<string> = new Set<NamedRef['kind']>([
  'ConfigMap',
  'Secret',
  'PersistentVolumeClaim',
  'ServiceAccount',
])

/**
 * What a Pod spec names, on the engine's paths only: volumes (configMap, secret,
 * persistentVolumeClaim), serviceAccountName, imagePullSecrets, the containers' env valueFrom
 * and envFrom. Init containers and projected volumes are left out as the engine leaves them
 * out, so a derived reference differs from the engine's only where the engine drops a name.
 */
export function podSpecReferences(spec: unknown): NamedRef[] {
  if (!isRecord(spec)) return []
  const found = new Map<string, NamedRef>()
  const add = (kind: NamedRef['kind'], name: unknown) => {
    if (typeof name === 'string' && name !== '') found.set(`${kind}/${name}`, { kind, name })
  }
  add('ServiceAccount', spec.serviceAccountName)
  for (const secret of records(spec.imagePullSecrets)) add('Secret', secret.name)
  for (const volume of records(spec.volumes)) {
    if (isRecord(volume.configMap)) add('ConfigMap', volume.configMap.name)
    if (isRecord(volume.secret)) add('Secret', volume.secret.secretName)
    if (isRecord(volume.persistentVolumeClaim)) add('PersistentVolumeClaim', volume.persistentVolumeClaim.claimName)
  }
  for (const container of records(spec.containers)) {
    for (const env of records(container.env)) {
      const from = isRecord(env.valueFrom) ? env.valueFrom : {}
      if (isRecord(from.configMapKeyRef)) add('ConfigMap', from.configMapKeyRef.name)
      if (isRecord(from.secretKeyRef)) add('Secret', from.secretKeyRef.name)
    }
    for (const source of records(container.envFrom)) {
      if (isRecord(source.configMapRef)) add('ConfigMap', source.configMapRef.name)
      if (isRecord(source.secretRef)) add('Secret', source.secretRef.name)
    }
  }
  return [...found.values()]
}

/**
 * A Kubernetes label selector (`matchLabels` and `matchExpressions`) against labels. An empty
 * selector matches everything, as in a PodDisruptionBudget (policy/v1) or a NetworkPolicy's
 * `podSelector`; anything that is not a selector matches nothing.
 */
export function labelSelectorMatches(selector: unknown, labels: Readonly<Record<string, string>>): boolean {
  if (!isRecord(selector)) return false
  const matchLabels = isRecord(selector.matchLabels) ? selector.matchLabels : {}
  for (const [key, value] of Object.entries(matchLabels)) if (labels[key] !== value) return false
  for (const expression of records(selector.matchExpressions)) {
    const key = typeof expression.key === 'string' ? expression.key : ''
    const values = Array.isArray(expression.values)
      ? expression.values.filter((v): v is string => typeof v === 'string')
      : []
    const has = Object.hasOwn(labels, key)
    const value = labels[key] ?? ''
    const ok =
      expression.operator === 'In'
        ? has && values.includes(value)
        : expression.operator === 'NotIn'
          ? !has || !values.includes(value)
          : expression.operator === 'Exists'
            ? has
            : expression.operator === 'DoesNotExist'
              ? !has
              : false
    if (!ok) return false
  }
  return true
}

/** A Service's `spec.selector`: a plain map; an empty or missing one selects no Pod (it has manual endpoints). */
export function serviceSelectorMatches(selector: unknown, labels: Readonly<Record<string, string>>): boolean {
  if (!isRecord(selector)) return false
  const entries = Object.entries(selector)
  return entries.length > 0 && entries.every(([key, value]) => labels[key] === value)
}

/** String-valued entries of a map (labels), anything else dropped. */
export function stringMap(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {}
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
}

function records(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.filter(isRecord) : []
}
