/**
 * HTTP on undici's public API, for the hub transport and the GitHub client alike: dispatchers,
 * sending, capped body reads. It knows neither client. @actions/core loads undici's index at start-up
 * anyway (its OIDC client), so importing undici's internal modules saved nothing: measured,
 * the bundle and the start-up of `node dist/index.js` are the same either way.
 */
import { EnvHttpProxyAgent, type Dispatcher } from 'undici'
import { formatBytes } from '../units.js'

/** undici's Dispatcher, for the clients above: they take one and pass it back here, never loading undici themselves. */
export type { Dispatcher }

/** An agent that honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as self-hosted runners need (GitHub's API). */
export function defaultDispatcher(): Dispatcher {
  return new EnvHttpProxyAgent()
}

/**
 * The hub's agent: https as defaultDispatcher, plain http always direct. Settings take plain
 * http only for loopback; through a proxy the bearer would cross the network in clear.
 * (undici reads no ALL_PROXY; an https request falls back to HTTP_PROXY, as it always did.)
 */
export function hubDispatcher(env: NodeJS.ProcessEnv = process.env): Dispatcher {
  const httpsProxy = (env.https_proxy ?? env.HTTPS_PROXY) || (env.http_proxy ?? env.HTTP_PROXY) || ''
  return new EnvHttpProxyAgent({ httpProxy: '', httpsProxy, noProxy: env.no_proxy ?? env.NO_PROXY ?? '' })
}

/** A request's options; a body may be given as undefined (a GET), which undici's type does not allow. */
export type SendOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'body'> & {
  body?: Dispatcher.RequestOptions['body'] | undefined
}

export function send(dispatcher: Dispatcher, url: URL, { body, ...options }: SendOptions) {
  return dispatcher.request({
    ...options,
    ...(body === undefined ? {} : { body }),
    origin: url.origin,
    path: url.pathname + url.search,
  })
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

/**
 * How much of one answer we read. Bytes bound the buffer; values and depth bound what
 * JSON.parse would build from it (a page of `{}` costs ~90 bytes of heap per 3 bytes sent).
 */
export interface BodyLimits {
  /** What the cap is for, in messages: `a run`, `a query page`. */
  name: string
  maxBytes: number
  /** JSON values (objects, arrays and commas outside strings) at most. */
  maxValues?: number
  /** Nesting of objects and arrays at most. */
  maxDepth?: number
}

export class BodyCapError extends Error {
  readonly limits: BodyLimits
  readonly exceeded: 'bytes' | 'values' | 'depth'

  constructor(limits: BodyLimits, exceeded: 'bytes' | 'values' | 'depth') {
    super(`${capWording(limits, exceeded)} (the cap for ${limits.name})`)
    this.name = 'BodyCapError'
    this.limits = limits
    this.exceeded = exceeded
  }
}

function capWording(limits: BodyLimits, exceeded: 'bytes' | 'values' | 'depth'): string {
  if (exceeded === 'bytes') return `a body larger than ${formatBytes(limits.maxBytes)}`
  if (exceeded === 'values') return `a body of more than ${(limits.maxValues ?? 0).toLocaleString('en-US')} JSON values`
  return `a body nested deeper than ${limits.maxDepth ?? 0} levels`
}

/**
 * Counts the JSON structure of a body as it streams in, one pass over the bytes, so a
 * body is refused before it is parsed. Not a validator: JSON.parse still judges syntax.
 */
class JsonShapeMeter {
  private readonly limits: BodyLimits
  private values = 0
  private depth = 0
  private inString = false
  private escaped = false

  constructor(limits: BodyLimits) {
    this.limits = limits
  }

  push(chunk: Uint8Array): void {
    const maxValues = this.limits.maxValues ?? Infinity
    const maxDepth = this.limits.maxDepth ?? Infinity
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]
      if (this.inString) {
        if (this.escaped) this.escaped = false
        else if (byte === 0x5c) this.escaped = true
        else if (byte === 0x22) this.inString = false
        continue
      }
      if (byte === 0x22) this.inString = true
      else if (byte === 0x2c) this.values++
      else if (byte === 0x7b || byte === 0x5b) {
        this.values++
        if (++this.depth > maxDepth) throw new BodyCapError(this.limits, 'depth')
      } else if (byte === 0x7d || byte === 0x5d) this.depth--
    }
    if (this.values > maxValues) throw new BodyCapError(this.limits, 'values')
  }
}

/** A response body as undici hands it over: chunks, and a way to stop the download. */
interface BodyStream extends AsyncIterable<Uint8Array> {
  destroy(error?: Error): unknown
}

/**
 * Read a body within its limits and decode it as UTF-8. The body is destroyed as soon as a
 * limit is passed or the signal aborts (a slow drip must not outlive the caller's budget),
 * so the memory is never spent. `truncate` keeps the first `maxBytes` instead of failing:
 * enough of an error body to quote.
 */
export async function readCapped(
  body: BodyStream,
  limits: BodyLimits,
  options: { signal?: AbortSignal; truncate?: boolean } = {},
): Promise<string> {
  const { signal, truncate = false } = options
  const meter = limits.maxValues !== undefined || limits.maxDepth !== undefined ? new JsonShapeMeter(limits) : undefined
  const chunks: Buffer[] = []
  let size = 0
  const stop = () => body.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'))
  if (signal?.aborted) stop()
  signal?.addEventListener('abort', stop, { once: true })
  try {
    for await (const chunk of body) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
      if (size + bytes.length > limits.maxBytes) {
        if (truncate) chunks.push(bytes.subarray(0, limits.maxBytes - size))
        body.destroy()
        if (truncate) break
        throw new BodyCapError(limits, 'bytes')
      }
      meter?.push(bytes)
      chunks.push(bytes)
      size += bytes.length
    }
  } catch (error) {
    body.destroy()
    // An abort surfaces as the stream's error; report the signal's reason, as fetch would.
    if (signal?.aborted && !(error instanceof BodyCapError)) throw signal.reason ?? error
    throw error
  } finally {
    signal?.removeEventListener('abort', stop)
  }
  return Buffer.concat(chunks).toString('utf8')
}
