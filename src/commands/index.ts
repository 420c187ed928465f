/**
 * The command table: one row per command, each from its family's folder (runs/, impact/, query/,
 * rollout/), saying which inputs it reads and how, how it runs, what it would send (its plan,
 * which `dry-run: true` prints), the outputs it sets and its time budget. main.ts, the settings
 * reader and the generated surface (action.yml, docs/reference.md) read it; none names a command.
 */
import type { SettingsOf } from '../settings/settings.js'
import { DRY_RUN_OUTPUTS, type CommandCode } from './command.js'
import { impact } from './impact/index.js'
import { query } from './query/index.js'
import { rollout } from './rollout/index.js'
import { approve, cancel, run, wait } from './runs/index.js'

// The order is the order `command`'s error message and the docs list them in.
export const COMMANDS = { run, wait, cancel, approve, impact, query, rollout }

/** @internal */
export type CommandName = keyof typeof COMMANDS

/** The settings of any step. */
export type Settings = SettingsOf<typeof COMMANDS>

/** The code of the command the settings name, loaded on first use, its types joined to those settings. */
export async function commandCode(settings: Settings): Promise<CommandCode<Settings>> {
  const code = await (COMMANDS[settings.command].load as () => Promise<CommandCode<never>>)()
  // The row's code takes that row's settings, which are these.
  return code as unknown as CommandCode<Settings>
}

/** The step's one time budget, in seconds (`timeout-seconds`); undefined: none. */
export function budgetSeconds(settings: Settings): number | undefined {
  return (COMMANDS[settings.command].budgetSeconds as (part: Settings) => number | undefined)(settings)
}

/**
 * Output name → the commands that set it, the dry run as `dry-run: true`, in the table's order:
 * docs/reference.md's outputs column (scripts/reference.ts). @internal
 */
export function outputSetters(): Map<string, string[]> {
  const setters = new Map<string, string[]>()
  const rows: Array<[string, readonly string[]]> = [
    ...Object.entries<{ outputs: readonly string[] }>(COMMANDS).map(([name, row]): [string, readonly string[]] => [
      name,
      row.outputs,
    ]),
    ['dry-run: true', DRY_RUN_OUTPUTS],
  ]
  for (const [command, outputs] of rows)
    for (const output of outputs) setters.set(output, [...(setters.get(output) ?? []), command])
  return setters
}

/** Every output the action declares, across commands and the dry run. @internal */
export const ALL_OUTPUTS = [...outputSetters().keys()]

/** The settings of one command's step. @internal */
export type SettingsFor<C extends CommandName> = Extract<Settings, { command: C }>
