/**
 * Untrusted markdown (an agent's answer) made safe to embed in the action's own document, by
 * structure: marked's GFM lexer parses it into a tree, and the tree is written back out as
 * markdown this module builds itself. Nothing of the source is copied through except text,
 * which is escaped, and code, which is fenced with a fence longer than any run inside it.
 *
 * So whatever the parser thinks of odd input, the output is well-formed on its own terms:
 * - containers (lists, block quotes) are re-emitted with their own markers and indentation,
 *   and every code block is closed inside its container, so nothing the agent writes can
 *   close our containers or leave a fence open to swallow the sections after it;
 * - raw HTML (blocks, tags, comments) becomes visible text;
 * - headings are ATX headings ranked below ours (setext headings included);
 * - links keep only http(s) and mailto destinations; images become plain links (no pixel is
 *   fetched when the summary is viewed); link reference definitions are resolved, not copied;
 * - every `@` in text gets a zero-width space after it, so no mention notifies anyone;
 * - invisible format characters (direction controls, zero-width characters) show as `<U+202E>`.
 *
 * This module and guarded-lexer.ts are the only ones that load marked; they are imported on demand
 * where a summary is rendered. They drive marked's lexer passes by hand and read its token shapes, which are not
 * semver-stable: marked is pinned to a minor version, and test/unit/marked-contract.test.ts
 * fails when an upgrade changes what is relied on here.
 */
import { Buffer } from 'node:buffer'
import type { Token, Tokens } from 'marked'
import { boundNesting, lexBlocks, MAX_SOURCE_CHARS } from './guarded-lexer.js'
import { ZERO_WIDTH_SPACE, clipBytes, clipCharacters, code, fenced, showFormatCharacters } from './format.js'

/** Deeper nesting is flattened into text: no reader needs it, and it bounds recursion. */
const MAX_DEPTH = 8
const CLIPPED = '…(clipped)'

export interface UntrustedMarkdownOptions {
  /** The agent's headings rank below this level ("### Output" → 3: theirs start at ####). */
  headingsBelow?: number
  /** Budget for the rendered markdown, in UTF-8 bytes; whole blocks are dropped beyond it. */
  maxBytes?: number
}

export interface NeutralisedMarkdown {
  markdown: string
  /** Some of the text was left out to fit `maxBytes`. */
  clipped: boolean
}

export function untrustedMarkdown(text: string, options: UntrustedMarkdownOptions = {}): NeutralisedMarkdown {
  const context: Context = { headingFloor: Math.min(6, Math.max(1, (options.headingsBelow ?? 0) + 1)), depth: 0 }
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY
  const source = boundNesting(
    clipCharacters(text, MAX_SOURCE_CHARS, '')
      .text.replace(/\r\n?/g, '\n')
      .replace(/\u0000/g, '\ufffd'),
  )
  const blocks = lexBlocks(source)
  if (!blocks) {
    // The parser gave up (pathological input): show the whole text as code, clipped to fit.
    return fitCode(source, maxBytes)
  }
  const out: string[] = []
  let used = 0
  for (let index = 0; index < blocks.length; index++) {
    const block = blocks[index] as Token
    const lines = renderBlock(block, context)
    if (!lines) continue
    const rendered = lines.join('\n')
    const cost = Buffer.byteLength(rendered, 'utf8') + 2
    if (used + cost <= maxBytes) {
      out.push(rendered)
      used += cost
      continue
    }
    // The first block that does not fit is shown in part, as code, when there is room for it.
    const room = maxBytes - used - 2
    if (room > 200) out.push(fitCode(block.raw, room).markdown)
    return { markdown: out.join('\n\n'), clipped: true }
  }
  return { markdown: out.join('\n\n'), clipped: false }
}

interface Context {
  /** Lowest heading level the agent may use. */
  headingFloor: number
  depth: number
  /** Inside a table cell, where pipes split cells even inside code spans. */
  inTable?: boolean
  /** Marker of the enclosing list, so a nested list uses the other one (no "- - -" rule). */
  listMarker?: '-' | '*'
}

/** Text as a code block clipped to `maxBytes` (the fence included). */
function fitCode(text: string, maxBytes: number): NeutralisedMarkdown {
  let body = text
  let clipped = false
  const overhead = 64
  if (Buffer.byteLength(body, 'utf8') + overhead > maxBytes) {
    body = clipBytes(body, Math.max(0, maxBytes - overhead - CLIPPED.length - 1), '').text + `\n${CLIPPED}`
    clipped = true
  }
  return { markdown: fenced(body), clipped }
}

