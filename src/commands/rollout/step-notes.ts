/**
 * What the rollout step says before and after its wait: the edges it watches in the log's first
 * line, a gate whose only release carriers it cannot check (`on-unverifiable`), a release Job
 * its TTL could delete between two looks, and the advice when a `targets` gate timed out for
 * want of evidence of the release. Pure.
 */
import { at, int } from './live-object.js'
import { UNPROVEN } from './binding.js'
import type { EdgeTrack } from './poll.js'
import type { RolloutTarget, RolloutTargets } from './targets.js'

/** Kinds that deliver a release the graph does not sync: GitOps objects and progressive-delivery workloads. */
const CARRIERS: ReadonlySet<string> = new Set([
  'helm.toolkit.fluxcd.io/HelmRelease',
  'kustomize.toolkit.fluxcd.io/Kustomization',
  'argoproj.io/Application',
  'argoproj.io/ApplicationSet',
  'argoproj.io/Rollout',
])

/** Kinds that run the release's pods: checking one of them checks the release. */
const RUNS_PODS: ReadonlySet<string> = new Set([
  'apps/Deployment',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'apps/ReplicaSet',
  'batch/Job',
  'batch/CronJob',
  '/Pod',
])

/** The longest pause between two looks plus the graph's lag behind the edge (a watch event, relayed). */
const LOOK_GAP_SECONDS = 30 + 30

/** The unchecked targets that carry the release when nothing the gate checks runs pods; else none. */
export function unverifiable(collected: Pick<RolloutTargets, 'targets' | 'unchecked'>): RolloutTarget[] {
  const key = (t: RolloutTarget) => `${t.target.group}/${t.target.kind}`
  if (collected.targets.some((t) => RUNS_PODS.has(key(t)))) return []
  return collected.unchecked.filter((t) => CARRIERS.has(key(t)))
}

export function unverifiableMessage(carriers: readonly RolloutTarget[], mode: 'fail' | 'warn'): string {
  const named = carriers
    .slice(0, 5)
    .map((t) => t.label)
    .join(', ')
  const more = carriers.length > 5 ? ` and ${carriers.length - 5} more` : ''
  const what = `This release is carried by ${named}${more}, of kinds the graph does not sync, and nothing the gate checks runs its pods, so no check can show the release is live`
  const fix =
    'Gate on the workloads they produce (name them in `targets`, or add their rendered manifests to `manifests` or `rendered-head`), or name the kinds in `synced-kinds` if the graph syncs them'
  return mode === 'fail'
    ? `${what} (\`on-unverifiable: fail\`). ${fix}; \`on-unverifiable: warn\` gates on the rest and passes with a warning.`
    : `${what}: what passed is only the rest (\`on-unverifiable: warn\`). ${fix}.`
}

/** "every engaged edge", "edge(s) a, b", or the edges the targets are pinned to. */
export function watchedText(named: readonly string[] | undefined, targets: readonly RolloutTarget[]): string {
  if (named) return `edge(s) ${named.join(', ')}`
  const pinned = [...new Set(targets.map((t) => t.target.edge))]
  if (!pinned.includes(undefined)) return `the edge(s) they name (${pinned.join(', ')})`
  // The pinned ones by name and edge: "N of them only on the edge each names" made the reader count.
  const some = targets.filter((t) => t.target.edge !== undefined)
  if (some.length === 0) return 'every engaged edge'
  const shown = some.slice(0, PINNED_SHOWN).map((t) => `${t.label} only on ${t.target.edge ?? ''}`)
  const more = some.length > PINNED_SHOWN ? `, and ${some.length - PINNED_SHOWN} more only on the edge each names` : ''
  return `every engaged edge (${shown.join(', ')}${more})`
}

/** Pinned targets the log names one by one; the rest are counted. */
const PINNED_SHOWN = 3

/** A Job whose manifest lets its TTL delete it before a look could see it finished. */
export function shortJobTtls(targets: readonly RolloutTarget[]): string[] {
  return targets.flatMap((t) => {
    if (t.target.kind !== 'Job' || t.target.group !== 'batch') return []
    const ttl = int(at(t.expected, 'spec', 'ttlSecondsAfterFinished'), -1)
    if (ttl < 0 || ttl >= LOOK_GAP_SECONDS) return []
    return [
      `${t.label} sets ttlSecondsAfterFinished: ${ttl}, shorter than a look's gap (up to ${LOOK_GAP_SECONDS} s: 30 s between polls, plus the graph's lag behind the edge): it may be deleted before the gate sees it finished, and then it waits for a Job that is gone. Raise it to ${LOOK_GAP_SECONDS} or more for a gated release.`,
    ]
  })
}

/** Advice when healthy `targets` targets timed out for want of evidence of the release; undefined when none did. */
export function unprovenAdvice(edges: readonly EdgeTrack[]): string | undefined {
  const labels = new Set<number>()
  for (const track of edges) track.cells.forEach((c, i) => c?.reason === UNPROVEN && labels.add(i))
  if (labels.size === 0) return undefined
  return `${labels.size} target(s) were healthy but unchanged since the first read, and nothing tied them to this release: set \`revision\` to the value the deploy stamps (the label or annotation \`app.kubernetes.io/version\`, or \`key=value\`), or start the gate before the deploy applies so that a change is seen.`
}
