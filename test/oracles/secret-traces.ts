/**
 * Whether text still shows a secret, in any form a reader could recover it from: the text is
 * decoded the ways the action's encoders and GitHub's renderers encode (markdown and JSON
 * backslash escapes, nested too; HTML character references, numeric with or without their `;`
 * as a browser reads raw HTML, and named; Mermaid's `#NNN;`; URL encoding; `\uXXXX`; Mermaid's
 * look-alikes), every character a reader does not see is dropped (Unicode's default-ignorable code
 * points, as written or shown as `<U+200B>`), compatibility forms are read as a renderer that
 * normalises (NFKC) shows them (fullwidth `ｂ` is `b`), and then the text is searched for the
 * secret's first 8 characters (what a clip may leave) and for every run of 10 of its characters;
 * and once more with what markdown and HTML rendering drops (emphasis and code marks, comments,
 * tags) taken out of both the text and the secret. Independent of src/redact.ts: written from
 * the HTML, CommonMark and Unicode tables, not from the redactor's patterns.
 */

const NAMED: Record<string, string> = {
  quot: '"',
  amp: '&',
  apos: "'",
  lt: '<',
  gt: '>',
  lowbar: '_',
  UnderBar: '_',
  hyphen: '-',
  dash: '-',
  plus: '+',
  sol: '/',
  bsol: '\\',
  equals: '=',
  period: '.',
  num: '#',
  excl: '!',
  dollar: '$',
  percnt: '%',
  lpar: '(',
  rpar: ')',
  ast: '*',
  midast: '*',
  comma: ',',
  colon: ':',
  semi: ';',
  quest: '?',
  commat: '@',
  lsqb: '[',
  lbrack: '[',
  rsqb: ']',
  rbrack: ']',
  Hat: '^',
  grave: '`',
  DiacriticalGrave: '`',
  lcub: '{',
  lbrace: '{',
  rcub: '}',
  rbrace: '}',
  verbar: '|',
  vert: '|',
  VerticalLine: '|',
  tilde: '~',
  QUOT: '"',
  AMP: '&',
  LT: '<',
  GT: '>',
  // Invisible characters (dropped after decoding).
  shy: '\u00ad',
  lrm: '\u200e',
  rlm: '\u200f',
  zwnj: '\u200c',
  zwj: '\u200d',
  ZeroWidthSpace: '\u200b',
  NegativeVeryThinSpace: '\u200b',
  NegativeThinSpace: '\u200b',
  NegativeMediumSpace: '\u200b',
  NegativeThickSpace: '\u200b',
  NoBreak: '\u2060',
  af: '\u2061',
  ApplyFunction: '\u2061',
  it: '\u2062',
  InvisibleTimes: '\u2062',
  ic: '\u2063',
  InvisibleComma: '\u2063',
}
const LOOK_ALIKES: Record<string, string> = {
  '‹': '<',
  '›': '>',
  '［': '[',
  '］': ']',
  '｛': '{',
  '｝': '}',
  '（': '(',
  '）': ')',
  '¦': '|',
  ˋ: '`',
}

/** One pass of every decoding; applied until nothing changes. */
function decodeOnce(text: string): string {
  return text
    .replace(/<U\+([0-9A-Fa-f]{4,6})>/g, (_, code: string) => character(parseInt(code, 16)))
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .replace(/&#(\d+);?|#(\d+);/g, (_, html?: string, mermaid?: string) => character(Number(html ?? mermaid)))
    .replace(/&#[xX]([0-9a-fA-F]+);?|#[xX]([0-9a-fA-F]+);/g, (_, html?: string, mermaid?: string) =>
      character(parseInt(html ?? mermaid ?? '', 16)),
    )
    .replace(/[&#]([A-Za-z]+);/g, (entity, name: string) => NAMED[name] ?? entity)
    .replace(/%([0-7][0-9A-Fa-f])/g, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/[‹›［］｛｝（）¦ˋ]/g, (ch) => LOOK_ALIKES[ch] ?? ch)
    .normalize('NFKC')
}

/** What a markdown or HTML renderer does not show between two characters: comments, tags, emphasis and code marks. */
function withoutMarkup(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<\/?[A-Za-z][^<>]*>/g, '')
    .replace(/\\*[*_`~]/g, '')
}

/** A code point as a string; one that is none (a surrogate, past U+10FFFF) as U+FFFD, as HTML does. */
function character(code: number): string {
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd'
}

function decodeAll(text: string): string {
  let out = text
  for (let pass = 0; pass < 6; pass++) {
    const next = decodeOnce(out)
    if (next === out) break
    out = next
  }
  return out
}

/** The pieces of `secret` that `text` shows (raw or decoded): its 8-character start, or any 10 characters of it. */
export function secretTraces(text: string, secret: string): string[] {
  const pieces = new Set([secret.slice(0, 8)])
  for (let at = 0; at + 10 <= secret.length; at++) pieces.add(secret.slice(at, at + 10))
  const decoded = decodeAll(text)
  const forms = [text, decoded]
  const bare = withoutMarkup(secret)
  const bareForm = withoutMarkup(decoded)
  const barePieces = new Map<string, string>()
  for (const piece of pieces) barePieces.set(piece, withoutMarkup(piece))
  return [...pieces].filter(
    (piece) =>
      forms.some((form) => form.includes(piece)) ||
      // a piece whose bare form is long enough to mean something (the whole bare secret is at least 8)
      ((barePieces.get(piece) ?? '').length >= Math.min(8, bare.length) &&
        bareForm.includes(barePieces.get(piece) ?? '')),
  )
}
