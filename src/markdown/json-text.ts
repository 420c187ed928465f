/**
 * The hub sends `pending.args`, `steps[].args` and `steps[].result` as JSON text inside a string
 * (docs/hub-facts.md, "Agents provider"), already redacted and possibly clipped. Shown as JSON, not as one
 * doubly-escaped line: parsed when it parses, the raw text kept when it does not.
 */

/** Pretty (indented) or compact JSON for display, at most `maxChars` characters (then "…"). */
export function jsonTextForDisplay(value: unknown, maxChars: number, style: 'pretty' | 'compact' = 'pretty'): string {
  const indent = style === 'pretty' ? 2 : undefined
  let text: string
  if (typeof value === 'string') {
    try {
      text = JSON.stringify(JSON.parse(value), null, indent) ?? value
    } catch {
      // Not JSON (or clipped by the hub): the text as it came.
      text = value
    }
  } else {
    text = JSON.stringify(value, null, indent) ?? String(value)
  }
  if (style === 'compact') text = text.replace(/\s*\n\s*/g, ' ')
  return text.length > maxChars ? `${text.slice(0, maxChars)}…` : text
}
