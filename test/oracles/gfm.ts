/**
 * A real judge of GitHub-flavoured markdown: GitHub's own parser, `cmark-gfm`, with the
 * extensions github.com enables. It reads the syntax tree cmark-gfm builds (`-t xml`) and the
 * HTML it renders WITH `--unsafe` (GitHub renders raw HTML, then sanitises; rendering it shows
 * every element text could smuggle in), and answers:
 * - which raw HTML (blocks, inline tags, comments) the markdown contains, and which elements
 *   appear in the rendered page;
 * - which live mentions survive (GitHub links `@user` and `@org/team` in text, not in code or
 *   links);
 * - which headings and tables the document has, so a test can see that the action's own
 *   sections are still sections.
 *
 * Tests that need it call `describeWithGfm`: when cmark-gfm is missing they are skipped with a
 * clear message locally, and fail when `process.env.CI` is set.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { describe, it } from 'vitest'

const CANDIDATES = [process.env.CMARK_GFM, '/usr/bin/cmark-gfm', '/usr/local/bin/cmark-gfm'].filter(
  (path): path is string => Boolean(path),
)
export const CMARK_GFM: string | undefined = CANDIDATES.find((path) => existsSync(path))
const EXTENSIONS = ['table', 'strikethrough', 'autolink', 'tagfilter', 'tasklist'].flatMap((name) => [
  '--extension',
  name,
])
const MISSING =
  "cmark-gfm (GitHub's markdown parser) is not installed: `apt-get install cmark-gfm`, or set CMARK_GFM to its path"

/** `describe` for tests judged by cmark-gfm: skipped with a reason locally when it is missing, failed in CI. */
export function describeWithGfm(title: string, body: () => void): void {
  if (CMARK_GFM) {
    describe(title, body)
    return
  }
  if (process.env.CI) {
    describe(title, () => {
      it('needs cmark-gfm', () => {
        throw new Error(`${MISSING}. CI requires it.`)
      })
    })
    return
  }
  console.warn(`Skipping "${title}": ${MISSING}.`)
  describe.skip(`${title} (skipped: ${MISSING})`, body)
}

function cmark(markdown: string, format: 'html' | 'xml'): string {
  if (!CMARK_GFM) throw new Error(MISSING)
  const done = spawnSync(CMARK_GFM, ['--unsafe', '-t', format, ...EXTENSIONS], {
    input: markdown,
    encoding: 'utf8',
    timeout: 20_000,
    maxBuffer: 256 * 1024 * 1024,
  })
  if (done.error) throw done.error
  if (done.status !== 0) throw new Error(`cmark-gfm exited with ${done.status}: ${done.stderr}`)
  return done.stdout
}

/** The page GitHub would start from: cmark-gfm's HTML with raw HTML kept. */
export function renderGfm(markdown: string): string {
  return cmark(markdown, 'html')
}

export interface GfmNode {
  type: string
  attributes: Record<string, string>
  /** Text of leaf nodes (text, code, code_block, html_block, html_inline). */
  literal: string
  children: GfmNode[]
}

/** cmark-gfm's syntax tree. */
function parseGfm(markdown: string): GfmNode {
  return parseXml(cmark(markdown, 'xml'))
}

export interface GfmJudgement {
  tree: GfmNode
  html: string
  /** Every raw HTML node (block, inline tag, comment), verbatim, in document order. */
  rawHtml: string[]
  /** Element names in the rendered HTML, in order (closing tags left out). */
  elements: string[]
  /** HTML comments in the rendered page. */
  comments: string[]
  /** Mentions GitHub would link: `@user` or `@org/team` in text outside code and links. */
  mentions: string[]
  headings: Array<{ level: number; text: string }>
  tables: Array<{ header: string[]; rows: number }>
  /** Destinations of links and images. */
  links: string[]
  images: string[]
}

