// Who a token is: the identities the emulator knows, and the user objects GitHub returns for them.

export type IdentityType = 'Bot' | 'User'

export interface TokenIdentity {
  login: string
  type?: IdentityType
  /** Every write (POST/PATCH/PUT/DELETE) is refused with 403. */
  readOnly?: boolean
  /** Numeric account id; derived from the login when absent. */
  id?: number
}

export const ACTIONS_TOKEN = 'ghs_actionstoken000000000000000000000'
export const READONLY_TOKEN = 'ghs_readonlytoken0000000000000000000'
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]'
const ACTIONS_BOT_ID = 41898282

export const DEFAULT_TOKENS: Readonly<Record<string, TokenIdentity>> = Object.freeze({
  [ACTIONS_TOKEN]: { login: ACTIONS_BOT_LOGIN, type: 'Bot' },
  [READONLY_TOKEN]: { login: ACTIONS_BOT_LOGIN, type: 'Bot', readOnly: true },
})

export interface GitHubUser {
  login: string
  id: number
  node_id: string
  avatar_url: string
  gravatar_id: string
  url: string
  html_url: string
  type: IdentityType
  site_admin: boolean
}

export interface Identity {
  login: string
  type: IdentityType
  readOnly: boolean
  id: number
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

export function stableId(seed: string, base: number, span: number): number {
  return base + (fnv1a(seed) % span)
}

export function userObject(apiBase: string, login: string, type: IdentityType, id: number): GitHubUser {
  const isActionsBot = login === ACTIONS_BOT_LOGIN
  const nodePrefix = type === 'Bot' ? '04:Bot' : '04:User'
  return {
    login,
    id,
    node_id: Buffer.from(`${nodePrefix}${id}`).toString('base64'),
    avatar_url: isActionsBot
      ? 'https://avatars.githubusercontent.com/in/15368?v=4'
      : `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: '',
    url: `${apiBase}/users/${encodeURIComponent(login)}`,
    html_url: isActionsBot
      ? 'https://github.com/apps/github-actions'
      : `https://github.com/${encodeURIComponent(login)}`,
    type,
    site_admin: false,
  }
}

export function accountId(login: string, type: IdentityType): number {
  if (login === ACTIONS_BOT_LOGIN) return ACTIONS_BOT_ID
  return stableId(`${type}:${login.toLowerCase()}`, type === 'Bot' ? 100_000_000 : 1_000_000, 90_000_000)
}

export function toIdentity(t: TokenIdentity): Identity {
  const type = t.type ?? (t.login.endsWith('[bot]') ? 'Bot' : 'User')
  return { login: t.login, type, readOnly: t.readOnly === true, id: t.id ?? accountId(t.login, type) }
}

export function parseAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined
  const m = /^\s*(token|bearer)\s+(\S+)\s*$/i.exec(header)
  return m?.[2]
}