// ---------------------------------------------------------------------------------------
// Blocks: each renders to lines; containers prefix the lines of their children.

function renderBlock(token: Token, context: Context): string[] | undefined {
  if (context.depth > MAX_DEPTH) return codeBlock(token.raw.replace(/\n+$/, ''))
  switch (token.type) {
    case 'space':
    case 'def':
      // Definitions were resolved into the links that use them.
      return undefined
    case 'heading': {
      const heading = token as Tokens.Heading
      const level = Math.min(6, Math.max(heading.depth, context.headingFloor))
      const text = oneLine(renderInline(heading.tokens, context))
      return [`${'#'.repeat(level)} ${text}`.trimEnd()]
    }
    case 'paragraph':
      return paragraphLines(renderInline((token as Tokens.Paragraph).tokens, context))
    case 'text': {
      // Block-level text (a tight list item's content).
      const text = token as Tokens.Text
      return paragraphLines(text.tokens ? renderInline(text.tokens, context) : escapeText(text.text))
    }
    case 'code': {
      const block = token as Tokens.Code
      return codeBlock(block.text, block.lang ?? '')
    }
    case 'html':
      // Raw HTML the agent wrote: shown as the text it is, line by line.
      return paragraphLines(
        escapeText((token as Tokens.HTML).text)
          .replace(/\n+$/, '')
          .replace(/\n/g, '\\\n'),
      )
    case 'hr':
      // Underscores: "- ___" and "* ___" stay a list item holding a rule, never a bare rule.
      return ['___']
    case 'blockquote': {
      const inner = renderBlocks((token as Tokens.Blockquote).tokens, nested(context))
      return inner.map((line) => (line === '' ? '>' : `> ${line}`))
    }
    case 'list':
      return renderList(token as Tokens.List, context)
    case 'table':
      return renderTable(token as Tokens.Table, context)
    default:
      return paragraphLines(escapeText(token.raw))
  }
}

function nested(context: Context): Context {
  return { ...context, depth: context.depth + 1 }
}

/** Blocks one after another, a blank line between them (in a tight list item, not before a nested list or code). */
function renderBlocks(tokens: readonly Token[], context: Context, tight = false): string[] {
  const out: string[] = []
  for (const token of tokens) {
    const lines = renderBlock(token, context)
    if (!lines) continue
    if (out.length > 0 && !(tight && interruptsParagraph(token))) out.push('')
    out.push(...lines)
  }
  return out
}

/** Blocks that may follow a paragraph line directly without joining it. */
function interruptsParagraph(token: Token): boolean {
  if (token.type === 'code') return true
  if (token.type !== 'list') return false
  const list = token as Tokens.List
  return !list.ordered || Number(list.start) === 1 || list.start === ''
}

function paragraphLines(markdown: string): string[] | undefined {
  // Each line starts with text: never with spaces (four would make it code), a list marker,
  // a rule or a setext underline ("+", "*", "_", "#" and ">" are escaped already).
  const lines = markdown.split('\n').map((line) =>
    line
      .replace(/^[ \t]+/, '')
      .replace(/^[-=]/, '\\$&')
      .replace(/^(\d{1,9})([.)])/, '$1\\$2'),
  )
  while (lines.length > 0 && lines[lines.length - 1]?.trim() === '') lines.pop()
  return lines.length > 0 ? lines : undefined
}

function renderList(list: Tokens.List, context: Context): string[] {
  const marker = context.listMarker === '-' ? '*' : '-'
  const start = Number.isSafeInteger(Number(list.start)) ? Math.min(999_999_999, Math.max(0, Number(list.start))) : 1
  const inner: Context = { ...nested(context), listMarker: marker }
  const out: string[] = []
  list.items.forEach((item, index) => {
    const bullet = list.ordered ? `${start + index}.` : marker
    const checkbox = item.task ? (item.checked ? '[x] ' : '[ ] ') : ''
    const body = renderBlocks(
      item.tokens.filter((token) => token.type !== 'checkbox'),
      inner,
      !list.loose,
    )
    const indent = ' '.repeat(bullet.length + 1)
    if (index > 0 && list.loose) out.push('')
    const [first = '', ...rest] = body.length > 0 ? body : ['']
    out.push(`${bullet} ${checkbox}${first}`.trimEnd())
    for (const line of rest) out.push(line === '' ? '' : indent + line)
  })
  return out
}

