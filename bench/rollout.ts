/**
 * Rollout gate figures over the emulator's `large` rollout fleet (Deployments on every edge, each
 * with its ReplicaSets and Pods, all converged within 120 s of fleet time), answered through the
 * emulator's engine-faithful projection:
 * - requests a minute at the slowest polling, requests and bytes a poll, and the delay from the
 *   last edge converging to the gate passing: the step's own poll loop in this process on a fake
 *   clock (a sleep moves the fleet's time; nothing waits), over real loopback HTTP;
 * - peak memory: the bundled action (dist/) as a process against the same fleet run faster than
 *   wall time, so the whole rollout takes seconds.
 * Two sizes: 100 targets × 20 edges (targets: ≤ 6 requests a minute, pass ≤ one poll after the
 * last edge converges, < 150 MB) and 1,000 × 50 (< 250 MB, ≤ 30 s from convergence to pass);
 * `node --import tsx bench/rollout.ts 1000x50` runs one size alone.
 * In the process run the release lands right after the gate's first look (its fleet time
 * starts at the second GET /api/edges), as for a gate step started with its deploy: a `targets`
 * gate passes only on a change it sees (issue 32). The loop gates on the manifests' images.
 */
import { GraphClient, type QuerySpec, type QueryStatus } from '../src/hub/graph.ts'
import { HubTransport } from '../src/hub/transport.ts'
import { readSnapshot } from '../src/commands/rollout/observe.ts'
import { pollRollout } from '../src/commands/rollout/poll.ts'
import type { Clock } from '../src/http/clock.ts'
import type { RolloutTarget } from '../src/commands/rollout/targets.ts'
import { runAction } from '../test/e2e/action-process.ts'
import { createRolloutFleet, startHubEmulator } from '../emulator/index.ts'
import { samplePeakRss } from './stats.ts'

interface Size {
  targets: number
  edges: number
  /** Fleet time runs this much faster than wall time for the process run. */
  speedup: number
  memoryTarget: string
}

const SIZES: Size[] = [
  { targets: 100, edges: 20, speedup: 20, memoryTarget: '< 150 MB' },
  { targets: 1_000, edges: 50, speedup: 4, memoryTarget: '< 250 MB' },
]

const namesOf = (count: number) => Array.from({ length: count }, (_, t) => `app-${String(t).padStart(3, '0')}`)

/** What the manifests of the large fleet say: the new images. */
function targets(count: number): RolloutTarget[] {
  return namesOf(count).map((name) => ({
    key: name,
    label: `Deployment.apps bench/${name}`,
    target: { kind: 'Deployment', group: 'apps', namespace: 'bench', name, origin: { kind: 'input' } },
    expected: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'bench' },
      spec: {
        template: {
          spec: {
            containers: [{ name, image: `registry/${name}:1.1` }],
            initContainers: [{ name: 'migrate', image: `registry/${name}-migrate:1.1` }],
          },
        },
      },
    },
  }))
}

/** Counts the bytes of every query answer (the emulator writes compact JSON, so its length is its size). */
class CountingGraph extends GraphClient {
  bytes = 0
  override async query(
    spec: QuerySpec,
    signal?: AbortSignal,
    operation?: string,
    shallow?: boolean,
  ): Promise<QueryStatus> {
    const status = await super.query(spec, signal, operation, shallow)
    this.bytes += Buffer.byteLength(JSON.stringify(status))
    return status
  }
}

export async function rolloutFigures(only?: string): Promise<void> {
  for (const size of SIZES.filter((s) => !only || only === `${s.targets}x${s.edges}`)) {
    console.log(`\nRollout gate: ${size.targets} targets × ${size.edges} edges converging within 120 s of fleet time`)
    await loopFigures(size)
    await processFigures(size)
  }
}

