/**
 * The one redactor: secrets scrubbed from untrusted text when it is received, and their encoded
 * forms caught again at every sink.
 *
 * Secrets (the hub token, a renewed or OIDC token, the GitHub token) are registered once. Every
 * string the hub, an MCP server, GitHub or a pull request's files send goes through `redact` (or
 * `redactValue` for parsed JSON) as it is received, before anything escapes, clips or renders
 * it; the log, outputs, job summary, result file and PR comment go through it again as they are
 * written. Both passes match each secret (and its base64 forms) character by character, each
 * character as written or in any encoding a step on the way may give it: backslash-escaped
 * (markdown, JSON, also nested), an HTML or Mermaid entity (`&#95;`, `&#x5F;`, `&lowbar;`,
 * `#quot;`), URL-encoded, `\u00XX`, or a Mermaid look-alike; and a clipped secret, the first 8
 * or more characters of one right before a clip mark (`…`, `...`) or at the end of the text.
 * One regular expression for all secrets, built once per registration: linear in the text. A
 * second, linear pass (`redactSpelled`) finds a secret spelled with references to its letters
 * (`&#117;`) or with invisible characters inside.
 */

/** Shorter values are not registered: they would match ordinary words. The runner masks them. */
const MIN_SECRET_LENGTH = 6
/** A clipped secret is redacted from this many characters on (a shorter start says little). */
const MIN_CLIPPED_PREFIX = 8
const MASK = '***'

const secrets: string[] = []
let whole: RegExp | undefined
let clipped: RegExp | undefined

/** Register a secret: from now on it is redacted, in every form, from what is received and written. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH || secrets.includes(value)) return
  secrets.push(value)
  const forms = [...new Set(secrets.flatMap((secret) => [secret, ...base64Forms(secret)]))].sort(
    (a, b) => b.length - a.length,
  )
  whole = new RegExp(forms.map((form) => chars(form).map(charPattern).join('')).join('|'), 'g')
  // A clip mark or the end of the text may follow a half-written escape of the next character, then spaces.
  const boundary = String.raw`(?=(?:\\{1,8}|&#?[0-9A-Za-z]*|#[0-9A-Za-z]*|%[0-9A-Fa-f]?)?\s*(?:…|\.\.\.|$))`
  const prefixes = secrets.filter((secret) => chars(secret).length > MIN_CLIPPED_PREFIX).map(prefixPattern)
  clipped = prefixes.length > 0 ? new RegExp(`(?:${prefixes.join('|')})${boundary}`, 'g') : undefined
}

/** Text with every registered secret, in any encoded or clipped form, replaced by `***`. */
export function redact(text: string): string {
  if (!whole || text.length < MIN_SECRET_LENGTH) return hideBearer(text)
  let out = text.replace(whole, MASK)
  if (clipped) out = out.replace(clipped, MASK)
  return hideBearer(redactSpelled(out))
}

/** Parsed JSON (or any plain data) with `redact` applied to every string in it, keys included. */
export function redactValue<T>(value: T): T {
  // Keys repeat across the objects of a page: each distinct one is redacted once.
  return redactIn(value, new Map<string, string>()) as T
}

function redactIn(value: unknown, keys: Map<string, string>): unknown {
  if (typeof value === 'string') return redact(value)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = redactIn(value[i], keys)
    return value
  }
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value
  const record = value as Record<string, unknown>
  let renamed = false
  for (const key of Object.keys(record)) {
    let safeKey = keys.get(key)
    if (safeKey === undefined) keys.set(key, (safeKey = redact(key)))
    renamed ||= safeKey !== key
    record[key] = redactIn(record[key], keys)
  }
  // Rebuilt only when a key held a secret, in the same order.
  return renamed ? Object.fromEntries(Object.entries(record).map(([key, item]) => [keys.get(key) ?? key, item])) : value
}

/**
 * A credential-looking word after "Bearer" (a proxy or server echoing a request header holds
 * a token we may not know); not the hub's "invalid bearer token", which has no digit or mark.
 */
