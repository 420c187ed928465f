import { describe, expect, it } from 'vitest'
import type { RelatedObject, TargetImpact } from '../../../../src/commands/impact/model.js'
import {
  GRAPH_LEGEND,
  OWNED_LEGEND,
  mermaidText,
  renderGraph,
  renderMermaid,
} from '../../../../src/commands/impact/mermaid.js'

function related(name: string, extra: Partial<RelatedObject> = {}): RelatedObject {
  return { group: '', kind: 'ConfigMap', namespace: 'shop', name, relations: ['references'], ...extra }
}

function impact(extra: Partial<TargetImpact> = {}): TargetImpact {
  return {
    target: { kind: 'Deployment', group: 'apps', namespace: 'shop', name: 'checkout', origin: { kind: 'input' } },
    edge: 'prod-eu',
    upstream: [],
    downstream: [],
    associated: [],
    incomplete: false,
    ...extra,
  }
}

function many(count: number, prefix: string): RelatedObject[] {
  return Array.from({ length: count }, (_, index) => related(`${prefix}-${index}`))
}

/** The diagram's lines between the fences. */
function body(block: string): string[] {
  const lines = block.split('\n')
  expect(lines[0]).toBe('```mermaid')
  expect(lines[lines.length - 1]).toBe('```')
  return lines.slice(1, -1)
}

/** id → label of every node declaration `  nK["label"]`. */
function nodes(block: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const line of body(block)) {
    const match = /^ {2}(n\d+)\["(.*)"\]$/.exec(line)
    if (match?.[1] && match[2] !== undefined) found.set(match[1], match[2])
  }
  return found
}

/** Labels wrap at 320 px, not Mermaid's 200, so a pod name stays on one line; objects a side stack close. */
const FRONT_MATTER = [
  '---',
  'config:',
  '  flowchart:',
  '    wrappingWidth: 320',
  '    nodeSpacing: 8',
  '    padding: 7',
  '---',
  'flowchart LR',
]

