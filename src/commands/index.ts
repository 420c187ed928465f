/**
 * The command table: one row per command, each from its family's folder (runs/, impact/, query/,
 * rollout/), saying what the command does, which inputs it reads and how, how it runs, what it
 * would send (its plan, which `dry-run: true` prints), the outputs it sets and its time budget.
 * main.ts, the settings reader and the generated surface (action.yml, docs/reference.md,
 * .env.example: scripts/surface.ts) read it; none names a command.
 */
import type { SettingsOf } from '../settings/settings.js'
import type { CommandCode } from './command.js'
import { impact } from './impact/index.js'
import { query } from './query/index.js'
import { rollout } from './rollout/index.js'
import { RUNS } from './runs/index.js'

// The order is the order `command`'s description, its error message and the docs list them in;
// the first is `command`'s default.
export const COMMANDS = { ...RUNS, impact, query, rollout }

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

/** The settings of one command's step. @internal */
export type SettingsFor<C extends CommandName> = Extract<Settings, { command: C }>