function hideBearer(text: string): string {
  return /bearer/i.test(text)
    ? text.replace(/(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/gi, `$1${MASK}`)
    : text
}

/**
 * One character spelled another way, which a reader still reads as that character: checked
 * first, what the renderers show an invisible character as (`<U+200B>`, also HTML- or
 * markdown-escaped, or in Mermaid's look-alikes); an HTML numeric reference, with or without
 * its `;` (a browser reads raw HTML so; not one cut by a clip, which `clipped` reads as written)
 * and behind any `&amp;`; Mermaid's `#117;`; the HTML5 names of invisible characters
 * (`&ZeroWidthSpace;`, `&zwj;`, …; the names of punctuation are `whole`'s own forms); JSON's
 * `\u0075`; and any of Unicode's default-ignorable code points as written (format characters
 * such as U+200B or U+202E, variation selectors, tag characters): nobody sees one.
 */
const SPELLING =
  /(?:<|‹|&lt;)U\\{0,7}\+([0-9A-Fa-f]{4,6})(?:>|›|&gt;)|&(?:amp;)*#(?:(\d{1,7})|[xX]([0-9A-Fa-f]{1,6}))(?:;|(?!\s*(?:…|\.\.\.|$)))|#(\d{1,7});|#[xX]([0-9A-Fa-f]{1,6});|&(?:amp;)*(shy|zwn?j|lrm|rlm|ZeroWidthSpace|Negative(?:VeryThin|Thin|Medium|Thick)Space|NoBreak|af|ApplyFunction|it|InvisibleTimes|ic|InvisibleComma);|\\{1,8}u([0-9A-Fa-f]{4})|\p{Default_Ignorable_Code_Point}+/gu
const SPELLED = new RegExp(SPELLING.source, 'u')
const INVISIBLE = /^\p{Default_Ignorable_Code_Point}*$/u

/**
 * Secrets that `whole` and `clipped` cannot see in `text` because a character is spelled as a
 * reference or an invisible character stands between two (SPELLING): the text is read once into
 * a decoded copy in which every spelled character is itself and every invisible one is gone,
 * remembering where each spelled stretch lies in both; the secrets are searched in the copy, and
 * what they cover is masked in the text. Linear; text with nothing spelled is returned at once.
 */
function redactSpelled(text: string): string {
  if (!whole || !SPELLED.test(text)) return text
  const parts: string[] = []
  const stretches = new Stretches()
  let at = 0
  let length = 0
  for (const match of text.matchAll(SPELLING)) {
    const start = match.index
    if (start > at) parts.push(text.slice(at, start))
    length += start - at
    const char = spelledCharacter(match)
    const piece = INVISIBLE.test(char) ? '' : char
    if (piece) parts.push(piece)
    at = start + match[0].length
    stretches.add(length, length + piece.length, start, at)
    length += piece.length
  }
  parts.push(text.slice(at))
  const decoded = parts.join('')
  const spans: Array<[number, number]> = []
  for (const pattern of clipped ? [whole, clipped] : [whole]) {
    for (const found of decoded.matchAll(pattern)) {
      if (found[0].length > 0)
        spans.push([stretches.source(found.index).start, stretches.source(found.index + found[0].length - 1).end])
    }
  }
  if (spans.length === 0) return text
  spans.sort((a, b) => a[0] - b[0])
  let out = ''
  let cursor = 0
  for (const [start, end] of spans) {
    if (start >= cursor) out += text.slice(cursor, start) + MASK
    cursor = Math.max(cursor, end)
  }
  return out + text.slice(cursor)
}

/**
 * The spelled stretches of a text, in order: each is [copyStart, copyEnd) in the decoded copy
 * and [textStart, textEnd) in the text, adjacent ones merged; between two, the copy is the text
 * unchanged.
 */
class Stretches {
  private data = new Int32Array(64)
  private count = 0

  add(copyStart: number, copyEnd: number, textStart: number, textEnd: number): void {
    const last = (this.count - 1) * 4
    if (this.count > 0 && this.data[last + 3] === textStart) {
      // Adjacent to the last: one stretch (a secret inside it masks all of it), so a text made of
      // references costs one entry, not one per character.
      this.data[last + 1] = copyEnd
      this.data[last + 3] = textEnd
      return
    }
    if ((this.count + 1) * 4 > this.data.length) {
      const grown = new Int32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    const at = this.count++ * 4
    this.data[at] = copyStart
    this.data[at + 1] = copyEnd
    this.data[at + 2] = textStart
    this.data[at + 3] = textEnd
  }

  /** Where the character at `index` of the copy comes from in the text. */
  source(index: number): { start: number; end: number } {
    // The last stretch that starts at or before `index`.
    let low = 0
    let high = this.count - 1
    let found = -1
    while (low <= high) {
      const middle = (low + high) >> 1
      if ((this.data[middle * 4] ?? 0) <= index) {
        found = middle
        low = middle + 1
      } else high = middle - 1
    }
    if (found < 0) return { start: index, end: index + 1 }
    const [copyStart = 0, copyEnd = 0, textStart = 0, textEnd = 0] = this.data.subarray(found * 4, found * 4 + 4)
    // An empty stretch (an invisible character) holds no character of the copy.
    if (index < copyEnd && copyStart < copyEnd) return { start: textStart, end: textEnd }
    const plain = textEnd + (index - copyEnd)
    return { start: plain, end: plain + 1 }
  }
}

/** The character one SPELLING match stands for ('' for a named invisible one or a run of them as written). */
function spelledCharacter(match: RegExpMatchArray): string {
  const [, shown, decimal, hexadecimal, mermaidDecimal, mermaidHex, , json] = match
  if (shown ?? hexadecimal ?? mermaidHex) return codePoint(parseInt(shown ?? hexadecimal ?? mermaidHex ?? '', 16))
  if (decimal ?? mermaidDecimal) return codePoint(Number(decimal ?? mermaidDecimal))
  if (json) return String.fromCharCode(parseInt(json, 16))
  return ''
}

/** A code point as text; a number that is none as U+FFFD, as HTML reads it. */
function codePoint(code: number): string {
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd'
}

/** Code points, so a character outside the BMP is one pattern. */
function chars(text: string): string[] {
  return Array.from(text)
}

/** The first 8 characters of a secret, then as many more as follow, each optional in turn. */
function prefixPattern(secret: string): string {
  const parts = chars(secret).map(charPattern)
  // Nested from the end: (?:c9(?:c10(?:…)?)?)?, all but the last character (the whole is `whole`'s).
  const tail = parts.slice(MIN_CLIPPED_PREFIX, -1).reduceRight((inner, part) => `(?:${part}${inner})?`, '')
  return parts.slice(0, MIN_CLIPPED_PREFIX).join('') + tail
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

/** The characters Mermaid labels show instead (src/steps/impact/mermaid.ts) and URL normalising's `\` → `/`. */
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
function charPattern(char: string): string {
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
function base64Forms(secret: string): string[] {
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
