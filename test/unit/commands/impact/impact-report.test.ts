import { Buffer } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import type { ImpactReport, RelatedObject, TargetImpact } from '../../../../src/commands/impact/model.js'
import type { Target } from '../../../../src/model/target.js'
import { renderImpactReport, renderImpactVerdictLine } from '../../../../src/commands/impact/impact-report.js'
import { IMPACT_MARKER_PREFIX } from '../../../../src/github/sticky-comment.js'
import { GRAPH_LEGEND, OWNED_LEGEND } from '../../../../src/commands/impact/mermaid.js'
import { SUMMARY_BYTE_BUDGET } from '../../../../src/markdown/format.js'

const COMMENT_BUDGET = 65_000
const SUMMARY_BUDGET = 1_000_000
const CAVEAT =
  'Impact comes only from declared relationships: owner references, spec references, label selectors, namespace membership and declared links.'

function target(name: string, extra: Partial<Target> = {}): Target {
  return { kind: 'Deployment', group: '', namespace: 'shop', name, origin: { kind: 'input' }, ...extra }
}

function related(name: string, extra: Partial<RelatedObject> = {}): RelatedObject {
  return { group: '', kind: 'ConfigMap', namespace: 'shop', name, relations: ['references'], ...extra }
}

function impact(of: Target, extra: Partial<TargetImpact> = {}): TargetImpact {
  return { target: of, edge: 'prod-eu', upstream: [], downstream: [], associated: [], incomplete: false, ...extra }
}

function report(extra: Partial<ImpactReport> = {}): ImpactReport {
  return {
    source: 'query',
    targets: [],
    impacts: [],
    notFound: [],
    skippedFiles: [],
    skippedTargets: [],
    edges: ['prod-eu', 'prod-us'],
    totals: { upstream: 0, downstream: 0, associated: 0 },
    maxDepth: 5,
    warnings: [],
    ...extra,
  }
}

function many(count: number, name: (index: number) => string, extra: Partial<RelatedObject> = {}): RelatedObject[] {
  return Array.from({ length: count }, (_, index) =>
    related(name(index), { kind: 'Pod', relations: ['descendants'], ...extra }),
  )
}

/** One target with 5,000 downstream objects: a large blast radius. */
function blastRadius(
  name: (index: number) => string = (index) => `checkout-7d9f8c6b5-${String(index).padStart(5, '0')}`,
): ImpactReport {
  const checkout = target('checkout', {
    group: 'apps',
    origin: { kind: 'manifest', path: 'k8s/checkout.yaml', change: 'removed' },
  })
  const downstream = many(5000, name)
  const upstream = [
    related('checkout-config'),
    related('checkout', { kind: 'ServiceAccount', relations: ['references'] }),
  ]
  return report({
    targets: [checkout, target('ghost')],
    impacts: [
      impact(checkout, {
        upstream,
        downstream,
        associated: [related('payments', { kind: 'Service', relations: ['linked'] })],
      }),
    ],
    notFound: [target('ghost')],
    skippedFiles: [{ path: 'k8s/broken.yaml', reason: 'not valid YAML' }],
    totals: { upstream: 2, downstream: 5000, associated: 1 },
    warnings: ['the hub returned at most 10000 rows'],
  })
}

const chars = (text: string) => Array.from(text).length

/** Cells of a GFM table row: split on pipes not escaped with a backslash. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
}

/** Every table row (header, rule and body) in the markdown. */
function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('|'))
}

/** Markdown with fenced blocks removed: what GitHub parses as prose/HTML. */
function outsideFences(markdown: string): string {
  return markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '')
}