async function loopFigures(size: Size): Promise<void> {
  const start = Date.UTC(2026, 0, 1)
  let t = 0
  const fleet = createRolloutFleet({
    scenario: 'large',
    clock: () => t,
    large: { targets: size.targets, edges: size.edges },
  })
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
  const perPoll: { at: number; requests: number; bytes: number }[] = []
  try {
    const graph = new CountingGraph(transport)
    const all = targets(size.targets)
    const outcome = await pollRollout({
      targets: all,
      named: undefined,
      quorum: { kind: 'all' },
      deadline: clock.now() + 600_000,
      rules: { revision: undefined, bound: () => false },
      read: async (signal, pick) => {
        const before = hub.requests.length
        const bytes = graph.bytes
        const snapshot = await readSnapshot(graph, all, { signal, now: clock.now, pick })
        for (let i = before; i < hub.requests.length; i++) requestsAt.push(t)
        perPoll.push({ at: t, requests: hub.requests.length - before, bytes: graph.bytes - bytes })
        return snapshot
      },
      clock,
      signal: new AbortController().signal,
      log: () => {},
    })
    const passedAt = outcome.endedAt - start
    const mean = (f: (p: (typeof perPoll)[number]) => number) =>
      perPoll.reduce((sum, p) => sum + f(p), 0) / Math.max(1, perPoll.length)
    const lastMinute = requestsAt.filter((at) => at > passedAt - 60_000).length
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
    const first = perPoll[0]
    const busiest = perPoll.reduce(
      (a, b) => (b.bytes > a.bytes ? b : a),
      perPoll[0] ?? { at: 0, requests: 0, bytes: 0 },
    )
    const last = perPoll.at(-1)
    console.log(
      `  requests a poll on average ${mean((p) => p.requests).toFixed(1)}, bytes a poll on average ${mb(mean((p) => p.bytes))}`,
    )
    console.log(`  state ${outcome.state} after ${outcome.polls} polls, ${outcome.requests} requests`)
    console.log(
      `  requests per minute, the last minute (polls 30 s apart)   ${String(lastMinute).padStart(4)}   target ≤ 6 (100 × 20)`,
    )
    console.log(
      `  requests a poll: first ${first?.requests}, most ${Math.max(...perPoll.map((p) => p.requests))}, last ${last?.requests}; bytes a poll: first ${mb(first?.bytes ?? 0)}, most ${mb(busiest.bytes)}, last ${mb(last?.bytes ?? 0)}`,
    )
    console.log(
      `  last edge converged → gate passed                      ${((passedAt - fleet.settledAt) / 1000).toFixed(1).padStart(6)} s   target ≤ one poll interval (30 s)`,
    )
  } finally {
    await transport.close()
    await hub.close()
  }
}

async function processFigures(size: Size): Promise<void> {
  let released: number | undefined
  let looks = 0
  const fleet = createRolloutFleet({
    scenario: 'large',
    clock: () => (released === undefined ? -1_000 : (Date.now() - released) * size.speedup),
    large: { targets: size.targets, edges: size.edges },
  })
  const hub = await startHubEmulator({
    fleet,
    onRequest: (r) => {
      if (r.method === 'GET' && r.path.endsWith('/api/edges') && ++looks === 2) released = Date.now()
    },
  })
  try {
    let sampler: { stop(): number } | undefined
    const result = await runAction({
      inputs: {
        command: 'rollout',
        'hub-url': hub.url,
        token: hub.token,
        org: hub.org,
        workspace: hub.workspace,
        targets: JSON.stringify(
          namesOf(size.targets).map((name) => ({ kind: 'Deployment', group: 'apps', namespace: 'bench', name })),
        ),
        'max-targets': String(size.targets),
        'timeout-seconds': '300',
      },
      onSpawn: (child) => (sampler = child.pid ? samplePeakRss(child.pid) : undefined),
      killAfterMs: 600_000,
    })
    const peak = sampler?.stop() ?? NaN
    console.log(
      `  bundled action: ${result.outputs['rollout-state'] ?? '(no state)'} in ${((result.exitedAt - result.startedAt) / 1000).toFixed(1)} s wall (fleet ${size.speedup}× faster)`,
    )
    console.log(
      `  peak memory (RSS) of the action                       ${(peak / 1024 / 1024).toFixed(0).padStart(6)} MB   ${size.memoryTarget}`,
    )
    result.cleanup()
  } finally {
    await hub.close()
  }
}

// `node --import tsx bench/rollout.ts` prints these figures alone.
if (import.meta.url === `file://${process.argv[1]}`) await rolloutFigures(process.argv[2])
