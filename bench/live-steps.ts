/**
 * Figures of live steps in `command: run`, with `live-steps` on (the default) and off: a long
 * emulated run whose agent finishes a step every few seconds (off the beat of the holds), run by
 * the bundled action against the emulator, once each way.
 *   requests per minute   every request the action made, over the run's length
 *   step-to-log delay     (on) the instant a step's line reached the action's stdout minus the
 *                         instant the emulator stored the step (same host, same clock)
 * The runs last LIVE_RUN_SECONDS (default 60) to keep the bench short. The requests of a
 * 10-minute run are counted on the action's own run loop (runAgent) against a hub that holds
 * each wait, on a simulated clock: the same pacing code, without waiting 20 minutes.
 */
import { startHubEmulator } from '../emulator/index.ts'
import { runAction } from '../test/e2e/action-process.ts'
import { median } from './stats.ts'
import { runAgent } from '../src/commands/runs/step.ts'
import type { AgentsClient } from '../src/hub/agents.ts'
import type { RunDetail } from '../src/hub/schemas.ts'

const STEP_EVERY_MS = 4_300

export interface LiveStepCounts {
  /** Requests of a 10-minute run (whoami, start and the waits), live steps on and off. */
  tenMinutes: { on: number; off: number }
}

export async function liveStepFigures(): Promise<LiveStepCounts> {
  const seconds = Math.max(15, Math.min(900, Number(process.env.LIVE_RUN_SECONDS ?? 60) || 60))
  const runMs = seconds * 1000
  const stepCount = Math.floor((runMs - 500) / STEP_EVERY_MS)
  const hub = await startHubEmulator({
    agents: {
      long: {
        steps: [
          { phase: 'Running', afterMs: 100 },
          { phase: 'Succeeded', afterMs: runMs - 100 },
        ],
        toolSteps: Array.from({ length: stepCount }, (_, index) => ({
          tool: `tool_${index + 1}`,
          outcome: 'ok' as const,
          durationMS: 50,
          endsAfterMs: (index + 1) * STEP_EVERY_MS,
          args: { index },
        })),
        output: 'done',
      },
    },
  })
  try {
    console.log(
      `\nlive steps: an emulated run of ${seconds} s each way (${seconds === 600 ? 'the 10-minute run' : 'not 10 min'}; LIVE_RUN_SECONDS sets it), a step every ${STEP_EVERY_MS} ms`,
    )
    for (const liveSteps of ['true', 'false']) {
      hub.reset()
      const loggedAt = new Map<number, number>()
      let seen = ''
      const result = await runAction({
        inputs: {
          'hub-url': hub.url,
          token: hub.token,
          org: hub.org,
          workspace: hub.workspace,
          agent: 'long',
          task: 'long run',
          'idempotency-key': 'none',
          'live-steps': liveSteps,
        },
        killAfterMs: runMs + 60_000,
        onStdout: (chunk) => {
          const at = performance.timeOrigin + performance.now()
          seen += chunk
          for (const match of seen.matchAll(/^Step (\d+): /gm)) {
            const number = Number(match[1])
            if (!loggedAt.has(number)) loggedAt.set(number, at)
          }
        },
      })
      const run = hub.runs()[0]
      if (result.code !== 0 || !run) throw new Error(`the long run failed: ${result.stdout}${result.stderr}`)
      const requests = hub.requests.length
      const waits = hub.requests.filter((r) => r.path.endsWith('/wait'))
      const lengthMin = (result.exitedAt - result.startedAt) / 60_000
      console.log(`  live-steps: ${liveSteps}`)
      if (liveSteps === 'true') {
        const delays = run.stepsStored.flatMap((stored, index) => {
          const logged = loggedAt.get(index + 1)
          return logged === undefined ? [] : [logged - stored.at]
        })
        console.log(
          `    steps stored ${run.stepsStored.length}, logged ${loggedAt.size} (each once: ${loggedAt.size === run.stepsStored.length ? 'yes' : 'NO'})`,
        )
        console.log(
          `    step-to-log delay                    median ${(median(delays) / 1000).toFixed(2)} s  max ${(Math.max(...delays) / 1000).toFixed(2)} s  target ≤ 10 s`,
        )
      } else {
        console.log(
          `    steps logged ${loggedAt.size} (none expected); holds asked: ${[...new Set(waits.map((w) => w.query.timeoutSeconds))].join(', ')} s`,
        )
      }
      console.log(
        `    requests: ${requests} in ${(lengthMin * 60).toFixed(1)} s = ${(requests / lengthMin).toFixed(1)} per minute (${waits.length} waits = ${(waits.length / lengthMin).toFixed(1)} per minute, plus whoami and start)  target ${liveSteps === 'true' ? '≤ 6' : '≈ 1.2'} waits per minute`,
      )
      result.cleanup()
    }
  } finally {
    await hub.close()
  }
  const tenMinutes = { on: await requestsOfRun(600, true), off: await requestsOfRun(600, false) }
  console.log(
    `  a 10-minute run (the action's run loop, simulated clock): ${tenMinutes.on} requests with live steps (${(tenMinutes.on / 10).toFixed(1)} per minute), ${tenMinutes.off} without (${(tenMinutes.off / 10).toFixed(1)} per minute)`,
  )
  return { tenMinutes }
}

/** Requests (whoami, start, waits) the run loop makes for a run that settles after `seconds`, every wait held in full. */
async function requestsOfRun(seconds: number, liveSteps: boolean): Promise<number> {
  let clock = 0
  let requests = 0
  const detail = (phase: string): RunDetail => ({ id: 'r1', agent: 'long', phase }) as RunDetail
  const client = {
    canReadAgents: true,
    whoami: async () => (requests++, { workspaceUUID: 'ws' }),
    startRun: async () => (requests++, { runId: 'r1', phase: 'Running' }),
    waitRun: async (_id: string, hold: number) => {
      requests++
      const settlesIn = seconds * 1000 - clock
      clock += Math.min(hold * 1000, Math.max(0, settlesIn))
      return detail(clock >= seconds * 1000 ? 'Succeeded' : 'Running')
    },
  } as unknown as AgentsClient
  const events = { created() {}, progress() {}, awaitingApproval() {}, info() {}, steps() {} }
  const settings = {
    agent: 'long',
    task: 'long run',
    idempotencyKey: undefined,
    idempotencyKeySource: 'none' as const,
    sessionId: 's',
    timeoutSeconds: 1800,
    onTimeout: 'fail' as const,
    onApproval: 'wait' as const,
    pendingTimeoutSeconds: 300,
    onCancel: 'detach' as const,
    liveSteps,
    allowEmptyOutput: false,
  }
  const result = await runAgent(
    settings,
    {
      client,
      events,
      clock: { now: () => clock, sleep: async (ms) => void (clock += ms) },
      scope: { org: 'o', workspace: 'ws' },
    },
    new AbortController().signal,
  )
  if (result.outcome !== 'succeeded') throw new Error(`the simulated run ended ${result.outcome}`)
  return requests
}
