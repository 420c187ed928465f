/**
 * The two pieces of undici the transport uses. undici's index also loads fetch, WebSocket,
 * cache stores and mocks, which cost ~50 ms of cold start for nothing here (bench/run.ts), so
 * we import the modules themselves. undici is pinned to an exact version for that reason.
 */
import type { Dispatcher } from 'undici'
import requestApi from 'undici/lib/api/api-request.js'
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js'

/** An agent that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as self-hosted runners need. */
export function defaultDispatcher(): Dispatcher {
  return new EnvHttpProxyAgent()
}

export function send(dispatcher: Dispatcher, url: URL, options: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>) {
  return requestApi.call(dispatcher, { ...options, origin: url.origin, path: url.pathname + url.search })
}

/** The first value of a response header. */
export function headerValue(value: string | string[] | undefined): string {
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '')
}

/** The error code of a network failure, looked for down the cause chain (undici wraps them). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}