describe('renderMermaid', () => {
  it('comes with its legend: upstream left, downstream right, dotted = associated', () => {
    const graph = renderGraph(impact({ upstream: [related('config')] }))
    expect(graph.startsWith(`${GRAPH_LEGEND}\n\n\`\`\`mermaid\n`)).toBe(true)
    expect(graph.endsWith(renderMermaid(impact({ upstream: [related('config')] })))).toBe(true)
    expect(GRAPH_LEGEND).toContain('Left: what it depends on (upstream)')
    expect(GRAPH_LEGEND).toContain('Right: what depends on it (downstream)')
    expect(GRAPH_LEGEND).toContain('Dotted line: an associated object')
  })

  it('draws upstream → target → downstream and dotted associated links', () => {
    const block = renderMermaid(
      impact({
        upstream: [related('config')],
        downstream: [related('checkout-7d9', { kind: 'ReplicaSet', group: 'apps', relations: ['descendants'] })],
        associated: [
          related('payments', { kind: 'Service', namespace: undefined, edge: 'prod-us', relations: ['linked'] }),
        ],
      }),
    )
    const lines = body(block)
    expect(lines.slice(0, FRONT_MATTER.length)).toEqual(FRONT_MATTER)
    expect(nodes(block)).toEqual(
      new Map([
        ['n0', 'Deployment shop/checkout'],
        ['n1', 'ConfigMap shop/config'],
        ['n2', 'ReplicaSet shop/checkout-7d9'],
        ['n3', 'Service payments<br/>on prod-us'],
      ]),
    )
    expect(lines).toContain('  n1 --> n0')
    // owned, at a depth the hub does not give: a dotted arrow, not a claim of direct ownership
    expect(lines).toContain('  n0 -.-> n2')
    expect(lines).toContain('  n0 -.- n3')
    // Every line is a header, a node, a link or a style: nothing else for Mermaid to misparse.
    for (const line of lines.slice(FRONT_MATTER.length)) {
      expect(line).toMatch(
        /^ {2}(n\d+\[".*"\]|n\d+ (-->|-\.->|-\.-) n\d+|classDef \w+ [\w#:,.-]+( [\w#:,.-]+)*|class n\d+(,n\d+)* \w+)$/,
      )
    }
  })

  it('has exactly one target node, styled apart', () => {
    const block = renderMermaid(impact({ upstream: many(3, 'u'), downstream: many(3, 'd') }))
    const lines = body(block)
    expect(lines.filter((line) => line.startsWith('  classDef target '))).toHaveLength(1)
    expect(lines.filter((line) => / target$/.test(line) && line.startsWith('  class '))).toEqual(['  class n0 target'])
    expect([...nodes(block).values()].filter((label) => label === 'Deployment shop/checkout')).toHaveLength(1)
  })

  it('caps nodes per direction at 6 by default and collapses the rest into "+K more"', () => {
    const block = renderMermaid(
      impact({ upstream: many(3, 'u'), downstream: many(5000, 'd'), associated: many(9, 'a') }),
    )
    const labels = [...nodes(block).values()]
    expect(labels.filter((label) => label.includes('/d-'))).toHaveLength(6)
    expect(labels.filter((label) => label.includes('/a-'))).toHaveLength(6)
    expect(labels.filter((label) => label.includes('/u-'))).toHaveLength(3)
    expect(labels).toContain('+4,994 more downstream')
    expect(labels).toContain('+3 more associated')
    expect(labels.some((label) => label.includes('more upstream'))).toBe(false)
    // target + 3 + (6 + 1) + (6 + 1)
    expect(nodes(block).size).toBe(18)
    expect(block).toMatch(/\n {2}classDef collapsed [^\n]+\n {2}class n\d+,n\d+ collapsed\n/)
  })

  it('honours maxNodesPerDirection, including 0', () => {
    const labels = [...nodes(renderMermaid(impact({ downstream: many(5, 'd') }), { maxNodesPerDirection: 2 })).values()]
    expect(labels.filter((label) => label.includes('/d-'))).toHaveLength(2)
    expect(labels).toContain('+3 more downstream')
    const none = [...nodes(renderMermaid(impact({ downstream: many(5, 'd') }), { maxNodesPerDirection: 0 })).values()]
    expect(none).toEqual(['Deployment shop/checkout', '+5 more downstream'])
  })

  it('a target with no relations is a lone node', () => {
    const block = renderMermaid(impact())
    expect(nodes(block).size).toBe(1)
    expect(block).not.toContain('-->')
  })

  it('escapes quotes, brackets, pipes, angle brackets, backticks, entities and newlines in labels', () => {
    const hostile = 'a"b[c]{d}(e)<img src=x onerror=1>|f`g`\nh#quot;&lt;'
    const block = renderMermaid(
      impact({
        target: {
          kind: 'Deployment"]; click n0 call x()',
          group: '',
          name: '<!-- hub-action:impact -->',
          origin: { kind: 'input' },
        },
        downstream: [related(hostile), related('%%{init: {"theme":"dark"}}%%')],
      }),
    )
    const labels = [...nodes(block).values()]
    expect(labels).toHaveLength(3)
    for (const label of labels) {
      const text = label.split('<br/>').join('')
      expect(text).not.toMatch(/["[\]{}()<>|`\n]/)
      // Every "#" starts an entity we wrote: #quot; #35; #38;
      expect(text.replace(/#(quot|35|38);/g, '')).not.toContain('#')
    }
    const hostileLabel = labels[1] ?? ''
    expect(hostileLabel).toContain('a#quot;b［c］｛d｝（e）‹img src=x onerror=1›¦fˋgˋ h#35;quot;#38;lt;')
    expect(block).not.toContain('<!--')
    expect(block).not.toContain('<img')
    expect(block).not.toContain('%%{')
    // The fake click statement stays inside its label.
    expect(body(block).filter((line) => line.includes('click'))).toHaveLength(1)
    expect(body(block).find((line) => line.includes('click'))).toMatch(/^ {2}n0\[".*"\]$/)
  })

  it('puts a long namespace on a line of its own, so a long name keeps its distinctive end', () => {
    const long = 'payments-api-worker-background-7d9f8c6b5-5z5q5'
    const labels = [
      ...nodes(
        renderMermaid(
          impact({ downstream: [related(long, { kind: 'Pod', namespace: 'payments-production-eu-west' })] }),
        ),
      ).values(),
    ]
    expect(labels).toContain(`Pod<br/>payments-production-eu-west/<br/>${long}`)
    // A short one stays on one line with its kind: Pod shop/checkout-7d9f8c6b5-5z5q5 fits the wrapping width.
    const short = [
      ...nodes(renderMermaid(impact({ downstream: [related('checkout-7d9f8c6b5-5z5q5', { kind: 'Pod' })] }))).values(),
    ]
    expect(short).toContain('Pod shop/checkout-7d9f8c6b5-5z5q5')
    // Kind and name over the width: the kind on a line of its own.
    const wide = [
      ...nodes(
        renderMermaid(
          impact({ downstream: [related('checkout-7d9f8c6b5-5z5q5', { kind: 'HorizontalPodAutoscaler' })] }),
        ),
      ).values(),
    ]
    expect(wide).toContain('HorizontalPodAutoscaler<br/>shop/checkout-7d9f8c6b5-5z5q5')
  })

  it('draws owned objects on dotted arrows, as the report lists every level of the tree side by side, and says so under the legend', () => {
    const replicaSet = related('checkout-7d9', { kind: 'ReplicaSet', group: 'apps', relations: ['descendants'] })
    const pod = related('checkout-7d9-5z5q5', { kind: 'Pod', relations: ['descendants'] })
    const hpa = related('checkout', {
      kind: 'HorizontalPodAutoscaler',
      group: 'autoscaling',
      relations: ['referenced-by'],
    })
    // A Service's pods are selected (one hop) as well as owned: the direct relation wins.
    const selected = related('checkout-7d9-8tjcj', { kind: 'Pod', relations: ['descendants', 'selected-by'] })
    const graph = renderGraph(impact({ downstream: [hpa, pod, selected, replicaSet] }))
    const lines = body(graph.slice(graph.indexOf('```mermaid')))
    // The Deployment's pods beside its ReplicaSet, both dotted: neither arrow claims direct ownership.
    expect(lines).toContain('  n0 --> n1')
    expect(lines).toContain('  n0 -.-> n2')
    expect(lines).toContain('  n0 --> n3')
    expect(lines).toContain('  n0 -.-> n4')
    expect(graph.startsWith(`${GRAPH_LEGEND}\n${OWNED_LEGEND}\n\n\`\`\`mermaid\n`)).toBe(true)
    expect(OWNED_LEGEND).toContain('directly or through objects in between')
    // No owned object drawn, no sentence about dotted arrows.
    const direct = renderGraph(impact({ downstream: [hpa] }))
    expect(direct.startsWith(`${GRAPH_LEGEND}\n\n`)).toBe(true)
    expect(direct).not.toContain('-.->')
    const collapsedOnly = renderGraph(impact({ downstream: [hpa, replicaSet] }), { maxNodesPerDirection: 1 })
    expect(collapsedOnly).not.toContain(OWNED_LEGEND)
  })

  it('clips very long names and keeps labels on one line', () => {
    expect(Array.from(mermaidText('x'.repeat(300)))).toHaveLength(60)
    expect(mermaidText('x'.repeat(300)).endsWith('…')).toBe(true)
    expect(mermaidText('a\r\nb\u0000c\u2028d')).toBe('a b c d')
    expect(mermaidText('')).toBe(' ')
  })
})

describe('derived objects', () => {
  it('are drawn as grey boxes and the legend says what that means, only when one is drawn', async () => {
    const { DERIVED_LEGEND } = await import('../../../../src/commands/impact/mermaid.js')
    const base = {
      target: { kind: 'Deployment', group: 'apps', name: 'web', namespace: 'shop', origin: { kind: 'input' as const } },
      edge: 'e',
      upstream: [],
      associated: [],
      incomplete: false,
    }
    const service = {
      edge: 'e',
      group: '',
      kind: 'Service',
      namespace: 'shop',
      name: 'web',
      relations: ['selects-pods'],
    }
    const derived = renderGraph({ ...base, downstream: [{ ...service, derived: ['selects-pods'] }] })
    expect(derived).toContain(DERIVED_LEGEND)
    expect(derived).toMatch(/ {2}(n\d+)\["Service shop\/web"\][^]*class \1 derived/)
    const fromGraph = renderGraph({ ...base, downstream: [service] })
    expect(fromGraph).not.toContain(DERIVED_LEGEND)
    expect(fromGraph).not.toContain('derived')
  })
})
