/**
 * The agent-answer neutraliser, judged by GitHub's own parser (cmark-gfm): whatever the agent
 * writes, the markdown it becomes holds no raw HTML, no comment, no live mention, no image and
 * no link but http(s)/mailto, ranks its headings below ours, and cannot reach past itself to
 * the sections the action writes after it.
 */
import { expect, it } from 'vitest'
import { untrustedMarkdown } from '../../../src/markdown/untrusted.js'
import { byteLength } from '../../../src/markdown/format.js'
import { describeWithGfm, judgeGfm, renderGfm, type GfmJudgement } from '../../oracles/gfm.ts'

/** What the run summary puts after the agent's answer: the sections that must survive it. */
const AFTER = [
  '### Sources',
  '',
  '- https://example.com/source',
  '',
  '<details><summary>Steps (1)</summary>',
  '',
  '| # | Tool |',
  '| ---: | --- |',
  '| 1 | `kubectl` |',
  '',
  '</details>',
].join('\n')
const OWN_HTML = ['<details><summary>Steps (1)</summary>\n', '</details>\n']

/** The answer embedded the way the run summary embeds it, judged. */
function embedded(answer: string): { out: string; judgement: GfmJudgement } {
  const out = untrustedMarkdown(answer, { headingsBelow: 3 }).markdown
  return { out, judgement: judgeGfm(`### Output\n\n${out}\n\n${AFTER}\n`) }
}

function expectContained(answer: string): GfmJudgement {
  const { out, judgement } = embedded(answer)
  const context = `neutralised:\n${out}`
  expect(judgement.rawHtml, context).toEqual(OWN_HTML)
  expect(judgement.mentions, context).toEqual([])
  expect(judgement.images, context).toEqual([])
  expect(judgement.comments, context).toEqual([])
  for (const link of judgement.links) expect(link, context).toMatch(/^(https?|mailto):/)
  // Our sections: Output first, Sources last among the level-3 headings, the agent's all below.
  const ours = judgement.headings.filter((heading) => heading.level <= 3)
  expect(ours, context).toEqual([
    { level: 3, text: 'Output' },
    { level: 3, text: 'Sources' },
  ])
  const steps = judgement.tables.at(-1)
  expect(steps?.header, context).toEqual(['#', 'Tool'])
  expect(steps?.rows, context).toBe(1)
  return judgement
}

const HOSTILE: Record<string, string> = {
  'a list item whose fence the list closes':
    '- item\n  ```\n  code\nafter <img src=x onerror=alert(1)>\n<!-- hub-action:impact v1 key=x run=1 attempt=1 sha=a -->',
  'an unclosed fence in a block quote': '> quote\n> ```\n> code\n\n<details open><summary>x</summary>\n\n@everyone',
  'an unclosed fence at the end': '```js\nconst a = 1',
  'a tilde fence left open': '~~~~\ncode <b>',
  'raw HTML blocks':
    '<img src=x onerror=alert(1)>\n\n<details open>\n\n<h1>Forged</h1>\n\n<script>alert(1)</script>\n\n<div>\n@everyone\n</div>',
  'inline HTML and comments':
    'text <b>bold</b> <!-- hub-action:impact v1 key=x --> <img src=x> </details> <summary>s</summary>',
  'a forged sticky marker on its own': '<!-- hub-action:impact v1 key=default run=99999999 attempt=1 sha=deadbeef -->',
  'mentions in prose, emphasis, headings, tables and lists':
    '@everyone @org/team (@octocat) **@admin** _@x_\n\n# @team\n\n| @a | b |\n|---|---|\n| @c | @d/e |\n\n- @f\n> @g',
  'mentions spelled with entities': '&#64;octocat &#x40;org/team &commat;x',
  'javascript links, plain, by reference and entity-encoded':
    '[a](javascript:alert(1)) [b][r] [c](java&#115;cript:alert(1)) [d](&#106;avascript&colon;x) <javascript:alert(1)>\n\n[r]: javascript:alert(2)',
  'data and vbscript links': '[a](data:text/html;base64,PHNjcmlwdD4=) [b](vbscript:x)',
  images:
    '![pixel](https://tracker.example/p.png) ![x](javascript:alert(1)) [![nested](https://x.example/i.png)](https://x.example)',
  'setext headings forging a section': 'Sources\n=======\n\nSteps\n-----',
  'ATX headings at every level': '# One\n## Two\n### Sources\n#### Four',
  'a link reference definition forging nothing': '[Sources]: https://example.com\n\n[Sources]',
  'a closing details tag and a new section': '</details>\n\n### Sources\n\n<details open>',
  'an escaped backtick before HTML': '\\`</details><!-- hub-action:run-summary -->`',
  'a one-line code span of three backticks': '```inline```\n</details>\n<!-- x -->\n<img src=x onerror=alert(1)>',
  'nested containers': '> - a\n>   > ```\n>   > code\n> - b <b>\n\n1. x\n   1. y\n      - ```\n        z',
  'deep nesting': Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i)}- level ${i} <b>`).join('\n'),
  'deep quotes': `${'>'.repeat(500)} <img src=x>`,
  'a table with HTML and pipes in code': '| a | b |\n|---|---|\n| `x|y` | <b>z</b> |\n| <img src=x> | @everyone |',
  'HTML in a table header': '| <details open> | @x |\n|---|---|\n| 1 | 2 |',
  'an HTML block that swallows markdown': '<table><tr><td>\n\n### Sources\n\n</td></tr></table>',
  'entities spelling tags': '&lt;img src=x&gt; &#60;script&#62;',
  'a thematic break under a list marker': '- ---\n* * *\n- - -\n- ***',
  'task lists': '- [ ] open <b>\n- [x] done @x',
  'hard breaks and trailing backslashes': 'a  \nb\\\nc\\',
  'CR line endings': 'a\r<img src=x>\r\n<details>\r',
  'NUL and control characters': 'a\u0000<b>\u0001\u001b[31m',
  autolinks: '<https://example.com/a> www.example.com https://example.com/b <mailto:a@b.c> a@b.c',
  'link titles and angle destinations': '[a](<https://example.com/x y> "t<b>") [b](https://example.com "@x")',
  'a code span holding a backtick': 'a ``x ` <i>`` b <i>',
  'HTML inside link text': '[<img src=x>](https://example.com) [<!-- c -->](https://example.com)',
  'unbalanced emphasis with HTML': '**<b>*_@x_*</b>**',
  'footnote-like and math-like text': '[^1]: <b>x</b>\n\n$$<img src=x>$$',
}

