/**
 * Figures of live steps in `command: run`: a long emulated run whose agent finishes a step every
 * few seconds (off the beat of the holds), run by the bundled action against the emulator.
 *   requests per minute   every request the action made, over the run's length
 *   step-to-log delay     the instant a step's line reached the action's stdout minus the
 *                         instant the emulator stored the step (same host, same clock)
 * The run lasts LIVE_RUN_SECONDS (default 60) to keep the bench short; the figure for a
 * 10-minute run is printed as what these numbers extrapolate to, and labelled so.
 */
import { startHubEmulator } from '../test/emulator/hub.ts'
import { runAction } from '../test/e2e/action-process.ts'
import { median } from './stats.ts'

const STEP_EVERY_MS = 4_300

export async function liveStepFigures(): Promise<void> {
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
      `\nlive steps: one emulated run of ${seconds} s (${seconds === 600 ? 'the 10-minute run' : 'not 10 min'}; LIVE_RUN_SECONDS sets it), a step every ${STEP_EVERY_MS} ms`,
    )
    const loggedAt = new Map<number, number>()
    let seen = ''
    const result = await runAction({
      inputs: { 'hub-url': hub.url, token: hub.token, org: hub.org, workspace: hub.workspace, agent: 'long', task: 'long run', 'idempotency-key': 'none' },
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
    const delays = run.stepsStored.flatMap((stored, index) => {
      const logged = loggedAt.get(index + 1)
      return logged === undefined ? [] : [logged - stored.at]
    })
    const requests = hub.requests.length
    const waits = hub.requests.filter((r) => r.path.endsWith('/wait')).length
    const lengthMin = (result.exitedAt - result.startedAt) / 60_000
    console.log(`  steps stored ${run.stepsStored.length}, logged ${loggedAt.size} (each once: ${loggedAt.size === run.stepsStored.length ? 'yes' : 'NO'})`)
    console.log(
      `  step-to-log delay                      median ${(median(delays) / 1000).toFixed(2)} s  max ${(Math.max(...delays) / 1000).toFixed(2)} s  target ≤ 10 s`,
    )
    console.log(
      `  requests: ${requests} in ${(lengthMin * 60).toFixed(1)} s = ${(requests / lengthMin).toFixed(1)} per minute (${waits} waits = ${(waits / lengthMin).toFixed(1)} per minute, plus whoami and start)  target ≤ 6 per minute`,
    )
    const tenMinutes = 2 + Math.ceil(600 / 10)
    console.log(`  a 10-minute run at 10 s holds (extrapolated, not run): ${tenMinutes} requests = ${(tenMinutes / 10).toFixed(1)} per minute`)
    result.cleanup()
  } finally {
    await hub.close()
  }
}
