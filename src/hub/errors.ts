/**
 * Errors raised by the hub clients. Each carries what a user needs to act: what the action
 * was doing (`operation`), what the hub said (`status`, `reason`, `hubMessage`) and a `hint`
 * that names the input to change. The original error stays as `cause`.
 */
export interface HubErrorInit {
  operation: string
  hint: string
  status?: number
  reason?: string
  hubMessage?: string
  cause?: unknown
}

export class HubError extends Error {
  readonly operation: string
  readonly hint: string
  readonly status: number | undefined
  readonly reason: string | undefined
  readonly hubMessage: string | undefined

  constructor(init: HubErrorInit) {
    super(composeMessage(init), init.cause === undefined ? undefined : { cause: init.cause })
    this.name = new.target.name
    this.operation = init.operation
    this.hint = init.hint
    this.status = init.status
    this.reason = init.reason
    this.hubMessage = init.hubMessage
  }
}

/** 401 or 403: the token, its type or its permissions. */
export class HubAuthError extends HubError {}
/** 400 "a workspace is required": the hub silently fell back to the personal org. */
export class HubWorkspaceError extends HubError {}
/** 404: the agent or run is not in this workspace, or the provider is not there. */
export class HubNotFoundError extends HubError {}
/** Any other 4xx: the request itself was refused. */
export class HubRequestError extends HubError {}
/** 5xx (and 429 once retries are spent): the hub or the provider is not answering well. */
export class HubServerError extends HubError {}
/** No HTTP answer at all: connection refused or reset, DNS, TLS, or our per-request timeout. */
export class HubConnectionError extends HubError {}
/** An answer we cannot use: HTML instead of JSON, JSON of an unexpected shape, or past a body cap. */
export class HubProtocolError extends HubError {}
/**
 * The step's time budget ran out before the hub answered (a slow hub, a drip, an outage).
 * Not a hub failure as such: the caller decides (`on-timeout` for a run).
 */
export class HubDeadlineError extends HubError {}

function composeMessage(init: HubErrorInit): string {
  const said = [init.status, init.reason].filter((part) => part !== undefined).join(' ')
  const hub = init.hubMessage ? `: ${init.hubMessage}` : ''
  const what = said || hub ? ` (hub answered ${said || 'an error'}${hub})` : ''
  return `Could not ${init.operation}${what}. ${init.hint}`
}
