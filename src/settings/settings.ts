/**
 * The only reader of action inputs. Every input is read once, when `readSettings` runs,
 * validated by one schema, and handed on as one frozen Settings object. A bad input ends the
 * step before any request, with a message that names the input, the value and the fix.
 */
import { ActionError, type InputErrorData } from '../errors.js'
import * as core from '../runner/core.js'
import { z } from 'zod'
import type { Target } from '../model/target.js'
import { mcpOriginProblems } from './bearer-origin.js'
import { boolean, CLUSTER_ID, DNS_LABEL, hubUrl, oneOf, seconds, quoteInput, uuid } from './fields.js'
import { ImpactSchema, loadStructuredParser, QuerySchema, type QuerySpecInput } from './graph-inputs.js'
import type { AllowedKind } from './impact-limits.js'
import {
  ApproveSchema,
  approveSettings,
  CancelSchema,
  serviceAccountProblems,
  WAITING_FIELDS,
  WaitSchema,
  waitSettings,
  type ApproveSettings,
  type AttachSettings,
} from './lifecycle.js'
import { deriveIdempotencyKey, deriveSessionId, isPullRequestEvent, readRunnerContext, type RunnerContext } from '../runner/context.js'

/** Input names and the defaults applied when the runner did not (action.yml repeats them; a test keeps them equal). @internal */
export const INPUT_DEFAULTS = {
  command: 'run',
  'hub-url': '',
  token: '',
  org: '',
  workspace: '',
  'cluster-id': '',
  'oidc-audience': '',
  'dry-run': 'false',
  agent: '',
  task: '',
  'idempotency-key': 'auto',
  'session-id': 'auto',
  'timeout-seconds': '1800',
  'on-timeout': 'fail',
  'on-approval': 'wait',
  'pending-timeout-seconds': '300',
  'on-cancel': 'detach',
  'live-steps': 'true',
  'run-id': '',
  decision: 'approve',
  response: '',
  'expect-tool': '',
  'approval-id': '',
  targets: '',
  manifests: '',
  'rendered-head': '',
  'rendered-base': '',
  namespace: '',
  'impact-source': 'query',
  'mcp-url': '',
  'mcp-trusted-origin': '',
  'max-depth': '5',
  'fail-on-downstream': '',
  comment: 'update',
  'comment-key': 'default',
  // action.yml defaults this to the workflow's token (an expression); outside a runner it is empty.
  'github-token': '',
  'max-targets': '200',
  'max-documents': '1000',
  'allowed-namespaces': '',
  'allowed-kinds': '',
  query: '',
  'max-objects': '10000',
} as const

type InputName = keyof typeof INPUT_DEFAULTS

interface HubSettings {
  url: URL
  /** Empty when the bearer is a GitHub OIDC token, requested for `oidcAudience` at start. */
  token: string
  oidcAudience: string | undefined
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
  /** Log each finished step within 10 s (holds of 10 s), or hold each wait up to 50 s and not. */
  liveSteps: boolean
  /** GITHUB_RUN_ATTEMPT: above 1 on a re-run (see steps/run/rerun.ts). */
  runAttempt?: number | undefined
}

export interface ImpactSettings {
  targets: readonly Target[]
  /** Globs of manifest files; on a pull request, matched against the files it changes. */
  manifests: readonly string[]
  /** Globs of rendered manifest sets (helm template, kustomize build): the head's, and the base's to diff against. */
  renderedHead?: readonly string[] | undefined
  renderedBase?: readonly string[] | undefined
  defaultNamespace: string | undefined
  source: 'query' | 'mcp'
  mcpUrl: URL | undefined
  maxDepth: number
  /** Fail when more distinct objects than this are downstream; undefined: never. */
  failOnDownstream: number | undefined
  comment: 'update' | 'new' | 'off'
  commentKey: string
  githubToken: string
  /** The most distinct targets one step reports on; past it the step fails before any hub request. */
  maxTargets: number
  /** The most YAML documents (and List items) one manifest or rendered file may hold. */
  maxDocuments: number
  /** Targets outside these are skipped, not queried; empty: no restriction. */
  scope: Readonly<{ namespaces: readonly string[]; kinds: readonly AllowedKind[] }>
}

export interface QuerySettings {
  spec: QuerySpecInput
  maxObjects: number
}

interface Common {
  hub: Readonly<HubSettings>
  runner: Readonly<RunnerContext>
  /** Print the requests instead of sending them. */
  dryRun: boolean
}

export type Settings = Readonly<
  | (Common & { command: 'run'; run: Readonly<RunSettings> })
  | (Common & { command: 'impact'; impact: Readonly<ImpactSettings> })
  | (Common & { command: 'query'; query: Readonly<QuerySettings> })
  | (Common & { command: 'wait'; wait: Readonly<AttachSettings> })
  | (Common & { command: 'cancel'; cancel: Readonly<{ runId: string }> })
  | (Common & { command: 'approve'; approve: Readonly<ApproveSettings>; wait: Readonly<AttachSettings> })
