// A release Job (a migration run by the release) on one edge, as keyframes of the objects the
// graph would hold: created, its pod running, then Complete or Failed the way the Job controller
// writes it (conditions, counts, the pod's end phase).
import type { FleetObject } from './fleet.ts'
import type { Keyframe } from './rollout-workloads.ts'
import {
  iso,
  meta,
  pod,
  podTemplate,
  resourceVersion,
  uidOf,
  type PodImages,
  type Workload,
} from './rollout-objects.ts'

export type JobPlan = Workload & {
  images: PodImages
  /** When the release creates it. */
  startAt: number
  /** How long its pod runs before it ends. */
  runMs: number
  /** How it ends. */
  outcome: 'complete' | 'failed'
  /** spec.ttlSecondsAfterFinished: the TTL controller deletes the Job (and its pod) that long after it ended. */
  ttlSecondsAfterFinished?: number
}

type JState = 'running' | 'complete' | 'failed'

export function jobRollout(p: JobPlan): Keyframe[] {
  const endAt = p.startAt + p.runMs
  const frames: Keyframe[] = [
    { at: p.startAt, objects: () => renderJob(p, 'running', p.startAt) },
    { at: endAt, objects: () => renderJob(p, p.outcome, endAt) },
  ]
  if (p.ttlSecondsAfterFinished !== undefined)
    frames.push({ at: endAt + p.ttlSecondsAfterFinished * 1000, objects: () => [] })
  return frames
}

function renderJob(p: JobPlan, state: JState, at: number): FleetObject[] {
  const uid = uidOf(`${p.edge}/${p.namespace}/Job/${p.name}`)
  const labels = {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': p.name,
    'controller-uid': uid,
    'job-name': p.name,
  }
  const template = podTemplate(p, p.images)
  template.spec.restartPolicy = 'Never'
  const ended = state !== 'running'
  const conditions =
    state === 'complete'
      ? [
          {
            type: 'SuccessCriteriaMet',
            status: 'True',
            reason: 'CompletionsReached',
            message: 'Reached expected number of succeeded pods',
          },
          {
            type: 'Complete',
            status: 'True',
            reason: 'CompletionsReached',
            message: 'Reached expected number of succeeded pods',
          },
        ]
      : state === 'failed'
        ? [
            {
              type: 'FailureTarget',
              status: 'True',
              reason: 'BackoffLimitExceeded',
              message: 'Job has reached the specified backoff limit',
            },
            {
              type: 'Failed',
              status: 'True',
              reason: 'BackoffLimitExceeded',
              message: 'Job has reached the specified backoff limit',
            },
          ]
        : undefined
  const job: FleetObject = {
    edge: p.edge,
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: meta({
      name: p.name,
      namespace: p.namespace,
      uid,
      labels: { ...labels, ...p.labels },
      creationTimestamp: iso(p.startAt),
      generation: 1,
      resourceVersion: resourceVersion(at, 0),
    }),
    spec: {
      parallelism: 1,
      completions: 1,
      backoffLimit: state === 'failed' ? 0 : 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      ...(p.ttlSecondsAfterFinished === undefined ? {} : { ttlSecondsAfterFinished: p.ttlSecondsAfterFinished }),
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      template: { metadata: { labels }, spec: template.spec },
    },
    status: {
      startTime: iso(p.startAt),
      ...(ended ? {} : { active: 1, ready: 1 }),
      ...(state === 'complete' ? { completionTime: iso(at), succeeded: 1 } : {}),
      ...(state === 'failed' ? { failed: 1 } : {}),
      terminating: 0,
      uncountedTerminatedPods: {},
      ...(conditions
        ? { conditions: conditions.map((c) => ({ ...c, lastProbeTime: iso(at), lastTransitionTime: iso(at) })) }
        : {}),
    },
  }
  const podName = `${p.name}-${uidOf(`${p.edge}/${p.name}/pod`).slice(0, 5)}`
  const running = pod({
    w: p,
    images: p.images,
    name: podName,
    labels,
    owner: job,
    state: { kind: 'ready', since: p.startAt },
    node: 0,
    at,
  })
  running.spec.restartPolicy = 'Never'
  if (ended) {
    const exitCode = state === 'complete' ? 0 : 1
    running.status.phase = state === 'complete' ? 'Succeeded' : 'Failed'
    running.status.conditions = (running.status.conditions as Record<string, unknown>[]).map((c) =>
      c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False', reason: 'PodCompleted' } : c,
    )
    for (const s of running.status.containerStatuses as Record<string, unknown>[]) {
      s.ready = false
      s.started = false
      s.state = {
        terminated: {
          exitCode,
          reason: exitCode === 0 ? 'Completed' : 'Error',
          startedAt: iso(p.startAt + 2000),
          finishedAt: iso(at),
        },
      }
    }
  }
  return [job, running]
}
