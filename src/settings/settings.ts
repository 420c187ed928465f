/**
 * The only reader of action inputs. Every input is read once, when `readSettings` runs,
 * validated by the common schema and the row of its command (the table, commands/index.ts, is
 * handed in), and handed on as one frozen Settings object. A bad input ends the
 * step before any request, with a message that names the input, the value and the fix.
 */
import { ActionError, type InputErrorData } from '../errors.js'
import * as workflow from '../runner/workflow.js'
import * as z from '../zod.js'
import { readRunnerContext, type RunnerContext } from '../runner/context.js'
import { commandField, CommonSchema, type CommonInputName } from './common.js'
import { declaredInputs, inputDefaults } from './defaults.js'
import type { InputDeclaration } from './fields.js'
import { loadStructuredParser } from './structured.js'

interface HubSettings {
  url: URL
  /** Empty when the bearer is a GitHub OIDC token, requested for `oidcAudience` at start. */
  token: string
  oidcAudience: string | undefined
  org: string
  workspace: string
  clusterId: string | undefined
}

/** What every step's settings hold besides its command's part. */
export interface CommonSettings {
  hub: Readonly<HubSettings>
  runner: Readonly<RunnerContext>
  /** Print the requests instead of sending them. */
  dryRun: boolean
}

/** The settings of one command's step: the common ones, and the part its row builds. */
export type StepSettings<C extends string, Part> = Readonly<CommonSettings & { command: C } & Part>

/** Inputs as given, defaults applied: the common ones and those of `Name`. */
type RawInputs<Name extends string> = Readonly<Record<CommonInputName, string>> & Readonly<Record<Name, string>>

/** What a row's checks may read besides its own inputs. */
interface InputContext<Name extends string> {
  /** Every input the row declares, and the common ones, as given, defaults applied. */
  raw: RawInputs<Name>
  runner: Readonly<RunnerContext>
  /** `hub-url`, when it is valid. */
  hubUrl: URL | undefined
}

/** What the reader asks of a command's row (commands/command.ts declares the whole row). */
export interface InputRow<Data = unknown, Part extends object = object, Name extends string = string> {
  /** What the command does, as `command`'s description lists it: `start an agent run and wait for it`. */
  summary: string
  /**
   * Every input the command reads besides the common ones, declared (description, default) in
   * action.yml's order: its schema's, and those its checks read from `raw`.
   */
  inputs: { readonly [K in Name]: InputDeclaration }
  /** The command's own inputs; checked even when a common input is wrong, so every problem is reported at once. */
  schema: z.ZodMiniType<Data>
  /** Its inputs include YAML or JSON (`targets`, `query`): the parser is loaded before they are read. */
  structured?: boolean
  /** Loads what reading its inputs needs, when they ask for it (`output-schema`'s validator). */
  prepare?(input: (name: CommonInputName | Name) => string): Promise<void>
  /** Problems with common inputs this command cannot work with; reported even when its own inputs are wrong. */
  commonProblems?(raw: RawInputs<Name>): string[]
  /** Problems that need several inputs, the event or the hub URL; asked once the schema passed. */
  problems?(data: Data, context: InputContext<Name>): string[]
  /** Its part of Settings, keyed by the command's name (`approve` also carries `wait`). */
  build(data: Data, context: InputContext<Name>): Part
}

/** The command table as the reader sees it: a row per command, in the order `command`'s message lists them; the first is the default. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each row's data and inputs are its own
export type InputTable = Readonly<Record<string, InputRow<any, object, any>>>

/** The settings of any step of `Table`. */
export type SettingsOf<Table extends InputTable> = {
  [C in keyof Table & string]: StepSettings<C, ReturnType<Table[C]['build']>>
}[keyof Table & string]

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

/** readSettings, with what the command's row needs to read its inputs (the YAML parser…) loaded first. */
export async function loadSettings<Table extends InputTable>(
  env: NodeJS.ProcessEnv,
  table: Table,
): Promise<SettingsOf<Table>> {
  const row = rowOf(table, inputOf(env, 'command') || (Object.keys(table)[0] ?? ''))
  if (row?.structured) await loadStructuredParser()
  await row?.prepare?.((name) => inputOf(env, name))
  return readSettings(env, table)
}

function rowOf(table: InputTable, name: string): InputRow<unknown, object> | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined
}

/**
 * Read, validate and freeze every input from `env` (the runner passes inputs as INPUT_*
 * variables, as @actions/core's getInput reads them). Throws InputError listing every problem.
 * @internal
 */
