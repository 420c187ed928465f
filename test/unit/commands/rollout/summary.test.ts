// The rollout job summary, judged by cmark-gfm: hub text (edge names, reasons) stays text, the
// matrix is one table whatever the names hold, worst first, and it fits the budget it is given.
import { expect, it } from 'vitest'
import { describeWithGfm, judgeGfm } from '../../../oracles/gfm.ts'
import { renderRolloutSummary } from '../../../../src/commands/rollout/summary.js'
import type { EdgeTrack, RolloutOutcome } from '../../../../src/commands/rollout/poll.js'
import type { RolloutTarget } from '../../../../src/commands/rollout/targets.js'

const target = (name: string): RolloutTarget => ({
  key: name,
  label: `Deployment.apps shop/${name}`,
  target: { kind: 'Deployment', group: 'apps', namespace: 'shop', name, origin: { kind: 'input' } },
  expected: {},
})

function outcome(edges: EdgeTrack[]): RolloutOutcome {
  return {
    state: 'failed',
    message: 'A target failed to roll out on <b>x</b>.',
    tolerated: [],
    edges,
    complete: true,
    polls: 3,
    requests: 6,
    startedAt: 0,
    endedAt: 30_000,
    warnings: [],
    observations: [],
    observationsDropped: 0,
  }
}

describeWithGfm('rollout summary', () => {
  it('keeps hostile edge names and reasons as text in one well-formed matrix, worst first', () => {
    const hostile = 'edge|<img src=x onerror=alert(1)>@octocat'
    const edges: EdgeTrack[] = [
      {
        edge: 'calm',
        cells: [
          { state: 'current', reason: 'available 3/3' },
          { state: 'current', reason: 'available 3/3' },
        ],
        state: 'current',
        changedAt: 0,
        engagedOnce: true,
      },
      {
        edge: hostile,
        cells: [
          { state: 'in-progress', reason: 'updated 1/3' },
          { state: 'failed', reason: 'Stalled: </details><!-- | @admins/all `x' },
        ],
        state: 'failed',
        changedAt: 1_000,
        engagedOnce: true,
      },
    ]
    const md = renderRolloutSummary(outcome(edges), [target('web'), target('api')], {
      quorum: { kind: 'all' },
      resultFile: '/tmp/r.json',
    })
    const doc = judgeGfm(md)
    expect(doc.rawHtml).toEqual([])
    expect(doc.mentions).toEqual([])
    expect(doc.tables).toEqual([
      { header: ['Edge', 'State', 'Last change seen'], rows: 2 },
      { header: ['Target', hostile.replace('@', '@\u200b'), 'calm'], rows: 2 },
    ])
    // the failed target's row comes first
    expect(md.indexOf('shop/api')).toBeLessThan(md.indexOf('shop/web'))
  })

  it('cuts rows to the budget and says how many did not fit', () => {
    const targets = Array.from({ length: 400 }, (_, i) => target(`app-${i}`))
    const edges: EdgeTrack[] = ['a', 'b', 'c'].map((edge) => ({
      edge,
      cells: targets.map(() => ({ state: 'in-progress' as const, reason: 'updated 1/3' })),
      state: 'in-progress' as const,
      changedAt: 0,
      engagedOnce: true,
    }))
    const md = renderRolloutSummary(outcome(edges), targets, {
      quorum: { kind: 'all' },
      resultFile: '/tmp/r.json',
      budget: 8_000,
    })
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(8_000)
    expect(md).toMatch(/\d+ more target\(s\) did not fit GitHub's summary limit\./)
    expect(judgeGfm(md).tables[1]?.rows).toBeGreaterThan(10)
  })
})
