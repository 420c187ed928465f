/**
 * Where the hub bearer may go. `mcp-url` receives the same token as `hub-url`, so it must be on
 * hub-url's origin, unless `mcp-trusted-origin` names its origin exactly: the user's explicit
 * word that the other server may hold the token. Nothing the hub answers ever changes `mcp-url`.
 */
import { quoteInput } from '../../settings/fields.js'

/** The problems, one line each in the InputError's form; none when the bearer stays where it may. */
export function mcpOriginProblems(hubUrl: URL | undefined, mcpUrl: URL | undefined, trusted: string): string[] {
  if (trusted) {
    const origin = originOf(trusted)
    if (!origin)
      return [
        `Input \`mcp-trusted-origin\`: ${quoteInput(trusted)} is not an origin: write the scheme, host and port only, e.g. https://mcp.example.com.`,
      ]
    if (origin === mcpUrl?.origin) return []
    return [
      `Input \`mcp-trusted-origin\`: ${quoteInput(trusted)} is not the origin of \`mcp-url\` (${mcpUrl ? mcpUrl.origin : 'empty'}): ${
        mcpUrl ? `set it to exactly ${mcpUrl.origin}, or leave it empty` : 'leave it empty'
      } unless \`mcp-url\` is on another origin than \`hub-url\` that you trust with the hub token.`,
    ]
  }
  if (!hubUrl || !mcpUrl || mcpUrl.origin === hubUrl.origin) return []
  return [
    `Input \`mcp-url\`: ${quoteInput(mcpUrl.href)} is on another origin than \`hub-url\` (${hubUrl.origin}), and the hub token would be sent there. Use the MCP server URL on the hub's origin, or, if you trust ${mcpUrl.origin} with the hub token, set \`mcp-trusted-origin: ${mcpUrl.origin}\`.`,
  ]
}

/** The origin a text names, when it names only that (an optional trailing `/`); else undefined. */
function originOf(text: string): string | undefined {
  try {
    const url = new URL(text)
    const bare =
      !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash && !/[?#]/.test(text)
    return bare && (url.protocol === 'https:' || url.protocol === 'http:') ? url.origin : undefined
  } catch {
    return undefined
  }
}
