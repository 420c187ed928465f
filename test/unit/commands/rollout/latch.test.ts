// Fleet time on a fake clock: cells latch once current and dips do not undo them, a failure
// does; everything is read once more before passing; a Job deleted by its TTL after it was seen
// Complete stays done; an OnDelete workload with no pod replaced fails on the second look; and a
// `targets` target passes only on evidence of the release. Snapshots are built by hand.
import { describe, expect, it } from 'vitest'
import { bind, UNPROVEN } from '../../../../src/commands/rollout/binding.js'
import { cellFacts } from '../../../../src/commands/rollout/cell-facts.js'
import type { Cell, Snapshot } from '../../../../src/commands/rollout/observe.js'
import { pollRollout } from '../../../../src/commands/rollout/poll.js'
import type { Clock } from '../../../../src/http/clock.js'
import { shortJobTtls, unverifiable, watchedText } from '../../../../src/commands/rollout/step-notes.js'
import type { RolloutTarget } from '../../../../src/commands/rollout/targets.js'

const target = (kind: string, group: string, name = 'web', over: Partial<RolloutTarget> = {}): RolloutTarget => ({
  key: name,
  label: `${kind} shop/${name}`,
  target: { kind, group, namespace: 'shop', name, origin: { kind: 'input' } },
  expected: { kind },
  ...over,
})
const WEB = target('Deployment', 'apps')

const current = (reason = 'available 3/3', more: Partial<Cell> = {}): Cell => ({ state: 'current', reason, ...more })
const moving = (reason = 'available 2/3', more: Partial<Cell> = {}): Cell => ({ state: 'in-progress', reason, ...more })

/** One look: per edge, the cell of target 0 (undefined: no row, the object is absent). */
function look(edges: Record<string, Cell | undefined>, read = [0]): Snapshot {
  const cells = new Map<string, Map<number, Cell>>()
  for (const [edge, cell] of Object.entries(edges)) if (cell) cells.set(edge, new Map([[0, cell]]))
  return { engaged: Object.keys(edges), cells, read: new Set(read), complete: true, warnings: [], requests: 1 }
}

function clock(): Clock {
  let now = Date.UTC(2026, 0, 1, 12, 0, 0)
  return { now: () => now, sleep: async (ms) => void (now += ms) }
}

async function run(looks: Snapshot[], targets: RolloutTarget[] = [WEB], over: { budgetMs?: number } = {}) {
  let i = 0
  const picks: number[][] = []
  const time = clock()
  const outcome = await pollRollout({
    targets,
    named: undefined,
    quorum: { kind: 'all' },
    deadline: time.now() + (over.budgetMs ?? 60_000),
    read: async (_s, pick) => {
      const s = looks[Math.min(i++, looks.length - 1)] as Snapshot
      const picked = [...pick(s.engaged)]
      picks.push(picked)
      return { ...s, read: new Set(picked) }
    },
    clock: time,
    signal: new AbortController().signal,
    log: () => {},
  })
  return { outcome, picks }
}