describe('renderImpactReport: overview and verdicts', () => {
  const checkout = target('checkout', { group: 'apps' })
  const cart = target('cart', {
    kind: 'Service',
    origin: { kind: 'manifest', path: 'k8s/cart.yaml', change: 'removed' },
  })
  const markdown = renderImpactReport(
    report({
      targets: [checkout, cart, target('ghost')],
      impacts: [
        impact(checkout, {
          upstream: [related('config'), related('secret', { kind: 'Secret' })],
          downstream: [related('checkout-7d9', { kind: 'ReplicaSet', group: 'apps', relations: ['descendants'] })],
          associated: [related('payments', { kind: 'Service', edge: 'prod-us', relations: ['grouped', 'linked'] })],
        }),
        impact(checkout, { edge: 'prod-us', incomplete: true }),
        impact(cart, {
          downstream: [related('web', { kind: 'Ingress', group: 'networking.k8s.io', relations: ['selected-by'] })],
        }),
      ],
      notFound: [
        target('ghost', { edge: 'staging', origin: { kind: 'manifest', path: 'k8s/ghost.yaml', change: 'added' } }),
      ],
      skippedFiles: [{ path: 'charts/app/templates/x.yaml', reason: 'Helm template, not a manifest' }],
      totals: { upstream: 2, downstream: 2, associated: 1 },
      commit: '0123456789abcdef0123456789abcdef01234567',
      warnings: ['edge prod-us is catching up'],
    }),
    { budget: COMMENT_BUDGET },
  )

  it('starts with the default title and the distinct counts', () => {
    // One impact in the fixture was cut by the hub: its counts are a lower bound.
    expect(
      markdown.startsWith(
        '## Impact of this change\n\n**3 targets · ≥ 2 upstream · ≥ 2 downstream · ≥ 1 associated**\n\n',
      ),
    ).toBe(true)
    expect(markdown).toContain('Not found on any edge: 1 · Skipped files: 1 · Incomplete results: 1')
    expect(markdown).toContain(
      'Relationships up to depth 5, read through the query API for commit 0123456789abcdef0123456789abcdef01234567.',
    )
  })

  it('has one verdict line per target and edge, with the removed and incomplete markers', () => {
    expect(markdown).toContain(
      [
        '### By target and edge',
        '',
        '- **Deployment.apps shop/checkout** on prod-eu — 2 upstream, 1 downstream, 1 associated',
        '- **Deployment.apps shop/checkout** on prod-us — 0 upstream, 0 downstream, 0 associated · ⚠️ **incomplete** — the hub cut the result (row cap or limit), so there may be more',
        '- **Service shop/cart** on prod-eu — 0 upstream, 1 downstream, 0 associated · ⚠️ **removed in this PR** — deleting it affects every downstream object',
      ].join('\n'),
    )
  })

  it('puts graph and tables for each target and edge inside details, the first one open', () => {
    const targets = /<details( open)?><summary>[^<]* on prod-(eu|us) — /g
    expect(markdown.match(targets)?.map((found) => found.startsWith('<details open>'))).toEqual([true, false, false])
    expect(markdown).toContain(
      '<details open><summary>Deployment.apps shop/checkout on prod-eu — 2 upstream, 1 downstream, 1 associated</summary>\n\n',
    )
    expect(markdown).toContain(`Named in the targets input.\n\n${GRAPH_LEGEND}\n${OWNED_LEGEND}\n\n\`\`\`mermaid\n`)
    expect(markdown).toContain('From k8s/cart.yaml (removed).')
    // Under a graph, which names the objects already, each table folds behind its title.
    expect(markdown).toContain(
      [
        '<details><summary>Upstream — what it depends on (2)</summary>',
        '',
        '| Kind | Namespace/Name | Relation(s) |',
        '| --- | --- | --- |',
        '| ConfigMap | shop/config | references |',
        '| Secret | shop/secret | references |',
        '',
        '</details>',
      ].join('\n'),
    )
    expect(markdown).toContain('| ReplicaSet.apps | shop/checkout-7d9 | descendants |')
    expect(markdown).toContain('| Ingress.networking.k8s.io | shop/web | selected-by |')
    expect(markdown.match(/```mermaid/g)).toHaveLength(3)
    // three targets and edges, and the four tables of their non-empty directions
    expect(markdown.match(/<\/details>/g)).toHaveLength(3 + 4)
  })

  it('per-edge tables have no Edge column; an object on another edge says so after its name', () => {
    for (const row of tableRows(markdown).filter((line) => line.includes('Kind')))
      expect(cells(row)).toEqual(['Kind', 'Namespace/Name', 'Relation(s)'])
    expect(markdown).toContain('| Service | shop/payments (on edge prod-us) | grouped, linked |')
    expect(markdown).not.toMatch(/\| prod-eu \|/)
  })

  it('a legend above every graph: upstream left, downstream right, dotted = associated', () => {
    expect(GRAPH_LEGEND).toMatch(
      /left: what it depends on \(upstream\)\. right: what depends on it \(downstream\)\. dotted line: an associated object/i,
    )
    expect(markdown.split(/_Left: [^\n]*_\n(_Dotted arrow: [^\n]*_\n)?\n```mermaid\n/)).toHaveLength(1 + 3 * 2)
    // prod-eu's ReplicaSet is owned: its graph says what a dotted arrow means.
    expect(markdown).toContain(`${GRAPH_LEGEND}\n${OWNED_LEGEND}\n\n\`\`\`mermaid\n`)
  })

  it('no details body repeats its summary line: it says only where the target came from', () => {
    const bodies = [...markdown.matchAll(/<summary>(.*?) on (\S+) — .*<\/summary>\n\n(.*)\n/g)]
    expect(bodies).toHaveLength(3)
    for (const [, name, edge, body] of bodies) {
      expect(body).not.toContain(name)
      expect(body).not.toContain(`edge ${edge}`)
    }
    expect(bodies.map((match) => match[3])).toEqual([
      'Named in the targets input.',
      'Named in the targets input. The hub cut this result (row cap or limit): the lists below are incomplete.',
      'From k8s/cart.yaml (removed).',
    ])
  })

  it('says "none found" for an empty direction, without claiming there is nothing', () => {
    expect(markdown).toContain('**Upstream — what it depends on:** none found.')
    expect(markdown).toContain('**Associated — declared links:** none found.')
    expect(markdown).toContain('The hub cut this result (row cap or limit): the lists below are incomplete.')
  })

  it('explains targets found on no edge and lists the engaged edges', () => {
    expect(markdown).toContain('### Not synchronized (1)\n\nThese targets were found on no edge.')
    expect(markdown).toMatch(/the object is new .*the edge named is stale .*cannot see it/)
    expect(markdown).toContain('Engaged edges in this workspace: prod-eu, prod-us.')
    expect(markdown).toContain('- Deployment shop/ghost (edge staging) — from k8s/ghost.yaml (added)')
  })

  it('lists skipped files with their reason, and the warnings', () => {
    expect(markdown).toContain('### Skipped files (1)\n\n- charts/app/templates/x.yaml — Helm template, not a manifest')
    expect(markdown).toContain('### Warnings\n\n- edge prod-us is catching up')
  })

  it('ends with the caveat and is not marked as trimmed', () => {
    expect(
      markdown.endsWith(
        `> [!NOTE]\n> ${CAVEAT}\n> Runtime traffic (calls, DNS names, queues, shared databases) is not traced, and the hub stops at 10,000 rows.\n> An empty list proves nothing: something can still depend on an object in a way the graph does not record.\n`,
      ),
    ).toBe(true)
    expect(markdown).not.toContain('Trimmed to fit')
  })

  it('every table row has three cells', () => {
    const rows = tableRows(markdown)
    expect(rows.length).toBeGreaterThan(0)
    for (const row of rows) expect(cells(row)).toHaveLength(3)
  })
})

