/**
 * Errors raised by the hub clients. Each carries what a user needs to act, as data: what the
 * action was doing (`operation`), what the hub said (`status`, `reason`, `hubMessage`) and a
 * `hint` that names the input to change; the original error stays as `cause`. The words are
 * put together by renderError (src/errors.ts); the hub's were redacted as they were received.
 */
import { ActionError, type HubErrorData } from '../errors.js'
import { redact } from '../redact.js'

export type HubErrorInit = Omit<HubErrorData, 'kind'>
type HubErrorClass = new (init: HubErrorInit) => HubError

export class HubError extends ActionError<HubErrorData> {
  constructor(init: HubErrorInit) {
    super({ ...init, kind: 'hub' })
    this.name = new.target.name
  }

  get reason(): string | undefined {
    return this.data.reason
  }

  get hubMessage(): string | undefined {
    return this.data.hubMessage
  }

  /** The same failure with some of its data changed (a hint that fits the caller), as this class or `As`. */
  with(change: Partial<HubErrorInit>, As: HubErrorClass = this.constructor as HubErrorClass): HubError {
    const { kind: _kind, ...data } = this.data
    return new As({ ...data, ...change })
  }
}

/** 401 or 403: the token, its type or its permissions. */
export class HubAuthError extends HubError {}
/**
 * The hub fell back to the personal org: a 400 "a workspace is required", or whoami showing no
 * workspace. The inputs name a workspace the token's user is not a member of.
 */
export class HubWorkspaceError extends HubError {}
/** 404: the agent or run is not in this workspace, or the provider is not there. */
export class HubNotFoundError extends HubError {}
/** The router's plain-text 404: this server has no such path (a `hub-url` that misses the hub, or an older provider). */
export class HubNoRouteError extends HubNotFoundError {}
/** Any other 4xx: the request itself was refused. */
export class HubRequestError extends HubError {}
/** 5xx: the hub or the provider is not answering well. */
export class HubServerError extends HubError {}
/** 429 once retries are spent: the hub is busy rather than broken (a server error all the same). @internal */
export class HubRateLimitError extends HubServerError {}
/** No HTTP answer at all: connection refused or reset, DNS, TLS, or our per-request timeout. */
export class HubConnectionError extends HubError {}
/** An answer we cannot use: HTML instead of JSON, JSON of an unexpected shape, or past a body cap. */
export class HubProtocolError extends HubError {}
/**
 * The step's time budget ran out before the hub answered (a slow hub, a drip, an outage).
 * Not a hub failure as such: the caller decides (`on-timeout` for a run).
 */
export class HubDeadlineError extends HubError {}

/**
 * The graph routes identify a user (docs/hub-facts.md, "What the graph knows"): a service-account
 * token is refused there whatever `cluster-id` says, which serves the agent commands only.
 */
export const GRAPH_TOKEN_HINT =
  "The hub refused the token for a graph command (`impact`, `query` and `rollout` each read the fleet graph): `token` is invalid or expired, or it is a service-account token, which the graph refuses on every route — `cluster-id` does not help there, it serves only the agent commands (`run`, `wait`). Pass a user token (or the hub's static token) for the graph commands."

/**
 * Turns a refused hub answer into a typed error with a message a user can act on.
 * The hub speaks three dialects (docs/hub-facts.md, "Agents provider", "The hub in front", "Graph queries"): JSON Status from the agents
 * provider, plain text from the hub and routers and the graph provider, and the portal's
 * HTML when a path is wrong. We read the Content-Type, never guess from the first byte.
 */
export interface FailureContext {
  /** What we were doing, as a verb phrase: `start a run of agent "triage"`. */
  operation: string
  /** What a 404 means here: `agent "triage"`, `run 01HX…`. */
  subject?: string | undefined
  org: string
  workspace: string
  clusterId?: string | undefined
  /** Set when the bearer is a GitHub Actions OIDC token requested for this audience. */
  oidcAudience?: string | undefined
  /** The `hub-url` input as given, and the request that was refused (`POST https://…`): a 404 of the router names both. */
  hubUrl?: string | undefined
  request?: string | undefined
}

export interface HubAnswer {
  status: number
  contentType: string
  body: string
}

interface Said {
  reason?: string | undefined
  message?: string | undefined
}

