/**
 * The rule for each built-in kind: kstatus's (its core.go) where it fits a release, stricter
 * where a release needs it (docs/commands.md, "rollout", says each choice): a Job must complete,
 * a failed Pod fails, an OnDelete StatefulSet is judged on its updated pods, a paused Deployment
 * and pods that cannot pull or keep crashing fail at once. A rule runs only after the generic
 * rules passed, so the controller has seen the latest generation.
 */
import { asBoolean } from '../../model/plain-value.js'
import {
  at,
  condition,
  conditionText,
  current,
  failed,
  inProgress,
  int,
  list,
  shortText,
  str,
  type KindRule,
  type LiveObject,
} from './live-object.js'

/** The controller's sentinel for "no progress deadline": it then sets no Progressing condition. */
const NO_DEADLINE = 2 ** 31 - 1

/** kstatus gives a pod this long after creation to be scheduled before calling it unschedulable. @internal */
export const SCHEDULE_WINDOW_MS = 15_000

const spec = (live: LiveObject, ...path: string[]): unknown => at(live.object, 'spec', ...path)
const status = (live: LiveObject, ...path: string[]): unknown => at(live.object, 'status', ...path)

/** "ready 2/3" when fewer than wanted, else undefined. */
function short(label: string, have: number, want: number): string | undefined {
  return want > have ? `${label} ${have}/${want}` : undefined
}