describe('renderImpactReport: small and empty reports', () => {
  it('a report without targets still has title, totals and caveat', () => {
    const markdown = renderImpactReport(report(), { budget: COMMENT_BUDGET, title: 'Fleet impact' })
    expect(markdown.startsWith('## Fleet impact\n\n**0 targets · 0 upstream · 0 downstream · 0 associated**')).toBe(
      true,
    )
    expect(markdown).toContain('No targets: nothing was named in `targets` and no manifest declared an object.')
    expect(markdown).toContain(CAVEAT)
    expect(markdown).not.toContain('### Not synchronized')
    expect(markdown).not.toContain('### Skipped files')
    expect(markdown).not.toContain('### Warnings')
  })

  it('targets found nowhere: says so, and says when the edges were not read', () => {
    const markdown = renderImpactReport(report({ targets: [target('a')], notFound: [target('a')], edges: [] }), {
      budget: COMMENT_BUDGET,
    })
    expect(markdown).toContain('**1 target · 0 upstream')
    expect(markdown).toContain('None of the targets was found on an edge')
    expect(markdown).toContain('No engaged edges were read for this workspace')
    expect(markdown).toContain('- Deployment shop/a — named in the targets input')
  })

  it('the title is escaped too', () => {
    expect(renderImpactReport(report(), { budget: COMMENT_BUDGET, title: '<b>x</b> @team' })).toContain(
      '## &lt;b&gt;x&lt;/b&gt; @\u200bteam\n',
    )
  })
})

