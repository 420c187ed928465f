/**
 * Field parsers shared by the input schemas: each names the bad value and says how to fix it.
 */
import * as z from '../zod.js'
import { clip } from '../markdown/format.js'

/** The longest a self-hosted job may run. */
const MAX_SECONDS = 5 * 24 * 3600

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/
export const CLUSTER_ID = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/

/**
 * An input as action.yml declares it, next to the field that reads it: `npm run docs` writes
 * action.yml's `inputs:`, docs/reference.md and .env.example from these (scripts/surface.ts).
 */
export interface InputDeclaration {
  description: string
  /** As action.yml writes it; an expression (`${{ github.token }}`) is the runner's to fill, and empty off a runner. */
  default: string
  /** The runner refuses a step without it (only the hub's address and the workspace's ids). */
  required?: boolean
}

/** Inputs by name, in the order action.yml lists them. */
export type InputDeclarations = Readonly<Record<string, InputDeclaration>>

/** The step's time budget, which every command that waits or pages reads (each with its own bounds and message). */
export const TIMING_INPUTS = {
  'timeout-seconds': {
    description:
      'Overall budget in seconds for waiting until the run settles. `0` starts the run and returns at once (with `approve`, resolves the approval and returns); `wait` needs at least 1. For `rollout`, how long to wait for every target to be current. For `impact` and `query`, how long the whole step may take. Every request of every command (to the hub, its graph and MCP endpoint, and GitHub) ends within it.',
    default: '1800',
  },
  'on-timeout': {
    description:
      'When `timeout-seconds` runs out: `fail`, `warn` (pass with a warning), or `cancel` (cancel the run on the hub, then fail; not with `cluster-id`). Without `cancel` the run continues on the hub. For `rollout`, `fail` or `warn`.',
    default: 'fail',
  },
} as const satisfies InputDeclarations

/** A user's value quoted inside an error message; a long one is cut to 80 characters and "…". */
export const quoteInput = (value: unknown) => JSON.stringify(clip(String(value), 81))

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fix: string) =>
  z.enum(values, { error: (issue) => `${quoteInput(issue.input)} is not one of ${values.join(', ')}. ${fix}` })

/** What a transform reports its problems to, as classic zod's `ctx.addIssue` (zod/mini's transforms have none). */
export interface IssueSink {
  addIssue(issue: { code: 'custom'; message: string }): void
}

/** `schema`'s output handed to `fn`, which may report problems about it: classic zod's `schema.transform(fn)`. */
export const transformed = <S extends z.ZodMiniType, O>(schema: S, fn: (value: z.output<S>, ctx: IssueSink) => O) =>
  z.pipe(
    schema,
    z.transform((value: z.output<S>, payload) =>
      fn(value, { addIssue: (issue) => void payload.issues.push({ ...issue, input: value }) }),
    ),
  )

/** `true` or `false`, in any case. */
export const boolean = () =>
  transformed(
    z.string().check(
      z.trim(),
      z.refine((v) => /^(true|false)$/i.test(v), {
        error: (issue) => `${quoteInput(issue.input)} is not a boolean: use true or false.`,
      }),
    ),
    (v) => v.toLowerCase() === 'true',
  )

export const seconds = (fix: string, min: number) =>
  transformed(
    z.string().check(
      z.trim(),
      z.regex(/^\d+$/, {
        error: (issue) =>
          `${quoteInput(issue.input)} is not a whole number of seconds. ${durationFix(String(issue.input)) ?? fix}`,
      }),
    ),
    Number,
  ).check(
    z.refine((n) => n >= min && n <= MAX_SECONDS, {
      error: (issue) => `${quoteInput(issue.input)} is out of range: use ${min} to ${MAX_SECONDS} seconds. ${fix}`,
    }),
  )

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 }

/** "30m" → "Write 1800 (30m in seconds)."; undefined when the text is not a duration. @internal */
export function durationFix(text: string): string | undefined {
  const compact = text.toLowerCase().replace(/\s+/g, '')
  const parts = [...compact.matchAll(/(\d+)([smhd])(?:econds?|ecs?|inutes?|ins?|ours?|rs?|ays?)?/g)]
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== compact) return undefined
  const total = parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * (UNIT_SECONDS[unit ?? 's'] ?? 1), 0)
  return `Write ${total} (${text.trim()} in seconds).`
}