/** What the hub said, whichever dialect it used. Redacted, then clipped: they end up in logs. @internal */
export function readHubSaying(answer: HubAnswer): Said {
  // Redacted again after parsing (JSON escapes may spell a secret), and before the clip: a
  // token cut in two by the clip would no longer be recognised whole.
  const clip = (text: string) => clipText(redact(text))
  const type = answer.contentType.toLowerCase()
  if (type.includes('json')) {
    try {
      const parsed = JSON.parse(answer.body) as unknown
      if (parsed && typeof parsed === 'object') {
        const record = parsed as Record<string, unknown>
        const message = typeof record.message === 'string' ? record.message : undefined
        const reason = typeof record.reason === 'string' ? clip(record.reason) : undefined
        return { reason, message: clip(message ?? answer.body) }
      }
    } catch {
      // not JSON after all: fall through to text
    }
  }
  if (type.includes('html')) return { message: 'an HTML page (the portal, not the API)' }
  const text = answer.body.trim()
  return { message: text ? clip(text.split('\n')[0] ?? text) : undefined }
}

export function hubFailure(answer: HubAnswer, context: FailureContext): HubError {
  const said = readHubSaying(answer)
  const base = {
    operation: context.operation,
    subject: context.subject,
    status: answer.status,
    reason: said.reason,
    hubMessage: said.message,
  }
  const where = `workspace ${context.workspace} (org ${context.org})`
  const message = (said.message ?? '').toLowerCase()
  const status = answer.status

  if (status === 401 && context.oidcAudience !== undefined) {
    // A stock hub accepts ID tokens of its own login issuer only, for users that already exist
    // (docs/hub-facts.md, "What the graph knows", OIDC): GitHub's are refused like any unverifiable token.
    return new HubAuthError({
      ...base,
      hint: `The hub refused the GitHub OIDC token (audience "${context.oidcAudience}", requested again once). A hub accepts GitHub's tokens only if its operator made it trust GitHub's issuer (https://token.actions.githubusercontent.com) for that audience and created the user the token maps to; a stock hub trusts only its own login provider. Ask the hub's operator, or pass a hub token in \`token\` instead of \`oidc-audience\`.`,
    })
  }
  if (status === 401 && context.request?.includes('/services/providers/graph/')) {
    return new HubAuthError({ ...base, hint: GRAPH_TOKEN_HINT })
  }
  if (status === 401) {
    const hint = context.clusterId
      ? `The service-account route for cluster "${context.clusterId}" refused the token: check that \`token\` is valid, unexpired and issued in ${where}.`
      : `The hub refused the token: \`token\` is invalid or expired, or it is a service-account token, which the hub refuses on user routes — set \`cluster-id\` to the workspace's cluster id to use the service-account route.`
    return new HubAuthError({ ...base, hint })
  }
  if (status === 409 && context.clusterId && message.includes('not mapped')) {
    // Reads check the mapping before the run and the token, and only the user routes that act on
    // runs write it (whoami does not): docs/hub-facts.md, "Service-account route".
    return new HubWorkspaceError({
      ...base,
      hint: `The service-account route knows no workspace for cluster "${context.clusterId}" (409 "not mapped yet"). Either \`cluster-id\` is mistyped (the hub checks the mapping first, so a wrong cluster id answers this rather than 403), or nobody has used a user route that acts on runs in that workspace yet (the mapping is written only there; whoami does not write it). Check \`cluster-id\` against the workspace's settings; if it is right, start or read one run there with a user token (or open the agents UI in it), then retry.`,
    })
  }
  if (status === 403 && context.clusterId) {
    // The service-account route answers 403 for an invalid, expired or foreign token, and for a
    // cluster id the token may not use or that does not exist (docs/hub-facts.md, "Agents provider").
    return new HubAuthError({
      ...base,
      hint: `The service-account route for cluster "${context.clusterId}" refused the request: check that \`token\` is a valid, unexpired service-account token issued in the workspace that \`cluster-id\` names, and that \`cluster-id\` is that workspace's cluster id (not its name or UUID).`,
    })
  }
  if (status === 403) {
    return new HubAuthError({
      ...base,
      hint: `The token is valid but may not ${context.operation} in ${where}: grant its identity that permission, or use a token issued in that workspace.`,
    })
  }
  if (status === 400 && message.includes('workspace is required')) {
    return new HubWorkspaceError({
      ...base,
      hint: `The hub ignored the \`org\`/\`workspace\` headers and fell back to the token owner's personal org, which it does when org ${context.org} / workspace ${context.workspace} is not a membership of the token's user. Check that both inputs are the UUIDs (not display names) of a workspace the token's user belongs to.`,
    })
  }
  if (status === 404) {
    if (message.startsWith('provider not found')) {
      return new HubNotFoundError({
        ...base,
        hint: 'The hub at `hub-url` has no such provider: check `hub-url` and that the provider is enabled in the workspace.',
      })
    }
    if (isRouterNotFound(answer)) return noSuchRoute(base, context)
    if (answer.contentType.toLowerCase().includes('html')) {
      return new HubNotFoundError({
        ...base,
        hint: `${tried(context)} answered an HTML page (a portal or web server), not the hub API: set \`hub-url\` to the hub's base URL, the one that serves /services/providers/….`,
      })
    }
    const subject = context.subject ?? 'the resource'
    return new HubNotFoundError({
      ...base,
      hint: `${capitalise(subject)} was not found in ${where}: check the name, and that \`org\` and \`workspace\` name the workspace it lives in (a provider that is not enabled in the workspace answers 404 too).`,
    })
  }
  if (status === 429) {
    return new HubRateLimitError({
      ...base,
      hint: 'The hub kept answering "too many requests" after several retries: try again later, or lower the number of parallel jobs calling it.',
    })
  }
  if (status === 502) {
    return new HubServerError({
      ...base,
      hint: 'The hub could not reach the provider: it may be down, or not enabled in this workspace. Try again; if it persists, ask the hub administrators.',
    })
  }
  if (status === 503) {
    if (context.clusterId && message.includes('locating workspace')) {
      return new HubServerError({
        ...base,
        hint: `The hub could not locate a workspace for cluster "${context.clusterId}": check that \`cluster-id\` is the cluster id of the workspace the token was issued in; if it is, the hub may be catching up — try again in a minute.`,
      })
    }
    return new HubServerError({
      ...base,
      hint: context.clusterId
        ? 'The provider is not ready or not connected for this cluster: try again in a minute; if it persists, ask the hub administrators.'
        : 'The provider is not ready: try again in a minute; if it persists, ask the hub administrators.',
    })
  }
  if (status >= 500 && context.request?.includes('/services/providers/graph/') && message.includes('query failed')) {
    // The engine's SQL fails the whole query on a malformed link annotation of any object it
    // reads, as on the 30-second timeout (docs/hub-facts.md, "Relations, more precisely").
    return new HubServerError({
      ...base,
      hint: 'The graph failed the query. Its usual causes: the 30-second query limit (ask for less: a lower `limit`, fewer relations, one edge), or a malformed `kuery.io/relates-to` annotation (not a JSON array) on an object the query reads, which fails every query that reads it; fix the annotation on the cluster. If neither applies, report it to the hub administrators with the time of the failure.',
    })
  }
  if (status >= 500) {
    return new HubServerError({
      ...base,
      hint: 'The hub failed while handling the request: try again; if it persists, report it to the hub administrators with the time of the failure.',
    })
  }
  if (answer.contentType.toLowerCase().includes('html')) {
    return new HubProtocolError({
      ...base,
      hint: '`hub-url` seems to point at the portal rather than the hub API: use the hub base URL (the one that serves /services/providers/…).',
    })
  }
  return new HubRequestError({
    ...base,
    hint: 'The hub refused the request as sent: check the inputs named in its message.',
  })
}