>

/** The settings of one command's step. */
export type SettingsFor<C extends Settings['command']> = Extract<Settings, { command: C }>

/** Bad inputs, found before any request is sent; each problem names the input, the value and the fix. */
export class InputError extends ActionError<InputErrorData> {
  constructor(problems: readonly string[]) {
    super({ kind: 'input', operation: 'read the inputs', hint: 'fix the inputs named above', problems })
    this.name = 'InputError'
  }

  get problems(): readonly string[] {
    return this.data.problems
  }
}

const CommonSchema = z.object({
  command: oneOf(
    ['run', 'wait', 'cancel', 'approve', 'impact', 'query'],
    'Choose what the step does: run an agent, wait for, cancel or approve a run, report impact, or query the graph.',
  ),
  'hub-url': hubUrl,
  token: z.string(),
  'oidc-audience': z
    .string()
    .trim()
    .refine((v) => v === '' || /^[\x21-\x7e]{1,256}$/.test(v), {
      error: (issue) =>
        `${quoteInput(issue.input)} is not an audience (1 to 256 printable characters, no spaces): use the audience the hub's identity provider expects.`,
    }),
  'dry-run': boolean(),
  org: uuid('org'),
  workspace: uuid('workspace'),
  'cluster-id': z
    .string()
    .trim()
    .refine((v) => v === '' || CLUSTER_ID.test(v), {
      error: (issue) =>
        `${quoteInput(issue.input)} is not a cluster id (letters, digits, '.', '_' and '-'). Leave it empty unless you use a service-account token.`,
    }),
})

const RunSchema = z.object({
  agent: z
    .string()
    .trim()
    .min(1, { error: 'is required for `command: run`: the name of the agent to run.', abort: true })
    .regex(DNS_LABEL, {
      error: (issue) =>
        `${quoteInput(issue.input)} is not a valid agent name (a DNS-1123 label: lower-case letters, digits and '-', at most 63 characters, starting and ending with a letter or digit). Use the agent's metadata.name.`,
    }),
  task: z.string().refine((v) => v.trim().length > 0, 'is required for `command: run` and must not be blank: the instruction for the agent.'),
  'idempotency-key': z.string().trim(),
  'session-id': z.string().trim(),
  'timeout-seconds': seconds('Use a whole number of seconds such as 1800 for 30 minutes, or 0 to start the run and return at once.', 0),
  ...WAITING_FIELDS,
})

/** readSettings, with the YAML parser loaded first for the commands whose inputs are YAML. */
export async function loadSettings(env: NodeJS.ProcessEnv): Promise<Settings> {
  if (['impact', 'query'].includes(inputOf(env, 'command'))) await loadStructuredParser()
  return readSettings(env)
}

/**
 * Read, validate and freeze every input from `env` (the runner passes inputs as INPUT_*
 * variables, as @actions/core's getInput reads them). Throws InputError listing every problem.
 * @internal
 */
export function readSettings(env: NodeJS.ProcessEnv): Settings {
  // Mask first, so no later log line (ours or a library's) can show it.
  core.setSecret(inputOf(env, 'token'))
  core.setSecret(inputOf(env, 'github-token'))

  const raw = Object.fromEntries(
    (Object.keys(INPUT_DEFAULTS) as InputName[]).map((name) => {
      const given = inputOf(env, name, { trim: name !== 'task' })
      return [name, given === '' ? INPUT_DEFAULTS[name] : given]
    }),
  ) as Record<InputName, string>

  const problems: string[] = []
  if (!raw.token && !raw['oidc-audience'].trim()) {
    problems.push(
      'Input `token` is required: pass the hub token from a secret (`token: ${{ secrets.HUB_TOKEN }}`), or set `oidc-audience` to use a GitHub OIDC token.',
    )
  }
  const common = CommonSchema.safeParse(raw)
  if (!common.success) problems.push(...formatIssues(common.error))
  // The command's own inputs are checked even when a common one is wrong: report everything at once.
  const command = CommonSchema.shape.command.safeParse(raw.command).data
  const runner = Object.freeze(readRunnerContext(env))
  const run = command === 'run' ? RunSchema.safeParse(raw) : undefined
  const impact = command === 'impact' ? ImpactSchema.safeParse(raw) : undefined
  const query = command === 'query' ? QuerySchema.safeParse(raw) : undefined
  const wait = command === 'wait' ? WaitSchema.safeParse(raw) : undefined
  const cancel = command === 'cancel' ? CancelSchema.safeParse(raw) : undefined
  const approve = command === 'approve' ? ApproveSchema.safeParse(raw) : undefined
  for (const part of [run, impact, query, wait, cancel, approve]) if (part && !part.success) problems.push(...formatIssues(part.error))
  if (impact?.success) problems.push(...checkImpactCombination(impact.data, runner))
  if (impact?.success)
    problems.push(...mcpOriginProblems(CommonSchema.shape['hub-url'].safeParse(raw['hub-url']).data, impact.data['mcp-url'], raw['mcp-trusted-origin']))
  if (command) problems.push(...serviceAccountProblems(command, raw['cluster-id'], run?.data ?? wait?.data))
  if (problems.length > 0 || !common.success) throw new InputError(problems)

  warnOnApiPathInHubUrl(common.data['hub-url'])
  const hub: HubSettings = Object.freeze({
    url: common.data['hub-url'],
    token: common.data.token,
    oidcAudience: common.data['oidc-audience'] || undefined,
    org: common.data.org,
    workspace: common.data.workspace,
    clusterId: common.data['cluster-id'] || undefined,
  })
  const dryRun = common.data['dry-run']
  if (run?.success) return Object.freeze({ command: 'run', hub, runner, dryRun, run: runSettings(run.data, runner) })
  if (impact?.success) return Object.freeze({ command: 'impact', hub, runner, dryRun, impact: impactSettings(impact.data) })
  if (wait?.success) return Object.freeze({ command: 'wait', hub, runner, dryRun, wait: waitSettings(wait.data) })
  if (cancel?.success) return Object.freeze({ command: 'cancel', hub, runner, dryRun, cancel: Object.freeze({ runId: cancel.data['run-id'] }) })
  if (approve?.success) {
    return Object.freeze({ command: 'approve', hub, runner, dryRun, approve: approveSettings(approve.data), wait: waitSettings(approve.data) })
  }
  if (query?.success) {
    return Object.freeze({ command: 'query', hub, runner, dryRun, query: Object.freeze({ spec: query.data.query, maxObjects: query.data['max-objects'] }) })
  }
  throw new InputError([`Input \`command\`: ${quoteInput(raw.command)} is not supported.`])
}

