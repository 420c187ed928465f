// The rollout wait on a fake clock: backoff, the budget, one log line per change, a cut result
// never counted current, and the quorum. Snapshots are built by hand; the graph is not involved.
import { describe, expect, it } from 'vitest'
import { pollRollout, type PollOptions } from '../../../../src/commands/rollout/poll.js'
import type { Clock } from '../../../../src/http/clock.js'
import { ABSENT_GRACE_MS } from '../../../../src/commands/rollout/verdict.js'
import type { Cell, Snapshot } from '../../../../src/commands/rollout/observe.js'
import { rolloutState } from '../../../../src/commands/rollout/revision.js'
import type { RolloutTarget } from '../../../../src/commands/rollout/targets.js'
import type { Quorum } from '../../../../src/commands/rollout/inputs.js'

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

/** Each engaged edge shows web done, not done, or (undefined) not at all; `status` edits the live object first. */
function snapshot(
  edges: Record<string, boolean | undefined>,
  complete = true,
  status?: (edge: string, s: Record<string, any>) => void,
): Snapshot {
  const cells = new Map<string, Map<number, Cell>>()
  for (const [edge, done] of Object.entries(edges)) {
    if (done === undefined) continue
    const live = web(done)
    status?.(edge, live.status as Record<string, any>)
    const verdict = rolloutState(WEB.expected, live, 0)
    const state = verdict.state === 'rolled-out' ? 'current' : verdict.state === 'failed' ? 'failed' : 'in-progress'
    cells.set(edge, new Map([[0, { state, reason: verdict.reason }]]))
  }
  return { engaged: Object.keys(edges), cells, read: new Set([0]), complete, warnings: [], requests: 2 }
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
    deadline: clock.now() + (options.budgetMs ?? 600_000),
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
    // the last look is taken a second before the deadline, where a request can still start
    expect(sleeps.reduce((a, b) => a + b, 0)).toBe(119_000)
  })

  it('logs one line per change, not one per poll', async () => {
    const { outcome, log } = await poll([
      snapshot({ a: false }),
      snapshot({ a: false }),
      snapshot({ a: false }),
      snapshot({ a: true }),
    ])
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
    const stuck = snapshot({ a: true, b: false }, true, (edge, status) => {
      if (edge === 'b')
        status.conditions[1] = { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }
    })
    const { outcome, sleeps } = await poll([stuck], { quorum: { kind: 'edges', count: 1 } })
    expect(outcome.state).toBe('failed')
    expect(sleeps).toEqual([])
  })
})

describe('the edges watched by default', () => {
  it('are the edges the targets apply to: a target pinned to an edge that never engaged is not reporting there', async () => {
    const pinned = (edge: string): RolloutTarget => ({
      ...WEB,
      label: `web on ${edge}`,
      target: { ...WEB.target, edge },
    })
    const clock = fakeClock()
    const outcome = await pollRollout({
      targets: [pinned('a'), pinned('z')],
      named: undefined,
      quorum: { kind: 'all' },
      deadline: clock.now() + 1_000,
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

describe('failing fast where time cannot help', () => {
  const run = (read: PollOptions['read'], named?: string[], budgetMs = 600_000, clock = fakeClock()) =>
    pollRollout({
      targets: [WEB],
      named,
      quorum: { kind: 'all' },
      deadline: clock.now() + budgetMs,
      read,
      clock,
      signal: new AbortController().signal,
      log: () => {},
    })

  it('fails at the first look when the workspace has no engaged edge, naming org and workspace', async () => {
    const outcome = await run(async () => snapshot({}))
    expect(outcome.state).toBe('failed')
    expect(outcome.polls).toBe(1)
    expect(outcome.message).toContain('The workspace has no engaged edge')
    expect(outcome.message).toContain('Check `org` and `workspace`')
  })

  it('fails at the first look when no named edge is engaged, naming the engaged ones', async () => {
    const outcome = await run(async () => snapshot({ a: true }), ['mars', 'venus'])
    expect(outcome.state).toBe('failed')
    expect(outcome.message).toBe(
      'None of the edges named in `edges` (mars, venus) is engaged (engaged there: a). Check `edges`, `org` and `workspace`.',
    )
  })

  it('waits, never passing, while one named edge is not engaged', async () => {
    const outcome = await run(async () => snapshot({ a: true }), ['a', 'mars'], 10_000)
    expect(outcome.state).toBe('timeout')
    expect(outcome.waitingOn).toBe('not-reporting')
    expect(outcome.message).toContain('mars not reporting (not engaged)')
  })

  it('calls a target on no engaged edge "not applied yet", then fails once the grace has passed', async () => {
    const outcome = await run(async () => snapshot({ a: undefined, b: undefined }), undefined, ABSENT_GRACE_MS + 60_000)
    expect(outcome.state).toBe('failed')
    expect(outcome.edges[0]?.cells[0]).toMatchObject({ state: 'in-progress', reason: 'not applied yet' })
    expect(outcome.endedAt - outcome.startedAt).toBeGreaterThanOrEqual(ABSENT_GRACE_MS)
    expect(outcome.message).toMatch(
      /^Deployment\.apps shop\/web is on no engaged edge after \d+ s\. Check the kind, namespace and name/,
    )
  })

  it('does not fail a target that some edge shows', async () => {
    const outcome = await run(async () => snapshot({ a: false, b: undefined }), undefined, 300_000)
    expect(outcome.state).toBe('timeout')
    expect(outcome.waitingOn).toBe('in-progress')
  })
})

describe('reading only what still lags', () => {
  it('stops reading a target once it is current on every watched edge, and reads it again for a new edge', async () => {
    const picked: number[][] = []
    const looks = [{ a: false }, { a: false, b: false }, { a: true, b: true }]
    let i = 0
    const clock = fakeClock()
    const outcome = await pollRollout({
      targets: [WEB, { ...WEB, label: 'other' }],
      named: undefined,
      quorum: { kind: 'all' },
      deadline: clock.now() + 600_000,
      read: async (_signal, pick) => {
        const look = looks[Math.min(i++, looks.length - 1)] as Record<string, boolean>
        const chosen = [...pick(Object.keys(look))]
        picked.push(chosen)
        const s = snapshot(look)
        // the second target is always current where it was read
        for (const cells of s.cells.values()) if (chosen.includes(1)) cells.set(1, { state: 'current', reason: 'ok' })
        return { ...s, read: new Set(chosen) }
      },
      clock,
      signal: new AbortController().signal,
      log: () => {},
    })
    expect(picked[0]).toEqual([0, 1])
    // edge b appeared: both are read again there
    expect(picked[1]).toEqual([0, 1])
    expect(picked[2]).toEqual([0])
    expect(outcome.state).toBe('current')
  })
})

describe('an interrupt (the job cancelled) during the pause', () => {
  it('ends the wait with its reason, and no look is sent after it', async () => {
    const clock = fakeClock()
    const interrupt = new AbortController()
    const reason = new Error('received SIGTERM')
    let looks = 0
    const waiting = pollRollout({
      targets: [WEB],
      named: undefined,
      quorum: { kind: 'all' },
      deadline: clock.now() + 600_000,
      read: async () => {
        looks++
        return snapshot({ a: false })
      },
      // The one clock's sleep ends early, without throwing, when the signal aborts: the poll
      // itself must notice the interrupt.
      clock: {
        now: clock.now,
        sleep: async (ms) => {
          await clock.sleep(ms)
          interrupt.abort(reason)
        },
      },
      signal: interrupt.signal,
      log: () => {},
    })
    await expect(waiting).rejects.toBe(reason)
    expect(looks).toBe(1)
  })
})
