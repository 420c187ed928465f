/**
 * The re-run rule of `idempotency-key: auto`. The derived key leaves the run attempt out, so a
 * re-run of a job attaches to the run its first attempt started: no duplicate work while that
 * run is going or after it succeeded. But a re-run is how people retry a failure, and attaching
 * to a run that ended Failed or Aborted would only repeat the failure: then a re-run attempt
 * (GITHUB_RUN_ATTEMPT > 1) starts a fresh run under the key of that attempt, derived with the token
 * like the first (settings/run.ts): the first key is in a public log, so a key made from it alone
 * could be planted before the re-run.
 */
import { canonicalPhase } from '../../hub/schemas.js'
import type { CreateRunResponse } from '../../hub/schemas.js'
import type { RunSettings } from '../../settings/settings.js'

/** The key to start a fresh run under, when `created` calls for one; else undefined. */
export function freshKeyForRerun(settings: RunSettings, created: CreateRunResponse): string | undefined {
  const attempt = settings.runAttempt ?? 1
  if (settings.idempotencyKeySource !== 'auto' || !settings.idempotencyKey || attempt <= 1 || created.reused !== true)
    return undefined
  const phase = canonicalPhase(created.run?.phase ?? created.phase)
  if (phase !== 'Failed' && phase !== 'Aborted') return undefined
  return settings.rerunIdempotencyKey
}

export function rerunNotice(created: CreateRunResponse, oldKey: string, freshKey: string, attempt: number): string {
  const phase = canonicalPhase(created.run?.phase ?? created.phase)
  return `Idempotency key ${oldKey} returned run ${created.runId}, which ended ${phase}; this is re-run attempt ${attempt}, so a fresh run starts under key ${freshKey} instead of attaching to it.`
}
