/**
 * GitHub-flavoured markdown (a job summary, a pull-request comment) rendered for a terminal:
 * headings stand out, tables are aligned, lists are bulleted, HTML comments are hidden and a
 * `<details>` block shows only its folded summary line, as GitHub shows it. Mermaid diagrams are
 * named, not drawn. Pure: markdown in, lines out; marked's lexer does the parsing.
 */
import { Lexer, type Token, type Tokens } from 'marked'
import { PLAIN, visibleWidth, type Style } from './style.ts'

export interface MarkdownOptions {
  style?: Style
  /** Show the contents of this many `<details>` blocks (the first ones), as if a reader opened them. */
  openDetails?: number
}

interface Context {
  style: Style
  openDetails: number
}

export function renderMarkdown(markdown: string, options: MarkdownOptions = {}): string[] {
  const context: Context = { style: options.style ?? PLAIN, openDetails: options.openDetails ?? 0 }
  const lines = blocks(Lexer.lex(markdown, { gfm: true }), context)
  while (lines.at(-1) === '') lines.pop()
  while (lines[0] === '') lines.shift()
  return lines.filter((line, at) => line !== '' || lines[at - 1] !== '')
}

function blocks(tokens: Token[], context: Context): string[] {
  const { style } = context
  const out: string[] = []
  // inside a <details> block: GitHub shows only its summary until it is opened. `depth` counts the
  // folds open within it (an impact report folds each target's tables inside the target's fold), so
  // only the matching </details> ends it; its tokens are then rendered (or not) as a whole, inner folds
  // nested under it.
  let details: { open: boolean; depth: number; tokens: Token[] } | undefined
  for (const token of tokens) {
    if (details) {
      if (token.type === 'html') details.depth += nesting(token.raw)
      if (details.depth > 0) {
        details.tokens.push(token)
        continue
      }
      if (details.open)
        out.push(...trimBlank(blocks(details.tokens, context)).map((line) => (line ? `  ${line}` : line)), '')
      details = undefined
      continue
    }
    if (token.type === 'html') {
      const summary = /<details[^>]*>\s*<summary>(.*?)<\/summary>/is.exec(token.raw)
      if (summary) {
        const closed = nesting(token.raw) <= 0
        // `<details open>` shows unfolded on GitHub too; openDetails opens that many more.
        const openedByAuthor = /^<details\s+open\b/i.test(token.raw.trim())
        const open = !closed && (openedByAuthor || context.openDetails > 0)
        if (open && !openedByAuthor) context.openDetails--
        out.push(
          open
            ? `${style.bold('▾')} ${stripTags(summary[1] ?? '')}`
            : `${style.bold('▸')} ${stripTags(summary[1] ?? '')} ${style.dim('(folded)')}`,
          '',
        )
        if (!closed) details = { open, depth: nesting(token.raw), tokens: [] }
      } else {
        const text = stripTags(token.raw.replace(/<!--[\s\S]*?-->/g, '')).trim()
        if (text) out.push(text, '')
      }
      continue
    }
    out.push(...block(token, context))
  }
  return out
}

function block(token: Token, context: Context): string[] {
  const { style } = context
  switch (token.type) {
    case 'heading': {
      const { depth, tokens } = token as Tokens.Heading
      const text = inline(tokens, style)
      return depth <= 2
        ? ['', style.heading(text), style.dim('─'.repeat(Math.min(visibleWidth(text), 72))), '']
        : [style.bold(text), '']
    }
    case 'paragraph':
      return [...inline((token as Tokens.Paragraph).tokens, style).split('\n'), '']
    case 'text': {
      const text = token as Tokens.Text
      return (text.tokens ? inline(text.tokens, style) : text.text).split('\n')
    }
    case 'list':
      return [...list(token as Tokens.List, context), '']
    case 'table':
      return [...table(token as Tokens.Table, style), '']
    case 'blockquote':
      return [
        ...alert(trimBlank(blocks((token as Tokens.Blockquote).tokens, context)), style).map(
          (line) => `${style.dim('│')} ${line}`,
        ),
        '',
      ]
    case 'code': {
      const { lang, text } = token as Tokens.Code
      if (lang === 'mermaid')
        return [style.dim(`[a Mermaid diagram of ${text.split('\n').length} lines: GitHub draws it]`), '']
      return [...text.split('\n').map((line) => `    ${style.code(line)}`), '']
    }
    case 'hr':
      return [style.dim('─'.repeat(40)), '']
    case 'space':
    case 'def':
      return []
    default:
      return [token.raw]
  }
}