/**
 * The router's own `404 page not found` (plain text, never the agents provider's JSON Status):
 * the path does not exist on this server, which is not the same as "no such agent".
 */
function isRouterNotFound(answer: HubAnswer): boolean {
  const type = answer.contentType.toLowerCase()
  if (type.includes('json') || type.includes('html')) return false
  return answer.body.trim().toLowerCase().startsWith('404 page not found')
}

function tried(context: FailureContext): string {
  return context.request ? `The request ${context.request}` : 'The request'
}

function noSuchRoute(base: Omit<HubErrorInit, 'hint'>, context: FailureContext): HubNoRouteError {
  const url = context.hubUrl ? ` (${context.hubUrl})` : ''
  // The hub's own API path in `hub-url` is refused as an input (settings/fields.ts); a prefix is not.
  const prefix = `\`hub-url\`${url} carries a path prefix under which no hub is served — set it to the hub's base URL, the one that serves /services/providers/…`
  // The graph provider serves its query route in every version; the agents provider's runs API is newer.
  const graph = context.request?.includes('/services/providers/graph/') === true
  return new HubNoRouteError({
    ...base,
    hint: graph
      ? `${tried(context)} reached a server that has no such route ("404 page not found"), so this says nothing about the query or the objects. Likely cause: ${prefix}.`
      : `${tried(context)} reached a server that has no such route ("404 page not found"), so this says nothing about the agent or run names. ` +
        `Likely causes: ${prefix}; ` +
        `or the hub's provider predates this API (agents provider v0.0.21 and older have no runs API) — ask the hub administrators to upgrade it.`,
  })
}

/** The hub's words cut to `max` characters (500 are quoted), `…` after the cut; shared with the MCP failures. */
export function clipText(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
