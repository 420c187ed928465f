import { describe, expect, it } from 'vitest'
import { clipCharacters, code, details, fenced, formatDuration, formatUsd, inline, table, untrustedMarkdown } from '../../src/report/markdown.js'

const ZWSP = '\u200b'

/** Numeric and the few named entities a browser would decode in a link destination. */
function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/g, ':')
}

describe('inline', () => {
  it('escapes pipes so a table cell cannot split', () => {
    expect(inline('a | b')).toBe('a \\| b')
  })

  it('turns HTML into text', () => {
    expect(inline('<b>x</b> & <img src=x onerror=alert(1)>')).toBe('&lt;b&gt;x&lt;/b&gt; &amp; &lt;img src=x onerror=alert\\(1\\)&gt;')
  })

  it('escapes backticks and markdown punctuation', () => {
    expect(inline('`code` *em* _u_ [l](u) #h ~s~ !')).toBe('\\`code\\` \\*em\\* \\_u\\_ \\[l\\]\\(u\\) \\#h \\~s\\~ \\!')
  })

  it('joins lines', () => {
    expect(inline('one\ntwo\r\nthree\rfour')).toBe('one two three four')
  })

  it('neutralises @mentions with a zero-width space', () => {
    expect(inline('ping @octocat and @org/team')).toBe(`ping @${ZWSP}octocat and @${ZWSP}org/team`)
    expect(inline('a @ b')).toBe('a @ b')
  })
})

describe('code', () => {
  it('wraps plain text in one backtick', () => {
    expect(code('r-123')).toBe('`r-123`')
  })

  it('outgrows backtick runs inside', () => {
    expect(code('a`b')).toBe('``a`b``')
    expect(code('a``b`c')).toBe('```a``b`c```')
  })

  it('pads when the text starts or ends with a backtick', () => {
    expect(code('`x')).toBe('`` `x ``')
    expect(code('x`')).toBe('`` x` ``')
  })

  it('keeps to one line', () => {
    expect(code('a\nb')).toBe('`a b`')
  })
})

describe('fenced', () => {
  it('wraps text in a ``` block with a language', () => {
    expect(fenced('hello')).toBe('```text\nhello\n```')
    expect(fenced('{}', 'json')).toBe('```json\n{}\n```')
  })

  it('cannot be closed early by ``` inside', () => {
    const text = 'before\n```\n<script>alert(1)</script>\n```'
    const block = fenced(text)
    expect(block).toBe(`\`\`\`\`text\n${text}\n\`\`\`\``)
    const inner = block.split('\n').slice(1, -1)
    for (const line of inner) expect(line.trim()).not.toBe('````')
  })

  it('outgrows a longer run too', () => {
    const block = fenced('``````')
    expect(block.startsWith('```````text\n')).toBe(true)
    expect(block.endsWith('\n```````')).toBe(true)
  })
})

