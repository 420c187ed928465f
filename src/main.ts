/**
 * The table of contents: read the settings, run the one use case the command names,
 * publish what it found, and give the step its verdict. The only place that fails the step.
 */
import * as core from './runner.js'
import { runAgent, runVerdict } from './commands/run.js'
import { AgentsClient } from './hub/agents.js'
import { HubError } from './hub/errors.js'
import { HubTransport } from './hub/transport.js'
import { InputError, readSettings, type Settings } from './inputs.js'
import { applyVerdict, publishRun, runEventsToLog } from './publish.js'

export async function run(): Promise<void> {
  const interrupt = new AbortController()
  const stopListening = onTermination(interrupt)
  let transport: HubTransport | undefined
  try {
    const settings = readSettings()
    transport = new HubTransport({
      baseUrl: settings.hub.url,
      token: settings.hub.token,
      org: settings.hub.org,
      workspace: settings.hub.workspace,
      clusterId: settings.hub.clusterId,
      log: (message) => core.info(message),
    })
    switch (settings.command) {
      case 'run':
        await runCommand(settings, new AgentsClient(transport, settings.hub.clusterId), interrupt.signal)
        break
      default:
        throw new InputError([`Input \`command\`: "${settings.command}" is not available in this version yet.`])
    }
  } catch (error) {
    core.setFailed(describeFailure(error, interrupt.signal))
  } finally {
    stopListening()
    await transport?.close()
  }
}

async function runCommand(settings: Extract<Settings, { command: 'run' }>, client: AgentsClient, signal: AbortSignal) {
  const events = runEventsToLog(settings.run)
  let result
  try {
    result = await runAgent(settings.run, { client, events }, signal)
  } finally {
    events.finish()
  }
  const verdict = runVerdict(result, settings.run)
  publishRun(result, verdict, settings.runner)
  applyVerdict(verdict)
}

function describeFailure(error: unknown, interrupt: AbortSignal): string {
  if (interrupt.aborted && !(error instanceof InputError)) {
    return 'The job was cancelled before the run was created. If the request reached the hub, a re-run on the same commit attaches to that run through its idempotency key.'
  }
  if (error instanceof InputError || error instanceof HubError) return error.message
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
