/**
 * Markdown building blocks for text we do not control (agent output, hub names and
 * messages). Nothing here lets raw HTML, a closing tag, a comment marker or a live
 * @mention through; markdown the agent wrote (lists, code, links) still renders.
 */

const ZERO_WIDTH_SPACE = '\u200b'

/** Text inside a table cell or a heading: one line, no markdown, no HTML, no pipes. */
export function inline(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .replace(/[\\`*_{}[\]()#+!~|]/g, (ch) => `\\${ch}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(?=[A-Za-z0-9])/g, `@${ZERO_WIDTH_SPACE}`)
}

/** Text as inline code that cannot break out of its span. */
export function code(text: string): string {
  const clean = text.replace(/\r?\n|\r/g, ' ')
  const longestRun = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longestRun + 1)
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${clean}${pad}${fence}`
}

/** A fenced block that the text cannot close early: the fence outgrows any backtick run inside. */
export function fenced(text: string, language = 'text'): string {
  const longestRun = Math.max(2, ...(text.match(/`{3,}/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(longestRun + 1)
  return `${fence}${language}\n${text}\n${fence}`
}

/**
 * Untrusted markdown (an agent's answer) made safe to embed: HTML is shown as text, links may
 * only go to http(s) or mailto, mentions do not notify, and an unclosed code fence is closed
 * so it cannot swallow what follows. Code blocks and spans are left exactly as written.
 */
export function untrustedMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const out: string[] = []
  let fence: { char: string; length: number } | undefined
  for (const line of lines) {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (fence) {
      out.push(line)
      const closer = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)
      if (closer?.[1] && closer[1][0] === fence.char && closer[1].length >= fence.length) fence = undefined
      continue
    }
    if (opener?.[1]) {
      fence = { char: opener[1][0] ?? '`', length: opener[1].length }
      out.push(line)
      continue
    }
    out.push(neutraliseLine(line))
  }
  if (fence) out.push(fence.char.repeat(fence.length))
  return out.join('\n')
}

function neutraliseLine(line: string): string {
  // Keep inline code spans verbatim; treat the rest as prose.
  const parts = line.split(/(`+[^`]*?`+)/g)
  return parts
    .map((part, index) => (index % 2 === 1 && /^(`+)[^`]*?\1$/.test(part) ? part : neutraliseProse(part)))
    .join('')
}

function neutraliseProse(text: string): string {
  return text
    .replace(/&(?![a-zA-Z]+;|#\d+;|#x[0-9a-fA-F]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/\]\(\s*(?!https?:|mailto:|#)([a-zA-Z][a-zA-Z0-9+.-]*:)/g, '](#unsafe-link-removed ')
    .replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, `$1@${ZERO_WIDTH_SPACE}`)
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
  const body = rows.map((row) => `| ${columns.map((c) => c.cell(row) || ' ').join(' | ')} |`)
  return [header, rule, ...body].join('\n')
}

/** Text inside an HTML element, where markdown escapes would show literally. */
export function htmlText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(?=[A-Za-z0-9])/g, `@${ZERO_WIDTH_SPACE}`)
}

/** A collapsed section; the summary line is escaped here, the body is markdown. */
export function details(summary: string, body: string, open = false): string {
  return `<details${open ? ' open' : ''}><summary>${htmlText(summary)}</summary>\n\n${body}\n\n</details>`
}

/** Clip to a character budget (GitHub counts characters, not bytes) without splitting a code point. */
export function clipCharacters(text: string, max: number, marker = '\n\n…(clipped)'): { text: string; clipped: boolean } {
  const chars = Array.from(text)
  if (chars.length <= max) return { text, clipped: false }
  return { text: chars.slice(0, Math.max(0, max - marker.length)).join('') + marker, clipped: true }
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  const seconds = ms / 1000
  if (seconds < 60) return `${seconds.toFixed(1)} s`
  const minutes = Math.floor(seconds / 60)
  const rest = Math.round(seconds - minutes * 60)
  if (minutes < 60) return `${minutes} min ${rest} s`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

export function formatUsd(micros: number): string {
  const dollars = micros / 1_000_000
  return dollars === 0 ? '$0' : dollars < 0.01 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`
}
