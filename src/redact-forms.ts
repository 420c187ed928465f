/**
 * How one secret may be written where the redactor (./redact.ts) looks for it: each character
 * in every form an escape, entity, URL, JSON encoding or renderer's look-alike gives it; the
 * start a clip may leave; and its base64 forms.
 */

/** Code points, so a character outside the BMP is one pattern. */
export function chars(text: string): string[] {
  return Array.from(text)
}

/** The first `from` characters of a secret, then as many more as follow, each optional in turn. */
export function prefixPattern(secret: string, from: number): string {
  const parts = chars(secret).map(charPattern)
  // Nested from the end: (?:c9(?:c10(?:…)?)?)?, all but the last character (the whole is `whole`'s).
  const tail = parts.slice(from, -1).reduceRight((inner, part) => `(?:${part}${inner})?`, '')
  return parts.slice(0, from).join('') + tail
}

/** Entity names for the punctuation a token may hold (HTML5; `quot`/`amp`… also Mermaid's `#quot;`). */
const NAMED: Record<string, string[]> = {
  '"': ['quot', 'QUOT'],
  '&': ['amp', 'AMP'],
  "'": ['apos'],
  '<': ['lt', 'LT'],
  '>': ['gt', 'GT'],
  _: ['lowbar', 'UnderBar'],
  '-': ['hyphen', 'dash'],
  '+': ['plus'],
  '/': ['sol'],
  '\\': ['bsol'],
  '=': ['equals'],
  '.': ['period'],
  '~': ['tilde'],
  '#': ['num'],
  '!': ['excl'],
  '(': ['lpar'],
  ')': ['rpar'],
  '[': ['lsqb', 'lbrack'],
  ']': ['rsqb', 'rbrack'],
  '{': ['lcub', 'lbrace'],
  '}': ['rcub', 'rbrace'],
  '|': ['verbar', 'vert', 'VerticalLine'],
  '*': ['ast', 'midast'],
  '`': ['grave', 'DiacriticalGrave'],
  '@': ['commat'],
  ':': ['colon'],
  ',': ['comma'],
  ';': ['semi'],
  '%': ['percnt'],
  $: ['dollar'],
  '?': ['quest'],
  '^': ['Hat'],
}

/** The characters Mermaid labels show instead (src/commands/impact/mermaid.ts) and URL normalising's `\` → `/`. */
const LOOK_ALIKE: Record<string, string[]> = {
  '<': ['‹'],
  '>': ['›'],
  '[': ['［'],
  ']': ['］'],
  '{': ['｛'],
  '}': ['｝'],
  '(': ['（'],
  ')': ['）'],
  '|': ['¦'],
  '`': ['ˋ'],
  '\\': ['/'],
}

/** One character of a secret in every form an escape, entity, URL or JSON encoding gives it. */
export function charPattern(char: string): string {
  if (/^[A-Za-z0-9]$/.test(char)) return char
  const code = char.codePointAt(0) ?? 0
  const utf8 = [...Buffer.from(char, 'utf8')].map((byte) => `%${hex(byte, 2)}`).join('')
  // JSON's \uXXXX, one per UTF-16 unit (a surrogate pair for a character outside the BMP).
  const escaped = [...Array(char.length).keys()].map((i) => String.raw`\\{1,8}u${hex(char.charCodeAt(i), 4)}`).join('')
  const forms = [
    // As written, behind any run of backslashes (markdown escapes, JSON's \" and \\, nested).
    // Bounded, so a long run of backslashes costs a constant per position.
    char === '\\' ? String.raw`\\{1,8}` : String.raw`\\{0,7}${escapeRegExp(char)}`,
    `[&#]#?0*${code};`,
    `[&#]#?[xX]0*${hex(code, 1)};`,
    utf8,
    escaped,
    ...(NAMED[char] ?? []).map((name) => `[&#]${name};`),
    ...(LOOK_ALIKE[char] ?? []).map(escapeRegExp),
  ]
  // The renderers put a zero-width space after `@` (no mention) and in `::` (no command).
  return `(?:${forms.join('|')})${char === '@' || char === ':' ? '\u200b?' : ''}`
}

/** Hex digits of a number, either case accepted. */
function hex(value: number, width: number): string {
  return value
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
}

/** Base64 and base64url of the secret at each of the three byte alignments inside longer data. */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  const forms: string[] = []
  for (let shift = 0; shift < 3; shift++) {
    // Inside a longer base64 text only whole 3-byte groups encode the same way wherever they are.
    const length = Math.floor((bytes.length - shift) / 3) * 3
    if (length < 6) continue
    const base64 = bytes.subarray(shift, shift + length).toString('base64')
    forms.push(base64, base64.replace(/\+/g, '-').replace(/\//g, '_'))
  }
  return forms
}
