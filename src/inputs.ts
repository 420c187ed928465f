/**
 * The only reader of action inputs. Every input is read once, when `readSettings` runs,
 * validated by one schema, and handed on as one frozen Settings object. A bad input ends the
 * step before any request, with a message that names the input, the value and the fix.
 */
import * as core from './runner.js'
import { z } from 'zod'
import { deriveIdempotencyKey, deriveSessionId, readRunnerContext, type RunnerContext } from './runner-context.js'

/** Input names and the defaults applied when the runner did not (action.yml repeats them; a test keeps them equal). */
export const INPUT_DEFAULTS = {
  command: 'run',
  'hub-url': '',
  token: '',
  org: '',
  workspace: '',
  'cluster-id': '',
  agent: '',
  task: '',
  'idempotency-key': 'auto',
  'session-id': 'auto',
  'timeout-seconds': '1800',
  'on-timeout': 'fail',
  'on-approval': 'wait',
  'pending-timeout-seconds': '300',
  'on-cancel': 'detach',
} as const

export type InputName = keyof typeof INPUT_DEFAULTS
const MAX_SECONDS = 5 * 24 * 3600 // the longest a self-hosted job may run

export interface HubSettings {
  url: URL
  token: string
  org: string
  workspace: string
  clusterId: string | undefined
}

export interface RunSettings {
  agent: string
  task: string
  /** Undefined when no key is sent. */
  idempotencyKey: string | undefined
  idempotencyKeySource: 'auto' | 'explicit' | 'none'
  sessionId: string
  timeoutSeconds: number
  onTimeout: 'fail' | 'warn' | 'cancel'
  onApproval: 'wait' | 'fail' | 'succeed'
  pendingTimeoutSeconds: number
  onCancel: 'detach' | 'cancel'
}

export type Settings = Readonly<
  | { command: 'run'; hub: Readonly<HubSettings>; run: Readonly<RunSettings>; runner: Readonly<RunnerContext> }
  | { command: 'impact' | 'query'; hub: Readonly<HubSettings>; runner: Readonly<RunnerContext> }
>

export class InputError extends Error {
  readonly problems: readonly string[]
  constructor(problems: readonly string[]) {
    super(
      problems.length === 1
        ? `Invalid input: ${problems[0]}`
        : `${problems.length} invalid inputs:\n${problems.map((p) => `- ${p}`).join('\n')}`,
    )
    this.name = 'InputError'
    this.problems = problems
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/
const CLUSTER_ID = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/

const show = (value: unknown) => {
  const text = String(value)
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text)
}

const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fix: string) =>
  z.enum(values, { error: (issue) => `${show(issue.input)} is not one of ${values.join(', ')}. ${fix}` })

const seconds = (fix: string, min: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: (issue) => `${show(issue.input)} is not a whole number of seconds. ${fix}` })
    .transform(Number)
    .refine((n) => n >= min && n <= MAX_SECONDS, {
      error: (issue) => `${show(issue.input)} is out of range: use ${min} to ${MAX_SECONDS} seconds. ${fix}`,
    })

const uuid = (name: 'org' | 'workspace') =>
  z
    .string()
    .trim()
    .min(1, `is required: the ${name === 'org' ? 'organization' : 'workspace'} UUID from the hub (not its display name).`)
    .regex(UUID, {
      error: (issue) =>
        `${show(issue.input)} is not a UUID. Use the ${name === 'org' ? 'organization' : 'workspace'} UUID shown in the hub's settings, not its display name; the hub silently ignores anything else.`,
    })

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '')
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
}

const hubUrl = z
  .string()
  .trim()
  .min(1, 'is required: the hub base URL, e.g. https://hub.example.com.')
  .transform((text, ctx) => {
    let url: URL
    try {
      url = new URL(text)
    } catch {
      ctx.addIssue({ code: 'custom', message: `${show(text)} is not a URL. Use the hub base URL, e.g. https://hub.example.com.` })
      return z.NEVER
    }
    if (url.username || url.password) {
      ctx.addIssue({ code: 'custom', message: 'must not carry credentials: pass the token in `token` instead.' })
      return z.NEVER
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
      ctx.addIssue({
        code: 'custom',
        message: `${show(text)} must use https (plain http is accepted only for loopback hubs such as http://127.0.0.1:8080), so the token never crosses a network in clear.`,
      })
      return z.NEVER
    }
    if (url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: `${show(text)} must be a base URL without query or fragment.` })
      return z.NEVER
    }
    return url
  })

