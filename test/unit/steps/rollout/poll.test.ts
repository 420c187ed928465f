// The rollout wait on a fake clock: backoff, the budget, one log line per change, a cut result
// never counted current, and the quorum. Snapshots are built by hand; the graph is not involved.
import { describe, expect, it } from 'vitest'
import { pollRollout, type Clock } from '../../../../src/steps/rollout/poll.js'
import type { Snapshot } from '../../../../src/steps/rollout/observe.js'
import type { RolloutTarget } from '../../../../src/steps/rollout/targets.js'
import type { Quorum } from '../../../../src/settings/rollout.js'

const WEB: RolloutTarget = {
  key: 'web',
  label: 'Deployment.apps shop/web',
  target: { kind: 'Deployment', group: 'apps', namespace: 'shop', name: 'web', origin: { kind: 'input' } },
  expected: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop' } },
}

/** A Deployment that is done (generation observed, every replica updated and available), or not. */
function web(done: boolean): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', generation: 2 },
    spec: { replicas: 3 },
    status: {
      observedGeneration: 2,
      replicas: 3,
      updatedReplicas: done ? 3 : 1,
      availableReplicas: 3,
      readyReplicas: 3,
      conditions: [
        { type: 'Available', status: 'True' },
        { type: 'Progressing', status: 'True', reason: done ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated' },
      ],
    },
  }
}

function snapshot(edges: Record<string, boolean | undefined>, complete = true): Snapshot {
  const live = new Map<string, Map<string, Record<string, unknown>[]>>()
  for (const [edge, done] of Object.entries(edges)) if (done !== undefined) live.set(edge, new Map([['apps\u0000Deployment\u0000web', [web(done)]]]))
  return { engaged: Object.keys(edges), live, complete, warnings: [], requests: 2 }
}

function fakeClock(): Clock & { sleeps: number[] } {
  let now = Date.UTC(2026, 0, 1, 12, 0, 0)
  const sleeps: number[] = []
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms)
      now += ms
    },
  }
}

async function poll(snapshots: Snapshot[], options: { budgetMs?: number; quorum?: Quorum } = {}) {
  const clock = fakeClock()
  const log: string[] = []
  let i = 0
  const outcome = await pollRollout({
    targets: [WEB],
    named: undefined,
    quorum: options.quorum ?? { kind: 'all' },
    budgetMs: options.budgetMs ?? 600_000,
    read: async () => snapshots[Math.min(i++, snapshots.length - 1)] as Snapshot,
    clock,
    signal: new AbortController().signal,
    log: (line) => log.push(line),
  })
  return { outcome, log, sleeps: clock.sleeps }
}

describe('pollRollout', () => {
  it('backs off from 2 s to 30 s and spends no more than the budget', async () => {
    const { outcome, sleeps } = await poll([snapshot({ a: false })], { budgetMs: 120_000 })
    expect(outcome.state).toBe('timeout')
    expect(sleeps.slice(0, 7)).toEqual([2000, 3000, 4500, 6750, 10125, 15187.5, 22781.25])
    expect(Math.max(...sleeps)).toBe(30_000)
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(120_000)
  })

  it('logs one line per change, not one per poll', async () => {
    const { outcome, log } = await poll([snapshot({ a: false }), snapshot({ a: false }), snapshot({ a: false }), snapshot({ a: true })])
    expect(outcome.state).toBe('current')
    expect(outcome.polls).toBe(4)
    expect(log).toEqual([
      'a · Deployment.apps shop/web: in progress — updated 1/3',
      'Edge a: in progress — 1 of 1 target(s) in progress; e.g. updated 1/3',
      'a · Deployment.apps shop/web: current — available 3/3',
      'Edge a: current — 1 of 1 target(s) current',
    ])
  })

  it('never calls a result the row cap cut current', async () => {
    const { outcome } = await poll([snapshot({ a: true }, false)], { budgetMs: 10_000 })
    expect(outcome.state).toBe('timeout')
    expect(outcome.message).toContain('row cap')
  })

  it('tolerates an edge that went away only as far as the quorum allows, and names it', async () => {
    const gone = [snapshot({ a: true, b: true, c: false }), snapshot({ a: true, b: true })]
    const half = await poll(gone, { quorum: { kind: 'percent', percent: 60 } })
    expect(half.outcome.state).toBe('current')
    expect(half.outcome.tolerated).toEqual(['c'])
    const c = half.outcome.edges.find((e) => e.edge === 'c')?.cells[0]
    expect(c?.reason).toBe('not reporting since 12:00:02 UTC (edge not engaged; last in progress: updated 1/3)')
    const all = await poll(gone, { budgetMs: 5_000 })
    expect(all.outcome.state).toBe('timeout')
    expect(all.outcome.tolerated).toEqual([])
  })

  it('fails at once when a target fails on any edge', async () => {
    const stuck = snapshot({ a: true, b: false })
    const status = (stuck.live.get('b')?.values().next().value as Record<string, any>[])[0]!.status
    status.conditions[1] = { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }
    const { outcome, sleeps } = await poll([stuck], { quorum: { kind: 'edges', count: 1 } })
    expect(outcome.state).toBe('failed')
    expect(sleeps).toEqual([])
  })
})

describe('the edges watched by default', () => {
  it('are the edges the targets apply to: a target pinned to an edge that never engaged is not reporting there', async () => {
    const pinned = (edge: string): RolloutTarget => ({ ...WEB, label: `web on ${edge}`, target: { ...WEB.target, edge } })
    const clock = fakeClock()
    const outcome = await pollRollout({
      targets: [pinned('a'), pinned('z')],
      named: undefined,
      quorum: { kind: 'all' },
      budgetMs: 1_000,
      read: async () => snapshot({ a: true, b: true }),
      clock,
      signal: new AbortController().signal,
      log: () => {},
    })
    expect(outcome.edges.map((e) => [e.edge, e.state])).toEqual([
      ['a', 'current'],
      ['z', 'not-reporting'],
    ])
    expect(outcome.state).toBe('timeout')
  })
})
