/**
 * `command: run`: start (or attach to) a run (start.ts), wait for it in the loop `wait` and
 * `approve` share (loop.ts), publish what it left; and the requests a dry run shows for it.
 */
import { AgentsClient } from '../../hub/agents.js'
import type { HubTransport } from '../../hub/transport.js'
import type { Verdict } from '../../runner/workflow.js'
import { fingerprint } from '../../runner/context.js'
import type { RunSettings, RunStepSettings } from './run-inputs.js'
import { planned, type Plan, type PlannedRequest } from '../command.js'
import { stepBudget, waitForRun, type LoopDeps, type RunResult } from './loop.js'
import { firstHoldSeconds } from './pacing.js'
import { publishRun, runEventsToLog } from './publish.js'
import { startOrAttach, type StartDeps } from './start.js'
import { runVerdict } from './verdict.js'
import { withStructuredAnswer } from './structured.js'

export async function runStep(
  settings: RunStepSettings,
  transport: HubTransport,
  signal: AbortSignal,
): Promise<Verdict> {
  const events = runEventsToLog(settings.run, transport.budget)
  let result
  try {
    // The scope lets the loop check the workspace (GET /api/whoami) before it starts a run.
    const scope = { org: settings.hub.org, workspace: settings.hub.workspace }
    result = await runAgent(
      settings.run,
      { client: new AgentsClient(transport, settings.hub.clusterId), events, scope, budget: transport.budget },
      signal,
    )
  } finally {
    events.finish()
  }
  const verdict = runVerdict(result, settings.run)
  await publishRun(result, verdict, settings.runner)
  return verdict
}

interface RunDeps extends LoopDeps, Omit<StartDeps, 'client'> {
  client: AgentsClient
}

/** Start → loop, on one budget; tests and bench/live-steps.ts drive it with a fake client. @internal */
export async function runAgent(settings: RunSettings, deps: RunDeps, signal: AbortSignal): Promise<RunResult> {
  // One budget for the preflight, the start and every wait: the step's, begun in main.ts.
  const budget = stepBudget(deps, settings.timeoutSeconds)
  const run = await startOrAttach(settings, deps, signal, budget)
  // A re-run's fresh run has a session of its own: the result names that one.
  const result = await waitForRun(run, { ...settings, sessionId: run.sessionId }, deps, signal)
  // With `output-schema`: the answer checked, and asked for once more on a miss (structured.ts).
  return settings.outputSchema === undefined
    ? result
    : withStructuredAnswer(result, run, settings, deps, signal, budget)
}

export function runPlan({ run, hub }: RunStepSettings, transport: HubTransport): Plan {
  const agents = new AgentsClient(transport, hub.clusterId)
  // The key and session as fingerprints: shown before their run exists, they could be started under first.
  const start = {
    agent: run.agent,
    task: run.task,
    sessionId: run.sessionId ? `*** (${fingerprint(run.sessionId)})` : undefined,
    idempotencyKey: run.idempotencyKey ? `*** (${fingerprint(run.idempotencyKey)})` : undefined,
  }
  const requests: PlannedRequest[] = []
  if (agents.canReadAgents)
    requests.push(
      planned(
        transport,
        agents.whoamiCall(),
        'preflight: an empty workspaceUUID stops the step before any run is created',
      ),
    )
  requests.push(planned(transport, agents.startRunCall(start), 'start the run (answers at once with its id)'))
  if (run.timeoutSeconds > 0)
    requests.push(
      planned(
        transport,
        // The loop's first hold: a run just created is Pending, so the Pending ceiling cuts it too.
        agents.waitRunCall('RUN_ID', firstHoldSeconds(run)),
        `long-poll, repeated until the run settles or ${run.timeoutSeconds} s pass`,
      ),
    )
  return {
    requests,
    derived: [
      // Fingerprints only: a key or session shown before its run exists could be started under first.
      {
        key: 'idempotencyKey',
        label: 'Idempotency key (fingerprint)',
        value: run.idempotencyKey ? fingerprint(run.idempotencyKey) : null,
      },
      { key: 'sessionId', label: 'Session id (fingerprint)', value: run.sessionId ? fingerprint(run.sessionId) : null },
    ],
  }
}
