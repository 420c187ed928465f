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
 * One regular expression for all secrets, built once per registration: linear in the text.
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
  const forms = [...new Set(secrets.flatMap((secret) => [secret, ...base64Forms(secret)]))].sort((a, b) => b.length - a.length)
  whole = new RegExp(forms.map((form) => chars(form).map(charPattern).join('')).join('|'), 'g')
  // A clip mark may follow a half-written escape of the next character, then spaces.
  const boundary = String.raw`(?=(?:\\{1,8}|&#?[0-9A-Za-z]*|#[0-9A-Za-z]*|%[0-9A-Fa-f]?)?\s*(?:…|\.\.\.)|$)`
  const prefixes = secrets.filter((secret) => chars(secret).length > MIN_CLIPPED_PREFIX).map(prefixPattern)
  clipped = prefixes.length > 0 ? new RegExp(`(?:${prefixes.join('|')})${boundary}`, 'g') : undefined
}

/** Text with every registered secret, in any encoded or clipped form, replaced by `***`. */
export function redact(text: string): string {
  if (!whole || text.length < MIN_SECRET_LENGTH) return hideBearer(text)
  let out = text.replace(whole, MASK)
  if (clipped) out = out.replace(clipped, MASK)
  return hideBearer(out)
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
  return /bearer/i.test(text) ? text.replace(/(Bearer\s+)(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}/gi, `$1${MASK}`) : text
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