describe('untrustedMarkdown', () => {
  it('turns <script> into text', () => {
    expect(untrustedMarkdown('<script>alert(1)</script>')).toBe('&lt;script>alert(1)&lt;/script>')
  })

  it('turns <img onerror> into text', () => {
    expect(untrustedMarkdown('see <img src=x onerror=alert(1)>')).toBe('see &lt;img src=x onerror=alert(1)>')
  })

  it('turns a fake marker comment into text', () => {
    const out = untrustedMarkdown('<!-- hub-action:run-summary -->')
    expect(out).toBe('&lt;!-- hub-action:run-summary -->')
    expect(out).not.toContain('<!--')
  })

  it('turns </details> into text', () => {
    expect(untrustedMarkdown('</details>\n\n# owned')).toBe('&lt;/details>\n\n# owned')
  })

  it('shows entities as text, so none can spell "<" or a link scheme', () => {
    expect(untrustedMarkdown('a & b &amp; &#60; &#x3c;')).toBe('a &amp; b &amp;amp; &amp;#60; &amp;#x3c;')
  })

  it.each(['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html;base64,PHNjcmlwdD4=', 'vbscript:x'])('rewrites a %s link', (target) => {
    const out = untrustedMarkdown(`[click](${target})`)
    expect(out.startsWith('[click](#unsafe-link-removed')).toBe(true)
    expect(out.toLowerCase()).not.toContain(`](${target.toLowerCase()}`)
  })

  it('rewrites a link with spaces before the scheme', () => {
    expect(untrustedMarkdown('[x](  javascript:alert(1))')).not.toMatch(/\]\(\s*javascript:/)
  })

  it('keeps http(s), mailto and anchor links', () => {
    const text = '[a](https://example.com/x?y=1) [b](http://example.com) [c](mailto:dev@example.com) [d](#top) [e](relative/path)'
    expect(untrustedMarkdown(text)).toBe(text)
  })

  it('neutralises @mentions but not e-mail addresses', () => {
    expect(untrustedMarkdown('thanks @octocat, mail dev@example.com')).toBe(`thanks @${ZWSP}octocat, mail dev@example.com`)
    expect(untrustedMarkdown('@octocat at the start')).toBe(`@${ZWSP}octocat at the start`)
    expect(untrustedMarkdown('(@org/team)')).toBe(`(@${ZWSP}org/team)`)
  })

  it('leaves fenced code blocks untouched', () => {
    const text = 'intro\n\n```html\n<script>alert(1)</script>\n@octocat & [x](javascript:y)\n```\n\n~~~\n<b>tilde</b>\n~~~\nafter <b>'
    expect(untrustedMarkdown(text)).toBe(
      'intro\n\n```html\n<script>alert(1)</script>\n@octocat & [x](javascript:y)\n```\n\n~~~\n<b>tilde</b>\n~~~\nafter &lt;b>',
    )
  })

  it('a shorter or different fence does not close a block', () => {
    const text = '````\n```\n~~~~\n<b>still code</b>\n````\n<b>prose</b>'
    expect(untrustedMarkdown(text)).toBe('````\n```\n~~~~\n<b>still code</b>\n````\n&lt;b>prose&lt;/b>')
  })

  it('leaves inline code untouched', () => {
    expect(untrustedMarkdown('run `<b>@x & y</b>` then <b>')).toBe('run `<b>@x & y</b>` then &lt;b>')
    expect(untrustedMarkdown('a ``<i>`` b <i>')).toBe('a ``<i>`` b &lt;i>')
  })

  // BUG (minor, cosmetic): a code span whose delimiter is longer than one backtick may hold a
  // single backtick ("``x ` <i>``" is one span, CommonMark §6.1), but the splitter's
  // `[^`]*?` refuses any backtick inside, so the span is treated as prose and shown as
  // "x ` &lt;i>" — against "Code blocks and spans are left exactly as written".
  it('leaves a code span holding a backtick untouched', () => {
    expect(untrustedMarkdown('a ``x ` <i>`` b <i>')).toBe('a ``x ` <i>`` b &lt;i>')
  })

  it('closes an unclosed fence so it cannot swallow what follows', () => {
    expect(untrustedMarkdown('```js\nconst a = 1')).toBe('```js\nconst a = 1\n```')
    expect(untrustedMarkdown('~~~~\ncode')).toBe('~~~~\ncode\n~~~~')
  })

  it('normalises CRLF', () => {
    expect(untrustedMarkdown('a\r\n<b>\rc')).toBe('a\n&lt;b>\nc')
  })

  it('keeps ordinary markdown as written', () => {
    const text = '## Findings\n\n- one\n- **two**\n\n> quote\n\n| a | b |\n| - | - |\n| 1 | 2 |'
    expect(untrustedMarkdown(text)).toBe(text)
  })

  // BUG: a backslash-escaped backtick cannot open a code span (CommonMark §6.1), but the
  // splitter in neutraliseLine still takes "`…`" after "\" for inline code and keeps it
  // verbatim, so raw HTML inside passes through: "\`</details>`" renders a literal backtick,
  // a live </details> tag, and another backtick.
  it('HTML after an escaped backtick is still neutralised', () => {
    const out = untrustedMarkdown('\\`</details><!-- hub-action:run-summary -->`')
    expect(out).not.toContain('</details>')
    expect(out).not.toContain('<!--')
  })

  // BUG: "```x```" on one line is a code span, not a fence opener (a backtick fence's info
  // string may not contain backticks, CommonMark §4.5). untrustedMarkdown takes it for an
  // opener, so every following line is treated as code and passed through raw (then a
  // closing fence is appended), letting HTML, comment markers and </details> through.
  it('a one-line ```code``` span does not switch off neutralising for the rest', () => {
    const out = untrustedMarkdown('```inline```\n</details>\n<!-- hub-action:run-summary -->\n<img src=x onerror=alert(1)>')
    expect(out).not.toContain('</details>')
    expect(out).not.toContain('<!--')
    expect(out).not.toContain('<img')
  })

  // BUG: link reference definitions are not checked: "[x]: javascript:…" defines a link that
  // "[click][x]" uses, so a javascript: link survives although the doc comment promises
  // "links may only go to http(s) or mailto".
  it('a reference-style javascript: link is rewritten', () => {
    const out = untrustedMarkdown('[click][x]\n\n[x]: javascript:alert(1)')
    expect(out).not.toMatch(/^\s{0,3}\[[^\]]+\]:\s*javascript:/im)
  })

  // BUG: entity references are decoded in link destinations (CommonMark §2.5), so
  // "java&#115;cript:" is "javascript:". The scheme check runs on the raw text and the
  // entity is kept, so the link survives.
  it('an entity-encoded javascript: scheme is rewritten', () => {
    const out = untrustedMarkdown('[click](java&#115;cript:alert(1)) [two](&#106;avascript&colon;alert(2))')
    expect(decodeEntities(out).toLowerCase()).not.toMatch(/\]\(\s*javascript:/)
  })
})

