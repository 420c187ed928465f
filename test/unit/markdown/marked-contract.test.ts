/**
 * What src/markdown/untrusted.ts relies on in marked beyond its documented API: the lexer's
 * block and inline passes run by hand (to guard each inline run), and the exact shape of the
 * tokens it reads. marked is pinned to a minor version; an upgrade that changes any of this
 * fails here, before the neutraliser quietly copies or drops what the new shapes hold.
 */
import { readFileSync } from 'node:fs'
import { Lexer, type Token } from 'marked'
import { describe, expect, it } from 'vitest'

const lex = (source: string) =>
  JSON.parse(
    JSON.stringify(Lexer.lex(source, { gfm: true }), (key, value: unknown) => (key === 'raw' ? undefined : value)),
  ) as unknown

describe('marked, as untrusted.ts uses it', () => {
  it('is pinned to a minor version (its lexer internals are not semver-stable)', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { version?: string; dependencies?: Record<string, string> }>
    }
    expect(pkg.dependencies.marked).toMatch(/^~?\d+\.\d+\.\d+$/)
    expect(lock.packages['']?.dependencies?.marked).toBe(pkg.dependencies.marked)
    const [major, minor] = (pkg.dependencies.marked ?? '').replace('~', '').split('.')
    expect(lock.packages['node_modules/marked']?.version?.startsWith(`${major}.${minor}.`)).toBe(true)
  })

  it('runs the block pass and then each queued inline run by hand, to the tokens Lexer.lex gives', () => {
    const source = '# Title *em*\n\n- [x] a `b` [l][r]\n\n> q **s**\n\n| a |\n|---|\n| c |\n\n[r]: https://r.example\n'
    const lexer = new Lexer({ gfm: true, breaks: false })
    expect(lexer.state.inRawBlock).toBe(false)
    expect(Array.isArray(lexer.inlineQueue)).toBe(true)
    const blocks: Token[] = lexer.blockTokens(source, lexer.tokens)
    expect(lexer.inlineQueue.length).toBeGreaterThan(0)
    for (const run of lexer.inlineQueue) {
      expect(typeof run.src).toBe('string')
      expect(Array.isArray(run.tokens)).toBe(true)
      lexer.state.inRawBlock = false
      lexer.inlineTokens(run.src, run.tokens)
    }
    lexer.inlineQueue = []
    expect(blocks).toEqual(Lexer.lex(source, { gfm: true, breaks: false }))
  })

  it('gives the token shapes the neutraliser reads', () => {
    expect(lex('Setext\n===\n\n## ATX')).toEqual([
      { type: 'heading', depth: 1, text: 'Setext', tokens: [{ type: 'text', text: 'Setext', escaped: false }] },
      { type: 'space' },
      { type: 'heading', depth: 2, text: 'ATX', tokens: [{ type: 'text', text: 'ATX', escaped: false }] },
    ])
    expect(lex('- [x] done\n- plain\n\n3. three\n')).toEqual([
      {
        type: 'list',
        ordered: false,
        start: '',
        loose: false,
        items: [
          {
            type: 'list_item',
            task: true,
            checked: true,
            loose: false,
            text: 'done',
            tokens: [
              { type: 'checkbox', checked: true },
              { type: 'text', text: 'done', tokens: [{ type: 'text', text: 'done', escaped: false }] },
            ],
          },
          {
            type: 'list_item',
            task: false,
            loose: false,
            text: 'plain',
            tokens: [{ type: 'text', text: 'plain', tokens: [{ type: 'text', text: 'plain', escaped: false }] }],
          },
        ],
      },
      { type: 'space' },
      {
        type: 'list',
        ordered: true,
        start: 3,
        loose: false,
        items: [
          {
            type: 'list_item',
            task: false,
            loose: false,
            text: 'three',
            tokens: [{ type: 'text', text: 'three', tokens: [{ type: 'text', text: 'three', escaped: false }] }],
          },
        ],
      },
    ])
    expect(lex('```js\nx\n```\n\n<div>\nhi\n</div>\n\n> q\n\n---\n')).toEqual([
      { type: 'code', lang: 'js', text: 'x' },
      { type: 'space' },
      { type: 'html', block: true, pre: false, text: '<div>\nhi\n</div>' },
      { type: 'space' },
      {
        type: 'blockquote',
        text: 'q',
        tokens: [{ type: 'paragraph', text: 'q', tokens: [{ type: 'text', text: 'q', escaped: false }] }],
      },
      { type: 'space' },
      { type: 'hr' },
    ])
    expect(
      lex('a **s** _e_ ~~d~~ `c` \\* <b> [t][r] ![i](https://i.example/x.png)  \nz\n\n[r]: https://r.example\n'),
    ).toEqual([
      {
        type: 'paragraph',
        text: 'a **s** _e_ ~~d~~ `c` \\* <b> [t][r] ![i](https://i.example/x.png)  \nz',
        tokens: [
          { type: 'text', text: 'a ', escaped: false },
          { type: 'strong', text: 's', tokens: [{ type: 'text', text: 's', escaped: false }] },
          { type: 'text', text: ' ', escaped: false },
          { type: 'em', text: 'e', tokens: [{ type: 'text', text: 'e', escaped: false }] },
          { type: 'text', text: ' ', escaped: false },
          { type: 'del', text: 'd', tokens: [{ type: 'text', text: 'd', escaped: false }] },
          { type: 'text', text: ' ', escaped: false },
          { type: 'codespan', text: 'c' },
          { type: 'text', text: ' ', escaped: false },
          { type: 'escape', text: '*' },
          { type: 'text', text: ' ', escaped: false },
          { type: 'html', inLink: false, inRawBlock: false, block: false, text: '<b>' },
          { type: 'text', text: ' ', escaped: false },
          {
            type: 'link',
            href: 'https://r.example',
            title: null,
            text: 't',
            tokens: [{ type: 'text', text: 't', escaped: false }],
          },
          { type: 'text', text: ' ', escaped: false },
          {
            type: 'image',
            href: 'https://i.example/x.png',
            title: null,
            text: 'i',
            tokens: [{ type: 'text', text: 'i', escaped: false }],
          },
          { type: 'br' },
          { type: 'text', text: 'z', escaped: false },
        ],
      },
      { type: 'space' },
      { type: 'def', tag: 'r', href: 'https://r.example', title: undefined },
    ])
    expect(lex('| a | b |\n|:--|--:|\n| `c` | d |\n')).toEqual([
      {
        type: 'table',
        align: ['left', 'right'],
        header: [
          { text: 'a', tokens: [{ type: 'text', text: 'a', escaped: false }], header: true, align: 'left' },
          { text: 'b', tokens: [{ type: 'text', text: 'b', escaped: false }], header: true, align: 'right' },
        ],
        rows: [
          [
            { text: '`c`', tokens: [{ type: 'codespan', text: 'c' }], header: false, align: 'left' },
            { text: 'd', tokens: [{ type: 'text', text: 'd', escaped: false }], header: false, align: 'right' },
          ],
        ],
      },
    ])
  })
})