/** GitHub's alerts (`> [!NOTE]` …) show a label instead of the marker. */
function alert(lines: string[], style: Style): string[] {
  const kind = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]$/.exec(lines[0] ?? '')?.[1]
  if (!kind) return lines
  const label = `${kind.charAt(0)}${kind.slice(1).toLowerCase()}`
  return [
    kind === 'WARNING' || kind === 'CAUTION' ? style.warning(`⚠ ${label}`) : style.notice(`ℹ ${label}`),
    ...lines.slice(1),
  ]
}

function list(token: Tokens.List, context: Context): string[] {
  const start = typeof token.start === 'number' ? token.start : 1
  return token.items.flatMap((item, at) => {
    const bullet = token.ordered ? `${start + at}.` : item.task ? (item.checked ? '☑' : '☐') : '•'
    const [first = '', ...rest] = trimBlank(blocks(item.tokens, context)).filter((line) => line !== '')
    const pad = ' '.repeat(bullet.length + 1)
    return [`${bullet} ${first}`, ...rest.map((line) => `${pad}${line}`)]
  })
}

function table(token: Tokens.Table, style: Style): string[] {
  const header = token.header.map((cell) => inline(cell.tokens, style))
  const rows = token.rows.map((row) => row.map((cell) => inline(cell.tokens, style)))
  const widths = header.map((text, column) =>
    Math.max(visibleWidth(text), ...rows.map((row) => visibleWidth(row[column] ?? ''))),
  )
  const pad = (text: string, column: number): string => {
    const room = ' '.repeat(Math.max(0, (widths[column] ?? 0) - visibleWidth(text)))
    return token.align[column] === 'right' ? room + text : text + room
  }
  const line = (cells: string[]): string => cells.map(pad).join('  ').trimEnd()
  return [style.bold(line(header)), style.dim(widths.map((width) => '─'.repeat(width)).join('  ')), ...rows.map(line)]
}

function inline(tokens: Token[] | undefined, style: Style): string {
  return (tokens ?? [])
    .map((token): string => {
      switch (token.type) {
        case 'strong':
          return style.bold(inline((token as Tokens.Strong).tokens, style))
        case 'em':
          return style.italic(inline((token as Tokens.Em).tokens, style))
        case 'del':
          return `~${inline((token as Tokens.Del).tokens, style)}~`
        case 'codespan':
          return style.code((token as Tokens.Codespan).text)
        case 'br':
          return '\n'
        case 'link': {
          const { href, tokens: inner } = token as Tokens.Link
          const text = inline(inner, style)
          return text === href || href.startsWith('#') ? text : `${text} ${style.dim(`(${href})`)}`
        }
        case 'image':
          return `[image: ${(token as Tokens.Image).text}]`
        case 'html':
          return stripTags(token.raw.replace(/<!--[\s\S]*?-->/g, ''))
        case 'escape':
          return (token as Tokens.Escape).text
        case 'text': {
          const text = token as Tokens.Text
          return text.tokens ? inline(text.tokens, style) : decodeEntities(text.text)
        }
        default:
          return token.raw
      }
    })
    .join('')
}

/** How many more `<details>` an HTML block opens than it closes. */
function nesting(html: string): number {
  return (html.match(/<details\b/gi)?.length ?? 0) - (html.match(/<\/details\s*>/gi)?.length ?? 0)
}

function stripTags(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, ' ').replace(/<[^>]*>/g, ''))
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(lt|gt|amp|quot|#39|nbsp);/g,
    (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", nbsp: ' ' })[name] ?? '',
  )
}

function trimBlank(lines: string[]): string[] {
  let start = 0
  let end = lines.length
  while (start < end && lines[start] === '') start++
  while (end > start && lines[end - 1] === '') end--
  return lines.slice(start, end)
}
