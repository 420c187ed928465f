/**
 * kstatus's rule for each built-in kind it knows (its core.go), one entry per kind. A rule runs
 * only after the generic rules passed, so the controller has seen the latest generation.
 */
import { at, condition, conditionText, current, failed, inProgress, int, list, shortText, str, type KindRule, type LiveObject } from './live-object.js'

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
  if (str(spec(live, 'updateStrategy', 'type')) === 'OnDelete') return current('OnDelete: pods update when deleted')
  const want = int(spec(live, 'replicas'), 1)
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
    return below ? inProgress(`${below} (partition ${partition})`) : current(`updated ${updated} above partition ${partition}`)
  }
  const lessCurrent = short('current', int(status(live, 'currentReplicas'), 0), want)
  if (lessCurrent) return inProgress(lessCurrent)
  const currentRevision = str(status(live, 'currentRevision'))
  const updateRevision = str(status(live, 'updateRevision'))
  if (currentRevision !== updateRevision) return inProgress(`revision ${shortText(currentRevision) || '?'}, updating to ${shortText(updateRevision) || '?'}`)
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
  return behind ? inProgress(behind) : current(`ready ${desired}/${desired}`)
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

/** A job is current once it runs (kstatus's choice: the apply took), or when it completed. */
const job: KindRule = (live) => {
  const completions = int(spec(live, 'completions'), int(spec(live, 'parallelism'), 1))
  const succeeded = int(status(live, 'succeeded'), 0)
  for (const c of live.conditions) {
    if (c.status !== 'True') continue
    if (c.type === 'Complete') return current(`complete ${succeeded}/${completions}`)
    if (c.type === 'Failed') return failed(conditionText('job failed', c))
    if (c.type === 'Suspended' && spec(live, 'suspend') === true) return current('suspended')
  }
  if (!str(status(live, 'startTime'))) return inProgress('not started')
  return current(`running: ${succeeded} succeeded, ${int(status(live, 'active'), 0)} active, ${int(status(live, 'failed'), 0)} failed`)
}

const persistentVolumeClaim: KindRule = (live) => {
  const phase = str(status(live, 'phase'))
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

/** Names of containers (and init containers, whose crash loop keeps the pod Pending) in CrashLoopBackOff. */
function crashLooping(live: LiveObject): { names: string[] } | { problem: string } {
  const names: string[] = []
  for (const field of ['initContainerStatuses', 'containerStatuses']) {
    const statuses = list(status(live, field), `status.${field}`)
    if (!statuses.ok) return statuses
    for (const entry of statuses.value) {
      if (str(at(entry, 'state', 'waiting', 'reason')) === 'CrashLoopBackOff') names.push(shortText(str(at(entry, 'name'))) || '?')
    }
  }
  return { names }
}

const pod: KindRule = (live) => {
  const phase = str(status(live, 'phase'))
  if (phase === 'Succeeded') return current('succeeded')
  // kstatus: a pod that ran to failure has reached its end state, so it is not in progress.
  if (phase === 'Failed') return current('completed, not successfully')
  if (phase !== 'Running' && phase !== 'Pending')
    return phase ? { status: 'unknown', reason: `phase ${shortText(phase)}` } : inProgress('phase not reported yet')
  if (phase === 'Running' && condition(live, 'Ready', 'True')) return current('Ready')
  const looping = crashLooping(live)
  if ('problem' in looping) return { status: 'unknown', reason: looping.problem }
  const [first, ...more] = looping.names
  if (first !== undefined) return failed(`CrashLoopBackOff (${more.length ? `containers ${[first, ...more].join(', ')}` : `container ${first}`})`)
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
    if (c.type === 'Established' && c.status === 'False' && c.reason !== 'Installing') return failed(conditionText('not established', c))
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
