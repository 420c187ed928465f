/**
 * What the gate says about the targets it does not check: kinds the graph does not sync (said,
 * not waited for) and targets outside `allowed-namespaces` / `allowed-kinds` (never queried),
 * and why a gate left with nothing to check fails at once. Pure.
 */
import { kindLabel } from '../../model/target.js'
import type { RolloutTarget, RolloutTargets } from './targets.js'

/** Shown by name up to this many; the rest are counted (the result file lists every one). */
const MAX_NAMED = 10

const NOT_SYNCED_REASON =
  'not checked: the graph does not sync this kind by default (name it in `synced-kinds` if its operator made it sync)'

function named(labels: readonly string[]): string {
  const shown = labels.slice(0, MAX_NAMED).join(', ')
  return labels.length > MAX_NAMED ? `${shown} and ${labels.length - MAX_NAMED} more` : shown
}

/** Why a target is not checked: its own reason (a Helm hook, `generateName`), else its kind is not synced. */
export function notCheckedReason(target: Pick<RolloutTarget, 'notChecked'>): string {
  return target.notChecked ?? NOT_SYNCED_REASON
}

/** The targets not checked, grouped by reason, one sentence each (log and summary alike). */
export function uncheckedSentences(unchecked: readonly RolloutTarget[]): string[] {
  const byReason = new Map<string, string[]>()
  for (const target of unchecked) {
    const reason = notCheckedReason(target)
    byReason.set(reason, [...(byReason.get(reason) ?? []), target.label])
  }
  return [...byReason].map(([reason, labels]) =>
    reason === NOT_SYNCED_REASON
      ? `Not checked (${labels.length}), the graph does not sync their kind by default: ${named(labels)}. Name a kind in \`synced-kinds\` if the graph's operator made it sync.`
      : `Not checked (${labels.length}): ${named(labels)}: ${reason.replace(/^not checked: /, '')}.`,
  )
}

/** One line each for the step log. */
export function uncheckedLines(collected: Pick<RolloutTargets, 'unchecked' | 'outOfScope'>): string[] {
  const lines: string[] = [...uncheckedSentences(collected.unchecked)]
  for (const skipped of collected.outOfScope.slice(0, MAX_NAMED)) {
    lines.push(
      `Outside the allowed scope, not queried: ${kindLabel(skipped.target.kind, skipped.target.group)} ${skipped.target.namespace ? `${skipped.target.namespace}/` : ''}${skipped.target.name} (${skipped.reason}).`,
    )
  }
  if (collected.outOfScope.length > MAX_NAMED)
    lines.push(`… and ${collected.outOfScope.length - MAX_NAMED} more outside the allowed scope.`)
  return lines
}

/** The verdict's message when no target can be checked: why, and what to do. */
export function nothingCheckable(collected: Pick<RolloutTargets, 'unchecked' | 'outOfScope' | 'nothing'>): string {
  const unsynced = collected.unchecked.filter((t) => t.notChecked === undefined)
  if (unsynced.length > 0) {
    const kinds = [...new Set(unsynced.map((t) => kindLabel(t.target.kind, t.target.group)))]
    return `Nothing this gate can check: every target is of a kind the graph does not sync by default (${named(kinds)}), so it would never appear, and waiting cannot change that. Gate on the workloads they produce (name them in \`targets\`, or add their manifests to \`manifests\`), or name the kinds in \`synced-kinds\` if the graph's operator made it sync them.`
  }
  if (collected.unchecked.length > 0)
    return `Nothing this gate can check: every object is a Helm hook or test, or named by \`generateName\` (${named(collected.unchecked.map((t) => t.label))}), none of which is a lasting release object the graph can show. Gate on the release's workloads (\`targets\` or \`manifests\`).`
  if (collected.outOfScope.length > 0) {
    return `Nothing this gate can check: every target is outside \`allowed-namespaces\` or \`allowed-kinds\`, so none was queried. Widen those inputs, or check \`targets\` and \`manifests\`.`
  }
  const searched = collected.nothing ? ` (${collected.nothing.searched})` : ''
  return `No rollout target was found${searched}: a rollout gate that checks nothing cannot pass. Check \`targets\`, \`manifests\` and \`rendered-head\`.`
}