const deployment: KindRule = (live) => {
  // kstatus waits on a paused Deployment; its controller does nothing until it is resumed.
  if (asBoolean(spec(live, 'paused')) === true)
    return failed('paused (spec.paused): it rolls out only once resumed, e.g. kubectl rollout resume')
  let progressing = int(spec(live, 'progressDeadlineSeconds'), NO_DEADLINE) === NO_DEADLINE
  for (const c of live.conditions) {
    if (c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded') return failed('deadline exceeded')
    if (c.type === 'Progressing' && c.status === 'True' && c.reason === 'NewReplicaSetAvailable') progressing = true
  }
  const want = int(spec(live, 'replicas'), 1)
  const replicas = int(status(live, 'replicas'), 0)
  const updated = int(status(live, 'updatedReplicas'), 0)
  const behind =
    short('replicas', replicas, want) ??
    short('updated', updated, want) ??
    (replicas > want ? `old replicas terminating: ${replicas - want}` : undefined) ??
    short('available', int(status(live, 'availableReplicas'), 0), updated) ??
    short('ready', int(status(live, 'readyReplicas'), 0), want)
  if (behind) return inProgress(behind)
  if (!progressing) return inProgress('new ReplicaSet not available yet')
  if (!condition(live, 'Available', 'True')) return inProgress('Available? no')
  return current(`available ${replicas}/${want}`)
}

const statefulSet: KindRule = (live) => {
  const want = int(spec(live, 'replicas'), 1)
  // kstatus calls OnDelete current at once; a release is out only when its pods were replaced.
  if (str(spec(live, 'updateStrategy', 'type')) === 'OnDelete') {
    const behind =
      short('updated', int(status(live, 'updatedReplicas'), 0), want) ??
      short('ready', int(status(live, 'readyReplicas'), 0), want)
    return behind
      ? inProgress(`OnDelete: ${behind} (a pod takes the new template only when deleted)`)
      : current(`OnDelete: updated and ready ${want}/${want}`)
  }
  const replicas = int(status(live, 'replicas'), 0)
  const updated = int(status(live, 'updatedReplicas'), 0)
  const partition = int(spec(live, 'updateStrategy', 'rollingUpdate', 'partition'), -1)
  const behind =
    short('replicas', replicas, want) ??
    short('ready', int(status(live, 'readyReplicas'), 0), want) ??
    (replicas > want ? `extra replicas terminating: ${replicas - want}` : undefined)
  if (behind) return inProgress(behind)
  // Pods below the partition keep the old revision on purpose: only those above it must update.
  if (partition !== -1) {
    const below = short('updated', updated, want - partition)
    return below
      ? inProgress(`${below} (partition ${partition})`)
      : current(`updated ${updated} above partition ${partition}`)
  }
  const lessCurrent = short('current', int(status(live, 'currentReplicas'), 0), want)
  if (lessCurrent) return inProgress(lessCurrent)
  const currentRevision = str(status(live, 'currentRevision'))
  const updateRevision = str(status(live, 'updateRevision'))
  if (currentRevision !== updateRevision)
    return inProgress(`revision ${shortText(currentRevision) || '?'}, updating to ${shortText(updateRevision) || '?'}`)
  return current(`ready ${replicas}/${want}`)
}

const daemonSet: KindRule = (live) => {
  // Lenient elsewhere, but a DaemonSet the controller has acted on always has both fields.
  if (live.generation === undefined) return inProgress('no generation yet')
  if (live.observed === undefined) return inProgress('generation not observed yet')
  const desired = int(status(live, 'desiredNumberScheduled'), -1)
  if (desired === -1) return inProgress('desired count not reported yet')
  const behind =
    short('scheduled', int(status(live, 'currentNumberScheduled'), 0), desired) ??
    short('updated', int(status(live, 'updatedNumberScheduled'), 0), desired) ??
    short('available', int(status(live, 'numberAvailable'), 0), desired) ??
    short('ready', int(status(live, 'numberReady'), 0), desired)
  const onDelete = str(spec(live, 'updateStrategy', 'type')) === 'OnDelete' ? 'OnDelete: ' : ''
  return behind ? inProgress(`${onDelete}${behind}`) : current(`${onDelete}ready ${desired}/${desired}`)
}

const replicaSet: KindRule = (live) => {
  const failure = condition(live, 'ReplicaFailure', 'True')
  if (failure) return inProgress(conditionText('replica failure', failure))
  const want = int(spec(live, 'replicas'), 1)
  const replicas = int(status(live, 'replicas'), 0)
  const behind =
    short('labelled', int(status(live, 'fullyLabeledReplicas'), 0), want) ??
    short('available', int(status(live, 'availableReplicas'), 0), want) ??
    short('ready', int(status(live, 'readyReplicas'), 0), want) ??
    (replicas > want ? `extra replicas terminating: ${replicas - want}` : undefined)
  return behind ? inProgress(behind) : current(`available ${want}/${want}`)
}

/** A release Job (a migration) is out when Complete and failed when Failed, as Flux waits on it; kstatus passes it once it runs. */
const job: KindRule = (live) => {
  const completions = int(spec(live, 'completions'), int(spec(live, 'parallelism'), 1))
  const succeeded = int(status(live, 'succeeded'), 0)
  for (const c of live.conditions) {
    if (c.status !== 'True') continue
    if (c.type === 'Complete') return current(`complete ${succeeded}/${completions}`)
    if (c.type === 'Failed') return failed(conditionText('job failed', c))
  }
  if (asBoolean(spec(live, 'suspend')) === true) return inProgress('suspended (spec.suspend)')
  if (!str(status(live, 'startTime'))) return inProgress('not started')
  return inProgress(
    `running: ${succeeded}/${completions} succeeded, ${int(status(live, 'active'), 0)} active, ${int(status(live, 'failed'), 0)} failed`,
  )
}

const persistentVolumeClaim: KindRule = (live) => {
  const phase = str(status(live, 'phase'))
  if (phase === 'Lost') return failed('Lost: its volume is gone')
  return phase === 'Bound' ? current('Bound') : inProgress(`Bound? no: ${shortText(phase) || 'no phase'}`)
}

/**
 * kstatus only checks that a LoadBalancer has a cluster IP, which it has from creation; a gate
 * wants the address the cloud assigns, so this looks for an ingress entry with an IP or hostname.
 */
const service: KindRule = (live) => {
  if (str(spec(live, 'type')) !== 'LoadBalancer') return current('exists')
  const ingress = list(status(live, 'loadBalancer', 'ingress'), 'status.loadBalancer.ingress')
  if (!ingress.ok) return { status: 'unknown', reason: ingress.problem }
  const addressed = ingress.value.some((entry) => str(at(entry, 'ip')) || str(at(entry, 'hostname')))
  return addressed ? current('load-balancer address assigned') : inProgress('no load-balancer address')
}

/**
 * Waiting reasons that more time does not cure without a change: a crash loop, an image that
 * cannot be pulled. kstatus fails only the crash loop; a release also fails on the pull.
 */
const STUCK_REASONS: ReadonlySet<string> = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImageNeverPull',
  'InvalidImageName',
])

