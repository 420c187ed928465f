/** Server-sent events, read incrementally: the MCP endpoint answers JSON-RPC as an SSE stream. */
/**
 * Incremental text/event-stream parser (WHATWG HTML §9.2.6), yielding the data of
 * `message` events. Bytes are decoded in stream mode so a split UTF-8 sequence survives.
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
      if (this.data.length > 0 && (this.event === '' || this.event === 'message')) out.push(this.data.join('\n'))
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