export const uuid = (name: 'org' | 'workspace') =>
  z.string().check(
    z.trim(),
    z.minLength(1, {
      error: `is required: the ${name === 'org' ? 'organization' : 'workspace'} UUID from the hub (not its display name).`,
      abort: true,
    }),
    z.regex(UUID, {
      error: (issue) =>
        `${quoteInput(issue.input)} is not a UUID. Use the ${name === 'org' ? 'organization' : 'workspace'} UUID shown in the hub's settings, not its display name; the hub silently ignores anything else.`,
    }),
    // The hub compares UUIDs exactly and writes them in lower case: an upper-case spelling would
    // be another workspace to it (docs/hub-facts.md, "Memberships and the workspace proof").
    z.toLowerCase(),
  )

/**
 * Loopback without a DNS lookup: `localhost`, 127.0.0.0/8 and [::1] (the URL parser has already
 * written other spellings such as `127.1` or `[0::1]` this way). `foo.localhost` is not: the
 * resolver may send it anywhere a DNS answer says.
 */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname)
}

/** An https URL (http only on loopback, for local hubs and tests), or an issue saying why not. */
export function toServiceUrl(text: string, ctx: IssueSink, example: string, what: string, base = false): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    ctx.addIssue({ code: 'custom', message: `${quoteInput(text)} is not a URL. Use ${what}, e.g. ${example}.` })
    return z.NEVER
  }
  if (url.username || url.password) {
    ctx.addIssue({ code: 'custom', message: 'must not carry credentials: pass the token in `token` instead.' })
    return z.NEVER
  }
  if (url.protocol === 'http:' && /\.localhost\.?$/.test(url.hostname)) {
    ctx.addIssue({
      code: 'custom',
      message: `${quoteInput(text)} uses plain http to a name under .localhost, which is looked up in DNS and may not stay on this machine: use http://localhost, http://127.0.0.1 or http://[::1] (with the port), or https.`,
    })
    return z.NEVER
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    ctx.addIssue({
      code: 'custom',
      message: `${quoteInput(text)} must use https (plain http is accepted only for loopback addresses such as http://127.0.0.1:8080), so the token never crosses a network in clear.`,
    })
    return z.NEVER
  }
  if (url.hash || (base && url.search)) {
    ctx.addIssue({
      code: 'custom',
      message: `${quoteInput(text)} must be a ${base ? 'base URL without query or fragment' : 'URL without a #fragment'}.`,
    })
    return z.NEVER
  }
  return url
}

export const hubUrl = transformed(
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, { error: 'is required: the hub base URL, e.g. https://hub.example.com.', abort: true }),
    ),
  (text, ctx) => {
    const url = toServiceUrl(text, ctx, 'https://hub.example.com', 'the hub base URL', true)
    const api = url instanceof URL ? hubApiPathIn(url) : undefined
    if (!api) return url
    ctx.addIssue({
      code: 'custom',
      message: `${quoteInput(text)} carries the hub's API path (\`${api.path}\`), which the action adds itself (\`/services/providers/…\`), so every request would miss. Set \`hub-url\` to ${api.base}.`,
    })
    return z.NEVER
  },
)

/** Segments that follow `/api` only in the hub's own routes (docs/hub-facts.md, "Agents provider", "Graph queries"). */
const API_ROUTES = new Set(['agents', 'runs', 'whoami', 'inbox', 'query', 'edges'])

/**
 * The hub's own route in a `hub-url` (`…/services`, `…/services/providers/…`, `…/api`,
 * `…/api/agents/…`) and the base URL before it. Any other path is a prefix the hub may be
 * served under (https://corp.example/hub), so it is left alone.
 */
function hubApiPathIn(url: URL): { path: string; base: string } | undefined {
  const segments = url.pathname.split('/').filter(Boolean)
  const at = segments.findIndex((segment, index) => {
    const next = segments[index + 1]
    if (segment === 'services') return next === undefined || next === 'providers' || next === 'mcpserver'
    if (segment === 'providers') return next === undefined || next === 'agents' || next === 'graph'
    if (segment === 'api') return next === undefined || API_ROUTES.has(next)
    return false
  })
  if (at < 0) return undefined
  const prefix = segments.slice(0, at).map((segment) => `/${segment}`)
  return { path: `/${segments.slice(at).join('/')}`, base: `${url.origin}${prefix.join('')}` }
}
