/**
 * Is `org`/`workspace` a workspace the token's user belongs to? The hub does not say so when it
 * is not: it silently uses the user's personal org instead, where the agents provider refuses a
 * run but the graph answers 200 with no objects, an empty fleet that would pass any gate
 * (docs/hub-facts.md, "The hub in front"). And an org-wide membership admits any workspace
 * string, existing or not: whoami echoes it with an empty clusterID, and the graph again answers
 * nothing (docs/hub-facts.md, "Memberships and the workspace proof"). Only the agents provider's
 * whoami shows either, so every command on the user route asks it once before it acts, and takes
 * the workspace as proven only when whoami echoes the same UUID with a non-empty clusterID.
 * A hub it cannot reach at all (or a budget spent on it) stops the command here, in one message:
 * the command's own first request would only fail the same way after as many retries.
 */
import { renderError } from '../errors.js'
import { AgentsClient } from './agents.js'
import { GRAPH_TOKEN_HINT, HubAuthError, HubError, HubNoRouteError, HubWorkspaceError } from './errors.js'
import type { HubTransport } from './transport.js'
import { hubUnreachable } from './transport-errors.js'

export interface HubScope {
  org: string
  workspace: string
}

/** What the check may stop, in the words its messages use. */
export type Guarded = 'run' | 'graph' | 'lifecycle'

/** `confirmed`: whoami named the workspace. `unchecked`: the hub could not be asked, which proves nothing. */
export type WorkspaceCheck = 'confirmed' | 'unchecked'

const WORDS: Record<Guarded, { before: string; nothing: string; consequence: string; noCluster: string }> = {
  run: {
    before: 'before starting',
    nothing: 'No run was created.',
    consequence: 'so a run would start outside the workspace you named',
    noCluster: 'the hub would refuse the run ("no workspace cluster on request")',
  },
  graph: {
    before: 'before querying the graph',
    nothing: 'No graph query was sent.',
    consequence:
      "so the graph would answer for the user's personal org: no objects, which no gate may take for an empty fleet",
    noCluster: 'the graph would answer nothing for it, which no gate may take for an empty fleet',
  },
  lifecycle: {
    before: 'before acting on the run',
    nothing: 'Nothing was sent to the run.',
    consequence: 'so the run would be looked for outside the workspace you named',
    noCluster: 'the hub would refuse every run request ("no workspace cluster on request")',
  },
}

export async function checkWorkspace(
  client: Pick<AgentsClient, 'whoami'>,
  scope: HubScope,
  guarded: Guarded,
  options: { signal: AbortSignal; deadline?: number | undefined; log: (line: string) => void },
): Promise<WorkspaceCheck> {
  const words = WORDS[guarded]
  let answered: { workspaceUUID?: string | undefined; clusterID?: string | undefined }
  try {
    answered = await client.whoami(options.signal, options.deadline)
  } catch (error) {
    // A refused token would be refused by what follows too: say so now, before anything is sent.
    // A graph command's whoami is refused for the graph's reason: the token must be a user's.
    if (error instanceof HubAuthError && guarded === 'graph' && error.data.status === 401)
      throw error.with({ hint: GRAPH_TOKEN_HINT })
    if (!(error instanceof HubError) || error instanceof HubAuthError || options.signal.aborted) throw error
    // Unreachable, or out of time: what would follow fails the same way, so this is the one message.
    if (hubUnreachable(error))
      throw error.with({
        operation: `check the workspace ${words.before} (GET /api/whoami)`,
        hint: `${error.hint} ${words.nothing}`,
      })
    const meaning =
      guarded === 'graph' ? ' An empty answer may then mean a wrong `org`/`workspace` as much as an empty fleet.' : ''
    // A missing route is explained once, by the request that meets it next, not twice at length.
    const why =
      error instanceof HubNoRouteError
        ? ': the server at `hub-url` has no GET /api/whoami route ("404 page not found").'
        : ` (GET /api/whoami): ${renderError(error)}`
    options.log(`Could not check the workspace ${words.before}${why} Going on.${meaning}`)
    return 'unchecked'
  }
  const resolved = answered.workspaceUUID?.trim()
  // An older hub without the field proves nothing either way.
  if (resolved === undefined) return 'unchecked'
  const named = `org ${JSON.stringify(scope.org)}, workspace ${JSON.stringify(scope.workspace)}`
  const refuse = (problem: string): never => {
    throw new HubWorkspaceError({
      operation: `check the workspace ${words.before} (GET /api/whoami)`,
      hint: "set `org` and `workspace` to the UUIDs of a workspace the token's user belongs to",
      problems: [
        `\`org\`/\`workspace\` (${named}): ${problem} Set org and workspace to the UUIDs of a workspace the token's user is a member of (the hub's workspace settings show both). ${words.nothing}`,
      ],
    })
  }
  if (resolved === '')
    refuse(
      `the hub resolved this token to no workspace (GET /api/whoami answered an empty workspaceUUID), which means it fell back to the user's personal org, ${words.consequence}.`,
    )
  if (resolved !== scope.workspace)
    refuse(
      `the hub resolved this token to another workspace (GET /api/whoami answered workspaceUUID ${JSON.stringify(resolved.slice(0, 64))}), ${words.consequence}.`,
    )
  if (!answered.clusterID?.trim())
    refuse(
      `the hub echoed the workspace but with no cluster behind it (GET /api/whoami answered an empty clusterID). An org-wide membership (an org administrator) admits any workspace string, existing or not, so this workspace is mistyped or deleted, and ${words.noCluster}.`,
    )
  return 'confirmed'
}

/** A graph command's check: the user route's whoami, the only one the graph's tokens may call. */
export function checkGraphWorkspace(
  transport: HubTransport,
  scope: HubScope,
  signal: AbortSignal,
  log: (line: string) => void,
): Promise<WorkspaceCheck> {
  return checkWorkspace(new AgentsClient(transport), scope, 'graph', { signal, log })
}

/**
 * Where the pair could not be checked, a graph that found nothing and lists no engaged edge is
 * more likely a wrong pair (the personal org has no edges) than an empty fleet: an error naming
 * both causes, never a green step. Undefined when the answer proves nothing of the kind.
 */
export function emptyUncheckedGraph(
  check: WorkspaceCheck,
  found: number,
  edges: readonly string[] | undefined,
  scope: HubScope,
): HubWorkspaceError | undefined {
  if (check !== 'unchecked' || found > 0 || edges === undefined || edges.length > 0) return undefined
  return new HubWorkspaceError({
    operation: 'read the fleet graph',
    hint: 'check `org` and `workspace`, and that an edge is engaged in the workspace',
    problems: [
      `The graph found no object and lists no engaged edge (GET /api/edges answered none), and \`org\`/\`workspace\` (org ${JSON.stringify(scope.org)}, workspace ${JSON.stringify(scope.workspace)}) could not be checked because the hub serves no agents provider to ask. Either no edge is engaged in this workspace, or the pair is not a workspace of the token's user and the hub silently answered for the user's personal org. Set org and workspace to the UUIDs of a workspace the token's user is a member of, and engage an edge there.`,
    ],
  })
}
