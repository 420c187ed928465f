/**
 * When is the release rolled out? Every target current on every watched edge, or with a quorum
 * (`require`) on enough edges while the others are offline (not reporting: tolerated, and
 * named). A failed target on any edge fails at once; a cut result never counts as current.
 */
import type { CellState } from './observe.js'
import type { Quorum } from '../../settings/rollout.js'

type RolloutStateName = 'current' | 'failed' | 'timeout'

export interface Decision {
  /** `timeout` while undecided: the state the step ends in if the budget runs out now. */
  state: RolloutStateName
  message: string
  /** Edges not reporting that the quorum let the release pass without. */
  tolerated: string[]
}

function requiredEdges(quorum: Quorum, watched: number): number {
  if (quorum.kind === 'all') return watched
  if (quorum.kind === 'edges') return quorum.count
  return Math.ceil((quorum.percent * watched) / 100)
}

export function quorumText(quorum: Quorum): string {
  if (quorum.kind === 'all') return 'every edge'
  if (quorum.kind === 'edges') return `at least ${quorum.count} edge(s)`
  return `at least ${quorum.percent}% of the edges`
}

export function decide(edges: readonly { edge: string; state: CellState }[], quorum: Quorum, complete: boolean, named: boolean): Decision {
  const failed = edges.filter((e) => e.state === 'failed').map((e) => e.edge)
  if (failed.length > 0) return { state: 'failed', message: `A target failed to roll out on ${list(failed)}.`, tolerated: [] }
  const current = edges.filter((e) => e.state === 'current').map((e) => e.edge)
  const offline = edges.filter((e) => e.state === 'not-reporting').map((e) => e.edge)
  const moving = edges.filter((e) => e.state === 'in-progress').map((e) => e.edge)
  const need = requiredEdges(quorum, edges.length)
  const waiting = (why: string): Decision => ({ state: 'timeout', message: why, tolerated: [] })
  if (edges.length === 0) return waiting(named ? 'No edge was named.' : 'The workspace has no engaged edge: nothing can be confirmed rolled out.')
  if (!complete) return waiting("The hub's row cap cut the last result, so it cannot show every target current.")
  if (moving.length > 0) return waiting(`Still rolling out on ${list(moving)}.`)
  if (current.length >= need && current.length > 0) {
    const tolerated = quorum.kind === 'all' ? [] : offline
    const also = tolerated.length > 0 ? `; tolerated by \`require\` (${quorumText(quorum)}): ${list(tolerated)} not reporting` : ''
    return { state: 'current', message: `Every target is current on ${current.length} of ${edges.length} edge(s)${also}.`, tolerated }
  }
  return waiting(`${list(offline)} not reporting; ${current.length} of ${edges.length} edge(s) current, ${quorumText(quorum)} required (\`require\`).`)
}

function list(edges: readonly string[]): string {
  const shown = edges.slice(0, 10).join(', ')
  return edges.length > 10 ? `${shown} and ${edges.length - 10} more` : shown
}