describe('renderImpactReport: hostile names', () => {
  const hostile = [
    '<img src=x onerror=1>',
    'a|b',
    '@octocat',
    '<!-- hub-action:impact -->',
    '`tick`',
    '</details>',
    'line\nbreak',
  ]
  const evil = target('<!-- hub-action:impact --><img src=x onerror=1>', {
    kind: 'Deploy|ment',
    namespace: '@octocat',
    edge: 'edge`|`x',
    origin: { kind: 'manifest', path: 'k8s/<img src=x onerror=1>|@octocat.yaml', change: 'removed' },
  })
  const objects = hostile.map((name, index) =>
    related(name, {
      kind: hostile[(index + 1) % hostile.length] ?? 'x',
      namespace: hostile[(index + 2) % hostile.length],
      edge: hostile[(index + 3) % hostile.length],
      relations: ['a|b', '<!--'],
    }),
  )
  const markdown = renderImpactReport(
    report({
      targets: [evil],
      impacts: [
        impact(evil, {
          edge: '<!-- hub-action:impact -->',
          upstream: objects,
          downstream: objects,
          associated: objects,
        }),
      ],
      notFound: [evil],
      skippedFiles: [{ path: '<!-- hub-action:impact -->|x', reason: '<img src=x onerror=1> @octocat `x`' }],
      edges: ['<img src=x onerror=1>', '@octocat'],
      commit: '<!-- x -->',
      totals: { upstream: 7, downstream: 7, associated: 7 },
      warnings: ['<!-- hub-action:impact --> @octocat <img src=x onerror=1>'],
    }),
    { budget: COMMENT_BUDGET, summaryUrl: 'https://github.com/o/r/actions/runs/1?x=<!--' },
  )

  it('contains no raw HTML and no comment opener', () => {
    expect(markdown).not.toContain('<img')
    expect(markdown).not.toContain('<!--')
    // The hostile names are in the report, as escaped text: the checks above and below do not
    // pass on a report that dropped them. (A raw marker is already ruled out by the '<!--' check.)
    expect(markdown).toContain(IMPACT_MARKER_PREFIX.replace('<!', '&lt;\\!') + ' --&gt;&lt;img src=x onerror=1&gt;')
    expect(markdown).toContain('| &lt;/details&gt; |')
    // The only tags are the ones the renderer writes.
    const tags = outsideFences(markdown).match(/<\/?[a-zA-Z][^>]*>/g) ?? []
    expect(new Set(tags)).toEqual(new Set(['<details open>', '<details>', '<summary>', '</summary>', '</details>']))
    // the target's, and its three tables folded under its graph
    expect(markdown.match(/<\/details>/g)).toHaveLength(1 + 3)
  })

  it('mentions do not notify', () => {
    expect(markdown).not.toMatch(/@octocat/)
    expect(markdown).toContain('@\u200boctocat')
  })

  it('pipes do not split table rows: every row has three cells', () => {
    const rows = tableRows(markdown)
    expect(rows).toHaveLength(3 * (2 + hostile.length))
    for (const row of rows) expect(cells(row)).toHaveLength(3)
  })

  it('backticks are escaped outside code', () => {
    expect(outsideFences(markdown)).not.toMatch(/(?<!\\)`/)
  })

  it('the removed marker still shows for a hostile target', () => {
    expect(markdown).toContain('⚠️ **removed in this PR** — deleting it affects every downstream object')
  })

  it('line breaks in names do not start new lines', () => {
    expect(markdown).toContain('line break')
    expect(markdown).not.toMatch(/\nbreak/)
  })
})

describe('renderImpactVerdictLine', () => {
  it('is one plain line with counts and markers', () => {
    const removed = target('checkout', { origin: { kind: 'manifest', path: 'k8s/a.yaml', change: 'removed' } })
    expect(
      renderImpactVerdictLine(
        impact(removed, { upstream: [related('a')], downstream: [related('b'), related('c')], incomplete: true }),
      ),
    ).toBe(
      'Deployment shop/checkout on prod-eu — 1 upstream, 2 downstream, 0 associated · removed in this PR — deleting it affects every downstream object · incomplete — the hub cut the result (row cap or limit), so there may be more',
    )
    expect(renderImpactVerdictLine(impact(target('cart', { group: 'apps', namespace: undefined })))).toBe(
      'Deployment.apps cart on prod-eu — 0 upstream, 0 downstream, 0 associated',
    )
  })

  it('no markdown escapes, but no line breaks or workflow commands either', () => {
    const line = renderImpactVerdictLine(impact(target('a_b*c\n::error::pwned', { kind: '::warning::x' })))
    expect(line).toBe(
      ':\u200b:warning:\u200b:x shop/a_b*c :\u200b:error:\u200b:pwned on prod-eu — 0 upstream, 0 downstream, 0 associated',
    )
    expect(line).not.toContain('\n')
    expect(line).not.toContain('::')
  })
})

describe('renderImpactReport: budgets', () => {
  it('a 5,000-object blast radius fits a 65,000-character comment, keeping totals, verdict, not-found and caveat', () => {
    const markdown = renderImpactReport(blastRadius(), {
      budget: COMMENT_BUDGET,
      summaryUrl: 'https://github.com/o/r/actions/runs/42',
    })
    expect(chars(markdown)).toBeLessThanOrEqual(COMMENT_BUDGET)
    expect(markdown).toContain('**2 targets · 2 upstream · 5,000 downstream · 1 associated**')
    expect(markdown).toContain(
      '- **Deployment.apps shop/checkout** on prod-eu — 2 upstream, 5,000 downstream, 1 associated · ⚠️ **removed in this PR**',
    )
    expect(markdown).toContain('### Not synchronized (1)')
    expect(markdown).toContain('Deployment shop/ghost')
    expect(markdown).toContain(CAVEAT)
    expect(markdown).toContain(
      'Trimmed to fit: [see the full report in the job summary](<https://github.com/o/r/actions/runs/42>).',
    )
    // Sections went in order: the graph first, then associated and upstream; the downstream
    // table is cut to its first rows (whole rows, never mid-row) and says how many more there are.
    expect(markdown).not.toContain('```mermaid')
    expect(markdown).not.toContain('**Associated')
    expect(markdown).not.toContain('**Upstream')
    expect(markdown).toContain('**Downstream — what depends on it (5,000)**')
    expect(markdown).toContain(
      '… and 4,975 more downstream objects: the job summary and the result file list them all.',
    )
    expect(tableRows(markdown)).toHaveLength(25 + 2)
  })

  it('trims the cheapest sections first: a budget that fits all but the graph keeps every table', () => {
    const small = report({
      targets: [target('a')],
      impacts: [
        impact(target('a'), {
          upstream: many(3, (i) => `u${i}`),
          downstream: many(3, (i) => `d${i}`),
          associated: many(3, (i) => `a${i}`),
        }),
      ],
      totals: { upstream: 3, downstream: 3, associated: 3 },
    })
    const full = renderImpactReport(small, { budget: COMMENT_BUDGET })
    expect(full).toContain('```mermaid')
    expect(full).toContain('<details><summary>Associated — declared links (3)</summary>')
    // One character short of the whole report: the graph goes first, and its tables unfold.
    const trimmed = renderImpactReport(small, { budget: chars(full) - 1 })
    expect(trimmed).not.toContain('```mermaid')
    expect(trimmed).toContain('Trimmed to fit: see the full report in the job summary.')
    expect(tableRows(trimmed)).toHaveLength(3 * 5)
    expect(trimmed).toContain('**Associated — declared links (3)**')
    expect(trimmed.match(/<\/details>/g)).toHaveLength(1)
    const budget = chars(trimmed)
    expect(renderImpactReport(small, { budget })).toBe(trimmed)
    // One character less and the associated table goes too.
    const tighter = renderImpactReport(small, { budget: budget - 1 })
    expect(chars(tighter)).toBeLessThanOrEqual(budget - 1)
    expect(tableRows(tighter)).toHaveLength(2 * 5)
    expect(tighter).not.toContain('**Associated')
  })

  it('cuts the longest downstream table first and keeps the others whole', () => {
    const big = target('big')
    const tiny = target('tiny')
    const data = report({
      targets: [big, tiny],
      impacts: [
        impact(big, { downstream: many(2000, (i) => `pod-${i}`) }),
        impact(tiny, { downstream: many(2, (i) => `pod-${i}`) }),
      ],
      totals: { upstream: 0, downstream: 2002, associated: 0 },
    })
    const markdown = renderImpactReport(data, { budget: 20_000 })
    expect(chars(markdown)).toBeLessThanOrEqual(20_000)
    expect(markdown.match(/<details( open)?>/g)).toHaveLength(2)
    expect(markdown.match(/\*\*Downstream — what depends on it \((\d|,)+\)\*\*/g)).toEqual([
      '**Downstream — what depends on it (2,000)**',
      '**Downstream — what depends on it (2)**',
    ])
    expect(markdown).toContain('… and 1,975 more downstream objects')
    // header + rule + rows: 27 for the cut table, 4 for the small one
    expect(tableRows(markdown)).toHaveLength(27 + 4)
  })

  it('when even the verdict lines overflow, keeps the first K and says how many more', () => {
    const targets = Array.from({ length: 3000 }, (_, index) => target(`service-${index}`))
    const data = report({
      targets,
      impacts: targets.map((each) => impact(each, { downstream: [related('x')] })),
      notFound: Array.from({ length: 10 }, (_, index) => target(`missing-${index}`)),
      totals: { upstream: 0, downstream: 1, associated: 0 },
    })
    const markdown = renderImpactReport(data, {
      budget: COMMENT_BUDGET,
      summaryUrl: 'https://github.com/o/r/actions/runs/42',
    })
    expect(chars(markdown)).toBeLessThanOrEqual(COMMENT_BUDGET)
    expect(chars(markdown)).toBeGreaterThan(COMMENT_BUDGET - 500)
    const kept = markdown.split('\n').filter((line) => line.startsWith('- **Deployment shop/service-')).length
    expect(kept).toBeGreaterThan(100)
    expect(kept).toBeLessThan(3000)
    expect(markdown).toContain(`- … and ${(3000 - kept).toLocaleString('en-US')} more targets (trimmed to fit)`)
    expect(markdown).not.toContain('<details')
    // The not-found list is reduced to names but kept whole.
    expect(markdown).toContain('### Not synchronized (10)\n\n- Deployment shop/missing-0\n')
    expect(markdown).toContain('- Deployment shop/missing-9\n')
    expect(markdown).not.toContain('These targets were found on no edge')
    expect(markdown).toContain(CAVEAT)
    expect(markdown).toContain('Trimmed to fit')
  })

  it('the job summary: a 1,000,000-character budget also stays under 1 MiB of UTF-8', () => {
    // 3-byte characters: ~700,000 characters but over 2 MB.
    const wide = blastRadius((index) => `支払い処理サービスのポッド-${'日本語'.repeat(15)}-${index}`)
    const markdown = renderImpactReport(wide, { budget: SUMMARY_BUDGET })
    // Trimmed although far under the character budget: the bytes decided.
    expect(chars(markdown)).toBeLessThan(SUMMARY_BUDGET / 2)
    expect(Buffer.byteLength(markdown, 'utf8')).toBeLessThanOrEqual(SUMMARY_BYTE_BUDGET)
    expect(chars(markdown)).toBeLessThanOrEqual(SUMMARY_BUDGET)
    expect(markdown).toContain('Trimmed to fit: see the full report in the job summary.')
    expect(markdown).toContain('**2 targets · 2 upstream · 5,000 downstream · 1 associated**')
    expect(markdown).toContain(CAVEAT)
  })

  it('the job summary: the same 5,000 ASCII objects fit whole', () => {
    const markdown = renderImpactReport(blastRadius(), { budget: SUMMARY_BUDGET })
    expect(markdown).not.toContain('Trimmed to fit')
    expect(tableRows(markdown)).toHaveLength(2 + 2 + 2 + 5000 + 2 + 1)
    expect(Buffer.byteLength(markdown, 'utf8')).toBeLessThanOrEqual(SUMMARY_BYTE_BUDGET)
  })

  it('counts characters, not UTF-16 units: astral names fill the budget as one each', () => {
    const data = blastRadius((index) => `${'🚀'.repeat(20)}-${index}`)
    const whole = renderImpactReport(data, { budget: SUMMARY_BUDGET })
    expect(whole).not.toContain('Trimmed to fit')
    const budget = chars(whole)
    expect(whole.length).toBeGreaterThan(budget + 5000 * 20)
    // Exactly its own length in characters fits; one less does not.
    expect(renderImpactReport(data, { budget })).toBe(whole)
    const trimmed = renderImpactReport(data, { budget: budget - 1 })
    expect(trimmed).toContain('Trimmed to fit')
    expect(chars(trimmed)).toBeLessThanOrEqual(budget - 1)
  })

  it('a budget too small for the kept sections is still never exceeded', () => {
    for (const budget of [0, 50, 500]) {
      expect(chars(renderImpactReport(blastRadius(), { budget }))).toBeLessThanOrEqual(budget)
    }
  })
})

describe('derived relations and what is not known', () => {
  const web = target('web', { group: 'apps' })
  const downstream = [
    related('web', { kind: 'Service', relations: ['selects-pods'], derived: ['selects-pods'] }),
    related('web-abc', { kind: 'ReplicaSet', group: 'apps', relations: ['descendants'] }),
  ]
  const unknown = ['PodDisruptionBudgets: not known. The graph does not sync them by default.']

  it('marks each derived relation in the table, counts them in the overview and explains them under the caveat', () => {
    const markdown = renderImpactReport(
      report({
        targets: [web],
        impacts: [impact(web, { downstream, unknown })],
        totals: { upstream: 0, downstream: 2, associated: 0 },
      }),
      {
        budget: COMMENT_BUDGET,
      },
    )
    expect(markdown).toContain('| Service | shop/web | selects-pods \\(derived\\) |')
    expect(markdown).toContain('| ReplicaSet.apps | shop/web-abc | descendants |')
    expect(markdown).toContain('; 1 relation derived by the action, not by the graph.')
    expect(markdown).toContain('> **(derived)**: worked out by the action from the objects themselves')
    expect(markdown).toContain('PodDisruptionBudgets: not known.')
  })

  it('says nothing of derivation when the graph gave every relation', () => {
    const markdown = renderImpactReport(
      report({ targets: [web], impacts: [impact(web, { downstream: [downstream[1]!] })] }),
      { budget: COMMENT_BUDGET },
    )
    expect(markdown).not.toContain('derived')
    expect(markdown).not.toContain('Derived')
  })
})
