/**
 * Rollout gate figures over the emulator's `large` rollout (100 Deployments × 20 edges, all
 * converged within 120 s of fleet time):
 * - requests per minute at the slowest polling, and the delay between the last edge converging
 *   and the gate passing: the step's own poll loop in this process on a fake clock (a sleep moves
 *   the fleet's time; nothing waits), over real loopback HTTP;
 * - peak memory: the bundled action (dist/) as a process against the same fleet run 20× faster
 *   than wall time, so the whole rollout takes seconds.
 */
import { GraphClient } from '../src/hub/graph.ts'
import { HubTransport } from '../src/hub/transport.ts'
import { readSnapshot } from '../src/steps/rollout/observe.ts'
import { pollRollout, type Clock } from '../src/steps/rollout/poll.ts'
import type { RolloutTarget } from '../src/steps/rollout/targets.ts'
import { runAction } from '../test/e2e/action-process.ts'
import { createRolloutFleet } from '../test/emulator/graph/rollouts.ts'
import { startHubEmulator } from '../test/emulator/hub.ts'
import { samplePeakRss } from './stats.ts'

const TARGETS = 100
const EDGES = 20
/** Fleet time runs this much faster than wall time for the process run. */
const SPEEDUP = 20

const names = Array.from({ length: TARGETS }, (_, t) => `app-${String(t).padStart(3, '0')}`)

function targets(): RolloutTarget[] {
  return names.map((name) => ({
    key: name,
    label: `Deployment.apps bench/${name}`,
    target: { kind: 'Deployment', group: 'apps', namespace: 'bench', name, origin: { kind: 'input' } },
    expected: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'bench' },
      spec: {
        template: {
          spec: { containers: [{ name, image: `registry/${name}:1.1` }], initContainers: [{ name: 'migrate', image: `registry/${name}-migrate:1.1` }] },
        },
      },
    },
  }))
}

export async function rolloutFigures(): Promise<void> {
  console.log(`\nRollout gate: ${TARGETS} targets × ${EDGES} edges converging within 120 s`)
  await loopFigures()
  await processFigures()
}

async function loopFigures(): Promise<void> {
  const start = Date.UTC(2026, 0, 1)
  let t = 0
  const fleet = createRolloutFleet({ scenario: 'large', clock: () => t, large: { targets: TARGETS, edges: EDGES } })
  const hub = await startHubEmulator({ fleet })
  const transport = new HubTransport({
    baseUrl: new URL(hub.url),
    token: hub.token,
    org: hub.org,
    workspace: hub.workspace,
    clusterId: undefined,
    log: () => {},
  })
  const clock: Clock = { now: () => start + t, sleep: async (ms) => void (t += ms) }
  const requestsAt: number[] = []
  try {
    const graph = new GraphClient(transport)
    const all = targets()
    const outcome = await pollRollout({
      targets: all,
      named: undefined,
      quorum: { kind: 'all' },
      budgetMs: 600_000,
      read: async (signal, pick) => {
        const before = hub.requests.length
        const snapshot = await readSnapshot(graph, all, { signal, now: clock.now, pick })
        for (let i = before; i < hub.requests.length; i++) requestsAt.push(t)
        return snapshot
      },
      clock,
      signal: new AbortController().signal,
      log: () => {},
    })
    const passedAt = outcome.endedAt - start
    const lastMinute = requestsAt.filter((at) => at > passedAt - 60_000).length
    console.log(`  state ${outcome.state} after ${outcome.polls} polls, ${outcome.requests} requests (${requestsAt.length} at the hub)`)
    console.log(`  requests per minute, the last minute (polls 30 s apart)   ${String(lastMinute).padStart(4)}   target ≤ 6`)
    console.log(
      `  last edge converged → gate passed                      ${((passedAt - fleet.settledAt) / 1000).toFixed(1).padStart(6)} s   target ≤ one poll interval (30 s)`,
    )
  } finally {
    await transport.close()
    await hub.close()
  }
}

async function processFigures(): Promise<void> {
  const begun = Date.now()
  const fleet = createRolloutFleet({ scenario: 'large', clock: () => (Date.now() - begun) * SPEEDUP, large: { targets: TARGETS, edges: EDGES } })
  const hub = await startHubEmulator({ fleet })
  try {
    let sampler: { stop(): number } | undefined
    const result = await runAction({
      inputs: {
        command: 'rollout',
        'hub-url': hub.url,
        token: hub.token,
        org: hub.org,
        workspace: hub.workspace,
        targets: JSON.stringify(names.map((name) => ({ kind: 'Deployment', group: 'apps', namespace: 'bench', name }))),
        'timeout-seconds': '120',
      },
      onSpawn: (child) => (sampler = child.pid ? samplePeakRss(child.pid) : undefined),
      killAfterMs: 180_000,
    })
    const peak = sampler?.stop() ?? NaN
    console.log(
      `  bundled action: ${result.outputs['rollout-state'] ?? '(no state)'} in ${((result.exitedAt - result.startedAt) / 1000).toFixed(1)} s wall (fleet ${SPEEDUP}× faster)`,
    )
    console.log(`  peak memory (RSS) of the action                       ${(peak / 1024 / 1024).toFixed(0).padStart(6)} MB   target < 150 MB`)
    result.cleanup()
  } finally {
    await hub.close()
  }
}
