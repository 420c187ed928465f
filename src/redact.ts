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
 * (`&#117;`, zero-padded too), percent-encoded letters (`%75`), letters a renderer's NFKC shows
 * alike (fullwidth `ｕ`, mathematical `𝐮`), or with invisible characters inside; a third (only on
 * text with markup in it) one split by markdown or HTML a renderer drops (`s**e**cret`, `_e_`,
 * `` `e` ``, `s<!-- -->ecret`, `s<b></b>ecret`).
 */

import { base64Forms, charPattern, chars, prefixPattern } from './redact-forms.js'

/** Shorter values are not registered: they would match ordinary words. The runner masks them. */
const MIN_SECRET_LENGTH = 6
/** A clipped secret is redacted from this many characters on (a shorter start says little). */
const MIN_CLIPPED_PREFIX = 8
const MASK = '***'

const secrets: string[] = []
let whole: RegExp | undefined
let clipped: RegExp | undefined
/** `whole` and `clipped` for the secrets without the characters markdown emphasis is made of (the markup pass). */
let bareWhole: RegExp | undefined
let bareClipped: RegExp | undefined

/** Register a secret: from now on it is redacted, in every form, from what is received and written. */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH || secrets.includes(value)) return
  secrets.push(value)
  const forms = [...new Set(secrets.flatMap((secret) => [secret, ...base64Forms(secret)]))].sort(
    (a, b) => b.length - a.length,
  )
  const built = patterns(secrets, forms)
  whole = built.whole
  clipped = built.clipped
  const bare = (text: string) => text.replace(MARKUP_CHARACTERS, '')
  const bareSecrets = [...new Set(secrets.map(bare))].filter((secret) => secret.length >= MIN_SECRET_LENGTH)
  const bareForms = [...new Set(forms.map(bare))].filter((form) => form.length >= MIN_SECRET_LENGTH)
  const bareBuilt = patterns(bareSecrets, bareForms)
  bareWhole = bareBuilt.whole
  bareClipped = bareBuilt.clipped
}

