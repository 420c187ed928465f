import { describe, expect, it } from 'vitest'
import {
  clipBytes,
  clipCharacters,
  code,
  details,
  fenced,
  inline,
  showFormatCharacters,
  escapeControls,
  table,
} from '../../../src/markdown/format.js'
import { formatDuration, formatUsd } from '../../../src/units.js'

const ZWSP = '\u200b'

describe('inline', () => {
  it('escapes pipes so a table cell cannot split', () => {
    expect(inline('a | b')).toBe('a \\| b')
  })

  it('turns HTML into text', () => {
    expect(inline('<b>x</b> & <img src=x onerror=alert(1)>')).toBe(
      '&lt;b&gt;x&lt;/b&gt; &amp; &lt;img src=x onerror=alert\\(1\\)&gt;',
    )
  })

  it('escapes backticks and markdown punctuation', () => {
    expect(inline('`code` *em* _u_ [l](u) #h ~s~ !')).toBe(
      '\\`code\\` \\*em\\* \\_u\\_ \\[l\\]\\(u\\) \\#h \\~s\\~ \\!',
    )
  })

  it('joins lines', () => {
    expect(inline('one\ntwo\r\nthree\rfour')).toBe('one two three four')
  })

  it('cannot open a block at the start of a line: list markers, rules, setext underlines, code indentation', () => {
    expect(inline('- x')).toBe('\\- x')
    expect(inline('---')).toBe('\\---')
    expect(inline('===')).toBe('\\===')
    expect(inline('1. x')).toBe('1\\. x')
    expect(inline('12) x')).toBe('12\\) x')
    expect(inline('    code')).toBe('code')
    expect(inline('a - b 1. c')).toBe('a - b 1. c')
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

describe('escapeControls', () => {
  it('puts a file name on one line: breaks and control characters escaped, the rest as it is', () => {
    expect(escapeControls('deploy/a.yaml\nImpact: none\r\n\t\u001b[31m.yaml')).toBe(
      'deploy/a.yaml\\nImpact: none\\r\\n\\t\\u001b[31m.yaml',
    )
    expect(escapeControls('a\u2028b\u0085c')).toBe('a\\u2028b\\u0085c')
    expect(escapeControls('deploy/shop/ünïcode.yaml')).toBe('deploy/shop/ünïcode.yaml')
  })
})

describe('showFormatCharacters', () => {
  it('spells out invisible characters outside Cf too: variation selectors, Hangul fillers, the braille blank', () => {
    // a sentence hidden one byte a selector after a visible letter, as was done (issue 34 item 5)
    const hidden = [...'approve'].map((c) => String.fromCodePoint(0xe0100 + c.charCodeAt(0) - 16)).join('')
    expect(showFormatCharacters(`ok${hidden}`)).toBe(
      `ok${[...hidden].map((c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}>`).join('')}`,
    )
    expect(showFormatCharacters('a\u3164b\u115fc\u1160d\uffa0e\u2800f\u17b4g\u17b5h\u034fi\u180bj\u{1d159}k')).toBe(
      'a<U+3164>b<U+115F>c<U+1160>d<U+FFA0>e<U+2800>f<U+17B4>g<U+17B5>h<U+034F>i<U+180B>j<U+1D159>k',
    )
  })

  it('keeps one presentation selector after an emoji (or keycap digit) and one variation selector after an ideograph, never a second', () => {
    for (const kept of ['❤\ufe0f', '☺\ufe0e', '1\ufe0f\u20e3', '葛\u{e0100}', '辻\ufe00'])
      expect(showFormatCharacters(kept)).toBe(kept)
    expect(showFormatCharacters('😀\ufe0f\u{e0100}')).toBe('😀\ufe0f<U+E0100>')
    expect(showFormatCharacters('😀\u{e0100}')).toBe('😀<U+E0100>')
    expect(showFormatCharacters('a\ufe0f')).toBe('a<U+FE0F>')
    expect(showFormatCharacters('1\ufe00')).toBe('1<U+FE00>')
    // spaces are not hidden: they show as space
    expect(showFormatCharacters('a\u2003b\u3000c')).toBe('a\u2003b\u3000c')
  })

  it('spells out direction controls and other invisible format characters, once', () => {
    const text = 'a\u202eb\u2066c\u2069d\u200ee\u061cf\u200bg\u2060h\ufeffi\u00adj\u{e0041}k\u200dl'
    const shown =
      'a<U+202E>b<U+2066>c<U+2069>d<U+200E>e<U+061C>f<U+200B>g<U+2060>h<U+FEFF>i<U+00AD>j<U+E0041>k<U+200D>l'
    expect(showFormatCharacters(text)).toBe(shown)
    expect(showFormatCharacters(shown)).toBe(shown)
    for (const escaped of [inline(text), code(text), fenced(text), details(text, 'body')])
      expect(escaped).not.toMatch(/\p{Cf}/u)
  })

  it('keeps joiners that scripts and emoji need, Arabic number signs, and its own zero-width space after @ and in :: and ##[', () => {
    for (const kept of [
      '👩\u200d👩\u200d👧',
      '👩🏽\u200d💻',
      '❤️\u200d🔥',
      'می\u200cخواهم',
      'क्\u200dष',
      '\u0600١٢',
      '@\u200bteam',
      ':\u200b:x',
      '##\u200b[error]',
    ]) {
      expect(showFormatCharacters(kept)).toBe(kept)
    }
    expect(showFormatCharacters('pro\u200cd')).toBe('pro<U+200C>d')
  })
})

describe('clipBytes', () => {
  it('keeps text within budget as is', () => {
    expect(clipBytes('héllo', 6)).toEqual({ text: 'héllo', clipped: false })
  })

  it('cuts to the byte budget, marker included, without splitting a character', () => {
    const clipped = clipBytes('😀'.repeat(10), 10, '…')
    expect(clipped.clipped).toBe(true)
    expect(clipped.text).toBe('😀…')
    expect(Buffer.byteLength(clipped.text)).toBeLessThanOrEqual(10)
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
    [59_960, '1 min'],
    [119_700, '2 min'],
    [1_800_000, '30 min'],
    [3_600_000, '1 h'],
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
