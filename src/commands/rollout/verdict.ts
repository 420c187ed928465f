/**
 * When is the release rolled out? Every target current on every watched edge, or with a quorum
 * (`require`) on enough edges while the others are not reporting (tolerated, and named with
 * why). A failed target on any edge fails at once; a cut result never counts as current. Where
 * more time cannot help (no edge to read, a target nowhere to be found) the gate fails early.
 */
import type { CellState, Snapshot } from './observe.js'
import { ABSENT_GRACE_SECONDS, type Quorum } from './inputs.js'
import type { RolloutTarget } from './targets.js'

type RolloutStateName = 'current' | 'failed' | 'timeout'

/** What an undecided gate waits on: it chooses the advice given when the time runs out. */
type WaitingOn = 'in-progress' | 'not-reporting' | 'incomplete'

export interface Decision {
  /** `timeout` while undecided: the state the step ends in if the budget runs out now. */
  state: RolloutStateName
  message: string
  /** Edges not reporting that the quorum let the release pass without. */
  tolerated: string[]
  waitingOn?: WaitingOn | undefined
}

/** How long a target may be missing from every engaged edge before the gate calls it a wrong name, unless `absent-grace-seconds` says otherwise. */
export const ABSENT_GRACE_MS = ABSENT_GRACE_SECONDS * 1000

interface EdgeView {
  edge: string
  state: CellState
  /** Engaged at some poll of this step: a tolerated edge was disconnected, else never engaged. */
  engagedOnce: boolean
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

export function decide(edges: readonly EdgeView[], quorum: Quorum, complete: boolean): Decision {
  const failed = edges.filter((e) => e.state === 'failed').map((e) => e.edge)
  if (failed.length > 0)
    return { state: 'failed', message: `A target failed to roll out on ${list(failed)}.`, tolerated: [] }
  const current = edges.filter((e) => e.state === 'current').map((e) => e.edge)
  const offline = edges.filter((e) => e.state === 'not-reporting')
  const moving = edges.filter((e) => e.state === 'in-progress').map((e) => e.edge)
  const need = requiredEdges(quorum, edges.length)
  const waiting = (why: string, on: WaitingOn): Decision => ({
    state: 'timeout',
    message: why,
    tolerated: [],
    waitingOn: on,
  })
  if (edges.length === 0) return waiting('No edge is watched: nothing can be confirmed rolled out.', 'not-reporting')
  if (!complete)
    return waiting("The hub's row cap cut the last result, so it cannot show every target current.", 'incomplete')
  if (moving.length > 0) return waiting(`Still rolling out on ${list(moving)}.`, 'in-progress')
  if (current.length >= need && current.length > 0) {
    const tolerated = quorum.kind === 'all' ? [] : offline
    const also =
      tolerated.length > 0
        ? `; tolerated by \`require\` (${quorumText(quorum)}): ${list(tolerated.map(whyOffline))}`
        : ''
    return {
      state: 'current',
      message: `Every target is current on ${current.length} of ${edges.length} edge(s)${also}.`,
      tolerated: tolerated.map((e) => e.edge),
    }
  }
  return waiting(
    `${list(offline.map(whyOffline))}; ${current.length} of ${edges.length} edge(s) current, ${quorumText(quorum)} required (\`require\`).`,
    'not-reporting',
  )
}

function whyOffline(edge: EdgeView): string {
  return `${edge.edge} not reporting (${edge.engagedOnce ? 'disconnected during the rollout' : 'not engaged'})`
}

/**
 * Causes more time cannot cure, found at the first look (no watched edge engaged) or once a
 * short grace has passed (a target on no engaged edge at all): the gate fails with the fix.
 */
export function fastFailure(context: {
  edges: readonly EdgeView[]
  snapshot: Pick<Snapshot, 'engaged' | 'complete'>
  named: readonly string[] | undefined
  targets: readonly RolloutTarget[]
  /** Targets some engaged edge has shown at some poll. */
  seen: ReadonlySet<number>
  first: boolean
  elapsedMs: number
  /** How long a target may be on no engaged edge (`absent-grace-seconds`). */
  graceMs?: number | undefined
}): Decision | undefined {
  const { snapshot, named } = context
  const fail = (message: string): Decision => ({ state: 'failed', message, tolerated: [] })
  if (context.first && !named && snapshot.engaged.length === 0) {
    return fail(
      'The workspace has no engaged edge, so no target can be seen, and waiting cannot change that. Check `org` and `workspace` (an edge is engaged in the workspace they name), engage an edge there, or name edges in `edges`.',
    )
  }
  if (context.first && named && !named.some((edge) => snapshot.engaged.includes(edge))) {
    const engaged =
      snapshot.engaged.length > 0 ? `engaged there: ${list(snapshot.engaged)}` : 'the workspace has no engaged edge'
    return fail(
      `None of the edges named in \`edges\` (${list(named)}) is engaged (${engaged}). Check \`edges\`, \`org\` and \`workspace\`.`,
    )
  }
  const reporting = context.edges.some((e) => e.state !== 'not-reporting')
  if (!snapshot.complete || !reporting || context.elapsedMs < (context.graceMs ?? ABSENT_GRACE_MS)) return undefined
  const missing = context.targets.flatMap((t, i) => (context.seen.has(i) ? [] : [t.label]))
  if (missing.length === 0) return undefined
  return fail(
    `${list(missing)} ${missing.length === 1 ? 'is' : 'are'} on no engaged edge after ${Math.round(context.elapsedMs / 1000)} s. Check the kind, namespace and name (\`targets\`, the manifests, \`namespace\`), and that the release applied them; raise \`absent-grace-seconds\` if delivery only takes longer (Flux and Argo CD apply minutes after the commit).`,
  )
}

function list(items: readonly string[]): string {
  const shown = items.slice(0, 10).join(', ')
  return items.length > 10 ? `${shown} and ${items.length - 10} more` : shown
}
