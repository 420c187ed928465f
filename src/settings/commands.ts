/**
 * The commands, one row each: the schema of the command's own inputs, the checks that need
 * several inputs at once, and the builder of its part of Settings. readSettings reads the row
 * the `command` input names; adding a command is one row here and its schema module beside.
 */
import type * as z from '../zod.js'
import type { RunnerContext } from '../runner/context.js'
import type { InputName } from './defaults.js'
import { githubTokenProblems, ImpactSchema, impactProblems, impactSettings } from './impact.js'
import {
  ApproveSchema,
  approveSettings,
  CancelSchema,
  waitingRouteProblems,
  WaitSchema,
  waitSettings,
} from './lifecycle.js'
import { QuerySchema, querySettings } from './query.js'
import { RolloutSchema, rolloutSettings } from './rollout.js'
import { outputSchemaProblems, RunSchema, runSettings } from './run.js'

/** What a row may read besides its own inputs. */
export interface InputContext {
  /** Every input as given, defaults applied. */
  raw: Readonly<Record<InputName, string>>
  runner: Readonly<RunnerContext>
  /** `hub-url`, when it is valid. */
  hubUrl: URL | undefined
}

export interface CommandRow<Data, Part> {
  /** The command's own inputs; checked even when a common input is wrong, so every problem is reported at once. */
  schema: z.ZodMiniType<Data>
  /** Inputs its checks read from `raw` besides its schema's (scripts/reference.ts fails when one is missing). */
  reads?: readonly InputName[]
  /** Its inputs include YAML or JSON (`targets`, `query`): the parser is loaded before they are read. */
  structured?: boolean
  /** Problems that need several inputs, the event or the hub URL; asked once the schema passed. */
  problems?(data: Data, context: InputContext): string[]
  /** Its part of Settings, keyed by the command's name (`approve` also carries `wait`). */
  build(data: Data, context: InputContext): Part
}

/** Infers a row's types from its schema, so each row's `data` is its own inputs. */
const row = <Data, Part extends object>(command: CommandRow<Data, Part>) => command

// The order is the order `command`'s error message lists them in.
const COMMANDS = {
  run: row({
    schema: RunSchema,
    problems: (data, { raw }) => [
      ...waitingRouteProblems(raw['cluster-id'], data),
      ...outputSchemaProblems(data['output-schema']),
    ],
    build: (data, { runner, raw }) => ({ run: runSettings(data, runner, raw.token) }),
  }),
  wait: row({
    schema: WaitSchema,
    problems: (data, { raw }) => waitingRouteProblems(raw['cluster-id'], data),
    build: (data) => ({ wait: waitSettings(data) }),
  }),
  cancel: row({
    schema: CancelSchema,
    build: (data) => ({ cancel: Object.freeze({ runId: data['run-id'] }) }),
  }),
  approve: row({
    schema: ApproveSchema,
    build: (data) => ({ approve: approveSettings(data), wait: waitSettings(data) }),
  }),
  impact: row({
    schema: ImpactSchema,
    reads: ['mcp-trusted-origin'],
    structured: true,
    problems: (data, { raw, runner, hubUrl }) => impactProblems(data, runner, hubUrl, raw['mcp-trusted-origin']),
    build: (data) => ({ impact: impactSettings(data) }),
  }),
  query: row({
    schema: QuerySchema,
    structured: true,
    build: (data) => ({ query: querySettings(data) }),
  }),
  rollout: row({
    schema: RolloutSchema,
    structured: true,
    // rollout writes no comment; on a pull request it still reads the changed manifests.
    problems: (data, { runner }) => githubTokenProblems({ ...data, comment: 'off' }, runner),
    build: (data) => ({ rollout: rolloutSettings(data) }),
  }),
}

export type CommandName = keyof typeof COMMANDS

export const COMMAND_NAMES = Object.keys(COMMANDS) as [CommandName, ...CommandName[]]

/** The command's part of Settings, as its row builds it. */
export type CommandPart<C extends CommandName> = ReturnType<(typeof COMMANDS)[C]['build']>

/** The row of a command name as the user wrote it; undefined for a name that is no command. */
export function commandRow(name: string): CommandRow<unknown, object> | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name as CommandName] : undefined
}

/**
 * Input name → the commands that read it: `common` (the inputs every command reads), each row's
 * schema and its `reads`. docs/reference.md's "Read by" column and the unread-input warning
 * both come from here.
 */
export function inputReaders(common: readonly string[]): ReadonlyMap<string, readonly CommandName[]> {
  const readers = new Map<string, CommandName[]>(common.map((name) => [name, [...COMMAND_NAMES]]))
  for (const command of COMMAND_NAMES) {
    const row: CommandRow<unknown, object> = COMMANDS[command]
    const shape = (row.schema as unknown as { shape?: Record<string, unknown> }).shape
    if (!shape)
      throw new Error(`the schema of command ${command} is not a zod object: its inputs cannot be read from .shape`)
    for (const name of [...Object.keys(shape), ...(row.reads ?? [])]) {
      const now = readers.get(name) ?? []
      if (!now.includes(command)) readers.set(name, [...now, command])
    }
  }
  return readers
}
