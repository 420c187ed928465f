/**
 * Which manifest objects are a release's lasting targets, and what one manifest object says of
 * another. Helm hooks and tests (`helm.sh/hook`) run around a release and are deleted by their
 * policy, so the cluster may never hold them; an object named by `generateName` gets its name
 * at creation, so no graph row can be matched to it. Both are listed as not checked, with the
 * reason. An HPA among the manifests owns its workload's `spec.replicas`. Pure.
 */
import type { UnnamedObject } from '../../sources/manifest-identity.js'
import { kindLabel, objectKey, type Target } from '../../model/target.js'
import { isRecord } from '../../model/plain-value.js'
import { at, str } from './live-object.js'

/** A target listed as not checked (./targets.ts's RolloutTarget, which imports this module). */
interface ListedTarget {
  key: string
  label: string
  target: Target
  expected: Record<string, unknown>
  place: { file: string; line: number }
  notChecked: string
}

const HOOK = 'helm.sh/hook'

/** Why a Helm hook or test is not a target, or undefined for any other object. */
export function hookReason(value: Record<string, unknown>): string | undefined {
  const hook = at(value, 'metadata', 'annotations', HOOK)
  if (typeof hook !== 'string' || !hook.trim()) return undefined
  const phases = hook
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  const test = phases.some((p) => p === 'test' || p === 'test-success' || p === 'test-failure')
  return `not checked: a Helm ${test ? 'test' : 'hook'} (\`${HOOK}: ${phases.slice(0, 3).join(',')}\`) runs around a release and is deleted by its policy, so it is not a release target`
}

const UNNAMED_REASON =
  'not checked: named by `generateName`, so the API server picks its name at creation and no graph row can be matched to it'

/** Each `generateName` object, as a target listed as not checked. */
export function unnamedTargets(unnamed: readonly UnnamedObject[]): ListedTarget[] {
  return unnamed.map((object) => {
    const target: Target = {
      kind: object.kind,
      group: object.group,
      name: `${object.generateName}…`,
      namespace: object.namespace,
      origin: { kind: 'manifest', path: object.path, change: 'workspace', line: object.line },
    }
    const where = object.namespace ? `${object.namespace}/` : ''
    return {
      key: objectKey(target),
      label: `${kindLabel(object.kind, object.group)} ${where}${object.generateName}… (generateName)`,
      target,
      expected: { kind: object.kind, metadata: { generateName: object.generateName } },
      place: { file: object.path, line: object.line },
      notChecked: UNNAMED_REASON,
    }
  })
}

/**
 * The identities (objectKey, no edge) of the workloads an HPA among the manifests scales: the
 * HPA writes their `spec.replicas`, so the manifest's value is not compared.
 */
export function scaledByManifests(
  targets: Iterable<{ expected: Record<string, unknown>; target: Pick<Target, 'namespace'> }>,
): Set<string> {
  const scaled = new Set<string>()
  for (const { expected: object, target } of targets) {
    if (object.kind !== 'HorizontalPodAutoscaler') continue
    const ref = at(object, 'spec', 'scaleTargetRef')
    if (!isRecord(ref)) continue
    const apiVersion = str(ref.apiVersion)
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
    const name = str(ref.name)
    const kind = str(ref.kind)
    if (!name || !kind) continue
    scaled.add(objectKey({ group, kind, name, namespace: target.namespace }))
  }
  return scaled
}
