/**
 * Markdown → the page GitHub would show: GitHub-flavoured markdown (marked, GFM: tables, task
 * lists, autolinks, strikethrough), GitHub's markdown stylesheet (github-markdown-css, inlined),
 * raw HTML sanitized with GitHub's allowlist, `> [!NOTE]` alerts and ```mermaid diagrams.
 *
 * The markdown becomes HTML here, in Node. Everything after that runs in the page (page.js):
 * DOMPurify with GitHub's allowlist, alerts, task lists, Mermaid; inspect.js reports what shows. The page loads its scripts
 * from `startAssetServer()` (127.0.0.1, files from node_modules): nothing comes from the internet.
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Marked, type Token, type Tokens } from 'marked'

const HERE = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)

export interface RenderOptions {
  /**
   * `comment` (issue and pull-request comments: a single newline is a line break) or `document`
   * (files and job summaries: a single newline is a space). Default `document`.
   */
  context?: 'comment' | 'document'
  /** The box's header as GitHub frames the markdown: `bold` (an author, a job) then `text`. */
  header?: { bold: string; text: string }
  /**
   * Open every `<details>` so the screenshot shows what is folded. Default false: GitHub shows
   * them folded unless the markdown says `<details open>`, and so do the README's screenshots.
   */
  openDetails?: boolean
  /** The page's <title>. */
  title?: string
}

/** GitHub's rendering of a fenced code block: `<pre lang="…">`, which is also how Mermaid is found. */
function createMarked(context: 'comment' | 'document'): Marked {
  const marked = new Marked({ gfm: true, breaks: context === 'comment', async: false })
  marked.use({
    renderer: {
      code(token: Tokens.Code): string {
        const lang = /^\S*/.exec(token.lang ?? '')?.[0] ?? ''
        const text = token.escaped ? token.text : escapeHtml(token.text)
        return `<pre${lang ? ` lang="${escapeHtml(lang)}"` : ''}><code>${text.replace(/\n$/, '')}\n</code></pre>\n`
      },
    },
  })
  return marked
}

/** The full HTML page for `markdown`; load it from `startAssetServer()` so its scripts resolve. */
export function renderGitHubMarkdown(markdown: string, options: RenderOptions = {}): string {
  const context = options.context ?? 'document'
  const body = createMarked(context).parse(markdown, { async: false })
  const settings = { openDetails: options.openDetails ?? false, context }
  const header = options.header
    ? `<div class="frame-header"><strong>${escapeHtml(options.header.bold)}</strong> ${escapeHtml(options.header.text)}</div>`
    : ''
  return `<!doctype html>
<html lang="en" data-color-mode="light" data-light-theme="light">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title ?? 'GitHub markdown')}</title>
<style>${stylesheet()}</style>
<style>${FRAME_CSS}</style>
</head>
<body>
<div class="frame frame-${context}">
${header}
<article class="markdown-body"></article>
</div>
<script type="application/json" id="markdown-html">${jsonForScript(body)}</script>
<script type="application/json" id="render-settings">${jsonForScript(settings)}</script>
<script src="/assets/purify.min.js"></script>
<script src="/assets/mermaid.min.js"></script>
<script src="/assets/page.js"></script>
<script src="/assets/inspect.js"></script>
</body>
</html>
`
}

/** Tables whose rows do not have as many cells as their header (GFM pads or drops the difference silently). */
export function findBrokenTables(markdown: string): string[] {
  const problems: string[] = []
  const marked = createMarked('document')
  const visit = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      if (token.type === 'table') {
        const table = token as Tokens.Table
        const lines = table.raw.split('\n').filter((line) => line.trim())
        const columns = table.header.length
        for (const [index, line] of lines.entries()) {
          if (index === 1) continue // the delimiter row: GFM requires it to match, or there is no table
          const cells = countCells(line)
          if (cells !== columns) problems.push(`${cells} cells where the header has ${columns}: ${line.trim()}`)
        }
      }
      const nested = token as { tokens?: Token[]; items?: Token[] }
      if (nested.tokens) visit(nested.tokens)
      if (nested.items) visit(nested.items)
    }
  }
  visit(marked.lexer(markdown))
  return problems
}

/** Cells in one GFM table row: unescaped pipes split, an outer leading and trailing pipe do not. */
function countCells(line: string): number {
  let row = line.trim()
  if (row.startsWith('|')) row = row.slice(1)
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1)
  return row.split(/(?<!\\)\|/).length
}

export interface AssetServer {
  url: string
  /** Serve `html` at `/pages/<name>.html` and return its URL. */
  addPage(name: string, html: string): string
  close(): Promise<void>
}

/** The scripts a page loads, by URL path: files from node_modules and this folder. */
export function pageAssets(): Record<string, string> {
  return {
    '/assets/purify.min.js': resolvePackageFile('dompurify/dist/purify.min.js', 'mermaid'),
    '/assets/mermaid.min.js': resolvePackageFile('mermaid/dist/mermaid.min.js'),
    '/assets/page.js': join(HERE, 'page.js'),
    '/assets/inspect.js': join(HERE, 'inspect.js'),
  }
}

/** The files a page needs, from node_modules and this folder, on 127.0.0.1. */
export async function startAssetServer(): Promise<AssetServer> {
  const assets = pageAssets()
  const pages = new Map<string, string>()
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    const page = pages.get(path)
    const file = assets[path]
    if (page !== undefined) send(res, 'text/html; charset=utf-8', page)
    else if (file) send(res, 'text/javascript; charset=utf-8', readFileSync(file))
    else send(res, 'text/plain', `not found: ${path}`, 404)
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    addPage(name, html) {
      pages.set(`/pages/${name}.html`, html)
      return `${url}/pages/${encodeURIComponent(name)}.html`
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function send(res: http.ServerResponse, type: string, body: string | Buffer, status = 200): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'max-age=3600' })
  res.end(body)
}

/** A package file, found from here or, for a dependency of a dependency, from that package. */
function resolvePackageFile(specifier: string, via?: string): string {
  try {
    return require.resolve(specifier)
  } catch (error) {
    if (!via) throw error
    return createRequire(require.resolve(`${via}/package.json`)).resolve(specifier)
  }
}

let css: string | undefined
function stylesheet(): string {
  css ??= readFileSync(resolvePackageFile('github-markdown-css/github-markdown-light.css'), 'utf8').replace(
    /<\/style/gi,
    '<\\/style',
  )
  return css
}

/** JSON that cannot end its <script> element early. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

// The box GitHub draws around a comment or a job summary, at the width of a pull request's
// conversation column; white page, GitHub's border and header colours.
const FRAME_CSS = `
html, body { margin: 0; background: #ffffff; }
body { padding: 16px; }
.frame { border: 1px solid #d1d9e0; border-radius: 6px; background: #ffffff; overflow: hidden; }
.frame-header {
  padding: 8px 16px; background: #f6f8fa; border-bottom: 1px solid #d1d9e0; color: #59636e;
  font: 14px/1.5 -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif;
}
.frame-header strong { color: #1f2328; font-weight: 600; }
.markdown-body { box-sizing: border-box; padding: 16px; font-size: 14px; }
.frame-document .markdown-body { padding: 24px 32px; }
.markdown-body .mermaid-frame { margin-bottom: 16px; padding: 8px; border: 1px solid #d1d9e0; border-radius: 6px; background: #ffffff; }
.markdown-body pre.mermaid { margin: 0; padding: 0; background: transparent; text-align: center; font-family: inherit; white-space: normal; }
.markdown-body pre.mermaid svg { max-width: 100%; height: auto; }
`
