/**
 * TargetImpact → a Mermaid flowchart: upstream objects → target → downstream objects, with
 * associated objects on dotted links, and the legend that says so. Pure. Every label is untrusted text: it is quoted,
 * quotes and entity starts are encoded, and characters that Mermaid (or the HTML it renders
 * labels into) would interpret are replaced by look-alikes, so a name can neither break the
 * diagram nor smuggle HTML; the only markup emitted is the `<br/>` added here.
 */
import type { Direction, RelatedObject, TargetImpact } from './model.js'
import { ZERO_WIDTH_SPACE, clip, fenced, formatCount } from '../../markdown/format.js'

const DEFAULT_MAX_NODES_PER_DIRECTION = 8
/** Longest run of one label line, in code points; longer names are clipped with "…". */
const MAX_LABEL_LINE = 60
/**
 * Mermaid wraps a label wider than this many pixels (its default, 200, splits a pod name such as
 * shop/checkout-7d9f8c6b5-5z5q5 at a hyphen). Set in the diagram's front matter, which GitHub's
 * Mermaid reads; wider would shrink every diagram in a comment column.
 */
const LABEL_WRAP_PX = 320
/** Characters of `namespace/name` that fit in LABEL_WRAP_PX at Mermaid's 16 px sans-serif. */
const ONE_LINE_NAME = 40

/** Said above every graph: which side is which, and what a dotted line means. @internal */
export const GRAPH_LEGEND =
  '_Upstream (what it depends on) on the left, the target highlighted, downstream (what depends on it) on the right; a dotted line links an associated object._'

/** The legend, then the graph: the block the report shows for one target and edge. */
export function renderGraph(impact: TargetImpact, options: { maxNodesPerDirection?: number } = {}): string {
  return `${GRAPH_LEGEND}\n\n${renderMermaid(impact, options)}`
}

/** @internal */
export function renderMermaid(impact: TargetImpact, options: { maxNodesPerDirection?: number } = {}): string {
  const cap = nodeCap(options.maxNodesPerDirection)
  const nodes: string[] = [`  n0["${label([impact.target.kind, ...nameLines(impact.target)])}"]`]
  const links: string[] = []
  const collapsed: string[] = []
  let next = 1

  const add = (direction: Direction, objects: readonly RelatedObject[]) => {
    const shown = objects.slice(0, cap)
    for (const object of shown) {
      const id = `n${next++}`
      const lines = [object.kind, ...nameLines(object)]
      if (object.edge && object.edge !== impact.edge) lines.push(`on ${object.edge}`)
      nodes.push(`  ${id}["${label(lines)}"]`)
      links.push(link(direction, id))
    }
    const rest = objects.length - shown.length
    if (rest > 0) {
      const id = `n${next++}`
      nodes.push(`  ${id}["+${formatCount(rest)} more ${direction}"]`)
      links.push(link(direction, id))
      collapsed.push(id)
    }
  }
  add('upstream', impact.upstream)
  add('downstream', impact.downstream)
  add('associated', impact.associated)

  const styles = ['  classDef target fill:#fff3bf,stroke:#e8590c,stroke-width:3px,color:#000', '  class n0 target']
  if (collapsed.length > 0) {
    styles.push('  classDef collapsed stroke-dasharray:4 3', `  class ${collapsed.join(',')} collapsed`)
  }
  const frontMatter = ['---', 'config:', '  flowchart:', `    wrappingWidth: ${LABEL_WRAP_PX}`, '---']
  return fenced([...frontMatter, 'flowchart LR', ...nodes, ...links, ...styles].join('\n'), 'mermaid')
}

function link(direction: Direction, id: string): string {
  switch (direction) {
    case 'upstream':
      return `  ${id} --> n0`
    case 'downstream':
      return `  n0 --> ${id}`
    case 'associated':
      return `  n0 -.- ${id}`
  }
}

function nodeCap(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return DEFAULT_MAX_NODES_PER_DIRECTION
  return Math.max(0, Math.floor(value))
}

/**
 * `namespace/name` on one line when it fits the wrapping width, else the namespace on a line of
 * its own: a long name then wraps (or is clipped) in its own line and keeps its distinctive end.
 */
function nameLines(object: { namespace?: string | undefined; name: string }): string[] {
  if (!object.namespace) return [object.name]
  const qualified = `${object.namespace}/${object.name}`
  return Array.from(qualified).length <= ONE_LINE_NAME ? [qualified] : [`${object.namespace}/`, object.name]
}

/** Lines of a quoted node label, each escaped, joined with the one piece of markup we add. */
function label(lines: readonly string[]): string {
  return lines.map((line) => mermaidText(line)).join('<br/>')
}

/**
 * One label line made inert. Entities: `"` → `#quot;`, and `#`/`&` are encoded so a name
 * cannot spell an entity of its own. Brackets, pipes, angle brackets and backticks (shape
 * syntax, edge text, HTML, markdown strings) become look-alikes; `{`/`}` also rules out a
 * `%%{init}%%` directive. Control characters and line breaks become spaces; `@name` gets a
 * zero-width space.
 * @internal
 */
export function mermaidText(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()
  return (
    clip(flat, MAX_LABEL_LINE)
      .replace(/["#&<>[\]{}()|`]/g, (ch) => LOOK_ALIKE[ch] ?? ' ')
      // Not a mention even if the diagram is ever shown as text.
      .replace(/@(?=[A-Za-z0-9])/g, `@${ZERO_WIDTH_SPACE}`) || ' '
  )
}

const LOOK_ALIKE: Record<string, string> = {
  '"': '#quot;',
  '#': '#35;',
  '&': '#38;',
  '<': '‹',
  '>': '›',
  '[': '［',
  ']': '］',
  '{': '｛',
  '}': '｝',
  '(': '（',
  ')': '）',
  '|': '¦',
  '`': 'ˋ',
}
