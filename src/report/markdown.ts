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
 * Untrusted markdown (an agent's answer) made safe to embed: HTML and entities are shown as
 * text, links may only go to http(s), mailto or an anchor, mentions do not notify, and an
 * unclosed code fence is closed so it cannot swallow what follows. Code blocks and code spans
 * are left exactly as written (CommonMark does not interpret HTML inside them).
 */
export function untrustedMarkdown(text: string, options: { headingsBelow?: number } = {}): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const out: string[] = []
  let fence: { char: string; length: number } | undefined
  for (const line of lines) {
    if (fence) {
      out.push(line)
      const closer = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)
      if (closer?.[1] && closer[1][0] === fence.char && closer[1].length >= fence.length) fence = undefined
      continue
    }
    // A backtick fence's info string may not hold a backtick (CommonMark §4.5): "```x```" is a code span.
    const opener = /^ {0,3}(?:(`{3,})[^`]*|(~{3,}).*)$/.exec(line)
    const run = opener?.[1] ?? opener?.[2]
    if (run) {
      fence = { char: run[0] ?? '`', length: run.length }
      out.push(line)
      continue
    }
    out.push(neutraliseLine(options.headingsBelow ? demoteHeading(line, options.headingsBelow) : line))
  }
  if (fence) out.push(fence.char.repeat(fence.length))
  return out.join('\n')
}

/** "## Answer" under our "### Output" becomes "#### Answer": the agent's headings never outrank ours. */
function demoteHeading(line: string, below: number): string {
  const heading = /^( {0,3})(#{1,6})(?=\s|$)/.exec(line)
  if (!heading?.[2]) return line
  const level = Math.min(6, Math.max(heading[2].length, below + 1))
  return `${heading[1] ?? ''}${'#'.repeat(level)}${line.slice(heading[0].length)}`
}

const SAFE_DESTINATION = /^(?:https?:|mailto:|#|\/|\.|[^:]*$)/i

function neutraliseLine(line: string): string {
  // A link reference definition ("[x]: destination") defines links used elsewhere.
  const definition = /^( {0,3}\[[^\]]+\]:[ \t]*)<?([^\s>]+)>?(.*)$/.exec(line)
  if (definition && !SAFE_DESTINATION.test(definition[2] ?? '')) {
    return `${definition[1] ?? ''}#unsafe-link-removed${neutraliseProse(definition[3] ?? '')}`
  }
  let out = ''
  let prose = ''
  let i = 0
  while (i < line.length) {
    const ch = line[i] ?? ''
    if (ch === '\\' && i + 1 < line.length) {
      // An escaped character is literal text; an escaped backtick opens no code span.
      const next = line[i + 1] ?? ''
      prose += next === '<' || next === '&' ? next : ch + next
      i += 2
      continue
    }
    if (ch === '`') {
      const open = runLength(line, i)
      const close = findClosingRun(line, i + open, open)
      if (close >= 0) {
        out += neutraliseProse(prose) + line.slice(i, close + open)
        prose = ''
        i = close + open
        continue
      }
      prose += line.slice(i, i + open)
      i += open
      continue
    }
    prose += ch
    i++
  }
  return out + neutraliseProse(prose)
}

function runLength(text: string, at: number): number {
  let end = at
  while (text[end] === '`') end++
  return end - at
}

/** Start of the next backtick run of exactly `length` (CommonMark §6.1), or -1. */
function findClosingRun(text: string, from: number, length: number): number {
  for (let i = from; i < text.length;) {
    if (text[i] !== '`') {
      i++
      continue
    }
    const run = runLength(text, i)
    if (run === length) return i
    i += run
  }
  return -1
}

function neutraliseProse(text: string): string {
  return (
    text
      // Every & becomes text, so no entity can spell "<" or a "javascript:" scheme.
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/\]\(\s*(?!https?:|mailto:|#)([a-zA-Z][a-zA-Z0-9+.-]*:)/g, '](#unsafe-link-removed ')
      .replace(/(^|[^\w`])@(?=[A-Za-z0-9])/g, `$1@${ZERO_WIDTH_SPACE}`)
  )
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

/**
 * 12345 → "12,345". toLocaleString would do, but its first call loads ICU data, which costs
 * ~20 ms of a short-lived action.
 */
export function formatCount(value: number): string {
  const [whole = '0', fraction] = String(value).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return fraction === undefined ? grouped : `${grouped}.${fraction}`
}

export function formatUsd(micros: number): string {
  const dollars = micros / 1_000_000
  return dollars === 0 ? '$0' : dollars < 0.01 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`
}
