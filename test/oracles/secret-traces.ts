/**
 * Whether text still shows a secret, in any form a reader could recover it from: the text is
 * decoded the ways the action's encoders and GitHub's renderers encode (markdown and JSON
 * backslash escapes, nested too; HTML and Mermaid entities; URL encoding; `\uXXXX`; Mermaid's
 * look-alikes; zero-width spaces), and then searched for the secret's first 8 characters (what a
 * clip may leave) and for every run of 10 of its characters. Independent of src/redact.ts.
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
}
const LOOK_ALIKES: Record<string, string> = { '‹': '<', '›': '>', '［': '[', '］': ']', '｛': '{', '｝': '}', '（': '(', '）': ')', '¦': '|', ˋ: '`' }

/** One pass of every decoding; applied until nothing changes. */
function decodeOnce(text: string): string {
  return text
    .replace(/\u200b/g, '')
    .replace(/[&#]#?(\d{1,7});/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/[&#]#?[xX]([0-9a-fA-F]{1,6});/g, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/[&#]([A-Za-z]+);/g, (entity, name: string) => NAMED[name] ?? entity)
    .replace(/%([0-7][0-9A-Fa-f])/g, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/\\+u([0-9a-fA-F]{4})/g, (_, code: string) => String.fromCharCode(parseInt(code, 16)))
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/[‹›［］｛｝（）¦ˋ]/g, (ch) => LOOK_ALIKES[ch] ?? ch)
}

function decodeAll(text: string): string {
  let out = text
  for (let pass = 0; pass < 4; pass++) {
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
  const forms = [text, decodeAll(text)]
  return [...pieces].filter((piece) => forms.some((form) => form.includes(piece)))
}
