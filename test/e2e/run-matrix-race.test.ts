/**
 * End to end, many jobs and one hub (issue 15): matrix legs on one commit start the same task at
 * the same moment and so share one idempotency key. With the hub's same-key race on
 * (docs/hub-facts.md, "Agents provider") every leg but one gets a run id the hub never stored; each leg must still
 * end with the one stored run. dist/index.js as concurrent child processes against the emulator.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { gateStarts, hubInputs, runAction, type ActionRun, type StartGate } from './harness.ts'
import { startHubEmulator, type HubEmulator } from '../../emulator/index.ts'

const LEGS = 12
/** The hub stores a keyed start this long after its lookup: the window of the race. */
const INSERT_DELAY_MS = 300
const TASK = 'Write the release notes for this commit.'

let hub: HubEmulator
let gate: StartGate

beforeAll(async () => {
  hub = await startHubEmulator({
    idempotencyInsertDelayMs: INSERT_DELAY_MS,
    agents: {
      // Settles well within one long-poll, so a leg needs no second wait.
      notes: {
        steps: [
          { phase: 'Running', afterMs: 0 },
          { phase: 'Succeeded', afterMs: 1_500 },
        ],
        output: 'release notes',
      },
    },
  })
  gate = gateStarts(hub, LEGS)
})
afterAll(async () => {
  gate.open()
  await hub.close()
})

function leg(attempt: number): Promise<ActionRun> {
  return runAction({
    inputs: { ...hubInputs(hub), agent: 'notes', task: TASK },
    // Matrix legs share the workflow run, job and commit, so `idempotency-key: auto` gives one key.
    env: { GITHUB_RUN_ATTEMPT: String(attempt), GITHUB_RUN_ID: '9100' },
    killAfterMs: 60_000,
  })
}

/** Start every leg of one attempt at once; their folders are removed when the test ends. */
async function matrix(attempt: number): Promise<ActionRun[]> {
  const legs = await Promise.all(Array.from({ length: LEGS }, () => leg(attempt)))
  onTestFinished(() => legs.forEach((result) => result.cleanup()))
  legs.forEach((result, index) =>
    expect(result.code, `leg ${index} of attempt ${attempt}:\n${result.stdout}${result.stderr}`).toBe(0),
  )
  return legs
}

const recoveryLines = (stdout: string): string[] =>
  stdout.split('\n').filter((line) => line.includes(' is unknown to the hub: '))

describe('a matrix whose legs start one task at the same moment', () => {
  it(
    'every leg ends green on the one run the hub stored, and a re-run attaches to it',
    { timeout: 150_000 },
    async () => {
      const legs = await matrix(1)
      // The race really happened: several starts met the lookup together, and it started duplicates.
      expect(gate.held()).toBeGreaterThanOrEqual(2)
      const losers = hub.raceLosers()
      expect(losers.length).toBeGreaterThanOrEqual(1)
      expect(hub.runs()).toHaveLength(1)
      const stored = hub.runs()[0]!

      for (const result of legs) {
        expect(result.outputs).toMatchObject({ 'run-id': stored.id, phase: 'Succeeded', output: 'release notes' })
        expect(result.stdout).toContain(`::notice::Run ${stored.id} of agent "notes" succeeded.`)
      }
      // Each leg that lost says so once, naming the run it lost and the one it followed; the others say nothing.
      const lines = legs.flatMap((result) => recoveryLines(result.stdout))
      expect(lines).toHaveLength(losers.length)
      for (const lost of losers) {
        expect(lines).toContainEqual(
          `Run ${lost.id} is unknown to the hub: another job started the same task with the same idempotency key at the same moment, and the hub kept that job's run ${stored.id}; following it instead.`,
        )
      }
      // Concurrency does not multiply requests: one whoami preflight per leg, and starting, waiting
      // and the recovery together at most 4 per leg on average.
      const preflights = hub.requests.filter((request) => request.path.endsWith('/api/whoami')).length
      expect(preflights).toBe(LEGS)
      expect((hub.requests.length - preflights) / LEGS).toBeLessThanOrEqual(4)

      // The re-run of the matrix: the preflight and one start per leg, no new run, no new loser.
      const before = hub.requests.length
      for (const result of await matrix(2)) {
        expect(result.outputs).toMatchObject({ 'run-id': stored.id, reused: 'true', phase: 'Succeeded' })
        expect(recoveryLines(result.stdout)).toEqual([])
      }
      expect(hub.runs()).toHaveLength(1)
      expect(hub.raceLosers()).toHaveLength(losers.length)
      expect(
        hub.requests
          .slice(before)
          .map((r) => `${r.method} ${r.path.split('/').pop() ?? ''}`)
          .sort(),
      ).toEqual(
        [
          ...Array.from({ length: LEGS }, () => 'GET whoami'),
          ...Array.from({ length: LEGS }, () => 'POST runs'),
        ].sort(),
      )
    },
  )
})
