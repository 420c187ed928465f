/** The demo's markdown renderer: job summaries and comments laid out for a terminal. */
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../scripts/demo/terminal-markdown.ts'
import { renderImpactReport } from '../../src/commands/impact/impact-report.ts'
import type { ImpactReport, RelatedObject, TargetImpact } from '../../src/commands/impact/model.ts'
import type { Target } from '../../src/model/target.ts'

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

  it('nests an impact report’s folds: each target’s tables under its own fold, none under a folded target', () => {
    // a report as the action renders it: the first target unfolded, its three tables folded inside it
    const checkout: Target = {
      kind: 'Deployment',
      group: 'apps',
      namespace: 'shop',
      name: 'checkout',
      origin: { kind: 'manifest', path: 'deploy/shop/checkout.yaml', change: 'modified' },
    }
    const frontend: Target = { ...checkout, name: 'frontend', origin: { kind: 'input' } }
    const related = (kind: string, name: string): RelatedObject => ({
      group: '',
      kind,
      namespace: 'shop',
      name,
      relations: ['references'],
    })
    const impact = (target: Target, edge: string): TargetImpact => ({
      target,
      edge,
      upstream: [related('ConfigMap', `${target.name}-config`)],
      downstream: [related('Pod', `${target.name}-1`)],
      associated: [related('Service', target.name)],
      incomplete: false,
    })
    const report: ImpactReport = {
      source: 'query',
      targets: [checkout, frontend],
      impacts: [impact(checkout, 'prod-eu'), impact(checkout, 'prod-us'), impact(frontend, 'prod-eu')],
      notFound: [],
      skippedFiles: [],
      skippedTargets: [],
      edges: ['prod-eu', 'prod-us'],
      totals: { upstream: 2, downstream: 2, associated: 2 },
      maxDepth: 5,
      warnings: [],
    }
    const folds = renderMarkdown(renderImpactReport(report, { budget: 65_000 })).filter((line) => /^\s*[▸▾]/.test(line))
    expect(folds).toEqual([
      '▾ Deployment.apps shop/checkout on prod-eu — 1 upstream, 1 downstream, 1 associated',
      '  ▸ Upstream — what it depends on (1) (folded)',
      '  ▸ Downstream — what depends on it (1) (folded)',
      '  ▸ Associated — declared links (1) (folded)',
      '▸ Deployment.apps shop/checkout on prod-us — 1 upstream, 1 downstream, 1 associated (folded)',
      '▸ Deployment.apps shop/frontend on prod-eu — 1 upstream, 1 downstream, 1 associated (folded)',
    ])
  })

  it('opens a fold inside an open one only when asked, and keeps what follows a nested fold inside its parent', () => {
    const text = md(
      '<details open><summary>Target</summary>',
      '',
      '<details><summary>Inner one</summary>',
      '',
      'Inside one.',
      '',
      '</details>',
      '',
      'After the inner fold.',
      '',
      '</details>',
      '',
      'Outside.',
    )
    expect(renderMarkdown(text)).toEqual([
      '▾ Target',
      '',
      '  ▸ Inner one (folded)',
      '',
      '  After the inner fold.',
      '',
      'Outside.',
    ])
    expect(renderMarkdown(text, { openDetails: 1 })).toEqual([
      '▾ Target',
      '',
      '  ▾ Inner one',
      '',
      '    Inside one.',
      '',
      '  After the inner fold.',
      '',
      'Outside.',
    ])
  })
})
