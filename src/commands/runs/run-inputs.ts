/**
 * The inputs of `command: run`: the agent, its task, the keys that make a re-run attach
 * instead of starting again, and the waiting policies it shares with `wait` (./lifecycle.ts).
 */
import * as z from '../../zod.js'
import * as workflow from '../../runner/workflow.js'
import {
  deriveExplicitKey,
  deriveFollowUpKey,
  deriveIdempotencyKey,
  deriveSessionId,
  type RunnerContext,
} from '../../runner/context.js'
import { DNS_LABEL, quoteInput, seconds, TIMING_INPUTS, type InputDeclarations } from '../../settings/fields.js'
import type { StepSettings } from '../../settings/settings.js'
import { waitPolicy, WAITING_FIELDS, WAITING_INPUTS, type WaitSettings } from './lifecycle-inputs.js'
import { readOutputSchema, withSchemaInstruction } from './output-schema.js'

/** The settings of the `run` step (its row is ./index.ts). */
export type RunStepSettings = StepSettings<'run', { run: Readonly<RunSettings> }>

export interface RunSettings extends WaitSettings {
  agent: string
  task: string
  /** Undefined when no key is sent. */
  idempotencyKey: string | undefined
  /** `auto` keys are derived with the token (or random): nobody without it can start a run under one first. */
  idempotencyKeySource: 'auto' | 'explicit' | 'none'
  /**
   * True when nobody without the token can compute the key the hub sees: `auto`, and a key of
   * the workflow's own sent as an HMAC keyed by the token. False only for a key of the workflow's
   * sent as given (with `oidc-audience` no secret lasts from one job to the next).
   */
  idempotencyKeyIsSecret?: boolean | undefined
  /** The workflow's own key as it wrote it (explicit keys), for the log: the hub sees `idempotencyKey`. */
  idempotencyKeyGiven?: string | undefined
  /** The `auto` key of this re-run attempt, for the re-run rule (commands/runs/start.ts); only when runAttempt > 1. */
  rerunIdempotencyKey?: string | undefined
  /** The session of the run started under `rerunIdempotencyKey` (a new key, a new session). */
  rerunSessionId?: string | undefined
  /** Sent to the hub, never printed or stored whole (runner/context.ts, `fingerprint`). */
  sessionId: string
  /** GITHUB_RUN_ATTEMPT: above 1 on a re-run (see commands/runs/start.ts). */
  runAttempt?: number | undefined
  /** `output-schema`, parsed and checked (commands/runs/output-schema.ts); undefined when not set. */
  outputSchema?: unknown
  /**
   * The key of the one follow-up run a schema miss asks for, by the key of the run it follows
   * (the first key, or a re-run's fresh one): derived from it with the token, so a re-run of the
   * job attaches to the same follow-up and nobody without the token can start one under it first.
   */
  followUpKeys?: Readonly<Record<string, string>> | undefined
}

/** The inputs `run` reads, declared in action.yml's order. */
export const RUN_INPUTS = {
  agent: {
    description: "Name of the agent to run (a DNS-1123 label, the agent's metadata.name). Required for `command: run`.",
    default: '',
  },
  task: { description: 'The instruction for the agent. Required for `command: run`.', default: '' },
  'idempotency-key': {
    description:
      '`auto`: an HMAC keyed by `token` of the repository, commit SHA, workflow, job, agent and a digest of the task, so a re-run of the same job on the same commit attaches to the first run and nobody without the token can start a run under the key first (with `oidc-audience`: random, so a re-run starts a new run). `none`: send no key. Anything else (such as `${{ github.run_id }}`) reaches the hub as an HMAC of it and the repository keyed by `token`, so nobody can plant a run under the key as written (with `oidc-audience` it is sent as written and any run the hub returns for it is refused). A run the hub returns for the key that runs another task or session is refused.',
    default: 'auto',
  },
  'session-id': {
    description:
      "`auto`: an HMAC of the key the hub sees, keyed by `token`, so the same key always means the same session (a second workflow run on the commit attaches in it) and a new key (a re-run attempt's fresh run, another step) a new one; random without a key or with `oidc-audience`. Nobody without the token can name it first, and the log, summary and result file show only a fingerprint. Anything else: continue that session.",
    default: 'auto',
  },
  'timeout-seconds': TIMING_INPUTS['timeout-seconds'],
  ...WAITING_INPUTS,
  'output-schema': {
    description:
      'For `run`: a JSON Schema (JSON or YAML) the answer must match. The task gets one fixed instruction to end the answer with a single fenced `json` block matching it; the last such block is validated and set as `structured-output`. When it does not match, the same session is asked once more, naming the error; a second miss fails the step naming the first error. Empty: no schema.',
    default: '',
  },
} as const satisfies InputDeclarations

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
  'output-schema': z.string(),
  'timeout-seconds': seconds(
    'Use a whole number of seconds such as 1800 for 30 minutes, or 0 to start the run and return at once.',
    0,
  ),
  ...WAITING_FIELDS,
})