export function readSettings<Table extends InputTable>(env: NodeJS.ProcessEnv, table: Table): SettingsOf<Table> {
  // Mask first, so no later log line (ours or a library's) can show it.
  workflow.setSecret(inputOf(env, 'token'))
  workflow.setSecret(inputOf(env, 'github-token'))

  const defaults = inputDefaults(table)
  // Every declared input is in `raw`: the common ones (typed so) and each row's, which its row reads by name.
  const raw = Object.fromEntries(
    Object.entries(defaults).map(([name, fallback]) => {
      const given = inputOf(env, name, { trim: name !== 'task' })
      return [name, given === '' ? fallback : given]
    }),
  ) as RawInputs<string>

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
  const named = commandField(Object.keys(table) as [string, ...string[]]).safeParse(raw.command)
  if (!named.success) problems.push(...formatIssues(named.error, 'command'))
  const command = named.data
  const context: InputContext<string> = {
    raw,
    runner: Object.freeze(readRunnerContext(env)),
    hubUrl: CommonSchema.shape['hub-url'].safeParse(raw['hub-url']).data,
  }
  const row = command === undefined ? undefined : rowOf(table, command)
  const parsed = row?.schema.safeParse(raw)
  if (parsed && !parsed.success) problems.push(...formatIssues(parsed.error))
  if (parsed?.success && row?.problems) problems.push(...row.problems(parsed.data, context))
  if (row?.commonProblems) problems.push(...row.commonProblems(raw))
  if (problems.length > 0 || !common.success || !command || !row || !parsed?.success) throw new InputError(problems)

  const hub: HubSettings = Object.freeze({
    url: common.data['hub-url'],
    token: common.data.token,
    oidcAudience: common.data['oidc-audience'] || undefined,
    org: common.data.org,
    workspace: common.data.workspace,
    clusterId: common.data['cluster-id'] || undefined,
  })
  const { runner } = context
  for (const warning of unreadInputWarnings(env, table, command, defaults)) workflow.warning(warning)
  // The row built the part its command's Settings names, so the union holds.
  return Object.freeze({
    command,
    hub,
    runner,
    dryRun: common.data['dry-run'],
    ...row.build(parsed.data, context),
  }) as SettingsOf<Table>
}

/**
 * One warning per input set to something other than its default that `command` does not read,
 * naming the commands that do (a typo'd command or a misplaced input is otherwise silently
 * ignored). The runner sets INPUT_* for every input that has a default in action.yml, so a value
 * equal to that default says nothing; `github-token` defaults to the workflow's token, which the
 * runner fills in for every step, so it is never reported. Names action.yml does not declare
 * are the runner's to warn about ("Unexpected input").
 */
function unreadInputWarnings(
  env: NodeJS.ProcessEnv,
  table: InputTable,
  command: string,
  defaults: Readonly<Record<string, string>>,
): string[] {
  const warnings: string[] = []
  for (const [name, readers] of inputReaders(table)) {
    if (readers.includes(command) || name === 'github-token') continue
    const given = inputOf(env, name)
    if (given === '' || given === defaults[name]) continue
    const list = readers.map((reader) => `\`${reader}\``).join(', ')
    warnings.push(
      `Input \`${name}\` is set but \`command: ${command}\` does not read it; it is read by ${list}. Remove it, or check the step's command.`,
    )
  }
  return warnings
}

/**
 * Input name → the commands that read it, in action.yml's order: the common inputs (every
 * command) and each row's declared inputs. docs/reference.md's "commands" column and the
 * unread-input warning both come from here. @internal
 */
export function inputReaders(table: InputTable): ReadonlyMap<string, readonly string[]> {
  const names = Object.keys(table)
  const readers = new Map<string, string[]>()
  for (const name of declaredInputs(table).keys())
    readers.set(
      name,
      names.filter(
        (command) =>
          name === 'command' || name in CommonSchema.shape || Object.hasOwn(table[command]?.inputs ?? {}, name),
      ),
    )
  return readers
}

/** One input as the runner passes it; trimmed unless the whitespace is content (the task). */
function inputOf(env: NodeJS.ProcessEnv, name: string, { trim = true } = {}): string {
  const value = env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? ''
  return trim ? value.trim() : value
}

function formatIssues(error: z.core.$ZodError, input?: string): string[] {
  return error.issues.map((issue) => {
    const name = String(issue.path[0] ?? input ?? 'input')
    const joiner = /^(is|must|or) /.test(issue.message) ? ' ' : ': '
    return `Input \`${name}\`${joiner}${issue.message}`
  })
}
