// A query with relations, as the engine runs it (docs/hub-facts.md, "Relations"): one flat row
// per object and relation hop, each with an internal path `.kind.ns/name.kind.ns/name…`, sorted by
// that path, cut at the row cap, then assembled into a tree by splitting the path on `.`.
// Consequences kept on purpose: transitive relations come back nested (each deeper node under
// its parent's relation key, without id or cluster); related objects with a `.` in their name or
// namespace find no parent and are dropped; same-named roots on several edges share one node;
// a relation's `limit` caps the whole block over every root of the page; several `filters` of
// one relation are AND-ed.
import type { Entry, FleetIndex } from '../fleet-index.ts'
import { directRelation, knownRelation } from '../relations.ts'
import { resolveKind } from '../fleet.ts'
import type { ObjectFilter, ObjectResult, Projection, RelationSpec } from './spec.ts'
import { ROW_CAP } from './spec.ts'
import type { Pred } from './filters.ts'
import { compileAllFilters } from './filters.ts'
import { flags, projectObject } from './render.ts'

type Row = { path: string; level: number; relation: string; entry: Entry; object: Record<string, unknown> | undefined }

type Block = { level: number; name: string; spec: RelationSpec; parents: Row[]; parentsTransitive: boolean }

function segment(e: Entry): string {
  return `.${e.kind.toLowerCase()}.${e.ns}/${e.name}`
}

function kindsOf(filters: readonly ObjectFilter[] | undefined): string[] {
  const kinds: string[] = []
  for (const f of filters ?? [])
    if (f.groupKind?.kind) kinds.push(resolveKind(f.groupKind.kind)?.kind ?? f.groupKind.kind)
  return kinds
}

/** Rows of the relation blocks under `roots`, breadth first over the blocks as the engine generates them. */
function relationRows(idx: FleetIndex, roots: Row[], proj: Projection | undefined, maxDepth: number): Row[] {
  const out: Row[] = []
  const queue: Block[] = Object.keys(proj?.relations ?? {})
    .sort()
    .map((name) => ({
      level: 1,
      name,
      spec: proj?.relations?.[name] as RelationSpec,
      parents: roots,
      parentsTransitive: false,
    }))
  while (queue.length > 0) {
    const block = queue.shift() as Block
    if (block.level > maxDepth) continue
    const transitive = block.name.endsWith('+')
    // Sub-relations of a transitive block are joined from every row of its walk (before its
    // filters and limit); a transitive one nested there is not supported by the engine.
    if (transitive && block.parentsTransitive) continue
    const base = transitive ? block.name.slice(0, -1) : block.name
    const kinds = kindsOf(block.spec.filters)
    const pred: Pred = compileAllFilters(block.spec.filters ?? [])
    const tree = block.spec.objects?.object
    const walked: Row[] = []
    for (const parent of block.parents) {
      if (!knownRelation(block.name)) break
      if (!transitive) {
        for (const c of directRelation(idx, parent.entry, base, kinds))
          walked.push({
            path: parent.path + segment(c),
            level: block.level,
            relation: block.name,
            entry: c,
            object: undefined,
          })
        continue
      }
      // Recursive walk with a cycle check along each path, at most maxDepth hops.
      const stack: { entry: Entry; path: string; depth: number; seen: Set<Entry> }[] = [
        { entry: parent.entry, path: parent.path, depth: 0, seen: new Set([parent.entry]) },
      ]
      while (stack.length > 0) {
        const at = stack.pop() as (typeof stack)[number]
        if (at.depth >= maxDepth) continue
        for (const c of directRelation(idx, at.entry, base, kinds)) {
          if (at.seen.has(c)) continue
          const row: Row = {
            path: at.path + segment(c),
            level: block.level + at.depth,
            relation: block.name,
            entry: c,
            object: undefined,
          }
          walked.push(row)
          stack.push({ entry: c, path: row.path, depth: at.depth + 1, seen: new Set([...at.seen, c]) })
        }
      }
    }
    let kept = walked.filter((r) => pred(r.entry))
    if (block.spec.limit !== undefined && block.spec.limit > 0) kept = kept.slice(0, block.spec.limit)
    for (const r of kept) r.object = projectObject(r.entry.obj, tree)
    out.push(...kept)
    for (const name of Object.keys(block.spec.objects?.relations ?? {}).sort()) {
      const spec = block.spec.objects?.relations?.[name] as RelationSpec
      queue.push({ level: block.level + 1, name, spec, parents: walked, parentsTransitive: transitive })
    }
  }
  return out
}

/** The engine's parentPathOf: drop the last two `.`-separated segments. */
function parentPathOf(path: string): string {
  const parts = path.split('.')
  return parts.length <= 3 ? '' : parts.slice(0, -2).join('.')
}

type Node = { row: Row; children: Map<string, Node[]> }

function toResult(node: Node, wsPath: string, p: Projection | undefined): ObjectResult {
  const r = flags({}, wsPath, node.row.entry, p)
  if (node.row.object !== undefined) r.object = node.row.object
  if (node.children.size > 0) {
    const relations: Record<string, ObjectResult[]> = {}
    // a Go map: encoding/json writes its keys sorted
    for (const name of [...node.children.keys()].sort()) {
      relations[name] = (node.children.get(name) as Node[]).map((c) =>
        toResult(c, wsPath, p?.relations?.[name]?.objects),
      )
    }
    r.relations = relations
  }
  return r
}

export type RelationPage = { objects: ObjectResult[]; rootsInPage: Entry[]; truncated: boolean }

/**
 * Renders a page of roots (chosen by the requested order) with their relations. The answer comes
 * back ordered by path, not by the requested order, and `rootsInPage` is in that path order too:
 * the cursor is built from its last root.
 */
export function renderWithRelations(
  idx: FleetIndex,
  wsPath: string,
  roots: readonly Entry[],
  proj: Projection | undefined,
  maxDepth: number,
): RelationPage {
  const rootRows: Row[] = roots.map((e) => ({
    path: e.path,
    level: 0,
    relation: '',
    entry: e,
    object: projectObject(e.obj, proj?.object),
  }))
  const all = [...rootRows, ...relationRows(idx, rootRows, proj, maxDepth)]
  // ORDER BY path (stable: equal paths keep the order they were generated in)
  all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  const truncated = all.length > ROW_CAP
  const rows = truncated ? all.slice(0, ROW_CAP) : all
  const byPath = new Map<string, Node>()
  const rootNodes: Node[] = []
  for (const row of rows) {
    const node: Node = { row, children: new Map() }
    byPath.set(row.path, node)
    if (row.level === 0) rootNodes.push(node)
    else {
      const parent = byPath.get(parentPathOf(row.path))
      if (!parent) continue // orphaned: a `.` in a name or namespace broke the path
      const list = parent.children.get(row.relation)
      if (list) list.push(node)
      else parent.children.set(row.relation, [node])
    }
  }
  return {
    objects: rootNodes.map((n) => toResult(n, wsPath, proj)),
    rootsInPage: rootNodes.map((n) => n.row.entry),
    truncated,
  }
}
