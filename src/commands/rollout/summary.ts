/**
 * The job summary: the verdict, one row per edge (its state and when it was last seen to
 * change), and the matrix of targets × edges, worst first, each cell its state and reason.
 * Edge names and reasons come from the hub: every cell goes through `inline`. Pure.
 */
import { SUMMARY_BYTE_BUDGET, byteLength, clip, inline, table } from '../../markdown/format.js'
import { STATE_RANK, type CellState } from './observe.js'
import { clockTime, sinceStart } from './clock-time.js'
import { STATE_WORDS, type EdgeTrack, type RolloutOutcome, type TrackedCell } from './poll.js'
import type { RolloutTarget } from './targets.js'
import { quorumText } from './verdict.js'
import { uncheckedSentences } from './unchecked.js'
import type { Quorum } from './inputs.js'
import type { SkippedTarget } from '../../model/target.js'
import { targetLabel } from '../../model/target.js'

/** Wider tables do not fit GitHub's page; the rest of the edges are in the result file. */
const MAX_EDGE_COLUMNS = 12
const MAX_NAME = 60
const MAX_REASON = 90
/** Targets named in a note before the rest are counted (the result file lists every one). */
const MAX_LISTED = 20
const ICON: Record<CellState, string> = { failed: '❌', 'not-reporting': '⚪', 'in-progress': '⏳', current: '✅' }
const HEADLINE = {
  current: '✅ Rolled out',
  failed: '❌ Rollout failed',
  timeout: '⏱️ Rollout not complete in time',
} as const

/** Hub text for a table cell: the one clip, then escaped as inline markdown. */
const inlineClip = (text: string, max: number) => inline(clip(text, max))

export function renderRolloutSummary(
  outcome: RolloutOutcome,
  targets: readonly RolloutTarget[],
  context: {
    quorum: Quorum
    resultFile: string
    budget?: number
    /** Of kinds the graph does not sync: listed, never waited for. */
    unchecked?: readonly RolloutTarget[]
    outOfScope?: readonly SkippedTarget[]
  },
): string {
  const budget = context.budget ?? SUMMARY_BYTE_BUDGET
  const edges = [...outcome.edges].sort(
    (a, b) => STATE_RANK[a.state] - STATE_RANK[b.state] || a.edge.localeCompare(b.edge),
  )
  const counts = countCells(outcome.edges)
  const head = [
    `## ${HEADLINE[outcome.state]}`,
    inline(outcome.message),
    `${targets.length} target(s) on ${edges.length} edge(s), ${quorumText(context.quorum)} required · ${counts.current} current · ${counts['in-progress']} in progress · ${counts.failed} failed · ${counts['not-reporting']} not reporting · ${outcome.polls} poll(s) over ${Math.round((outcome.endedAt - outcome.startedAt) / 1000)} s.`,
  ]
  if (!outcome.complete)
    head.push(
      "> [!WARNING]\n> The hub's 10,000-row cap cut the last result: it is incomplete, so it was never counted as current.",
    )
  if (outcome.tolerated.length > 0) {
    const why = (edge: string) =>
      outcome.edges.find((t) => t.edge === edge)?.engagedOnce ? 'disconnected during the rollout' : 'not engaged'
    head.push(
      `> [!NOTE]\n> Tolerated by \`require\` (not reporting): ${outcome.tolerated.map((e) => `${inlineClip(e, MAX_NAME)} (${why(e)})`).join(', ')}.`,
    )
  }
  const unchecked = context.unchecked ?? []
  if (unchecked.length > 0) head.push(`> [!NOTE]\n> ${uncheckedSentences(unchecked).map(inline).join('\n>\n> ')}`)
  const outOfScope = context.outOfScope ?? []
  if (outOfScope.length > 0)
    head.push(
      `Outside the allowed scope, not queried (${outOfScope.length}): ${outOfScope
        .slice(0, MAX_LISTED)
        .map((s) => `${inlineClip(targetLabel(s.target), MAX_NAME * 2)} (${inline(s.reason)})`)
        .join(', ')}${outOfScope.length > MAX_LISTED ? ` and ${outOfScope.length - MAX_LISTED} more` : ''}.`,
    )
  const edgeTable = table(
    [
      { header: 'Edge', cell: (t: EdgeTrack) => inlineClip(t.edge, MAX_NAME) },
      {
        header: 'State',
        cell: (t: EdgeTrack) =>
          `${ICON[t.state]} ${STATE_WORDS[t.state]}${outcome.tolerated.includes(t.edge) ? ' (tolerated)' : ''}${t.latchedAt === undefined ? '' : ` (latched ${sinceStart(t.latchedAt, outcome.startedAt)})`}`,
      },
      {
        header: 'Last change seen',
        cell: (t: EdgeTrack) => (t.changedAt === undefined ? '—' : clockTime(t.changedAt)),
      },
    ],
    edges,
  )
  const columns = edges.slice(0, MAX_EDGE_COLUMNS)
  const order = targets
    .map((target, i) => ({ target, i, worst: worstOf(outcome.edges, i) }))
    .sort((a, b) => a.worst - b.worst || a.i - b.i)
  const header = table(
    [
      { header: 'Target', cell: () => '' },
      ...columns.map((t) => ({ header: inlineClip(t.edge, MAX_NAME), cell: () => '' })),
    ],
    [],
  )
  const footer = [
    edges.length > columns.length
      ? `${edges.length - columns.length} more edge(s) are not shown as columns (worst first).`
      : '',
    `Every observation is in the result file ${inline(context.resultFile)} (output \`result-file\`). "Not reporting" is never counted as rolled out: the graph drops a disconnected edge's objects and keeps no per-object freshness.`,
  ].filter(Boolean)
  const proofs = proofLines(outcome.edges, targets)
  if (proofs.length > 0) head.push(`### What proved each target is this release\n\n${proofs.join('\n')}`)
  const fixed = [...head, '### Edges', edgeTable, '### Targets × edges', header, ...footer].join('\n\n')
  let room = budget - byteLength(fixed) - 200
  const rows: string[] = []
  for (const { target, i } of order) {
    const row = `| ${inlineClip(target.label, MAX_NAME * 2)} | ${columns.map((t) => cellText(t.cells[i])).join(' | ')} |`
    room -= byteLength(row) + 1
    if (room < 0) break
    rows.push(row)
  }
  const cut = order.length - rows.length
  const matrix =
    [header, ...rows].join('\n') + (cut > 0 ? `\n\n${cut} more target(s) did not fit GitHub's summary limit.` : '')
  return [...head, '### Edges', edgeTable, '### Targets × edges', matrix, ...footer].join('\n\n') + '\n'
}

