// The hub emulator (emulator/), standalone: `npm run emulator --` (node scripts/emulator.ts)
//   [--port N] [--lowercase] [--max-hold-ms N] [--fleet demo|rollout[:SCENARIO]] [--store-driver sqlite|postgres] [--run-store memory|postgres] [--org-wide] [--github] [--verbose]
// Prints one JSON line {url, token, org, workspace, clusterId, serviceAccountToken, agents, fleet}
// to stdout, then serves until SIGINT/SIGTERM. --verbose logs requests to stderr.
// --fleet rollout:SCENARIO serves a scripted rollout fleet (emulator/graph/rollouts.ts) on wall time from start-up.
// --store-driver sqlite|postgres: the graph's store (its booleans, cursors, selector keys and
// GET /api/status; docs/hub-facts.md, "Store drivers"); unset: the emulator's older behaviour.
// --run-store postgres: a cancelled run stays Running ("Cancelling a run"). --org-wide: the user's
// membership admits any workspace string ("Memberships and the workspace proof").
// --github also serves a GitHub API emulator with a pull request (emulator/pull-request.ts): the JSON line gains
// `github`, then lines say how to run `command: impact` on it with `npm run local`, and each comment the
// action writes there is printed as it lands.
import { fold } from './demo/layout.ts'
import { renderMarkdown } from './demo/terminal-markdown.ts'
import { styleFor } from './demo/style.ts'
import { FRONTEND, PULL_REQUEST } from './demo/fixtures.ts'
import {
  startHubEmulator,
  type HubEmulator,
  type HubEmulatorOptions,
  ROLLOUT_SCENARIOS,
  createRolloutFleet,
  parseRolloutFleetArg,
  wallClock,
} from '../emulator/index.ts'
import { startPullRequestSide, type PullRequestSide } from './emulator/pull-request.ts'

function usage(msg: string): never {
  process.stderr.write(
    `${msg}\nusage: npm run emulator -- [--port N] [--lowercase] [--max-hold-ms N] [--fleet demo|rollout[:SCENARIO]] [--store-driver sqlite|postgres] [--run-store memory|postgres] [--org-wide] [--github] [--verbose]\n`,
  )
  process.exit(2)
}

function intArg(name: string, v: string | undefined): number {
  if (v === undefined || !/^\d+$/.test(v)) usage(`${name} needs a non-negative integer`)
  return Number(v)
}

const opts: HubEmulatorOptions = {}
let verbose = false
let withGitHub = false
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
    case '--store-driver': {
      const driver = inline ?? argv[++i] ?? ''
      if (driver !== 'sqlite' && driver !== 'postgres') usage(`--store-driver ${driver}: use sqlite or postgres`)
      opts.storeDriver = driver
      break
    }
    case '--run-store': {
      const store = inline ?? argv[++i] ?? ''
      if (store !== 'memory' && store !== 'postgres') usage(`--run-store ${store}: use memory or postgres`)
      opts.runStore = store
      break
    }
    case '--org-wide':
      opts.orgWideMembership = true
      break
    case '--lowercase':
      opts.lowercasePhases = true
      break
    case '--verbose':
      verbose = true
      break
    case '--github':
      withGitHub = true
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
let side: PullRequestSide | undefined
let stopping = false
const stop = (): void => {
  if (stopping) return
  stopping = true
  if (!emu) return // start-up finishes below, then exits
  Promise.all([emu.close(), side?.close()]).then(
    () => process.exit(0),
    () => process.exit(0),
  )
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)

emu = await startHubEmulator(opts)
if (withGitHub) side = await startPullRequestSide(emu)
if (stopping) {
  await Promise.all([emu.close(), side?.close()])
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
    ...(side && {
      github: {
        url: side.github.url,
        token: side.token,
        repository: `${PULL_REQUEST.owner}/${PULL_REQUEST.repo}`,
        pullRequest: PULL_REQUEST.number,
        commentsUrl: side.commentsUrl,
        dotenvFile: side.dotenvFile,
      },
    }),
  }) + '\n',
)
if (side) showPullRequest(side)

/** What to run to comment on the pull request, and each comment as it lands there. */
function showPullRequest({ github, dotenvFile, variables, commentsUrl, token }: PullRequestSide): void {
  const { owner, repo, number, title } = PULL_REQUEST
  const where = `${owner}/${repo}#${number}`
  const style = styleFor(process.stdout, process.env)
  process.stdout.write(
    [
      '',
      `GitHub emulator at ${github.url}, with pull request ${where} "${title}" (it changes ${PULL_REQUEST.changed} and ${FRONTEND}).`,
      'Post the impact comment on it (command: impact, sticky comment), from the project folder:',
      '',
      `  npm run local -- ${dotenvFile}`,
      '',
      'or add these lines to your own .env (made from .env.example):',
      '',
      ...Object.entries(variables).map(([name, value]) => `  ${name}=${value}`),
      '',
      'Read the comments back:',
      '',
      `  curl -s -H "Authorization: Bearer ${token}" ${commentsUrl}`,
      '',
      'Each comment is printed here as it lands. Ctrl-C stops both emulators.',
      '',
    ].join('\n'),
  )
  const seen = new Map<number, string>()
  setInterval(() => {
    for (const comment of github.comments(owner, repo, number)) {
      if (seen.get(comment.id) === comment.updated_at + comment.body) continue
      const verb = seen.has(comment.id) ? 'updated' : 'posted'
      seen.set(comment.id, comment.updated_at + comment.body)
      const body = renderMarkdown(comment.body, { style }).flatMap((line) => fold(`  │ ${line}`.trimEnd()))
      process.stdout.write(`\nComment ${comment.id} ${verb} on ${where} (${comment.html_url}):\n\n${body.join('\n')}\n`)
    }
  }, 250)
}
