/**
 * Is a live object healthy? The rules kstatus publishes (sigs.k8s.io/cli-utils pkg/kstatus, the
 * status Flux and kpt wait on), in its order: generic rules first, then one rule per kind, then the
 * Ready condition, else current. Pure: the object in, a status and a short reason out.
 */
import {
  at,
  condition,
  conditionText,
  conditionsOf,
  current,
  failed,
  generationsOf,
  inProgress,
  kindKey,
  str,
} from './live-object.js'
import { isRecord } from '../../model/plain-value.js'
import { groupOf } from '../../model/target.js'
import type { HealthResult, KindRule, LiveObject, Rule } from './live-object.js'
import { KIND_RULES } from './kstatus-kinds.js'

export type { HealthResult } from './live-object.js'

/** Checked on every kind before its own rule, in kstatus's order (checkGenericProperties). @internal */
export const GENERIC_RULES: readonly (readonly [string, Rule])[] = [
  [
    'deletion timestamp',
    (live) =>
      str(at(live.object, 'metadata', 'deletionTimestamp'))
        ? { status: 'terminating', reason: 'being deleted' }
        : undefined,
  ],
  [
    'observed generation',
    ({ generation, observed }) =>
      generation !== undefined && observed !== undefined && generation !== observed
        ? inProgress(`generation ${generation} observed ${observed}`)
        : undefined,
  ],
  [
    'Reconciling',
    (live) => {
      const c = condition(live, 'Reconciling', 'True')
      return c && inProgress(conditionText('Reconciling', c))
    },
  ],
  [
    'Stalled',
    (live) => {
      const c = condition(live, 'Stalled', 'True')
      return c && failed(conditionText('Stalled', c))
    },
  ],
]

/**
 * A kind with no rule of its own: its Ready condition when it has one (widely used, though not a
 * Kubernetes convention), else current once it exists at the expected generation.
 */
const readyCondition: KindRule = (live) => {
  const c = condition(live, 'Ready')
  if (c?.status === 'True') return current('Ready')
  if (c?.status === 'False') return inProgress(conditionText('Ready? no', c))
  if (c?.status === 'Unknown') return inProgress(conditionText('Ready? unknown', c))
  return current('exists')
}

/** Never throws: garbage gets 'unknown' with what was wrong. `now` only ages unschedulable pods. */
export function computeHealth(live: unknown, now: number): HealthResult {
  const read = readLive(live, now)
  if ('status' in read) return read
  for (const [, rule] of GENERIC_RULES) {
    const result = rule(read)
    if (result) return result
  }
  return (KIND_RULES.get(kindKey(read.group, read.kind)) ?? readyCondition)(read)
}

function readLive(live: unknown, now: number): LiveObject | HealthResult {
  if (!isRecord(live)) return { status: 'unknown', reason: 'not an object' }
  const kind = str(live.kind)
  if (!kind) return { status: 'unknown', reason: 'no kind' }
  const conditions = conditionsOf(live)
  if (!conditions.ok) return { status: 'unknown', reason: conditions.problem }
  const generations = generationsOf(live)
  if (!generations.ok) return { status: 'unknown', reason: generations.problem }
  return {
    kind,
    group: groupOf(live.apiVersion),
    object: live,
    conditions: conditions.value,
    ...generations.value,
    now,
  }
}
