/**
 * The .NET string semantics the runner's command parser relies on (./workflow-commands.ts):
 * `Char.IsWhiteSpace` for `TrimStart()`, `OrdinalIgnoreCase` for command names, and the
 * culture-sensitive `StartsWith`/`IndexOf`, which under ICU skip default-ignorable characters.
 */

/** How the runner compares: ordinally, or under ICU (its globalization mode decides). */
export type Collation = 'ordinal' | 'icu'

/** .NET `Char.IsWhiteSpace`: what `TrimStart()` strips. */
export const DOTNET_WHITESPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/

/**
 * Default-ignorable code points, which ICU's culture-sensitive `StartsWith`/`IndexOf` skip. The
 * runner calls those overloads without `StringComparison.Ordinal`; whether they skip these
 * characters depends on its globalization mode, so tests can judge under both.
 */
const IGNORABLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
]
const isIgnorable = (unit: string | undefined): boolean => {
  const code = unit?.charCodeAt(0) ?? -1
  return IGNORABLE_RANGES.some(([from, to]) => code >= from && code <= to)
}

export function startsWith(text: string, prefix: string, collation: Collation): boolean {
  if (collation === 'ordinal') return text.startsWith(prefix)
  return matchLength(text, 0, prefix) !== undefined
}

/** `IndexOf(value, from)`; under ICU, ignorable characters inside the match are skipped. */
export function indexOf(text: string, value: string, from: number, collation: Collation): number {
  if (collation === 'ordinal') return text.indexOf(value, from)
  for (let at = from; at < text.length; at++) {
    if (isIgnorable(text[at])) continue
    if (matchLength(text, at, value) !== undefined) return at
  }
  return -1
}

function matchLength(text: string, start: number, value: string): number | undefined {
  let at = start
  for (const wanted of value) {
    while (at < text.length && isIgnorable(text[at])) at++
    if (text[at] !== wanted) return undefined
    at++
  }
  return at - start
}

/** .NET OrdinalIgnoreCase: each UTF-16 unit upper-cased by its simple (one-unit) mapping. */
export function foldCase(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const unit = text[i] ?? ''
    const upper = unit.toUpperCase()
    out += upper.length === 1 ? upper : unit
  }
  return out
}
