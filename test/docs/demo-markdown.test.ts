/** The demo's markdown renderer: job summaries and comments laid out for a terminal. */
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../scripts/demo/terminal-markdown.ts'

const md = (...lines: string[]): string => lines.join('\n')

describe('renderMarkdown', () => {
  it('underlines top headings and keeps paragraphs, without markdown syntax', () => {
    expect(
      renderMarkdown(md('## ✅ Agent run', '', 'Run **r1** of `quick` \\(3/3\\) &amp; done.', '', '#### Answer')),
    ).toEqual(['✅ Agent run', '────────────', '', 'Run r1 of quick (3/3) & done.', '', 'Answer'])
  })

  it('aligns table columns, right-aligned ones to the right', () => {
    const lines = renderMarkdown(
      md(
        '| # | Tool | Duration |',
        '| ---: | --- | ---: |',
        '| 1 | `graph_query` | 42 ms |',
        '| 10 | `kubectl_get` | 1,065 ms |',
      ),
    )
    expect(lines).toEqual([
      ' #  Tool         Duration',
      '──  ───────────  ────────',
      ' 1  graph_query     42 ms',
      '10  kubectl_get  1,065 ms',
    ])
  })

  it('bullets and numbers lists, nested items indented', () => {
    expect(
      renderMarkdown(md('- one', '  - inner', '- [two](https://example.com/two)', '', '3. third', '4. fourth')),
    ).toEqual(['• one', '  • inner', '• two (https://example.com/two)', '', '3. third', '4. fourth'])
  })

  it('shows <details open> unfolded, as GitHub does, without using up the ones asked for', () => {
    const text = md(
      '<details open><summary>First</summary>',
      '',
      'Inside one.',
      '',
      '</details>',
      '',
      '<details><summary>Second</summary>',
      '',
      'Inside two.',
      '',
      '</details>',
    )
    expect(renderMarkdown(text)).toEqual(['▾ First', '', '  Inside one.', '', '▸ Second (folded)'])
    expect(renderMarkdown(text, { openDetails: 1 })).toEqual([
      '▾ First',
      '',
      '  Inside one.',
      '',
      '▾ Second',
      '',
      '  Inside two.',
    ])
  })

  it('hides HTML comments and folds <details> to its summary, opening only as many as asked', () => {
    const text = md(
      '<!-- hub-action:impact v1 key=k -->',
      '## Impact',
      '',
      '<details><summary>Deployment <b>shop/checkout</b></summary>',
      '',
      'Inside one.',
      '',
      '</details>',
      '',
      '<details><summary>Second</summary>',
      '',
      'Inside two.',
      '',
      '</details>',
    )
    expect(renderMarkdown(text)).toEqual([
      'Impact',
      '──────',
      '',
      '▸ Deployment shop/checkout (folded)',
      '',
      '▸ Second (folded)',
    ])
    expect(renderMarkdown(text, { openDetails: 1 })).toEqual([
      'Impact',
      '──────',
      '',
      '▾ Deployment shop/checkout',
      '',
      '  Inside one.',
      '',
      '▸ Second (folded)',
    ])
  })

  it('labels GitHub alerts, quotes with a bar, and names a Mermaid diagram instead of printing it', () => {
    const text = md(
      '> [!NOTE]',
      '> Impact comes only from declared relationships.',
      '',
      '```mermaid',
      'flowchart LR',
      '  a --> b',
      '```',
      '',
      '> a quote',
    )
    expect(renderMarkdown(text)).toEqual([
      '│ ℹ Note',
      '│ Impact comes only from declared relationships.',
      '',
      '[a Mermaid diagram of 2 lines: GitHub draws it]',
      '',
      '│ a quote',
    ])
  })

  it('indents other code blocks', () => {
    expect(renderMarkdown(md('```', 'model credential missing', '```'))).toEqual(['    model credential missing'])
  })
})