function renderTable(table: Tokens.Table, context: Context): string[] {
  const inCell: Context = { ...context, inTable: true }
  const cell = (tokens: Token[]) => oneLine(renderInline(tokens, inCell)) || ' '
  const row = (cells: Tokens.TableCell[]) => `| ${cells.map((c) => cell(c.tokens)).join(' | ')} |`
  const rule = `| ${table.align.map((align) => (align === 'right' ? '---:' : align === 'center' ? ':---:' : align === 'left' ? ':---' : '---')).join(' | ')} |`
  return [row(table.header), rule, ...table.rows.map(row)]
}

/** `fenced` as lines, for a container to prefix. */
function codeBlock(text: string, language?: string): string[] {
  return fenced(text, language).split('\n')
}

// ---------------------------------------------------------------------------------------
// Inline content: one string, "\n" for line breaks inside a paragraph.

function renderInline(tokens: readonly Token[] | undefined, context: Context): string {
  if (!tokens) return ''
  return tokens.map((token) => inlineToken(token, context)).join('')
}

function inlineToken(token: Token, context: Context): string {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text
      return text.tokens ? renderInline(text.tokens, context) : escapeText(text.text)
    }
    case 'escape':
      return escapeText((token as Tokens.Escape).text)
    case 'strong':
      return wrap('**', renderInline((token as Tokens.Strong).tokens, context))
    case 'em':
      return wrap('_', renderInline((token as Tokens.Em).tokens, context))
    case 'del':
      return wrap('~~', renderInline((token as Tokens.Del).tokens, context))
    case 'codespan':
      return codeSpan((token as Tokens.Codespan).text, context)
    case 'br':
      return '\\\n'
    case 'link': {
      const link = token as Tokens.Link
      return linkTo(link.href, renderInline(link.tokens, context) || escapeText(link.href))
    }
    case 'image': {
      const image = token as Tokens.Image
      return linkTo(image.href, `image: ${escapeText(image.text || image.href)}`)
    }
    case 'checkbox':
      return ''
    case 'html':
      // A tag or comment the agent wrote: shown as the text it is.
      return escapeText((token as Tokens.Tag).text)
    default:
      return escapeText(token.raw)
  }
}

/** Emphasis around content; empty content renders as nothing rather than as stray markers. */
function wrap(marker: string, content: string): string {
  return content.trim() === '' ? content : `${marker}${content}${marker}`
}

function codeSpan(text: string, context: Context): string {
  // GFM splits table cells on any unescaped pipe, even inside a code span.
  return context.inTable ? code(text).replace(/\|/g, '\\|') : code(text)
}

/** A link only to an absolute http(s) or mailto address; otherwise just its text. */
function linkTo(href: string, text: string): string {
  const url = safeUrl(href)
  if (!url) return text
  return `[${text.replace(/\n/g, ' ')}](<${url}>)`
}

function safeUrl(href: string): string | undefined {
  let url: URL
  try {
    url = new URL(decodeEntities(href).trim())
  } catch {
    return undefined
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'mailto:') return undefined
  // Inside <…> a destination ends at ">" and honours backslash escapes; neither may survive.
  return url.href.replace(/[<>\\\s]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
}

// ---------------------------------------------------------------------------------------
// Text

/**
 * Literal text: every character that can start or end inline markup escaped (the same set as
 * `inline` in format.ts), `&`, `<` and `>` as entities (no entity or tag of the agent's
 * survives), and a zero-width space after every `@`. What could open a block at the start of a
 * line is escaped per line, in `paragraphLines`.
 */
function escapeText(text: string): string {
  return showFormatCharacters(decodeEntities(text))
    .replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ')
    .replace(/[\\`*_{}[\]()#+!~|&<>@]/g, (ch) => ESCAPED[ch] ?? `\\${ch}`)
}

const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '@': `@${ZERO_WIDTH_SPACE}` }

function oneLine(markdown: string): string {
  return markdown.replace(/\\\n/g, ' ').replace(/\n/g, ' ').trim()
}

/**
 * marked leaves some entities in text as written; decode the ones a reader means (numeric,
 * and the basic named ones) so they show as characters, not as "&amp;amp;". Others stay literal.
 */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos|nbsp);/gi, (entity, name: string) => {
    const lower = name.toLowerCase()
    const code = lower.startsWith('#x')
      ? parseInt(lower.slice(2), 16)
      : lower.startsWith('#')
        ? Number(lower.slice(1))
        : undefined
    if (code !== undefined)
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd'
    return NAMED[lower] ?? entity
  })
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }
