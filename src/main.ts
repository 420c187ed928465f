/**
 * The table of contents: read the settings, run the one use case the command names,
 * publish what it found, and give the step its verdict. The only place that fails the step.
 */
import { runAgent, runVerdict } from './commands/run.js'
import { AgentsClient } from './hub/agents.js'
import { HubError } from './hub/errors.js'
import { HubTransport } from './hub/transport.js'
import { InputError, loadSettings, type Settings } from './inputs.js'
import { OidcError, requestIdToken } from './oidc.js'
import { applyVerdict, publishRun, runEventsToLog } from './publish.js'
import * as core from './runner.js'

type StepOf<C extends Settings['command']> = Extract<Settings, { command: C }>

export async function run(): Promise<void> {
  const interrupt = new AbortController()
  const stopListening = onTermination(interrupt)
  const closers: Array<() => Promise<void>> = []
  let command: Settings['command'] | undefined
  try {
    const settings = await loadSettings()
    command = settings.command
    if (settings.dryRun) return (await import('./steps/on-demand.js')).dryRunStep(settings)
    const oidcAudience = settings.hub.token ? undefined : settings.hub.oidcAudience
    const token = oidcAudience ? await bearerFromOidc(oidcAudience) : settings.hub.token
    const transport = new HubTransport({
      baseUrl: settings.hub.url,
      token,
      // OIDC tokens live minutes; a long wait may outlive one.
      ...(oidcAudience ? { renewToken: () => bearerFromOidc(oidcAudience) } : {}),
      org: settings.hub.org,
      workspace: settings.hub.workspace,
      clusterId: settings.hub.clusterId,
      log: (message) => core.info(message),
    })
    closers.push(() => transport.close())
    switch (settings.command) {
      case 'run':
        return await runStep(settings, transport, interrupt.signal)
      case 'impact':
        return await (await import('./steps/on-demand.js')).impactStep(settings, transport, interrupt.signal, closers)
      case 'query':
        return await (await import('./steps/on-demand.js')).queryStep(settings, transport, interrupt.signal)
    }
  } catch (error) {
    core.setFailed(describeFailure(error, interrupt.signal, command))
  } finally {
    stopListening()
    await Promise.allSettled(closers.map((close) => close()))
  }
}

async function runStep(settings: StepOf<'run'>, transport: HubTransport, signal: AbortSignal) {
  const events = runEventsToLog(settings.run)
  let result
  try {
    const scope = { org: settings.hub.org, workspace: settings.hub.workspace }
    result = await runAgent(settings.run, { client: new AgentsClient(transport, settings.hub.clusterId), events, scope }, signal)
  } finally {
    events.finish()
  }
  const verdict = runVerdict(result, settings.run)
  await publishRun(result, verdict, settings.runner)
  applyVerdict(verdict)
}

async function bearerFromOidc(audience: string): Promise<string> {
  const token = await requestIdToken(audience)
  core.setSecret(token)
  core.info(`Using a GitHub OIDC token for audience "${audience}" as the hub bearer.`)
  return token
}

function describeFailure(error: unknown, interrupt: AbortSignal, command: Settings['command'] | undefined): string {
  if (interrupt.aborted && !(error instanceof InputError)) {
    return command === 'run'
      ? 'The job was cancelled before the run was created. If the request reached the hub, a re-run on the same commit attaches to that run through its idempotency key.'
      : 'The job was cancelled before the step finished; nothing was published.'
  }
  if (error instanceof InputError || error instanceof HubError || error instanceof OidcError) return error.message
  if (error instanceof Error && error.name === 'GitHubError') return error.message
  core.debug(error instanceof Error ? (error.stack ?? error.message) : String(error))
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}. Please report it with this log.`
}

/** SIGINT/SIGTERM (the runner cancelling the job) end the wait; a second signal exits at once. */
function onTermination(interrupt: AbortController): () => void {
  const handler = (signal: NodeJS.Signals) => {
    if (interrupt.signal.aborted) process.exit(1)
    core.info(`Received ${signal}: stopping.`)
    interrupt.abort(new Error(`received ${signal}`))
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
  return () => {
    process.off('SIGINT', handler)
    process.off('SIGTERM', handler)
  }
}
