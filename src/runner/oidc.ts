/**
 * A GitHub OIDC ID token as the hub bearer, for hubs whose identity provider trusts GitHub's
 * issuer: no long-lived secret in the repository. The runner offers the token endpoint only to
 * jobs with `permissions: id-token: write` (ACTIONS_ID_TOKEN_REQUEST_URL / _TOKEN); the request
 * itself is @actions/core's `getIDToken`, which also masks the token it returns.
 */
import { getIDToken } from '@actions/core'
import { ActionError, type StatementErrorData } from '../errors.js'

/** @internal */
export class OidcError extends ActionError<StatementErrorData> {
  /** `what` went wrong, then `: hint.` */
  constructor(what: string, options: { hint: string; cause?: unknown }) {
    super({
      kind: 'statement',
      operation: 'get a GitHub OIDC token for the hub',
      statement: what,
      withHint: true,
      ...options,
    })
    this.name = 'OidcError'
  }
}

/** core's client sets no time limit of its own: a runner that never answers must not hold the step. */
const REQUEST_TIMEOUT_MS = 15_000

export async function requestIdToken(audience: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (!env.ACTIONS_ID_TOKEN_REQUEST_URL || !env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) {
    throw new OidcError('Input `oidc-audience` is set but the runner offers no OIDC token', {
      hint: 'add `permissions: id-token: write` to the job (pull requests from forks never get one), or pass `token`',
    })
  }
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)), REQUEST_TIMEOUT_MS)
    timer.unref()
  })
  try {
    return await Promise.race([getIDToken(audience), timeout])
  } catch (error) {
    // core's message carries the HTTP status ("Error Code : 401") across several lines: keep it on one.
    const detail = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim()
    throw new OidcError(`GitHub refused or failed the OIDC token request for audience "${audience}" (${detail})`, {
      hint: 'check `permissions: id-token: write` on the job and the audience',
      cause: error,
    })
  } finally {
    clearTimeout(timer)
  }
}
