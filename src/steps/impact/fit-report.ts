/**
 * Fitting an impact report to a budget. The document is built from measured parts
 * (impact-report.ts) and, when it is over budget, re-assembled with less detail — whole
 * sections dropped in a fixed order, never a table cut mid-row:
 * Mermaid graphs, associated tables, upstream tables, downstream tables (longest first),
 * the per-target details, skipped files, warnings, the not-found explanation; then the
 * verdict lines and the not-found names are shortened to the first K. Title, totals and the
 * caveat always stay. Every rendering also stays within SUMMARY_BYTE_BUDGET bytes, well under
 * the job summary's 1 MiB per step.
 */
import { cutList, enforceBudget, largestFitting, type CuttableList, type Piece, type Size } from '../../markdown/fit.js'
import { SUMMARY_BYTE_BUDGET, details } from '../../markdown/format.js'

export interface ImpactParts {
  summary: string
  /** Always shown inside the details, so optional blocks each add "\n\n" + block. */
  fixed: string
  /** Shown unfolded (`<details open>`). */
  open: boolean
  wrapper: Piece
  /** Rendered on first use: a large report drops every graph without drawing one. */
  mermaid: () => Piece
  upstream: Piece
  downstream: Piece
  /** The downstream table cut to its first rows, for a comment that cannot hold it all. */
  downstreamShort: Piece
  associated: Piece
}

export interface Parts {
  title: Piece
  overview: Piece
  notice: Piece
  verdicts: CuttableList | Piece
  impacts: ImpactParts[]
  notFoundFull: Piece | undefined
  notFoundNames: CuttableList | undefined
  skipped: Piece | undefined
  warnings: Piece | undefined
  caveat: Piece
}

interface Plan {
  trimmed: boolean
  mermaid: boolean
  associated: boolean
  upstream: boolean
  downstream: Array<'full' | 'short' | 'none'>
  details: boolean
  skipped: boolean
  warnings: boolean
  notFoundFull: boolean
  verdictLimit: number
  notFoundLimit: number
}

/** The document of `doc` within `budget` characters and SUMMARY_BYTE_BUDGET bytes. */
export function fitReport(doc: Parts, budget: number): string {
  const plan = fullPlan(doc)
  const fits = (size: Size) => size.chars + 1 <= budget && size.bytes + 1 <= SUMMARY_BYTE_BUDGET

  // Graphs are rendered only when the rest fits without them: they are dropped first anyway.
  const withoutGraphs = { ...plan, mermaid: false }
  if (!fits(measure(doc, withoutGraphs)) || !fits(measure(doc, plan))) trim(doc, plan, fits)

  const text = `${assemble(doc, plan).join('\n\n')}\n`
  return enforceBudget(text, budget)
}

function fullPlan(doc: Parts): Plan {
  return {
    trimmed: false,
    mermaid: true,
    associated: true,
    upstream: true,
    downstream: doc.impacts.map(() => 'full' as const),
    details: true,
    skipped: true,
    warnings: true,
    notFoundFull: true,
    verdictLimit: doc.impacts.length,
    notFoundLimit: doc.notFoundNames?.items.length ?? 0,
  }
}

/** The sections the plan keeps, each as text and size; joined with "\n\n". */
function sections(doc: Parts, plan: Plan): Array<Piece | (() => Piece)> {
  const out: Array<Piece | (() => Piece)> = [doc.title, doc.overview]
  if (plan.trimmed) out.push(doc.notice)
  const verdicts = doc.verdicts
  out.push('heading' in verdicts ? () => cutList(verdicts, plan.verdictLimit) : verdicts)
  if (plan.details) {
    doc.impacts.forEach((parts, index) => out.push(() => detailsPiece(parts, plan, index)))
  }
  const names = doc.notFoundNames
  if (plan.notFoundFull && doc.notFoundFull) out.push(doc.notFoundFull)
  else if (names) out.push(() => cutList(names, plan.notFoundLimit))
  if (plan.skipped && doc.skipped) out.push(doc.skipped)
  if (plan.warnings && doc.warnings) out.push(doc.warnings)
  out.push(doc.caveat)
  return out
}

