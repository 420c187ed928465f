/**
 * A GitHub OIDC ID token as the hub bearer, for hubs whose identity provider trusts GitHub's
 * issuer: no long-lived secret in the repository. The runner offers the token endpoint only to
 * jobs with `permissions: id-token: write` (ACTIONS_ID_TOKEN_REQUEST_URL / _TOKEN).
 */
import type { Dispatcher } from 'undici'
import { z } from 'zod'
import { defaultDispatcher, send } from './hub/http.js'
import { VERSION } from './version.js'

export class OidcError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'OidcError'
  }
}

const IdTokenSchema = z.looseObject({ value: z.string().min(1) })

export async function requestIdToken(audience: string, env: NodeJS.ProcessEnv = process.env, dispatcher: Dispatcher = defaultDispatcher()): Promise<string> {
  const endpoint = env.ACTIONS_ID_TOKEN_REQUEST_URL
  const requestToken = env.ACTIONS_ID_TOKEN_REQUEST_TOKEN
  if (!endpoint || !requestToken) {
    throw new OidcError(
      'Input `oidc-audience` is set but the runner offers no OIDC token: add `permissions: id-token: write` to the job (pull requests from forks never get one), or pass `token`.',
    )
  }
  const url = new URL(endpoint)
  url.searchParams.set('audience', audience)
  try {
    const response = await send(dispatcher, url, {
      method: 'GET',
      headers: { authorization: `Bearer ${requestToken}`, accept: 'application/json', 'user-agent': `hub-action/${VERSION}` },
      signal: AbortSignal.timeout(15_000),
    })
    const text = await response.body.text()
    if (response.statusCode !== 200) {
      throw new OidcError(
        `GitHub refused the OIDC token request (HTTP ${response.statusCode}): check \`permissions: id-token: write\` and the audience "${audience}".`,
      )
    }
    const parsed = IdTokenSchema.safeParse(JSON.parse(text))
    if (!parsed.success) throw new OidcError('GitHub answered the OIDC token request without a token.')
    return parsed.data.value
  } catch (error) {
    if (error instanceof OidcError) throw error
    throw new OidcError(`Could not get an OIDC token from the runner: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  } finally {
    await dispatcher.close()
  }
}