describe('latching', () => {
  it('passes a fleet where a different edge dips at every look: each cell latched once current', async () => {
    const { outcome } = await run([
      look({ a: moving(), b: current(), c: current() }),
      look({ a: current(), b: moving(), c: current() }),
      look({ a: current(), b: current(), c: moving() }),
      look({ a: moving(), b: current(), c: current() }),
    ])
    expect(outcome.state).toBe('current')
    expect(outcome.polls).toBe(2)
    const b = outcome.edges.find((e) => e.edge === 'b')?.cells[0]
    expect(b).toMatchObject({ state: 'current', dips: 1, lastDip: 'available 2/3' })
  })

  it('fails a latched cell that fails later: failure is failure', async () => {
    const { outcome } = await run([
      look({ a: current(), b: moving() }),
      look({ a: { state: 'failed', reason: 'deadline exceeded' }, b: moving() }),
    ])
    expect(outcome.state).toBe('failed')
  })

  it('reads every target once more before passing, and fails on what that read shows', async () => {
    const two = [WEB, target('Deployment', 'apps', 'api')]
    const both = (first: Cell, second: Cell): Snapshot => {
      const s = look({ a: first })
      s.cells.get('a')?.set(1, second)
      return { ...s, read: new Set([0, 1]) }
    }
    const { outcome, picks } = await run(
      [
        both(current(), moving()),
        both(current(), current()),
        both({ state: 'failed', reason: 'pod web-1: CrashLoopBackOff (container web)' }, current()),
      ],
      two,
    )
    // web latched at the first look and was not read at the second; the third read both again
    expect(picks).toEqual([[0, 1], [1], [0, 1]])
    expect(outcome.state).toBe('failed')
  })

  it('keeps a Job seen Complete done once its TTL deleted it, saying so; unlatches any other kind that vanished', async () => {
    const job = target('Job', 'batch', 'migrate')
    const { outcome } = await run(
      [look({ a: current('complete 1/1'), b: moving('running') }), look({ a: undefined, b: current('complete 1/1') })],
      [job],
    )
    expect(outcome.state).toBe('current')
    expect(outcome.edges[0]?.cells[0]?.reason).toBe(
      'complete 1/1, then deleted after it finished (TTL: its ttlSecondsAfterFinished)',
    )
    const gone = await run([look({ a: current(), b: moving() }), look({ a: undefined, b: current() })], [WEB], {
      budgetMs: 5_000,
    })
    expect(gone.outcome.state).toBe('timeout')
    expect(gone.outcome.edges[0]?.cells[0]).toMatchObject({ state: 'in-progress', reason: 'not applied yet' })
  })

  it('fails an OnDelete workload with no pod on its new template on the second look in a row', async () => {
    const idle = moving('OnDelete: updated 0/3', { onDeleteIdle: true })
    const once = await run([look({ a: idle }), look({ a: moving('OnDelete: updated 1/3') })], [WEB], {
      budgetMs: 5_000,
    })
    expect(once.outcome.state).toBe('timeout')
    const twice = await run([look({ a: idle }), look({ a: idle })])
    expect(twice.outcome.state).toBe('failed')
    expect(twice.outcome.edges[0]?.cells[0]?.reason).toMatch(/^needs pod deletion: updateStrategy OnDelete/)
  })
})

describe('binding a `targets` target to this release', () => {
  const facts = (generation: number, observed = generation, more = {}) => ({ facts: { generation, observed, ...more } })
  const revision = { key: 'app.kubernetes.io/version', value: '1.5' }

  it('holds a healthy object unchanged since its first read, then passes once a new generation is seen', () => {
    const first = bind(current('ok', facts(1)), undefined, undefined, 0)
    expect(first.cell).toEqual({ state: 'in-progress', reason: UNPROVEN })
    const same = bind(current('ok', facts(1)), first.memory, undefined, 1_000)
    expect(same.cell.reason).toBe(UNPROVEN)
    const landing = bind(moving('updated 1/3', facts(2)), same.memory, undefined, Date.UTC(2026, 0, 1, 12, 1, 3))
    expect(landing.cell.state).toBe('in-progress')
    const done = bind(current('ok', facts(2)), landing.memory, undefined, Date.UTC(2026, 0, 1, 12, 2, 0))
    expect(done.cell).toMatchObject({ state: 'current', proof: 'generation 1 → 2 seen at 12:01:03 UTC' })
  })

  it('takes a generation not yet observed at the first read, an object created since, or a Job seen finishing', () => {
    const inFlight = bind(moving('generation 2 observed 1', facts(2, 1)), undefined, undefined, 0)
    expect(bind(current('ok', facts(2)), inFlight.memory, undefined, 1).cell.proof).toMatch(
      /^generation 2 not yet observed/,
    )
    const absent = bind({ state: 'in-progress', reason: 'not applied yet', absent: true }, undefined, undefined, 0)
    expect(bind(current('ok', facts(1)), absent.memory, undefined, 1).cell.proof).toMatch(/^created during the step/)
    const running = bind(moving('running', facts(1, 1, { running: true })), undefined, undefined, 0)
    expect(
      bind(current('complete 1/1', facts(1, 1, { running: false })), running.memory, undefined, 1).cell.proof,
    ).toMatch(/^seen running, then finished/)
  })

  it('with `revision`, passes on the first read where the stamp matches, and never where it does not', () => {
    expect(bind(current('ok', facts(1, 1, { stamp: '1.5' })), undefined, revision, 0).cell).toMatchObject({
      state: 'current',
      proof: 'revision app.kubernetes.io/version=1.5',
    })
    expect(bind(current('ok', facts(1, 1, { stamp: '1.4' })), undefined, revision, 0).cell.reason).toBe(
      'not this release: app.kubernetes.io/version is "1.4" on the object and its pod template, `revision` asks for "1.5"',
    )
    expect(bind(current('ok', facts(3)), undefined, revision, 0).cell.reason).toMatch(/version not stamped/)
  })

  it('reads the stamp from the object and its pod template, a disagreement being the other value', () => {
    const deployment = (object: string, template: string) => ({
      kind: 'Deployment',
      metadata: { generation: 1, labels: { 'app.kubernetes.io/version': object } },
      spec: { template: { metadata: { labels: { 'app.kubernetes.io/version': template } } } },
      status: { observedGeneration: 1 },
    })
    expect(cellFacts(deployment('1.5', '1.5'), revision, true).facts?.stamp).toBe('1.5')
    expect(cellFacts(deployment('1.5', '1.4'), revision, true).facts?.stamp).toBe('1.4')
  })
})

