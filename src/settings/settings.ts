/**
 * The only reader of action inputs. Every input is read once, when `readSettings` runs,
 * validated by the common schema and the row of its command (./commands.ts), and handed on
 * as one frozen Settings object. A bad input ends the
 * step before any request, with a message that names the input, the value and the fix.
 */
import { ActionError, type InputErrorData } from '../errors.js'
import * as core from '../runner/core.js'
import * as z from '../zod.js'
import { readRunnerContext, type RunnerContext } from '../runner/context.js'
import {
  commandRow,
  COMMAND_NAMES,
  inputReaders,
  type CommandName,
  type CommandPart,
  type InputContext,
} from './commands.js'
import { INPUT_DEFAULTS, type InputName } from './defaults.js'
import { boolean, CLUSTER_ID, hubUrl, oneOf, quoteInput, uuid } from './fields.js'
import { serviceAccountProblems } from './lifecycle.js'
import { loadStructuredParser } from './structured.js'
import { loadSchemaValidator } from './output-schema.js'

export type { ImpactSettings } from './impact.js'
export type { QuerySettings } from './query.js'
export type { RunSettings } from './run.js'

interface HubSettings {
  url: URL
  /** Empty when the bearer is a GitHub OIDC token, requested for `oidcAudience` at start. */
  token: string
  oidcAudience: string | undefined
  org: string
  workspace: string
  clusterId: string | undefined
}

interface Common {
  hub: Readonly<HubSettings>
  runner: Readonly<RunnerContext>
  /** Print the requests instead of sending them. */
  dryRun: boolean
}

/** The settings of one step: the common ones and its command's part (see ./commands.ts). */
export type Settings = { [C in CommandName]: Readonly<Common & { command: C } & CommandPart<C>> }[CommandName]

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
    COMMAND_NAMES,
    'Choose what the step does: run an agent, wait for, cancel or approve a run, report impact, query the graph, or gate on a rollout.',
  ),
  'hub-url': hubUrl,
  token: z.string(),
  'oidc-audience': z.string().check(
    z.trim(),
    z.refine((v) => v === '' || /^[\x21-\x7e]{1,256}$/.test(v), {
      error: (issue) =>
        `${quoteInput(issue.input)} is not an audience (1 to 256 printable characters, no spaces): use the audience the hub's identity provider expects.`,
    }),
  ),
  'dry-run': boolean(),
  org: uuid('org'),
  workspace: uuid('workspace'),
  'cluster-id': z.string().check(
    z.trim(),
    z.refine((v) => v === '' || CLUSTER_ID.test(v), {
      error: (issue) =>
        `${quoteInput(issue.input)} is not a cluster id (letters, digits, '.', '_' and '-'). Leave it empty unless you use a service-account token.`,
    }),
  ),
})

/** readSettings, with the YAML parser loaded first for the commands whose inputs are YAML. */
export async function loadSettings(env: NodeJS.ProcessEnv): Promise<Settings> {
  const command = inputOf(env, 'command')
  const schema = (command === '' || command === 'run') && inputOf(env, 'output-schema').trim() !== ''
  if (commandRow(command)?.structured || schema) await loadStructuredParser()
  if (schema) await loadSchemaValidator()
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
  // The hub reads `Authorization: Bearer <token>` and adds nothing: a pasted header value would
  // go out as `Bearer Bearer …` and meet a 401 that says nothing of why.
  if (/^bearer\s/i.test(raw.token)) {
    problems.push(
      'Input `token` starts with the word "Bearer": give the token alone (the action sends `Authorization: Bearer <token>` itself).',
    )
  }
  const common = CommonSchema.safeParse(raw)
  if (!common.success) problems.push(...formatIssues(common.error))
  // The command's own inputs are checked even when a common one is wrong: report everything at once.
  const command = CommonSchema.shape.command.safeParse(raw.command).data
  const context: InputContext = {
    raw,
    runner: Object.freeze(readRunnerContext(env)),
    hubUrl: CommonSchema.shape['hub-url'].safeParse(raw['hub-url']).data,
  }
  const row = command && commandRow(command)
  const parsed = row?.schema.safeParse(raw)
  if (parsed && !parsed.success) problems.push(...formatIssues(parsed.error))
  if (parsed?.success && row?.problems) problems.push(...row.problems(parsed.data, context))
  if (command) problems.push(...serviceAccountProblems(command, raw['cluster-id']))
  if (problems.length > 0 || !common.success || !row || !parsed?.success) throw new InputError(problems)

  const hub: HubSettings = Object.freeze({
    url: common.data['hub-url'],
    token: common.data.token,
    oidcAudience: common.data['oidc-audience'] || undefined,
    org: common.data.org,
    workspace: common.data.workspace,
    clusterId: common.data['cluster-id'] || undefined,
  })
  const { runner } = context
  for (const warning of unreadInputWarnings(env, common.data.command)) core.warning(warning)
  // The row built the part its command's Settings names (CommandPart), so the union holds.
  return Object.freeze({
    command: common.data.command,
    hub,
    runner,
    dryRun: common.data['dry-run'],
    ...row.build(parsed.data, context),
  }) as Settings
}

/**
 * One warning per input set to something other than its default that `command` does not read,
 * naming the commands that do (a typo'd command or a misplaced input is otherwise silently
 * ignored). The runner sets INPUT_* for every input that has a default in action.yml, so a value
 * equal to that default says nothing; `github-token` defaults to the workflow's token, which the
 * runner fills in for every step, so it is never reported. Names action.yml does not declare
 * are the runner's to warn about ("Unexpected input").
 */
function unreadInputWarnings(env: NodeJS.ProcessEnv, command: CommandName): string[] {
  const warnings: string[] = []
  for (const [name, readers] of inputReaders(Object.keys(CommonSchema.shape))) {
    if (readers.includes(command) || name === 'github-token') continue
    const given = inputOf(env, name)
    if (given === '' || given === INPUT_DEFAULTS[name as InputName]) continue
    const list = readers.map((reader) => `\`${reader}\``).join(', ')
    warnings.push(
      `Input \`${name}\` is set but \`command: ${command}\` does not read it; it is read by ${list}. Remove it, or check the step's command.`,
    )
  }
  return warnings
}

/** One input as the runner passes it; trimmed unless the whitespace is content (the task). */
function inputOf(env: NodeJS.ProcessEnv, name: string, { trim = true } = {}): string {
  const value = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? ''
  return trim ? value.trim() : value
}

function formatIssues(error: z.core.$ZodError): string[] {
  return error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'input')
    const joiner = /^(is|must|or) /.test(issue.message) ? ' ' : ': '
    return `Input \`${name}\`${joiner}${issue.message}`
  })
}
