/**
 * A `fetch` for octokit on top of the undici request API the hub transport already loads.
 * Two reasons not to use the global fetch: it ignores HTTPS_PROXY / NO_PROXY, which self-hosted
 * runners need and the hub transport honours, and Node loads its own copy of undici for it on
 * first use (measured: ~15-25 ms more on a process that already uses ours, 35-80 ms cold). Octokit only reads status, url,
 * headers and the body as text or bytes, so buffering the body into a Response is enough.
 */
import type { Dispatcher } from '../http/wire.js'
import type { Budget } from '../http/budget.js'
import { send } from '../http/wire.js'

const MAX_REDIRECTS = 5
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308])
const NULL_BODY_STATUS = new Set([101, 204, 205, 304])

export interface UndiciFetchOptions {
  dispatcher: Dispatcher
  /** Ceiling for one request, redirects included. */
  timeoutMs: number
  /** The step's one time budget: no request outlives it (http/budget.ts). */
  budget?: Budget | undefined
}

/** A GitHub request the step's time budget ended: its words say so (octokit keeps the message). */
class GitHubBudgetSpent extends Error {
  override name = 'GitHubBudgetSpent'
}

export function createUndiciFetch(options: UndiciFetchOptions): typeof fetch {
  return async (input, init = {}) => {
    if (typeof input !== 'string' && !(input instanceof URL)) throw new TypeError('Request objects are not supported')
    const left = options.budget ? options.budget.left() : Infinity
    const spent = () =>
      new GitHubBudgetSpent(`${options.budget?.ranOut('GitHub') ?? ''}: ${init.method ?? 'GET'} ${String(input)}`)
    if (left <= 0) throw spent()
    const cutByBudget = left < options.timeoutMs
    const timeout = AbortSignal.timeout(Math.max(1, Math.min(options.timeoutMs, left)))
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    try {
      return await fetchWithin(input, init, signal, options)
    } catch (error) {
      if (cutByBudget && timeout.aborted && !init.signal?.aborted) throw spent()
      throw error
    }
  }
}

async function fetchWithin(
  input: string | URL,
  init: RequestInit,
  signal: AbortSignal,
  options: UndiciFetchOptions,
): Promise<Response> {
  let url = new URL(input)
  let method = (init.method ?? 'GET').toUpperCase()
  let body = bodyOf(init.body)
  let headers = headersOf(init.headers)
  for (let redirects = 0; ; redirects++) {
    const response = await send(options.dispatcher, url, { method, headers, body, signal })
    const location = response.headers['location']
    const follow =
      REDIRECT_STATUS.has(response.statusCode) && typeof location === 'string' && init.redirect !== 'manual'
    if (!follow) {
      const bytes = NULL_BODY_STATUS.has(response.statusCode) || method === 'HEAD' ? null : await response.body.bytes()
      if (bytes === null) await response.body.dump()
      const result = new Response(bytes, { status: response.statusCode, headers: responseHeaders(response.headers) })
      // Response.url is read-only on a constructed Response; octokit reports it in errors
      Object.defineProperty(result, 'url', { value: url.toString() })
      return result
    }
    await response.body.dump()
    if (init.redirect === 'error' || redirects >= MAX_REDIRECTS)
      throw new TypeError(`Too many redirects from ${url.origin}`)
    const next = new URL(location, url)
    // fetch semantics: 303, and 301/302 after a POST, turn into a body-less GET
    if (
      response.statusCode === 303 ||
      ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
    ) {
      method = 'GET'
      body = undefined
      headers = withoutHeaders(headers, ['content-type', 'content-length'])
    }
    // never carry the token to another origin (GitHub's own redirects stay on the API origin)
    if (next.origin !== url.origin) headers = withoutHeaders(headers, ['authorization'])
    url = next
  }
}

function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined
  if (typeof body === 'string' || body instanceof Uint8Array) return body
  if (body instanceof ArrayBuffer) return new Uint8Array(body)
  // octokit only sends JSON strings for the endpoints this action calls
  throw new TypeError('Unsupported request body type')
}

function headersOf(headers: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {}
  new Headers(headers).forEach((value, name) => {
    out[name] = value
  })
  return out
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())))
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item)
  }
  return headers
}