export function judgeGfm(markdown: string): GfmJudgement {
  const tree = parseGfm(markdown)
  const html = renderGfm(markdown)
  const rawHtml: string[] = []
  const mentions: string[] = []
  const headings: GfmJudgement['headings'] = []
  const tables: GfmJudgement['tables'] = []
  const links: string[] = []
  const images: string[] = []
  walk(tree, (node) => {
    if (node.type === 'html_block' || node.type === 'html_inline') rawHtml.push(node.literal)
    if (node.type === 'heading') headings.push({ level: Number(node.attributes.level), text: textOf(node) })
    if (node.type === 'link') links.push(node.attributes.destination ?? '')
    if (node.type === 'image') images.push(node.attributes.destination ?? '')
    if (node.type === 'table') {
      const header = node.children.find((child) => child.type === 'table_header')
      tables.push({
        header: (header?.children ?? []).map(textOf),
        rows: node.children.filter((child) => child.type === 'table_row').length,
      })
    }
    // GitHub's mention filter reads text nodes of the rendered HTML, skipping code and links.
    if (node.type !== 'link' && node.type !== 'image') mentions.push(...mentionsIn(node))
    return node.type !== 'link' && node.type !== 'image' && node.type !== 'code_block'
  })
  return {
    tree,
    html,
    rawHtml,
    elements: [...html.matchAll(/<([A-Za-z][A-Za-z0-9-]*)/g)].map((match) => (match[1] ?? '').toLowerCase()),
    comments: [...html.matchAll(/<!--[\s\S]*?(?:-->|$)/g)].map((match) => match[0]),
    mentions,
    headings,
    tables,
    links,
    images,
  }
}

/** GitHub's mention pattern (users and teams), applied to the text runs of one node's inline children. */
const MENTION = /(?:^|[^\w`])@([A-Za-z0-9][A-Za-z0-9-]*(?:\/[A-Za-z0-9][A-Za-z0-9_.-]*)?)/g

function mentionsIn(node: GfmNode): string[] {
  // Adjacent text and soft breaks form one HTML text node; anything else splits it.
  const runs: string[] = []
  let run = ''
  for (const child of node.children) {
    if (child.type === 'text') run += child.literal
    else if (child.type === 'softbreak') run += '\n'
    else {
      runs.push(run)
      run = ''
    }
  }
  runs.push(run)
  // Raw HTML is text to GitHub's filter too once it is rendered: judge its text content.
  for (const child of node.children) if (child.type === 'html_block') runs.push(child.literal.replace(/<[^>]*>/g, ' '))
  return runs.flatMap((text) => [...text.matchAll(MENTION)].map((match) => `@${match[1] ?? ''}`))
}

export function textOf(node: GfmNode): string {
  if (node.children.length === 0) return node.type === 'softbreak' || node.type === 'linebreak' ? ' ' : node.literal
  return node.children.map(textOf).join('')
}

/** Depth-first; `visit` returns false to skip a node's children. */
export function walk(node: GfmNode, visit: (node: GfmNode) => boolean | void): void {
  if (visit(node) === false) return
  for (const child of node.children) walk(child, visit)
}

// cmark-gfm's XML is regular: one element per node, text only in leaves, five entities.
function parseXml(xml: string): GfmNode {
  const root: GfmNode = { type: '#root', attributes: {}, literal: '', children: [] }
  const stack: GfmNode[] = [root]
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/^<!DOCTYPE[^>]*>\s*/, '')
  const token = /<(\/?)([A-Za-z_]+)((?:\s+[\w:]+="[^"]*")*)\s*(\/?)>|([^<]+)/g
  for (const match of body.matchAll(token)) {
    const [, closing, name, attributeText, selfClosing, text] = match
    const top = stack[stack.length - 1] ?? root
    if (text !== undefined) {
      top.literal += decodeXml(text)
      continue
    }
    if (closing) {
      stack.pop()
      continue
    }
    const attributes: Record<string, string> = {}
    for (const attribute of (attributeText ?? '').matchAll(/([\w:]+)="([^"]*)"/g))
      attributes[attribute[1] ?? ''] = decodeXml(attribute[2] ?? '')
    const node: GfmNode = { type: name ?? '', attributes, literal: '', children: [] }
    top.children.push(node)
    if (!selfClosing) stack.push(node)
  }
  // Whitespace between elements is layout, not content: keep text only in leaves.
  walk(root, (node) => {
    if (node.children.length > 0) node.literal = ''
  })
  return root.children[0] ?? root
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (entity, name: string) => {
    const lower = name.toLowerCase()
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16))
    if (lower.startsWith('#')) return String.fromCodePoint(Number(lower.slice(1)))
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[lower] ?? entity
  })
}
