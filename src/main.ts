/**
 * The table of contents: read the settings, run the step of the command they name (its row in
 * commands/index.ts; each step publishes its own outputs, summary and comment), and give the step
 * its verdict. The only place that fails the step.
 */
import { ActionError, renderError } from './errors.js'
import { Budget } from './http/budget.js'
import { HubTransport } from './hub/transport.js'
import * as workflow from './runner/workflow.js'
import type { Verdict } from './runner/workflow.js'
import { requestIdToken } from './runner/oidc.js'
import { InputError, loadSettings } from './settings/settings.js'
import { budgetSeconds, commandCode, COMMANDS, type Settings } from './commands/index.js'

export async function run(): Promise<void> {
  const interrupt = new AbortController()
  const stopListening = onTermination(interrupt)
  let command: Settings['command'] | undefined
  try {
    const settings = await loadSettings(process.env, COMMANDS)
    command = settings.command
    const verdict = await runCommand(settings, interrupt.signal)
    if (verdict) workflow.applyVerdict(verdict)
  } catch (error) {
    workflow.setFailed(describeFailure(error, interrupt.signal, command))
  } finally {
    stopListening()
  }
}

/** The step of the command the settings name (its row in commands/index.ts), or its plan on a dry run. */
async function runCommand(settings: Settings, signal: AbortSignal): Promise<Verdict | undefined> {
  const code = await commandCode(settings)
  if (settings.dryRun) return (await import('./commands/dry-run/dry-run.js')).dryRunStep(settings, code.plan)
  // The one time budget, begun here: every hub and GitHub request of the step honours it.
  const budget = new Budget(budgetSeconds(settings))
  const oidcAudience = settings.hub.token ? undefined : settings.hub.oidcAudience
  const token = oidcAudience ? await bearerFromOidc(oidcAudience) : settings.hub.token
  const transport = new HubTransport({
    baseUrl: settings.hub.url,
    token,
    // OIDC tokens live minutes; a long wait may outlive one.
    ...(oidcAudience ? { renewToken: () => bearerFromOidc(oidcAudience), oidcAudience } : {}),
    org: settings.hub.org,
    workspace: settings.hub.workspace,
    clusterId: settings.hub.clusterId,
    log: (message) => workflow.info(message),
    budget,
  })
  try {
    return await code.step(settings, transport, signal)
  } finally {
    // A failure to close changes nothing the step reported.
    await transport.close().catch(() => undefined)
  }
}

async function bearerFromOidc(audience: string): Promise<string> {
  const token = await requestIdToken(audience, process.env)
  workflow.setSecret(token)
  workflow.info(`Using a GitHub OIDC token for audience "${audience}" as the hub bearer.`)
  return token
}

function describeFailure(error: unknown, interrupt: AbortSignal, command: Settings['command'] | undefined): string {
  if (interrupt.aborted && !(error instanceof InputError)) {
    return command === 'run'
      ? 'The job was cancelled before the run was created. If the request reached the hub, a re-run on the same commit attaches to that run through its idempotency key.'
      : 'The job was cancelled before the step finished; nothing was published.'
  }
  if (error instanceof ActionError) return renderError(error as ActionError)
  workflow.debug(error instanceof Error ? (error.stack ?? error.message) : String(error))
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}. Please report it with this log.`
}

/** SIGINT/SIGTERM (the runner cancelling the job) end the wait; a second signal exits at once. */
function onTermination(interrupt: AbortController): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(1)
    workflow.info(`Received ${signal}: stopping.`)
    interrupt.abort(new Error(`received ${signal}`))
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  return () => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
  }
}
