// Standalone hub emulator.
//   node test/emulator/serve.ts [--port N] [--lowercase] [--max-hold-ms N] [--fleet demo|rollout[:SCENARIO]] [--verbose]
// Prints one JSON line {url, token, org, workspace, clusterId, serviceAccountToken, agents, fleet}
// to stdout, then serves until SIGINT/SIGTERM. --verbose logs requests to stderr.
// --fleet rollout:SCENARIO serves a scripted rollout fleet (graph/rollouts.ts) on wall time from start-up.
import { startHubEmulator } from './hub.ts'
import type { HubEmulator, HubEmulatorOptions } from './hub.ts'
import { ROLLOUT_SCENARIOS, createRolloutFleet, parseRolloutFleetArg, wallClock } from './graph/rollouts.ts'

function usage(msg: string): never {
  process.stderr.write(
    `${msg}\nusage: node test/emulator/serve.ts [--port N] [--lowercase] [--max-hold-ms N] [--fleet demo|rollout[:SCENARIO]] [--verbose]\n`,
  )
  process.exit(2)
}

function intArg(name: string, v: string | undefined): number {
  if (v === undefined || !/^\d+$/.test(v)) usage(`${name} needs a non-negative integer`)
  return Number(v)
}

const opts: HubEmulatorOptions = {}
let verbose = false
let fleetName = 'demo'
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i++) {
  const a = argv[i] ?? ''
  const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined]
  switch (flag) {
    case '--port':
      opts.port = intArg('--port', inline ?? argv[++i])
      break
    case '--max-hold-ms':
      opts.maxHoldMs = intArg('--max-hold-ms', inline ?? argv[++i])
      break
    case '--fleet': {
      fleetName = inline ?? argv[++i] ?? ''
      const scenario = parseRolloutFleetArg(fleetName)
      if (scenario) {
        opts.fleet = createRolloutFleet({ scenario, clock: wallClock() })
        fleetName = `rollout:${scenario}`
      } else if (fleetName !== 'demo')
        usage(
          `--fleet ${fleetName}: use demo, rollout, or rollout:SCENARIO with SCENARIO one of ${ROLLOUT_SCENARIOS.join(', ')}`,
        )
      break
    }
    case '--lowercase':
      opts.lowercasePhases = true
      break
    case '--verbose':
      verbose = true
      break
    case '--help':
    case '-h':
      usage('hub emulator')
      break
    default:
      usage(`unknown argument: ${a}`)
  }
}
if (verbose) {
  opts.onRequest = (r) => {
    process.stderr.write(
      `${new Date(r.at).toISOString()} ${r.method} ${r.url}${r.fault ? ` [fault: ${r.fault}]` : ''}\n`,
    )
  }
}

// Install the signal handlers first, so a signal during start-up still ends cleanly.
let emu: HubEmulator | undefined
let stopping = false
const stop = (): void => {
  if (stopping) return
  stopping = true
  if (!emu) return // start-up finishes below, then exits
  emu.close().then(
    () => process.exit(0),
    () => process.exit(0),
  )
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

emu = await startHubEmulator(opts)
if (stopping) {
  await emu.close()
  process.exit(0)
}
// The standalone server does not need an unbounded request log.
const started = emu
setInterval(() => (started.requests.length = 0), 60_000).unref()

process.stdout.write(
  JSON.stringify({
    url: emu.url,
    token: emu.token,
    org: emu.org,
    workspace: emu.workspace,
    clusterId: emu.clusterId,
    serviceAccountToken: emu.serviceAccountToken,
    agents: emu.agents.agentNames(),
    fleet: fleetName,
  }) + '\n',
)
