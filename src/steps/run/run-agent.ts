/** `command: run`: start a run (start.ts), then wait for it in the loop `wait` and `approve` share (loop.ts). */
import type { AgentsClient } from '../../hub/agents.js'
import type { RunSettings } from '../../settings/settings.js'
import { waitForRun, type LoopDeps, type RunResult } from './loop.js'
import { startOrAttach, type StartDeps } from './start.js'

export interface RunDeps extends LoopDeps, Omit<StartDeps, 'client'> {
  client: AgentsClient
}

export async function runAgent(settings: RunSettings, deps: RunDeps, signal: AbortSignal): Promise<RunResult> {
  // One budget for the preflight, the start and every wait.
  const started = (deps.now ?? Date.now)()
  const run = await startOrAttach(settings, deps, signal, started)
  return waitForRun(run, settings, deps, signal)
}
