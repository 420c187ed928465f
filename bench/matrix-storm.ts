/**
 * The matrix storm (issue 15): LEGS processes of the bundled action start one task on one commit
 * at the same moment against a hub with the same-key race on (docs/hub-facts.md, "Agents provider"), then the
 * matrix is re-run (GITHUB_RUN_ATTEMPT=2). Figures: legs that ended green on the stored run, runs
 * the hub stored, duplicate runs the race started (work no client can undo), requests per leg.
 */
import { runAction, type ActionRun } from '../test/e2e/action-process.ts'
import { gateStarts } from '../test/e2e/start-gate.ts'
import { startHubEmulator } from '../emulator/index.ts'

const LEGS = 24
const INSERT_DELAY_MS = 300

export async function matrixStormFigures(): Promise<void> {
  const hub = await startHubEmulator({
    idempotencyInsertDelayMs: INSERT_DELAY_MS,
    agents: {
      notes: {
        steps: [
          { phase: 'Running', afterMs: 0 },
          { phase: 'Succeeded', afterMs: 1_500 },
        ],
        output: 'release notes',
      },
    },
  })
  const gate = gateStarts(hub, LEGS)
  const wave = async (attempt: number): Promise<ActionRun[]> =>
    Promise.all(
      Array.from({ length: LEGS }, () =>
        runAction({
          inputs: {
            'hub-url': hub.url,
            token: hub.token,
            org: hub.org,
            workspace: hub.workspace,
            agent: 'notes',
            task: 'Write the release notes.',
          },
          env: { GITHUB_RUN_ATTEMPT: String(attempt), GITHUB_RUN_ID: '9100' },
          killAfterMs: 90_000,
        }),
      ),
    )
  try {
    console.log(
      `\nmatrix storm: ${LEGS} legs start one task at once, the hub's same-key race on (insert ${INSERT_DELAY_MS} ms after lookup)`,
    )
    const first = await wave(1)
    const stored = hub.runs()
    const storedId = stored[0]?.id
    const requests = hub.requests.length
    describe('first start', first, storedId)
    console.log(`  runs the hub stored: ${stored.length} (target 1)`)
    console.log(
      `  duplicate runs the race started: ${hub.raceLosers().length} (started and executed by the hub; no client can undo them)`,
    )
    const preflights = hub.requests.filter((request) => request.path.endsWith('/api/whoami')).length
    console.log(
      `  requests per leg: ${(requests / LEGS).toFixed(2)}: ${(preflights / LEGS).toFixed(2)} whoami preflight + ${((requests - preflights) / LEGS).toFixed(2)} to start, wait and recover (target ≤ 4; ${requests} in all, ${gate.held()} starts met the key lookup together)`,
    )
    first.forEach((result) => result.cleanup())

    const again = await wave(2)
    describe('re-run (attempt 2)', again, storedId)
    console.log(
      `  requests per leg: ${((hub.requests.length - requests) / LEGS).toFixed(2)} (the preflight and one start that attaches: target 2); runs the hub stored: ${hub.runs().length}`,
    )
    again.forEach((result) => result.cleanup())
  } finally {
    gate.open()
    await hub.close()
  }
}

function describe(label: string, legs: readonly ActionRun[], storedId: string | undefined): void {
  const green = legs.filter((result) => result.code === 0 && result.outputs['run-id'] === storedId).length
  const ids = new Set(legs.map((result) => result.outputs['run-id']))
  const recovered = legs.filter((result) => result.stdout.includes(' is unknown to the hub: ')).length
  const seconds = (Math.max(...legs.map((r) => r.exitedAt)) - Math.min(...legs.map((r) => r.startedAt))) / 1000
  console.log(
    `  ${label}: ${green}/${legs.length} legs green on the stored run, ${ids.size} distinct run id(s) reported, ${recovered} followed the stored run after a 404 (${seconds.toFixed(1)} s wall)`,
  )
}