/** `secret`: the hub token, which keys the idempotency key and session id the hub sees (empty with OIDC). */
export function runSettings(
  run: z.infer<typeof RunSchema>,
  runner: RunnerContext,
  secret: string,
): Readonly<RunSettings> {
  const key = resolveIdempotencyKey(run['idempotency-key'], runner, run.agent, run.task, secret)
  const runAttempt = Number.parseInt(runner.runAttempt ?? '', 10) || undefined
  const rerunKey =
    key.source === 'auto' && runAttempt && runAttempt > 1
      ? deriveIdempotencyKey(runner, run.agent, run.task, secret || undefined, runAttempt)
      : undefined
  const autoSession = run['session-id'] === 'auto'
  // The same key, the same session: derived from the key the hub sees (runner/context.ts).
  const session = (hubKey: string | undefined) =>
    autoSession ? deriveSessionId(hubKey, secret || undefined) : run['session-id']
  const schemaText = run['output-schema'].trim()
  const schema = schemaText ? readOutputSchema(schemaText) : undefined
  const followUpKeys = Object.fromEntries(
    [key.value, rerunKey].flatMap((hubKey) =>
      hubKey ? [[hubKey, deriveFollowUpKey(hubKey, secret || undefined)]] : [],
    ),
  )
  return Object.freeze({
    agent: run.agent,
    task: schema?.ok ? withSchemaInstruction(run.task, schema.schema) : run.task,
    idempotencyKey: key.value,
    idempotencyKeySource: key.source,
    idempotencyKeyIsSecret: key.secret,
    ...(key.source === 'explicit' ? { idempotencyKeyGiven: run['idempotency-key'] } : {}),
    ...(rerunKey ? { rerunIdempotencyKey: rerunKey, rerunSessionId: session(rerunKey) } : {}),
    sessionId: session(key.value),
    ...waitPolicy(run),
    runAttempt,
    ...(schema?.ok ? { outputSchema: schema.schema, followUpKeys: Object.freeze(followUpKeys) } : {}),
  })
}

/** `output-schema` that cannot be used: one problem naming the input, before any request. */
export function outputSchemaProblems(text: string): string[] {
  if (!text.trim()) return []
  const read = readOutputSchema(text.trim())
  return read.ok
    ? []
    : [
        `Input \`output-schema\` ${read.problem} Give a JSON Schema as JSON or YAML, e.g. \`{"type": "object", "properties": {"verdict": {"enum": ["pass", "fail"]}}, "required": ["verdict"]}\`.`,
      ]
}

function resolveIdempotencyKey(
  given: string,
  runner: RunnerContext,
  agent: string,
  task: string,
  secret: string,
): { value: string | undefined; source: RunSettings['idempotencyKeySource']; secret: boolean } {
  if (given === 'none') return { value: undefined, source: 'none', secret: false }
  if (given !== 'auto') {
    if (secret) return { value: deriveExplicitKey(runner, given, secret), source: 'explicit', secret: true }
    workflow.warning(
      `idempotency-key ${JSON.stringify(given)} is sent to the hub as given: with \`oidc-audience\` no secret lasts from one job to the next to derive it with, so anyone who may start runs in the workspace could start one under it first. A run the hub hands back for it is therefore refused, never taken as this step's. Use \`idempotency-key: auto\` (random with OIDC) or \`none\`, or a hub token.`,
    )
    return { value: given, source: 'explicit', secret: false }
  }
  const derived = deriveIdempotencyKey(runner, agent, task, secret || undefined)
  if (!derived)
    workflow.warning(
      'idempotency-key is `auto` but GITHUB_SHA is not set, so no key is sent: a re-run will start a new run.',
    )
  return { value: derived, source: derived ? 'auto' : 'none', secret: Boolean(derived) }
}
