/**
 * The hub sends `pending.args`, `steps[].args` and `steps[].result` as JSON text inside a string
 * (docs/hub-facts.md, "Agents provider"), already redacted and possibly clipped. Shown as JSON, not as one
 * doubly-escaped line: parsed when it parses, the raw text kept when it does not.
 *
 * Blanks a reader cannot count are marked: a run of 4 or more whitespace characters inside a value
 * (spaces, no-break and other Unicode spaces; in text that is not JSON, newlines too) is shown as
 * `␠×N`, so an argument cannot push its tail out of sight (`kubectl get pods`, 300 spaces, then
 * `&& kubectl delete ns prod`). The JSON's own indentation is layout, not a value, and stays.
 */

/** Pretty (indented) or compact JSON for display, at most `maxChars` characters (then "…"). */
export function jsonTextForDisplay(value: unknown, maxChars: number, style: 'pretty' | 'compact' = 'pretty'): string {
  const indent = style === 'pretty' ? 2 : undefined
  let text: string
  if (typeof value === 'string') {
    try {
      text = JSON.stringify(markBlanksIn(JSON.parse(value)), null, indent) ?? markBlanks(value)
    } catch {
      // Not JSON (or clipped by the hub): the text as it came, its blanks marked.
      text = markBlanks(value)
    }
  } else {
    text = JSON.stringify(markBlanksIn(value), null, indent) ?? String(value)
  }
  if (style === 'compact') text = text.replace(/\s*\n\s*/g, ' ')
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text
}

/** 4 or more whitespace characters in a row, any Unicode space, line break or tab. */
const BLANK_RUN = /\s{4,}/gu

/** `text` with each long run of blanks shown as `␠×N` (N characters). */
function markBlanks(text: string): string {
  return text.replace(BLANK_RUN, (run) => `␠×${Array.from(run).length}`)
}

/** Every string (keys too) of parsed JSON with its long blank runs marked. */
function markBlanksIn(value: unknown): unknown {
  if (typeof value === 'string') return markBlanks(value)
  if (Array.isArray(value)) return value.map(markBlanksIn)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [markBlanks(key), markBlanksIn(item)]))
}
