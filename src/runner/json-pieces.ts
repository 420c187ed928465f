/**
 * JSON text exactly as `JSON.stringify(value, replacer, 2)` writes it, with `redact` as the
 * replacer of every string, handed out in pieces of about PIECE_CHARS so that a large result
 * file never exists whole in memory (./result-file.ts redacts and writes each piece).
 *
 * A piece ends only at the start of an array item or object member, after the `,`, line break
 * and indentation. No registered secret's form can straddle such an end: a secret's forms hold
 * no raw line break (JSON escapes one inside a string), and of what the redactor drops between
 * two characters only an HTML tag or comment can span one, so a piece never ends within
 * MARKUP_REACH characters after a `<`: redacting piece by piece masks what redacting the whole
 * text would.
 */
import { redact } from '../redact.js'

const PIECE_CHARS = 1 << 16
/** Longer than the longest HTML comment or tag the redactor's markup pass reads as one (./redact.ts). */
const MARKUP_REACH = 1_100
const INDENT = '  '

type Write = (text: string) => void

export function writeJsonPieces(value: unknown, write: Write): void {
  const out = new Pieces(write)
  serialize(out, prepared(value, ''), '')
  out.flush()
}

class Pieces {
  private parts: string[] = []
  private pending = 0
  /** Characters since the last `<`. */
  private sinceAngle = Infinity
  private readonly write: Write

  constructor(write: Write) {
    this.write = write
  }

  push(text: string): void {
    this.parts.push(text)
    this.pending += text.length
    const angle = text.lastIndexOf('<')
    this.sinceAngle = angle < 0 ? this.sinceAngle + text.length : text.length - angle - 1
  }

  /** A place a piece may end. */
  mayEnd(): void {
    if (this.pending >= PIECE_CHARS && this.sinceAngle > MARKUP_REACH) this.flush()
  }

  flush(): void {
    if (this.parts.length > 0) this.write(this.parts.join(''))
    this.parts = []
    this.pending = 0
  }
}

/** What JSON.stringify serializes for `value` under `key`: its toJSON's answer, then the replacer's. */
function prepared(value: unknown, key: string): unknown {
  const json =
    value !== null &&
    (typeof value === 'object' || typeof value === 'bigint') &&
    typeof (value as { toJSON?: unknown }).toJSON === 'function'
      ? (value as { toJSON: (key: string) => unknown }).toJSON(key)
      : value
  return typeof json === 'string' ? redact(json) : json
}

/** Left out of an object, `null` in an array: what JSON has no text for. */
const omitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol'

function serialize(out: Pieces, value: unknown, indent: string): void {
  if (Array.isArray(value)) return serializeArray(out, value, indent)
  if (value !== null && typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value)
    if (proto === Object.prototype || proto === null)
      return serializeObject(out, value as Record<string, unknown>, indent)
  }
  // Everything else (a leaf, a boxed primitive, a class instance) is small: JSON.stringify's own text, indented.
  // (a string is redacted already)
  const text = omitted(value)
    ? 'null'
    : typeof value === 'string'
      ? JSON.stringify(value)
      : JSON.stringify(value, replacer, 2)
  out.push(indent && text.includes('\n') ? text.replaceAll('\n', `\n${indent}`) : text)
}

function replacer(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? redact(value) : value
}

function serializeArray(out: Pieces, value: readonly unknown[], indent: string): void {
  if (value.length === 0) return out.push('[]')
  const inner = indent + INDENT
  for (let i = 0; i < value.length; i++) {
    out.push(i === 0 ? `[\n${inner}` : `,\n${inner}`)
    out.mayEnd()
    serialize(out, prepared(value[i], String(i)), inner)
  }
  out.push(`\n${indent}]`)
}

function serializeObject(out: Pieces, value: Record<string, unknown>, indent: string): void {
  const inner = indent + INDENT
  let first = true
  for (const key of Object.keys(value)) {
    const item = prepared(value[key], key)
    if (omitted(item)) continue
    out.push(first ? `{\n${inner}` : `,\n${inner}`)
    first = false
    out.mayEnd()
    out.push(`${JSON.stringify(key)}: `)
    serialize(out, item, inner)
  }
  out.push(first ? '{}' : `\n${indent}}`)
}
