/**
 * The scope the workflow gives an impact or rollout step (`allowed-namespaces`, `allowed-kinds`): a pull
 * request chooses its targets, but not which of them are queried. A target outside the scope is
 * listed with its reason and never sent to the hub.
 */
import type { TargetScope } from '../settings/target-limits.js'
import type { SkippedTarget, Target } from '../model/target.js'

export function partitionByScope(
  targets: readonly Target[],
  scope: TargetScope,
): { inScope: Target[]; skipped: SkippedTarget[] } {
  const inScope: Target[] = []
  const skipped: SkippedTarget[] = []
  for (const target of targets) {
    const reason = outOfScope(target, scope)
    if (reason) skipped.push({ target, reason })
    else inScope.push(target)
  }
  return { inScope, skipped }
}

function outOfScope(target: Target, { namespaces, kinds }: TargetScope): string | undefined {
  if (
    kinds.length > 0 &&
    !kinds.some(
      (allowed) => allowed.kind === target.kind && (allowed.group === undefined || allowed.group === target.group),
    )
  ) {
    return 'its kind is not in `allowed-kinds`: not queried'
  }
  if (namespaces.length > 0) {
    if (!target.namespace)
      return 'it names no namespace (cluster-scoped, or none given) and `allowed-namespaces` is set: not queried'
    if (!namespaces.includes(target.namespace)) return 'its namespace is not in `allowed-namespaces`: not queried'
  }
  return undefined
}
