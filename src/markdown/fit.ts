/**
 * Measured pieces of markdown, for documents that must fit a budget of characters (code
 * points, as GitHub counts them) and bytes: sizes are known before any text is joined, lists
 * can be cut to their first K items, and a last-resort clip keeps any budget.
 */
import { Buffer } from 'node:buffer'
import { SUMMARY_BYTE_BUDGET, clipCharacters, codePointLength } from './format.js'

export interface Piece {
  text: string
  chars: number
  bytes: number
}

export interface Size {
  chars: number
  bytes: number
}

/** A bullet list that can be cut to its first K items plus a "… and M more" line. */
export interface CuttableList {
  heading: Piece
  items: Piece[]
  /** prefix[k] = size of the first k items, each with its newline. */
  prefix: Size[]
  more: (rest: number) => string
}

export function piece(text: string): Piece {
  return { text, chars: codePointLength(text), bytes: Buffer.byteLength(text, 'utf8') }
}

/** The largest k in [0, max] for which `ok(k)` holds (0 when none does); `ok` grows false with k. */
export function largestFitting(max: number, ok: (k: number) => boolean): number {
  let low = 0
  let high = max
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (ok(mid)) low = mid
    else high = mid - 1
  }
  return low
}

export function cuttable(heading: string, items: Piece[], more: (rest: number) => string): CuttableList {
  const prefix: Size[] = [{ chars: 0, bytes: 0 }]
  for (const item of items) {
    const last = prefix[prefix.length - 1] ?? { chars: 0, bytes: 0 }
    prefix.push({ chars: last.chars + item.chars + 1, bytes: last.bytes + item.bytes + 1 })
  }
  return { heading: piece(`${heading}\n\n`), items, prefix, more }
}

/** "heading\n\n" + the first `limit` items, one a line, + "… and M more" when cut. */
export function cutList(list: CuttableList, limit: number): Piece {
  const kept = Math.min(Math.max(0, limit), list.items.length)
  const rest = list.items.length - kept
  const tail = rest > 0 ? piece(list.more(rest)) : undefined
  const itemsSize = list.prefix[kept] ?? { chars: 0, bytes: 0 }
  // Items carry a newline each; the last newline is dropped unless a tail follows it.
  const chars = list.heading.chars + itemsSize.chars + (tail ? tail.chars : -Math.min(1, kept))
  const bytes = list.heading.bytes + itemsSize.bytes + (tail ? tail.bytes : -Math.min(1, kept))
  let text: string | undefined
  return {
    chars,
    bytes,
    get text() {
      if (text === undefined) {
        const lines = list.items.slice(0, kept).map((item) => item.text)
        if (tail) lines.push(tail.text)
        text = list.heading.text + lines.join('\n')
      }
      return text
    },
  }
}

/** Last resort for a budget too small for even the kept sections: cut by code points, then bytes. */
export function enforceBudget(text: string, budget: number): string {
  if (codePointLength(text) <= budget && Buffer.byteLength(text, 'utf8') <= SUMMARY_BYTE_BUDGET) return text
  const marker = '\n\n…(trimmed to fit)\n'
  let out = clipCharacters(text, budget, marker).text
  while (Buffer.byteLength(out, 'utf8') > SUMMARY_BYTE_BUDGET) {
    const chars = Array.from(out)
    out = clipCharacters(out, Math.floor(chars.length * 0.95), marker).text
  }
  return Array.from(out).length <= budget ? out : Array.from(out).slice(0, budget).join('')
}
