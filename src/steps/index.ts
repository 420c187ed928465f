/**
 * The command table: one row per command, each from the command's own folder, saying how it
 * runs, what it would send (its plan, which `dry-run: true` prints) and the outputs it sets.
 * main.ts and the dry run read it; neither names a command. The settings of each command are
 * its row in settings/commands.ts; the table's keys are the same names.
 */
import type { CommandName } from '../settings/commands.js'
import type { SettingsFor } from '../settings/settings.js'
import { DRY_RUN_OUTPUTS, type Command, type CommandCode } from './command.js'
import { impact } from './impact/index.js'
import { query } from './query/index.js'
import { rollout } from './rollout/index.js'
import { approve, cancel, run, wait } from './run/index.js'

const COMMANDS: { readonly [C in CommandName]: Command<C> } = { run, wait, cancel, approve, impact, query, rollout }

/** The code of the command the settings name, loaded on first use, its types joined to those settings. */
export async function commandCode<C extends CommandName>(settings: SettingsFor<C>): Promise<CommandCode<C>> {
  return COMMANDS[settings.command].load()
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
