/**
 * Markdown building blocks for text we do not control (hub names and messages, tool names,
 * object and file names): each one-line string becomes literal text, inline code or a fenced
 * block, so nothing here lets raw HTML, a closing tag, a comment marker or a live @mention
 * through. An agent's markdown answer goes through `untrusted.ts` instead, which parses it
 * (and is loaded only where a summary is rendered). The sizes and clips of plain text (code
 * points and UTF-8 bytes, as GitHub counts them) live here too, for logs and messages as well.
 */
import { Buffer } from 'node:buffer'

/**
 * A name from outside (a pull request's file name: git allows a line break in one) on one line:
 * line breaks and other control characters escaped as `\n`, `\r`, `\t` or `\u001b`, so a name
 * printed in a log line cannot start a line of its own that reads as the action's.
 */
export function escapeControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, controlEscape) : text
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u
const CONTROLS = new RegExp(CONTROL.source, 'gu')
const NAMED_CONTROL: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }
function controlEscape(char: string): string {
  return NAMED_CONTROL[char] ?? `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`
}

/** Put after `@` (no mention notifies anyone) or inside `::` and `##[` (no workflow command runs): it reads the same. */
export const ZERO_WIDTH_SPACE = '\u200b'

/**
 * Invisible characters shown as what they are, `<U+202E>`. First the format characters (Unicode category Cf): the
 * direction controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), which make a reader
 * see text in another order than it is, and every other invisible one (U+200B–U+200D, U+2060–U+2064,
 * U+FEFF, U+00AD, U+180E, the tag characters U+E0001–U+E007F that can carry text nobody sees, …),
 * which hide what is there. Then characters of other categories that render as nothing, and so can
 * carry text too (a 51-character sentence was hidden in variation selectors): the variation
 * selectors VS1–VS16 (U+FE00–U+FE0F) and VS17–VS256 (U+E0100–U+E01EF), the Mongolian ones
 * (U+180B–U+180D, U+180F), the combining grapheme joiner U+034F, the Hangul fillers (U+115F,
 * U+1160, U+3164, U+FFA0), the braille blank U+2800, the Khmer inherent vowels U+17B4 and U+17B5,
 * and the musical null notehead U+1D159. Spaces (Zs, U+2000–U+200A…) are left: they show as
 * space. Kept as they are: one presentation selector (U+FE0E, U+FE0F) right after an emoji (a
 * keycap's digit counts) or, for U+FE00–U+FE0F and U+E0100–U+E01EF, after a CJK
 * ideograph (ideographic variation sequences), never a second in a row; the Arabic and Kaithi number signs (visible marks);
 * U+200C/U+200D between two non-ASCII letters, marks or emoji (scripts and emoji sequences need
 * them; between ASCII letters they only hide); and the zero-width space this module and the
 * runner put after `@`, inside `::` and after `##` (it reads the same and stops a mention or a
 * command). Applied wherever untrusted text is made safe (here, untrusted.ts, the runner's log
 * and summary), before anything is escaped: the result holds no character it would change again.
 */
export function showFormatCharacters(text: string): string {
  if (!HAS_FORMAT_CHARACTER.test(text)) return text
  return text.replace(FORMAT_CHARACTER, (char: string, offset: number, whole: string) => {
    if (VISIBLE_SIGN.test(char)) return char
    if (VARIATION_SELECTOR.test(char)) {
      const before = whole.slice(Math.max(0, offset - 2), offset)
      if ((char === '\ufe0e' || char === '\ufe0f') && EMOJI_BEFORE.test(before)) return char
      if (IDEOGRAPH_BEFORE.test(before)) return char
    }
    const next = whole.charAt(offset + char.length)
    if (char === ZERO_WIDTH_SPACE) {
      const previous = whole.charAt(offset - 1)
      if (
        previous === '@' ||
        (previous === ':' && next === ':') ||
        (next === '[' && whole.slice(offset - 2, offset) === '##')
      )
        return char
    }
    if (
      (char === '\u200c' || char === '\u200d') &&
      JOINS_BEFORE.test(whole.slice(Math.max(0, offset - 2), offset)) &&
      JOINS_AFTER.test(whole.slice(offset + 1, offset + 3))
    ) {
      return char
    }
    return `<U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`
  })
}

/** Cf, and what renders as nothing outside it (see showFormatCharacters). */
// Combining marks and selectors are listed to be matched alone, each one: that is the point.
/* eslint-disable no-misleading-character-class */
const HAS_FORMAT_CHARACTER =
  /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180d\u180f\u2800\u3164\uffa0\ufe00-\ufe0f\u{1d159}\u{e0100}-\u{e01ef}]/u
const FORMAT_CHARACTER = new RegExp(HAS_FORMAT_CHARACTER.source, 'gu')
const VARIATION_SELECTOR = /^[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]$/u
/* eslint-enable no-misleading-character-class */
/** An emoji (or a keycap's digit, `#`, `*`) just before: a selector chooses its presentation. */
const EMOJI_BEFORE = /\p{Emoji}$/u
/** A CJK ideograph just before: an ideographic variation sequence. */
const IDEOGRAPH_BEFORE = /\p{Ideographic}$/u
const VISIBLE_SIGN = /^[\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}]$/u
/** What a joiner may follow and precede: a letter outside ASCII, a mark, an emoji (with its modifier or VS16). */
const JOINS_BEFORE = /(?:[^\P{L}\p{ASCII}]|\p{M}|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\ufe0f)$/u
const JOINS_AFTER = /^(?:[^\P{L}\p{ASCII}]|\p{M}|\p{Extended_Pictographic})/u