describe('which pods are the new revision', () => {
  it("names a Deployment's new ReplicaSet from its Progressing condition, and none before the generation is observed", () => {
    const deployment = (generation: number, observed: number) => ({
      kind: 'Deployment',
      metadata: { generation },
      status: {
        observedGeneration: observed,
        conditions: [{ type: 'Progressing', status: 'True', message: 'ReplicaSet "web-7d9f8" is progressing.' }],
      },
    })
    expect(cellFacts(deployment(2, 2), undefined, false).newPods).toEqual({ replicaSet: 'web-7d9f8' })
    expect(cellFacts(deployment(2, 1), undefined, false).newPods).toEqual({})
  })
})

describe('what the step says around the wait', () => {
  it('flags a gate whose only release carrier is a HelmRelease, not one that also checks a Deployment', () => {
    const ns = target('Namespace', '', 'shop')
    const helm = target('HelmRelease', 'helm.toolkit.fluxcd.io')
    expect(unverifiable({ targets: [ns], unchecked: [helm] })).toEqual([helm])
    expect(unverifiable({ targets: [ns, WEB], unchecked: [helm] })).toEqual([])
    expect(unverifiable({ targets: [ns], unchecked: [target('Secret', '', 'tls')] })).toEqual([])
  })

  it('warns of a Job TTL shorter than a look can see', () => {
    const job = (ttl: number) =>
      target('Job', 'batch', 'migrate', { expected: { kind: 'Job', spec: { ttlSecondsAfterFinished: ttl } } })
    expect(shortJobTtls([job(10)])).toHaveLength(1)
    expect(shortJobTtls([job(600)])).toEqual([])
  })

  it('says "every engaged edge" only when some target is on every edge', () => {
    const pinned = { ...WEB, target: { ...WEB.target, edge: 'prod-eu' } }
    expect(watchedText(undefined, [pinned])).toBe('the edge(s) they name (prod-eu)')
    expect(watchedText(undefined, [WEB])).toBe('every engaged edge')
    expect(watchedText(undefined, [WEB, pinned])).toBe(`every engaged edge (${WEB.label} only on prod-eu)`)
    const many = ['a', 'b', 'c', 'd', 'e'].map((edge) => ({ ...WEB, target: { ...WEB.target, edge } }))
    expect(watchedText(undefined, [WEB, ...many])).toBe(
      `every engaged edge (${WEB.label} only on a, ${WEB.label} only on b, ${WEB.label} only on c, and 2 more only on the edge each names)`,
    )
    expect(watchedText(['a', 'b'], [WEB])).toBe('edge(s) a, b')
  })
})
