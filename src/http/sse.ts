/**
 * Reading event-stream or JSON answers (MCP's) off the wire: server-sent events incrementally,
 * under the same byte cap as any other body (wire.ts), so an endless stream from an untrusted
 * server cannot grow memory.
 */
import type { Dispatcher } from 'undici'
import { BodyCapError, headerValue, readCapped, type BodyLimits } from './wire.js'

type Body = AsyncIterable<Buffer> & { destroy(): unknown; on(event: 'error', listener: () => void): unknown }

/** A 2xx answer as read here; the hub transport adds its refusals to make a StreamAnswer. */
export type ReadAnswer<T> =
  | {
      kind: 'message'
      status: number
      headers: Dispatcher.ResponseData['headers']
      format: 'sse' | 'json'
      message: T | undefined
    }
  | { kind: 'accepted'; status: number; headers: Dispatcher.ResponseData['headers'] }
  /** A 2xx body that is neither an event stream nor JSON (a portal page); not read. */
  | { kind: 'other'; status: number; contentType: string }

/** Stop reading a body. undici reports destroying an unread body as an error event, which nobody needs. */
function discard(body: Body): void {
  body.on('error', () => {})
  body.destroy()
}

/**
 * A 2xx answer read by its Content-Type: each event of an event stream, or the one JSON body,
 * goes to `pick` until it accepts one. Without `pick`, or for any other type, nothing is read.
 */
export async function readMessages<T>(
  response: Dispatcher.ResponseData,
  limits: BodyLimits,
  pick: ((message: string, status: number) => T | undefined) | undefined,
  signal: AbortSignal,
): Promise<ReadAnswer<T>> {
  const { statusCode: status, headers } = response
  const contentType = headerValue(headers['content-type'])
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  if (pick && type === 'text/event-stream') {
    // Read events as they come and stop at the answer: a server may hold the stream open.
    const message = await findInEventStream(response.body, limits, (data) => pick(data, status))
    return { kind: 'message', status, headers, format: 'sse', message }
  }
  if (pick && (type === 'application/json' || type.endsWith('+json'))) {
    const message = pick(await readCapped(response.body, limits, { signal }), status)
    return { kind: 'message', status, headers, format: 'json', message }
  }
  discard(response.body)
  return pick ? { kind: 'other', status, contentType } : { kind: 'accepted', status, headers }
}

/**
 * The data of each SSE message event, read as chunks arrive, until `found` accepts one (the
 * stream is then closed: a server may hold it open) or the stream ends. More than
 * `limits.maxBytes` in all throws BodyCapError, whatever the server keeps sending.
 */
async function findInEventStream<T>(
  body: Body,
  limits: BodyLimits,
  found: (data: string) => T | undefined,
): Promise<T | undefined> {
  const reader = new SseReader()
  let bytes = 0
  try {
    for await (const chunk of body) {
      bytes += chunk.length
      if (bytes > limits.maxBytes) throw new BodyCapError(limits, 'bytes')
      for (const data of reader.push(chunk)) {
        const match = found(data)
        if (match !== undefined) return match
      }
    }
    for (const data of reader.end()) {
      const match = found(data)
      if (match !== undefined) return match
    }
    return undefined
  } finally {
    discard(body)
  }
}

/**
 * Incremental text/event-stream parser (WHATWG HTML §9.2.6), yielding the data of
 * `message` events. Bytes are decoded in stream mode so a split UTF-8 sequence survives.
 * Events with empty data are skipped: MCP servers of protocol 2025-11-25 send one first to
 * prime resumption (an event id and nothing else), and it is no message.
 * @internal
 */
export class SseReader {
  private readonly decoder = new TextDecoder()
  private buffer = ''
  private data: string[] = []
  private event = ''

  push(chunk: Uint8Array): string[] {
    this.buffer += this.decoder.decode(chunk, { stream: true })
    return this.drain(false)
  }

  end(): string[] {
    this.buffer += this.decoder.decode()
    return this.drain(true)
  }

  private drain(final: boolean): string[] {
    const out: string[] = []
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer)
      // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
      if (!match || (!final && match[0] === '\r' && match.index === this.buffer.length - 1)) break
      const line = this.buffer.slice(0, match.index)
      this.buffer = this.buffer.slice(match.index + match[0].length)
      this.line(line, out)
    }
    // The stream ended mid-event: per the spec an unterminated event is dropped, but a
    // complete `data:` line without its blank line is still worth reading.
    if (final) {
      if (this.buffer) this.line(this.buffer, out)
      this.buffer = ''
      this.line('', out)
    }
    return out
  }

  private line(line: string, out: string[]): void {
    if (line === '') {
      const data = this.data.join('\n')
      if (data.trim() !== '' && (this.event === '' || this.event === 'message')) out.push(data)
      this.data = []
      this.event = ''
      return
    }
    if (line.startsWith(':')) return
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'data') this.data.push(value)
    else if (field === 'event') this.event = value
  }
}
