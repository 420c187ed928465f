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
  /** The tables as shown without a graph. */
  shown: Tables
  /** The tables folded under their titles, as shown below a graph (built on first use). */
  folded: () => Tables
}

/** One target and edge's direction tables, each under its title. */
export interface Tables {
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

/** What a rendering keeps. Never changed once made: each degradation returns a new one. */
interface Plan {
  readonly trimmed: boolean
  readonly mermaid: boolean
  readonly associated: boolean
  readonly upstream: boolean
  readonly downstream: ReadonlyArray<'full' | 'short' | 'none'>
  readonly details: boolean
  readonly skipped: boolean
  readonly warnings: boolean
  readonly notFoundFull: boolean
  readonly verdictLimit: number
  readonly notFoundLimit: number
}

/**
 * One way to give up detail, as a pure function: `apply(plan, keep)` is the plan with `keep` of
 * `levels(plan)` levels of this detail left (all of them: the plan as it was), and the smaller
 * `keep`, the smaller the document. A switch has one level; a list cut to its first K items has
 * as many as items.
 */
interface Degradation {
  levels(plan: Plan): number
  apply(plan: Plan, keep: number): Plan
}

/** A degradation of one level: `give` is the plan without the detail. */
const drop = (give: (plan: Plan) => Plan): Degradation => ({
  levels: () => 1,
  apply: (plan, keep) => (keep >= 1 ? plan : give(plan)),
})

/** The document of `doc` within `budget` characters and SUMMARY_BYTE_BUDGET bytes. */
export function fitReport(doc: Parts, budget: number): string {
  const fits = (plan: Plan) => {
    const size = measure(doc, plan)
    return size.chars + 1 <= budget && size.bytes + 1 <= SUMMARY_BYTE_BUDGET
  }
  const text = `${assemble(doc, choosePlan(doc, fits)).join('\n\n')}\n`
  return enforceBudget(text, budget)
}

/**
 * The degradations in the order they are made, then the largest document that fits: the first
 * whose plan fits, keeping as many levels of the last one as fit. When none does, all of them
 * are made (and enforceBudget clips what is left).
 */
function choosePlan(doc: Parts, fits: (plan: Plan) => boolean): Plan {
  const full = fullPlan(doc)
  // Graphs are rendered only when the rest fits without them: they are dropped first anyway.
  if (fits({ ...full, mermaid: false }) && fits(full)) return full
  let plan = full
  for (const degradation of degradations(doc)) {
    // `plan` does not fit, so neither does keeping every level.
    const keep = largestFitting(degradation.levels(plan) - 1, (levels) => fits(degradation.apply(plan, levels)))
    plan = degradation.apply(plan, keep)
    if (fits(plan)) return plan
  }
  return plan
}

/**
 * Whole sections first, in a fixed order: Mermaid graphs (with the "trimmed" notice), associated
 * tables, upstream tables, downstream tables one at a time (longest first: first cut to their
 * first rows, then dropped), the per-target details, skipped files, warnings, the not-found
 * explanation; then the verdict lines and the not-found names, each cut to its first K.
 */
function degradations(doc: Parts): Degradation[] {
  const longestFirst = doc.impacts
    .map((_, index) => index)
    .sort((a, b) => (doc.impacts[b]?.shown.downstream.chars ?? 0) - (doc.impacts[a]?.shown.downstream.chars ?? 0))
  return [
    drop((plan) => ({ ...plan, trimmed: true, mermaid: false })),
    drop((plan) => ({ ...plan, associated: false })),
    drop((plan) => ({ ...plan, upstream: false })),
    downstreamTables(doc, longestFirst),
    drop((plan) => ({ ...plan, details: false })),
    drop((plan) => ({ ...plan, skipped: false })),
    drop((plan) => ({ ...plan, warnings: false })),
    drop((plan) => ({ ...plan, notFoundFull: false })),
    {
      levels: (plan) => ('heading' in doc.verdicts ? plan.verdictLimit : 0),
      apply: (plan, keep) => ({ ...plan, verdictLimit: keep }),
    },
    { levels: (plan) => plan.notFoundLimit, apply: (plan, keep) => ({ ...plan, notFoundLimit: keep }) },
  ]
}

/**
 * Downstream tables, in `order`, each first cut to its first rows, then (once all are cut)
 * dropped: 2 × n steps, of which `keep` are not taken. A table whose cut form is no smaller (a
 * few rows over the cut, and the "… and N more" line) stays whole until it is dropped, so each
 * step leaves a document no larger than the one before.
 */
function downstreamTables(doc: Parts, order: readonly number[]): Degradation {
  const n = order.length
  const cutIsSmaller = (parts: ImpactParts | undefined) =>
    parts !== undefined &&
    parts.shown.downstreamShort.chars <= parts.shown.downstream.chars &&
    parts.shown.downstreamShort.bytes <= parts.shown.downstream.bytes
  return {
    levels: () => 2 * n,
    apply(plan, keep) {
      const taken = 2 * n - keep
      const downstream = [...plan.downstream]
      order.forEach((index, position) => {
        if (taken > n + position) downstream[index] = 'none'
        else if (taken > position && cutIsSmaller(doc.impacts[index])) downstream[index] = 'short'
      })
      return { ...plan, downstream }
    },
  }
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
  const tables = plan.mermaid ? parts.folded() : parts.shown
  if (plan.upstream) blocks.push(tables.upstream)
  if (plan.downstream[index] === 'full') blocks.push(tables.downstream)
  else if (plan.downstream[index] === 'short') blocks.push(tables.downstreamShort)
  if (plan.associated) blocks.push(tables.associated)
  return blocks
}

/** A lazily assembled details block; its size is known without building the text. */
function detailsPiece(parts: ImpactParts, plan: Plan, index: number): Piece {
  const blocks = optionalBlocks(parts, plan, index)
  const size = blocks.reduce(
    (sum, block) => ({ chars: sum.chars + block.chars + 2, bytes: sum.bytes + block.bytes + 2 }),
    {
      chars: parts.wrapper.chars,
      bytes: parts.wrapper.bytes,
    },
  )
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