describe('clipCharacters', () => {
  it('keeps text within budget as is', () => {
    expect(clipCharacters('hello', 5)).toEqual({ text: 'hello', clipped: false })
  })

  it('counts code points, not UTF-16 units', () => {
    const emoji = '😀'.repeat(10)
    expect(emoji.length).toBe(20)
    expect(clipCharacters(emoji, 10)).toEqual({ text: emoji, clipped: false })
    const clipped = clipCharacters(emoji, 6, '…')
    expect(clipped.clipped).toBe(true)
    expect(clipped.text).toBe(`${'😀'.repeat(5)}…`)
    expect(Array.from(clipped.text)).toHaveLength(6)
    expect(clipped.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
  })

  it('fits the default marker in the budget', () => {
    const out = clipCharacters('a'.repeat(100), 50)
    expect(out.clipped).toBe(true)
    expect(out.text.endsWith('\n\n…(clipped)')).toBe(true)
    expect(Array.from(out.text)).toHaveLength(50)
  })
})

describe('table and details', () => {
  it('builds a GFM table with right-aligned columns', () => {
    const rows = [
      { a: 'x', b: '1' },
      { a: '', b: '2' },
    ]
    expect(
      table(
        [
          { header: 'A', cell: (row: { a: string; b: string }) => row.a },
          { header: 'B', cell: (row) => row.b, align: 'right' },
        ],
        rows,
      ),
    ).toBe('| A | B |\n| --- | ---: |\n| x | 1 |\n|   | 2 |')
  })

  it('details escapes the summary and keeps the body', () => {
    expect(details('<b>x</b>', 'body')).toBe('<details><summary>&lt;b&gt;x&lt;/b&gt;</summary>\n\nbody\n\n</details>')
    expect(details('s', 'b', true).startsWith('<details open><summary>s</summary>')).toBe(true)
  })
})

describe('formatDuration and formatUsd', () => {
  it.each([
    [undefined, '—'],
    [-1, '—'],
    [Number.NaN, '—'],
    [0, '0 ms'],
    [999, '999 ms'],
    [1_500, '1.5 s'],
    [59_940, '59.9 s'],
    [65_000, '1 min 5 s'],
    [3_600_000, '1 h 0 min'],
    [5_430_000, '1 h 30 min'],
  ])('formatDuration(%s) = %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })

  it.each([
    [0, '$0'],
    [1_234, '$0.0012'],
    [42_000, '$0.04'],
    [1_500_000, '$1.50'],
  ])('formatUsd(%i) = %s', (micros, text) => {
    expect(formatUsd(micros)).toBe(text)
  })
})
