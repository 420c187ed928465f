/**
 * TargetImpact → a Mermaid flowchart: upstream objects → target → downstream objects, with
 * associated objects on dotted links, owned objects on dotted arrows, and the legend that says
 * so. Pure. Every label is untrusted text: it is quoted, quotes and entity starts are encoded,
 * and characters that Mermaid (or the HTML it renders labels into) would interpret are replaced by
 * look-alikes, so a name can neither break the diagram nor smuggle HTML; the only markup emitted
 * is the `<br/>` added here.
 */
import type { Direction, RelatedObject, TargetImpact } from './model.js'
import { ZERO_WIDTH_SPACE, clip, fenced, showFormatCharacters } from '../../markdown/format.js'
import { formatCount } from '../../units.js'

/** Objects drawn per side; the rest is one "+N more" node (the tables list every one). */
const DEFAULT_MAX_NODES_PER_DIRECTION = 6
/** Longest run of one label line, in code points; longer names are clipped with "…". */
const MAX_LABEL_LINE = 60
/**
 * Mermaid wraps a label wider than this many pixels (its default, 200, splits a pod name such as
 * shop/checkout-7d9f8c6b5-5z5q5 at a hyphen). Set in the diagram's front matter, which GitHub's
 * Mermaid reads; wider would shrink every diagram in a comment column.
 */
const LABEL_WRAP_PX = 320
/**
 * Gap between the objects stacked on one side, and the space around a label in its box (Mermaid's
 * defaults are 50 and 15): six objects a side then take half the height, so a graph and what
 * follows it fit a screen.
 */
const NODE_SPACING_PX = 8
const LABEL_PADDING_PX = 7
/** Characters of `namespace/name` that fit in LABEL_WRAP_PX at Mermaid's 16 px sans-serif. */
const ONE_LINE_NAME = 40

/** Said above every graph: which side is which, and what a dotted line means (one line in a comment). @internal */
export const GRAPH_LEGEND =
  '_Left: what it depends on (upstream). Right: what depends on it (downstream). Dotted line: an associated object._'

/**
 * Said after the legend when the graph draws a dotted arrow. The report lists every level of
 * the ownership tree side by side, so a Deployment's Pods come beside its ReplicaSet: the arrow
 * must not claim the target owns them directly. @internal
 */
export const OWNED_LEGEND = '_Dotted arrow: owned by the target, directly or through objects in between._'

/**
 * Said after the legend when a drawn object came only from the action's own reading, which the
 * graph shows as a grey box (a style, not a label line: the graph must stay short). @internal
 */
export const DERIVED_LEGEND =
  '_Grey box: derived — worked out by the action from the objects themselves; the graph has no relation for it._'

/** The legend, then the graph: the block the report shows for one target and edge. */
export function renderGraph(impact: TargetImpact, options: { maxNodesPerDirection?: number } = {}): string {
  const cap = nodeCap(options.maxNodesPerDirection)
  const drawn = [
    ...impact.upstream.slice(0, cap),
    ...impact.downstream.slice(0, cap),
    ...impact.associated.slice(0, cap),
  ]
  const legend = [
    GRAPH_LEGEND,
    ...(impact.downstream.slice(0, cap).some(ownedOnly) ? [OWNED_LEGEND] : []),
    ...(drawn.some(derivedOnly) ? [DERIVED_LEGEND] : []),
  ].join('\n')
  return `${legend}\n\n${renderMermaid(impact, options)}`
}

/**
 * Downstream only through ownership, which the hub follows to any depth (`descendants+`): owned
 * directly or through others. Any other relation (selected-by, referenced-by, namespaced) is one hop.
 */
function ownedOnly(object: RelatedObject): boolean {
  return object.relations.length > 0 && object.relations.every((relation) => relation === 'descendants')
}

function derivedOnly(object: RelatedObject): boolean {
  return object.derived !== undefined && object.derived.length === object.relations.length
}

/** @internal */
export function renderMermaid(impact: TargetImpact, options: { maxNodesPerDirection?: number } = {}): string {
  const cap = nodeCap(options.maxNodesPerDirection)
  const nodes: string[] = [`  n0["${label(objectLines(impact.target))}"]`]
  const links: string[] = []
  const collapsed: string[] = []
  // The graph gave none of these objects' relations: the reader must not take them for its word.
  const derived: string[] = []
  let next = 1

  const add = (direction: Direction, objects: readonly RelatedObject[]) => {
    const shown = objects.slice(0, cap)
    for (const object of shown) {
      const id = `n${next++}`
      const lines = objectLines(object)
      if (object.edge && object.edge !== impact.edge) lines.push(`on ${object.edge}`)
      nodes.push(`  ${id}["${label(lines)}"]`)
      if (derivedOnly(object)) derived.push(id)
      links.push(direction === 'downstream' && ownedOnly(object) ? `  n0 -.-> ${id}` : link(direction, id))
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
  if (derived.length > 0)
    styles.push('  classDef derived fill:#e9ecef,stroke:#868e96,color:#000', `  class ${derived.join(',')} derived`)
  const frontMatter = [
    '---',
    'config:',
    '  flowchart:',
    `    wrappingWidth: ${LABEL_WRAP_PX}`,
    `    nodeSpacing: ${NODE_SPACING_PX}`,
    `    padding: ${LABEL_PADDING_PX}`,
    '---',
  ]
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
 * `Kind namespace/name` on one line when it fits the wrapping width: a graph as tall as one line
 * per object (a comment's graph of six upstream objects is then a third shorter). Else the kind on
 * a line of its own, then the name.
 */
function objectLines(object: { kind: string; namespace?: string | undefined; name: string }): string[] {
  const [first = '', ...rest] = nameLines(object)
  const joined = `${object.kind} ${first}`
  return rest.length === 0 && Array.from(joined).length <= ONE_LINE_NAME ? [joined] : [object.kind, first, ...rest]
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
 * `%%{init}%%` directive. Control characters and line breaks become spaces; invisible format
 * characters show as `‹U+202E›`; `@name` gets a zero-width space.
 * @internal
 */
export function mermaidText(text: string): string {
  const flat = showFormatCharacters(text)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .trim()
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