const CommonSchema = z.object({
  command: oneOf(['run', 'impact', 'query'], 'Choose what the step does: run an agent, report impact, or query the graph.'),
  'hub-url': hubUrl,
  token: z.string().min(1, 'is required: pass the hub token from a secret, e.g. `token: ${{ secrets.HUB_TOKEN }}`.'),
  org: uuid('org'),
  workspace: uuid('workspace'),
  'cluster-id': z
    .string()
    .trim()
    .refine((v) => v === '' || CLUSTER_ID.test(v), {
      error: (issue) => `${show(issue.input)} is not a cluster id (letters, digits, '.', '_' and '-'). Leave it empty unless you use a service-account token.`,
    }),
})

const RunSchema = z.object({
  agent: z
    .string()
    .trim()
    .min(1, 'is required for `command: run`: the name of the agent to run.')
    .regex(DNS_LABEL, {
      error: (issue) =>
        `${show(issue.input)} is not a valid agent name (a DNS-1123 label: lower-case letters, digits and '-', at most 63 characters, starting and ending with a letter or digit). Use the agent's metadata.name.`,
    }),
  task: z.string().refine((v) => v.trim().length > 0, 'is required for `command: run` and must not be blank: the instruction for the agent.'),
  'idempotency-key': z.string().trim().min(1, 'must not be empty: use `auto`, `none` or a key of your own.'),
  'session-id': z.string().trim().min(1, 'must not be empty: use `auto` or a session id to continue.'),
  'timeout-seconds': seconds('`0` starts the run and returns at once.', 0),
  'on-timeout': oneOf(['fail', 'warn', 'cancel'], 'It says what to do when `timeout-seconds` runs out.'),
  'on-approval': oneOf(['wait', 'fail', 'succeed'], 'It says what to do while a run awaits approval.'),
  'pending-timeout-seconds': seconds('It bounds how long a run may stay Pending.', 1),
  'on-cancel': oneOf(['detach', 'cancel'], 'It says what happens to the run when the job is cancelled.'),
})

/** Read, validate and freeze every input. Throws InputError listing every problem at once. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  // Mask first, so no later log line (ours or a library's) can show it.
  const token = core.getInput('token')
  if (token) core.setSecret(token)

  const raw = Object.fromEntries(
    (Object.keys(INPUT_DEFAULTS) as InputName[]).map((name) => {
      const given = name === 'task' ? core.getInput(name, { trimWhitespace: false }) : core.getInput(name)
      return [name, given === '' ? INPUT_DEFAULTS[name] : given]
    }),
  ) as Record<InputName, string>

  const problems: string[] = []
  const common = CommonSchema.safeParse(raw)
  if (!common.success) problems.push(...formatIssues(common.error))
  const command = common.success ? common.data.command : raw.command
  const runPart = command === 'run' ? RunSchema.safeParse(raw) : undefined
  if (runPart && !runPart.success) problems.push(...formatIssues(runPart.error))
  if (common.success && command !== 'run') {
    problems.push(`Input \`command\`: ${show(command)} is not available in this version yet. Use \`command: run\`.`)
  }
  if (problems.length > 0 || !common.success) throw new InputError(problems)

  const runner = Object.freeze(readRunnerContext(env))
  const hub: HubSettings = Object.freeze({
    url: common.data['hub-url'],
    token: common.data.token,
    org: common.data.org,
    workspace: common.data.workspace,
    clusterId: common.data['cluster-id'] || undefined,
  })
  if (!runPart?.success) throw new InputError([`Input \`command\`: ${show(command)} is not supported.`])
  const run = runPart.data
  const key = resolveIdempotencyKey(run['idempotency-key'], runner, run.agent, run.task)
  return Object.freeze({
    command: 'run',
    hub,
    runner,
    run: Object.freeze({
      agent: run.agent,
      task: run.task,
      idempotencyKey: key.value,
      idempotencyKeySource: key.source,
      sessionId: run['session-id'] === 'auto' ? deriveSessionId(runner) : run['session-id'],
      timeoutSeconds: run['timeout-seconds'],
      onTimeout: run['on-timeout'],
      onApproval: run['on-approval'],
      pendingTimeoutSeconds: run['pending-timeout-seconds'],
      onCancel: run['on-cancel'],
    }),
  })
}

function resolveIdempotencyKey(
  given: string,
  runner: RunnerContext,
  agent: string,
  task: string,
): { value: string | undefined; source: RunSettings['idempotencyKeySource'] } {
  if (given === 'none') return { value: undefined, source: 'none' }
  if (given !== 'auto') return { value: given, source: 'explicit' }
  const derived = deriveIdempotencyKey(runner, agent, task)
  if (!derived) core.warning('idempotency-key is `auto` but GITHUB_SHA is not set, so no key is sent: a re-run will start a new run.')
  return { value: derived, source: derived ? 'auto' : 'none' }
}

function formatIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'input')
    const joiner = /^(is|must) /.test(issue.message) ? ' ' : ': '
    return `Input \`${name}\`${joiner}${issue.message}`
  })
}