/** Characters markdown emphasis and code are written with: dropped, with the markup, in the markup pass. */
const MARKUP_CHARACTERS = /[*_`~]/g

function patterns(list: readonly string[], forms: readonly string[]): { whole: RegExp; clipped: RegExp | undefined } {
  const sorted = [...forms].sort((a, b) => b.length - a.length)
  const all = new RegExp(sorted.map((form) => chars(form).map(charPattern).join('')).join('|'), 'g')
  // A clip mark or the end of the text may follow a half-written escape of the next character, then spaces.
  const boundary = String.raw`(?=(?:\\{1,8}|&#?[0-9A-Za-z]*|#[0-9A-Za-z]*|%[0-9A-Fa-f]?)?\s*(?:…|\.\.\.|$))`
  const prefixes = list
    .filter((secret) => chars(secret).length > MIN_CLIPPED_PREFIX)
    .map((secret) => prefixPattern(secret, MIN_CLIPPED_PREFIX))
  return {
    whole: all,
    clipped: prefixes.length > 0 ? new RegExp(`(?:${prefixes.join('|')})${boundary}`, 'g') : undefined,
  }
}

/** Text with every registered secret, in any encoded or clipped form, replaced by `***`. */
export function redact(text: string): string {
  if (!whole || text.length < MIN_SECRET_LENGTH) return hideBearer(text)
  let out = text.replace(whole, MASK)
  if (clipped) out = out.replace(clipped, MASK)
  out = redactSpelled(out, SPELLING, SPELLED, [whole, clipped])
  if (bareWhole && HAS_MARKUP.test(out)) out = redactSpelled(out, MARKED_UP, MARKED_UP_TEST, [bareWhole, bareClipped])
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
const SPELLING_SOURCE = String.raw`(?:<|‹|&lt;)U\\{0,7}\+([0-9A-Fa-f]{4,6})(?:>|›|&gt;)|&(?:amp;)*#(?:0{0,16}(\d{1,7})|[xX]0{0,16}([0-9A-Fa-f]{1,6}))(?:;|(?!\s*(?:…|\.\.\.|$)))|#0{0,16}(\d{1,7});|#[xX]0{0,16}([0-9A-Fa-f]{1,6});|&(?:amp;)*(shy|zwn?j|lrm|rlm|ZeroWidthSpace|Negative(?:VeryThin|Thin|Medium|Thick)Space|NoBreak|af|ApplyFunction|it|InvisibleTimes|ic|InvisibleComma);|\\{1,8}u([0-9A-Fa-f]{4})|%([0-7][0-9A-Fa-f])|([\uff01-\uff5e\u00aa\u00b2\u00b3\u00b9\u00ba\u2070-\u209f\u2100-\u214f\u2460-\u24ff\u{1d400}-\u{1d7ff}\u{1f100}-\u{1f1ff}])|\p{Default_Ignorable_Code_Point}+`
const SPELLING = new RegExp(SPELLING_SOURCE, 'gu')
const SPELLED = new RegExp(SPELLING_SOURCE, 'u')
/**
 * SPELLING, and what a markdown or HTML renderer drops between two characters: emphasis and code
 * marks (behind any backslashes), HTML comments and tags (bounded, so the scan stays linear).
 */
const MARKUP_SOURCE = String.raw`${SPELLING_SOURCE}|\\{0,8}[*_\x60~]+|<!--[\s\S]{0,1024}?-->|<\/?[A-Za-z][A-Za-z0-9-]{0,30}(?:\s[^<>]{0,256})?\/?>`
const MARKED_UP = new RegExp(MARKUP_SOURCE, 'gu')
const MARKED_UP_TEST = new RegExp(MARKUP_SOURCE, 'u')
const HAS_MARKUP = /[*_`~]|<[!/A-Za-z]/
const INVISIBLE = /^\p{Default_Ignorable_Code_Point}*$/u

/**
 * Secrets that `whole` and `clipped` cannot see in `text` because a character is spelled as a
 * reference or an invisible character stands between two (SPELLING): the text is read once into
 * a decoded copy in which every spelled character is itself and every invisible one is gone,
 * remembering where each spelled stretch lies in both; the secrets are searched in the copy, and
 * what they cover is masked in the text. Linear; text with nothing spelled is returned at once.
 */
function redactSpelled(
  text: string,
  spelling: RegExp,
  spelled: RegExp,
  searched: ReadonlyArray<RegExp | undefined>,
): string {
  if (!searched[0] || !spelled.test(text)) return text
  const markup = spelling === MARKED_UP
  const parts: string[] = []
  const stretches = new Stretches()
  let at = 0
  let length = 0
  for (const match of text.matchAll(spelling)) {
    const start = match.index
    if (start > at) parts.push(text.slice(at, start))
    length += start - at
    const char = spelledCharacter(match)
    // In the markup pass a spelled `_` or `*` goes the way a written one does: the secrets searched are bare.
    const piece = INVISIBLE.test(char) || (markup && /^[*_`~]$/.test(char)) ? '' : char
    if (piece) parts.push(piece)
    at = start + match[0].length
    stretches.add(length, length + piece.length, start, at)
    length += piece.length
  }
  parts.push(text.slice(at))
  const decoded = parts.join('')
  const spans: Array<[number, number]> = []
  for (const pattern of searched) {
    if (!pattern) continue
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
  const [, shown, decimal, hexadecimal, mermaidDecimal, mermaidHex, , json, percent, compatible] = match
  if (shown ?? hexadecimal ?? mermaidHex) return codePoint(parseInt(shown ?? hexadecimal ?? mermaidHex ?? '', 16))
  if (decimal ?? mermaidDecimal) return codePoint(Number(decimal ?? mermaidDecimal))
  if (json ?? percent) return String.fromCharCode(parseInt(json ?? percent ?? '', 16))
  if (compatible) {
    const code = compatible.codePointAt(0) ?? 0
    // Fullwidth ASCII is ASCII moved by 0xFEE0 (the common case, without normalising).
    if (code >= 0xff01 && code <= 0xff5e) return String.fromCharCode(code - 0xfee0)
    // What a renderer that normalises (NFKC) shows: `𝐛` is `b`; one that becomes several characters stays itself.
    const normal = compatible.normalize('NFKC')
    return Array.from(normal).length === 1 ? normal : compatible
  }
  return ''
}

/** A code point as text; a number that is none as U+FFFD, as HTML reads it. */
function codePoint(code: number): string {
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd'
}