export interface StuckContainer {
  name: string
  image: string
  restarts: number
}

/** The first stuck waiting reason of a pod's containers (init containers first: theirs keeps it Pending), with the containers in it. */
export function stuckContainers(
  pod: unknown,
): { reason: string; containers: StuckContainer[] } | { problem: string } | undefined {
  let found: { reason: string; containers: StuckContainer[] } | undefined
  for (const field of ['initContainerStatuses', 'containerStatuses']) {
    const statuses = list(at(pod, 'status', field), `status.${field}`)
    if (!statuses.ok) return statuses
    for (const entry of statuses.value) {
      const reason = str(at(entry, 'state', 'waiting', 'reason'))
      if (!STUCK_REASONS.has(reason) || (found && found.reason !== reason)) continue
      found ??= { reason, containers: [] }
      found.containers.push({
        name: shortText(str(at(entry, 'name'))) || '?',
        image: str(at(entry, 'image')),
        restarts: int(at(entry, 'restartCount'), 0),
      })
    }
  }
  return found
}

/** "CrashLoopBackOff (container web)" */
export function stuckText(stuck: { reason: string; containers: readonly { name: string }[] }): string {
  const names = stuck.containers.map((c) => c.name)
  return `${stuck.reason} (${names.length > 1 ? `containers ${names.join(', ')}` : `container ${names[0] ?? '?'}`})`
}

const pod: KindRule = (live) => {
  const phase = str(status(live, 'phase'))
  if (phase === 'Succeeded') return current('succeeded')
  // kstatus calls a failed pod current (it reached an end state); a release pod that failed did not roll out.
  if (phase === 'Failed')
    return failed(`phase Failed${str(status(live, 'reason')) ? `: ${shortText(str(status(live, 'reason')))}` : ''}`)
  if (phase !== 'Running' && phase !== 'Pending')
    return phase ? { status: 'unknown', reason: `phase ${shortText(phase)}` } : inProgress('phase not reported yet')
  if (phase === 'Running' && condition(live, 'Ready', 'True')) return current('Ready')
  const stuck = stuckContainers(live.object)
  if (stuck && 'problem' in stuck) return { status: 'unknown', reason: stuck.problem }
  if (stuck) return failed(stuckText(stuck))
  if (phase === 'Running') return inProgress('running, Ready? no')
  const unschedulable = condition(live, 'PodScheduled', 'False')
  if (unschedulable?.reason !== 'Unschedulable') return inProgress('Pending')
  const created = Date.parse(str(at(live.object, 'metadata', 'creationTimestamp')))
  if (live.now - created < SCHEDULE_WINDOW_MS) return inProgress('not scheduled yet')
  return failed(unschedulable.message ? `unschedulable: ${shortText(unschedulable.message)}` : 'unschedulable')
}

const customResourceDefinition: KindRule = (live) => {
  for (const c of live.conditions) {
    if (c.type === 'NamesAccepted' && c.status === 'False') return failed(conditionText('names not accepted', c))
    if (c.type === 'Established' && c.status === 'False' && c.reason !== 'Installing')
      return failed(conditionText('not established', c))
    if (c.type === 'Established' && c.status === 'True') return current('Established')
  }
  return inProgress('installing')
}

const alwaysReady: KindRule = () => current('exists')

/** Keyed as kstatus keys them: "group/Kind", the core group by Kind alone. */
export const KIND_RULES: ReadonlyMap<string, KindRule> = new Map([
  ['apps/Deployment', deployment],
  ['extensions/Deployment', deployment],
  ['apps/StatefulSet', statefulSet],
  ['apps/DaemonSet', daemonSet],
  ['extensions/DaemonSet', daemonSet],
  ['apps/ReplicaSet', replicaSet],
  ['extensions/ReplicaSet', replicaSet],
  ['batch/Job', job],
  ['batch/CronJob', alwaysReady],
  ['PersistentVolumeClaim', persistentVolumeClaim],
  ['Service', service],
  ['Pod', pod],
  ['ConfigMap', alwaysReady],
  ['Secret', alwaysReady],
  // The disruption controller sets no condition when it fails; observing the generation is all there is.
  ['policy/PodDisruptionBudget', alwaysReady],
  ['apiextensions.k8s.io/CustomResourceDefinition', customResourceDefinition],
])