function optionalBlocks(parts: ImpactParts, plan: Plan, index: number): Piece[] {
  const blocks: Piece[] = []
  if (plan.mermaid) blocks.push(parts.mermaid())
  if (plan.upstream) blocks.push(parts.upstream)
  if (plan.downstream[index] === 'full') blocks.push(parts.downstream)
  else if (plan.downstream[index] === 'short') blocks.push(parts.downstreamShort)
  if (plan.associated) blocks.push(parts.associated)
  return blocks
}

/** A lazily assembled details block; its size is known without building the text. */
function detailsPiece(parts: ImpactParts, plan: Plan, index: number): Piece {
  const blocks = optionalBlocks(parts, plan, index)
  const size = blocks.reduce((sum, block) => ({ chars: sum.chars + block.chars + 2, bytes: sum.bytes + block.bytes + 2 }), {
    chars: parts.wrapper.chars,
    bytes: parts.wrapper.bytes,
  })
  let text: string | undefined
  return {
    ...size,
    get text() {
      text ??= details(parts.summary, [parts.fixed, ...blocks.map((block) => block.text)].join('\n\n'), parts.open)
      return text
    },
  }
}

function measure(doc: Parts, plan: Plan): Size {
  const all = sections(doc, plan)
  let chars = 2 * (all.length - 1)
  let bytes = chars
  for (const entry of all) {
    const part = typeof entry === 'function' ? entry() : entry
    chars += part.chars
    bytes += part.bytes
  }
  return { chars, bytes }
}

function assemble(doc: Parts, plan: Plan): string[] {
  return sections(doc, plan).map((entry) => (typeof entry === 'function' ? entry() : entry).text)
}

function trim(doc: Parts, plan: Plan, fits: (size: Size) => boolean): void {
  plan.trimmed = true
  const coarse: Array<() => void> = [() => (plan.mermaid = false), () => (plan.associated = false), () => (plan.upstream = false)]
  for (const step of coarse) {
    step()
    if (fits(measure(doc, plan))) return
  }

  // Downstream tables one at a time, longest first: first cut to their first rows, then, if
  // that is not enough, dropped. Sizes are exact, so no re-measuring.
  const size = measure(doc, plan)
  const order = doc.impacts.map((_, index) => index).sort((a, b) => (doc.impacts[b]?.downstream.chars ?? 0) - (doc.impacts[a]?.downstream.chars ?? 0))
  for (const [from, to] of [
    ['full', 'short'],
    ['short', 'none'],
  ] as const) {
    for (const index of order) {
      if (fits(size)) return
      const parts = doc.impacts[index]
      if (!parts || plan.downstream[index] !== from) continue
      const before = from === 'full' ? parts.downstream : parts.downstreamShort
      const after = to === 'short' ? parts.downstreamShort : undefined
      plan.downstream[index] = to
      size.chars -= before.chars + 2 - (after ? after.chars + 2 : 0)
      size.bytes -= before.bytes + 2 - (after ? after.bytes + 2 : 0)
    }
  }
  if (fits(size)) return

  const later: Array<() => void> = [
    () => (plan.details = false),
    () => (plan.skipped = false),
    () => (plan.warnings = false),
    () => (plan.notFoundFull = false),
  ]
  for (const step of later) {
    step()
    if (fits(measure(doc, plan))) return
  }

  plan.verdictLimit = largestFitting(plan.verdictLimit, (limit) => {
    plan.verdictLimit = limit
    return fits(measure(doc, plan))
  })
  if (fits(measure(doc, plan))) return
  plan.notFoundLimit = largestFitting(plan.notFoundLimit, (limit) => {
    plan.notFoundLimit = limit
    return fits(measure(doc, plan))
  })
}