/**
 * GitHub rejects a step's job summary over 1 MiB and the step's report is then lost. Every
 * summary renderer fits this budget, a quarter below the limit, so a step that also writes
 * other lines (or a guard's note) stays under it.
 */
export const SUMMARY_BYTE_BUDGET = 768 * 1024

/**
 * Text inside a table cell, a heading or a list item: one line, no markdown, no HTML, no
 * pipes, no entity, no live mention, and nothing at its start that could open a block (a
 * list marker, a rule, four spaces of code).
 */
export function inline(text: string): string {
  return showFormatCharacters(text)
    .replace(/\r?\n|\r/g, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()#+!~|]/g, (ch) => `\\${ch}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(?=[A-Za-z0-9])/g, `@${ZERO_WIDTH_SPACE}`)
    .replace(/^[-=]/, '\\$&')
    .replace(/^(\d{1,9})([.)])/, '$1\\$2')
}

/**
 * Text as inline code that cannot break out of its span. A span that starts with a backtick, or
 * starts and ends with a space, is padded: GFM strips one space from each side of such a span.
 */
export function code(text: string): string {
  const clean = showFormatCharacters(text).replace(/\r?\n|\r/g, ' ')
  const longestRun = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longestRun + 1)
  const spaced = clean.startsWith(' ') && clean.endsWith(' ') && clean.trim() !== ''
  const pad = clean.startsWith('`') || clean.endsWith('`') || spaced ? ' ' : ''
  return `${fence}${pad}${clean}${pad}${fence}`
}

/**
 * A fenced block that the text cannot close early: the fence outgrows any backtick run inside.
 * An info string may not hold a backtick; only what names a language is kept of `language`.
 */
export function fenced(untrusted: string, language = 'text'): string {
  const text = showFormatCharacters(untrusted)
  const longestRun = Math.max(2, ...(text.match(/`{3,}/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longestRun + 1)
  const info = (/^[\w+#.-]{1,30}/.exec(language) ?? [''])[0]
  return `${fence}${info}\n${text}\n${fence}`
}

export interface Column<Row> {
  header: string
  cell: (row: Row) => string
  align?: 'left' | 'right'
}

/** A GFM table; cells are already-escaped markdown (use `inline`/`code`). */
export function table<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const header = `| ${columns.map((c) => c.header).join(' | ')} |`
  const rule = `| ${columns.map((c) => (c.align === 'right' ? '---:' : '---')).join(' | ')} |`
  // GFM splits cells on any unescaped pipe, even inside a code span.
  const cell = (text: string) => (text || ' ').replace(/(?<!\\)\|/g, '\\|')
  const body = rows.map((row) => `| ${columns.map((c) => cell(c.cell(row))).join(' | ')} |`)
  return [header, rule, ...body].join('\n')
}

/** Text inside an HTML element, where markdown escapes would show literally. */
function htmlText(text: string): string {
  return showFormatCharacters(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(?=[A-Za-z0-9])/g, `@${ZERO_WIDTH_SPACE}`)
}

/** A collapsed section; the summary line is escaped here, the body is markdown. */
export function details(summary: string, body: string, open = false): string {
  return `<details${open ? ' open' : ''}><summary>${htmlText(summary)}</summary>\n\n${body}\n\n</details>`
}

/** Bytes of text in UTF-8, as GitHub measures a job summary. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/** Clip to a byte budget without splitting a character; `marker` (counted in) ends clipped text. */
export function clipBytes(text: string, max: number, marker = ' …(clipped)'): { text: string; clipped: boolean } {
  if (byteLength(text) <= max) return { text, clipped: false }
  const room = Math.max(0, max - byteLength(marker))
  // A cut inside a character decodes to U+FFFD at the end; drop it.
  const head = Buffer.from(text, 'utf8')
    .subarray(0, room)
    .toString('utf8')
    .replace(/\ufffd$/, '')
  return { text: head + marker, clipped: true }
}

/** Clip to a character budget (GitHub counts characters, not bytes) without splitting a code point. */
export function clipCharacters(
  text: string,
  max: number,
  marker = '\n\n…(clipped)',
): { text: string; clipped: boolean } {
  if (codePointLength(text) <= max) return { text, clipped: false }
  return { text: firstCodePoints(text, Math.max(0, max - marker.length)) + marker, clipped: true }
}

/** A name or message cut to `max` characters (code points), `marker` counted in: the one clip for short text. */
export function clip(text: string, max: number, marker = '…'): string {
  return clipCharacters(text, max, marker).text
}

/** The first `count` code points of text, found without building an array of them all. */
function firstCodePoints(text: string, count: number): string {
  let end = 0
  for (let seen = 0; seen < count && end < text.length; seen++) {
    const unit = text.charCodeAt(end)
    const next = text.charCodeAt(end + 1)
    end += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1
  }
  return text.slice(0, end)
}

/** Characters as GitHub counts them (code points, as `Array.from(text).length`), without building the array. */
export function codePointLength(text: string): number {
  if (!/[\udc00-\udfff]/.test(text)) return text.length
  let count = text.length
  for (let i = 1; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      const previous = text.charCodeAt(i - 1)
      if (previous >= 0xd800 && previous <= 0xdbff) count--
    }
  }
  return count
}