function cellText(cell: TrackedCell | undefined): string {
  if (!cell) return '—'
  const dips = cell.dips ? ` (latched; dipped ${cell.dips}×)` : ''
  return `${ICON[cell.state]} ${inlineClip(cell.reason, MAX_REASON)}${dips}`.replace(/(?<!\\)\|/g, '\\|')
}

/**
 * Per target, what showed each edge runs this release (a revision stamp, a change seen, the
 * manifest's provenance), each distinct proof with its count of edges; none when no cell has one.
 */
function proofLines(edges: readonly EdgeTrack[], targets: readonly RolloutTarget[]): string[] {
  const lines: string[] = []
  targets.forEach((target, i) => {
    const counted = new Map<string, number>()
    for (const track of edges) {
      const proof = track.cells[i]?.proof
      if (proof) counted.set(proof, (counted.get(proof) ?? 0) + 1)
    }
    if (counted.size === 0 || lines.length >= MAX_LISTED) return
    const shown = [...counted]
      .slice(0, 3)
      .map(([proof, n]) => `${inlineClip(proof, MAX_REASON)} (${n} edge${n === 1 ? '' : 's'})`)
    const more = counted.size > 3 ? `; and ${counted.size - 3} more` : ''
    lines.push(`- ${inlineClip(target.label, MAX_NAME * 2)}: ${shown.join('; ')}${more}`)
  })
  return lines
}

function worstOf(edges: readonly EdgeTrack[], i: number): number {
  return Math.min(3, ...edges.map((t) => (t.cells[i] ? STATE_RANK[t.cells[i].state] : 3)))
}

export function countCells(edges: readonly EdgeTrack[]): Record<CellState, number> {
  const counts: Record<CellState, number> = { current: 0, 'in-progress': 0, failed: 0, 'not-reporting': 0 }
  for (const track of edges) for (const cell of track.cells) if (cell) counts[cell.state]++
  return counts
}
