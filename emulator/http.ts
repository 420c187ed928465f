// Response and fault plumbing shared by the emulators (hub.ts and its providers, github.ts):
// how they answer, read a request, and inject a planned fault. Each emulator keeps its own
// routes and its own wire details (GitHub's rate headers, the hub's Status bodies).
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** Plain-text answer as Go's http.Error writes it (one trailing newline). */
export function sendText(
  res: http.ServerResponse,
  status: number,
  text: string,
  extraHeaders: Record<string, string> = {},
): void {
  if (res.destroyed || res.writableEnded) return
  const body = text.endsWith('\n') ? text : text + '\n'
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders,
  })
  res.end(body)
}

/** JSON answer; `newline` false for servers that write the value alone (the graph provider). */
export function sendJson(res: http.ServerResponse, status: number, body: unknown, { newline = true } = {}): void {
  if (res.destroyed || res.writableEnded) return
  const text = JSON.stringify(body) + (newline ? '\n' : '')
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
  res.end(text)
}

/** Hub provider error body `{kind:'Status', reason, message, code}`. */
export function sendStatus(res: http.ServerResponse, code: number, reason: string, message: string): void {
  sendJson(res, code, { kind: 'Status', reason, message, code })
}

/** Request headers with lower-case keys and repeated values joined as Node joins them. */
export function headerMap(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  }
  return out
}

/**
 * The whole request body. A client that aborts mid-body yields what arrived; past `maxBytes`
 * the rest is drained and `tooLarge` is set, so the server can still answer 413.
 */
export function readBody(req: http.IncomingMessage, maxBytes = Infinity): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    const done = (): void => resolve({ body: Buffer.concat(chunks), tooLarge })
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > maxBytes) tooLarge = true
      else chunks.push(c)
    })
    req.on('end', done)
    req.on('error', done)
    req.on('aborted', done)
  })
}

/** Drop the connection with a TCP reset (a plain close where the platform cannot reset). */
export function resetSocket(req: http.IncomingMessage): void {
  const s = req.socket
  if (typeof s.resetAndDestroy === 'function') s.resetAndDestroy()
  else s.destroy()
}

/** Swallow the answer: the handler runs fully, and where it would end the response the socket is destroyed. */
export function loseResponse(req: http.IncomingMessage, res: http.ServerResponse): void {
  const r = res as unknown as Record<string, unknown>
  r.writeHead = () => res
  r.flushHeaders = () => undefined
  r.write = () => true
  r.end = () => {
    req.socket.destroy()
    return res
  }
}

/** What every planned fault matches on. */
export interface FaultMatch {
  /** Any method when absent; compared case-insensitively. */
  method?: string
  path?: string | RegExp
  /** How many matching requests the fault answers (Infinity allowed); the queue's default when absent. */
  times?: number
}

interface FaultEntry<S> {
  readonly spec: S
  /** Requests this fault has answered so far. */
  hits: number
  /** Answers left (Infinity when unlimited). */
  remaining: number
}

export interface FaultQueue<S extends FaultMatch> {
  add(spec: S): FaultEntry<S>
  /** The first fault with answers left that matches, consumed by one; undefined when none. */
  take(method: string, url: URL): FaultEntry<S> | undefined
  remove(entry: FaultEntry<S>): void
  pending(): S[]
  clear(): void
}

/**
 * Planned faults in the order they were added. `pathMatches` decides what a string `path` means
 * (the hub: a substring of the path; GitHub: the exact path); a RegExp is tested on the path.
 */
export function createFaultQueue<S extends FaultMatch>(options: {
  defaultTimes: number
  pathMatches: (path: string, url: URL) => boolean
}): FaultQueue<S> {
  let entries: Array<FaultEntry<S>> = []
  return {
    add(spec) {
      const entry: FaultEntry<S> = { spec, hits: 0, remaining: spec.times ?? options.defaultTimes }
      entries.push(entry)
      return entry
    },
    take(method, url) {
      for (const e of entries) {
        if (e.remaining <= 0) continue
        const { method: m, path } = e.spec
        if (m !== undefined && m.toUpperCase() !== method.toUpperCase()) continue
        if (typeof path === 'string' && !options.pathMatches(path, url)) continue
        if (path instanceof RegExp) {
          path.lastIndex = 0
          if (!path.test(url.pathname)) continue
        }
        e.remaining--
        e.hits++
        return e
      }
      return undefined
    },
    remove(entry) {
      entries = entries.filter((e) => e !== entry)
    },
    pending: () => entries.filter((e) => e.remaining > 0).map((e) => e.spec),
    clear() {
      entries = []
    },
  }
}

/** Listen on 127.0.0.1 only (`port` 0 = ephemeral) and return the bound port. */
export async function listenLocal(server: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  return (server.address() as AddressInfo).port
}