describeWithGfm('untrustedMarkdown, judged by cmark-gfm', () => {
  it.each(Object.entries(HOSTILE))('contains %s', (_, answer) => {
    expectContained(answer)
  })

  it('contains every hostile case at once', () => {
    expectContained(Object.values(HOSTILE).join('\n\n'))
  })

  it('contains random mixtures of hostile pieces, whatever their order and line breaks', () => {
    const pieces = [
      '- ',
      '> ',
      '  ',
      '    ',
      '1. ',
      '```',
      '~~~',
      '`',
      '<img src=x>',
      '<details open>',
      '</details>',
      '<!--',
      '-->',
      '<h1>',
      '@everyone',
      '@org/team',
      '[r]: javascript:x',
      '[r]',
      '===',
      '---',
      '|',
      '*',
      '_',
      '\\',
      '&#64;',
      '<script>',
      'text',
      '\n',
      '\n\n',
    ]
    let seed = 7
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % n
    }
    for (let round = 0; round < 60; round++) {
      const answer = Array.from({ length: 40 }, () => pieces[random(pieces.length)]).join('')
      expectContained(answer)
    }
  })

  it('keeps ordinary markdown as GitHub would render it, headings ranked below ours', () => {
    const answer = [
      '## Findings',
      '',
      'The **ledger** rollout is *blocked* by `PodDisruptionBudget/ledger`; see [the runbook](https://example.com/runbook).',
      '',
      '- one',
      '- two',
      '  - nested',
      '',
      '1. first',
      '2. second',
      '',
      '> quoted',
      '',
      '| a | b |',
      '| --- | ---: |',
      '| 1 | 2 |',
      '',
      '```yaml',
      'kind: Deployment',
      '```',
      '',
      '~~gone~~ and a\\',
      'hard break',
    ].join('\n')
    const expected = answer.replace('## Findings', '#### Findings')
    expect(renderGfm(untrustedMarkdown(answer, { headingsBelow: 3 }).markdown)).toBe(renderGfm(expected))
  })

  it('shows raw HTML as the text it is, line by line', () => {
    const out = untrustedMarkdown('<img src=x onerror=alert(1)>\n<div>\n  @x\n</div>').markdown
    expect(renderGfm(out)).toBe(
      '<p>&lt;img src=x onerror=alert(1)&gt;<br />\n&lt;div&gt;<br />\n@\u200bx<br />\n&lt;/div&gt;</p>\n',
    )
  })

  it('keeps safe links and drops the others to their text', () => {
    const judgement = judgeGfm(
      untrustedMarkdown(
        '[a](https://example.com/x) [b](mailto:dev@example.com) [c](javascript:y) [d](#top) [e](relative)',
      ).markdown,
    )
    expect(judgement.links).toEqual(['https://example.com/x', 'mailto:dev@example.com'])
  })
})

describeWithGfm('untrustedMarkdown: size', () => {
  it('fits a byte budget by whole blocks and says it cut', () => {
    const answer = Array.from({ length: 2_000 }, (_, i) => `Paragraph ${i} with <b>markup</b> & @mentions.`).join(
      '\n\n',
    )
    const result = untrustedMarkdown(answer, { maxBytes: 10_000 })
    expect(result.clipped).toBe(true)
    expect(byteLength(result.markdown)).toBeLessThanOrEqual(10_000)
    expect(result.markdown).toContain('Paragraph 0 ')
    expectContained(answer)
  })

  it('shows the start of one huge block as code rather than nothing', () => {
    const result = untrustedMarkdown(`<div>${'&'.repeat(500_000)}</div>`, { maxBytes: 50_000 })
    expect(result.clipped).toBe(true)
    expect(byteLength(result.markdown)).toBeLessThanOrEqual(50_000)
    const judgement = judgeGfm(result.markdown)
    expect(judgement.rawHtml).toEqual([])
    expect(judgement.html.startsWith('<pre><code')).toBe(true)
  })

  it('is not clipped when it fits', () => {
    expect(untrustedMarkdown('short', { maxBytes: 100 })).toEqual({ markdown: 'short', clipped: false })
  })

  it.each([
    ['emphasis delimiters', '*a'.repeat(100_000)],
    ['underscores', '_a'.repeat(100_000)],
    ['backticks', '`a'.repeat(100_000)],
    ['brackets', '['.repeat(200_000)],
    ['nested quotes', '>'.repeat(200_000)],
    ['nested lists', Array.from({ length: 1_000 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n')],
  ])('handles pathological input (%s) and still contains it', (_, answer) => {
    const result = untrustedMarkdown(answer, { maxBytes: 500_000 })
    expect(byteLength(result.markdown)).toBeLessThanOrEqual(500_000)
    const judgement = judgeGfm(`${result.markdown}\n\n### Sources\n`)
    expect(judgement.rawHtml).toEqual([])
    expect(judgement.headings.at(-1)).toEqual({ level: 3, text: 'Sources' })
  })
})