function runSettings(run: z.infer<typeof RunSchema>, runner: RunnerContext): Readonly<RunSettings> {
  const key = resolveIdempotencyKey(run['idempotency-key'], runner, run.agent, run.task)
  return Object.freeze({
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
    liveSteps: run['live-steps'],
    runAttempt: Number.parseInt(runner.runAttempt ?? '', 10) || undefined,
  })
}

function impactSettings(impact: z.infer<typeof ImpactSchema>): Readonly<ImpactSettings> {
  return Object.freeze({
    targets: Object.freeze(impact.targets),
    manifests: Object.freeze(impact.manifests),
    renderedHead: Object.freeze(impact['rendered-head']),
    renderedBase: Object.freeze(impact['rendered-base']),
    defaultNamespace: impact.namespace || undefined,
    source: impact['impact-source'],
    mcpUrl: impact['mcp-url'],
    maxDepth: impact['max-depth'],
    failOnDownstream: impact['fail-on-downstream'],
    comment: impact.comment,
    commentKey: impact['comment-key'],
    githubToken: impact['github-token'],
    maxTargets: impact['max-targets'],
    maxDocuments: impact['max-documents'],
    scope: Object.freeze({ namespaces: Object.freeze(impact['allowed-namespaces']), kinds: Object.freeze(impact['allowed-kinds']) }),
  })
}

/** One input as the runner passes it; trimmed unless the whitespace is content (the task). */
function inputOf(env: NodeJS.ProcessEnv, name: string, { trim = true } = {}): string {
  const value = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? ''
  return trim ? value.trim() : value
}

/** Checks that need several inputs and the event at once. */
function checkImpactCombination(impact: z.infer<typeof ImpactSchema>, runner: RunnerContext): string[] {
  const problems: string[] = []
  const onPullRequest = isPullRequestEvent(runner.eventName)
  const needsGitHub = onPullRequest && (impact.comment !== 'off' || impact.manifests.length > 0)
  if (needsGitHub && !impact['github-token'].trim()) {
    problems.push(
      'Input `github-token` is required on pull requests to read changed files and comment: keep its default `${{ github.token }}`, or set `comment: off` and give `targets`.',
    )
  }
  return problems
}

/**
 * A `hub-url` ending in an API path (`…/services`, `…/api`) makes every request a plain-text
 * `404 page not found` (hub-behaviour.md §1). A prefix can be legitimate, so this warns, before any request.
 */
function warnOnApiPathInHubUrl(url: URL): void {
  const path = url.pathname.replace(/\/+$/, '')
  if (/\/(services|api|providers)$/.test(path) || path.includes('/services/'))
    core.warning(
      `hub-url ${url.href} ends in an API path: the action adds /services/providers/… itself, so the hub will answer "404 page not found". Set \`hub-url\` to the hub's base URL unless the hub really is served under that prefix.`,
    )
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
    const joiner = /^(is|must|or) /.test(issue.message) ? ' ' : ': '
    return `Input \`${name}\`${joiner}${issue.message}`
  })
}
