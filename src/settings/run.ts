/**
 * The inputs of `command: run`: the agent, its task, the keys that make a re-run attach
 * instead of starting again, and the waiting policies it shares with `wait` (./lifecycle.ts).
 */
import * as z from '../zod.js'
import * as core from '../runner/core.js'
import { deriveIdempotencyKey, deriveSessionId, type RunnerContext } from '../runner/context.js'
import { DNS_LABEL, quoteInput, seconds } from './fields.js'
import { waitPolicy, WAITING_FIELDS, type WaitSettings } from './lifecycle.js'

export interface RunSettings extends WaitSettings {
  agent: string
  task: string
  /** Undefined when no key is sent. */
  idempotencyKey: string | undefined
  /** `auto` keys are derived with the token (or random): nobody without it can start a run under one first. */
  idempotencyKeySource: 'auto' | 'explicit' | 'none'
  /** The `auto` key of this re-run attempt, for the re-run rule (steps/run/start.ts); only when runAttempt > 1. */
  rerunIdempotencyKey?: string | undefined
  sessionId: string
  /** GITHUB_RUN_ATTEMPT: above 1 on a re-run (see steps/run/start.ts). */
  runAttempt?: number | undefined
}

export const RunSchema = z.object({
  agent: z.string().check(
    z.trim(),
    z.minLength(1, { error: 'is required for `command: run`: the name of the agent to run.', abort: true }),
    z.regex(DNS_LABEL, {
      error: (issue) =>
        `${quoteInput(issue.input)} is not a valid agent name (a DNS-1123 label: lower-case letters, digits and '-', at most 63 characters, starting and ending with a letter or digit). Use the agent's metadata.name.`,
    }),
  ),
  task: z
    .string()
    .check(
      z.refine(
        (v) => v.trim().length > 0,
        'is required for `command: run` and must not be blank: the instruction for the agent.',
      ),
    ),
  'idempotency-key': z.string().check(z.trim()),
  'session-id': z.string().check(z.trim()),
  'timeout-seconds': seconds(
    'Use a whole number of seconds such as 1800 for 30 minutes, or 0 to start the run and return at once.',
    0,
  ),
  ...WAITING_FIELDS,
})

/** `secret`: the hub token, which keys the automatic idempotency key and session id (empty with OIDC). */
export function runSettings(
  run: z.infer<typeof RunSchema>,
  runner: RunnerContext,
  secret: string,
): Readonly<RunSettings> {
  const key = resolveIdempotencyKey(run['idempotency-key'], runner, run.agent, run.task, secret)
  const runAttempt = Number.parseInt(runner.runAttempt ?? '', 10) || undefined
  const rerunKey =
    key.source === 'auto' && runAttempt && runAttempt > 1
      ? deriveIdempotencyKey(runner, run.agent, run.task, secret, runAttempt)
      : undefined
  return Object.freeze({
    agent: run.agent,
    task: run.task,
    idempotencyKey: key.value,
    idempotencyKeySource: key.source,
    ...(rerunKey ? { rerunIdempotencyKey: rerunKey } : {}),
    sessionId: run['session-id'] === 'auto' ? deriveSessionId(runner, secret || undefined) : run['session-id'],
    ...waitPolicy(run),
    runAttempt,
  })
}

function resolveIdempotencyKey(
  given: string,
  runner: RunnerContext,
  agent: string,
  task: string,
  secret: string,
): { value: string | undefined; source: RunSettings['idempotencyKeySource'] } {
  if (given === 'none') return { value: undefined, source: 'none' }
  if (given !== 'auto') return { value: given, source: 'explicit' }
  const derived = deriveIdempotencyKey(runner, agent, task, secret || undefined)
  if (!derived)
    core.warning(
      'idempotency-key is `auto` but GITHUB_SHA is not set, so no key is sent: a re-run will start a new run.',
    )
  return { value: derived, source: derived ? 'auto' : 'none' }
}
