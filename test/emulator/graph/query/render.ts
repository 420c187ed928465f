// Projection: a fleet entry rendered as the ObjectResult the projection asks for.
import type { FleetObject } from '../fleet.ts'
import { resolveKind } from '../fleet.ts'
import type { Entry, FleetIndex } from '../relations.ts'
import { relatedEntries } from '../relations.ts'
import type { ObjectFilter, ObjectResult, ObjectTree, Projection } from './spec.ts'
import { isObj } from './decode.ts'
import type { Pred } from './filters.ts'
import { compileFilters } from './filters.ts'

function wholeObject(o: FleetObject): Record<string, unknown> {
  const out: Record<string, unknown> = { apiVersion: o.apiVersion, kind: o.kind, metadata: o.metadata }
  if (o.spec !== undefined) out.spec = o.spec
  if (o.status !== undefined) out.status = o.status
  for (const k of Object.keys(o)) {
    if (k !== 'edge' && !(k in out)) out[k] = (o as Record<string, unknown>)[k]
  }
  return out
}

function sparse(value: unknown, tree: ObjectTree): unknown {
  if (Array.isArray(value)) return value.map((v) => sparse(v, tree))
  if (!isObj(value)) return undefined
  const out: Record<string, unknown> = {}
  for (const [k, sel] of Object.entries(tree)) {
    if (sel === false || !Object.hasOwn(value, k)) continue
    const v = value[k]
    if (sel === true) {
      out[k] = v
      continue
    }
    const sub = sparse(v, sel)
    if (sub !== undefined) out[k] = sub
  }
  return out
}

function mutablePath(wsPath: string, e: Entry): string {
  const info = resolveKind(e.kind)
  const plural = info?.plural ?? `${e.kind.toLowerCase()}s`
  const api = e.obj.apiVersion.includes('/') ? `/apis/${e.obj.apiVersion}` : `/api/${e.obj.apiVersion}`
  return `/clusters/${wsPath}/${e.edge}${api}${e.ns ? `/namespaces/${e.ns}` : ''}/${plural}/${e.name}`
}

export const DEFAULT_PROJECTION: Projection = { id: true, cluster: true }

export type RenderCtx = { idx: FleetIndex; wsPath: string; maxDepth: number; budget: number; truncated: boolean; compiled: Map<readonly ObjectFilter[], Pred> }

export function render(ctx: RenderCtx, e: Entry, p: Projection): ObjectResult {
  const r: ObjectResult = {}
  if (p.id) r.id = e.uid
  if (p.cluster) r.cluster = `${ctx.wsPath}/${e.edge}`
  if (p.mutablePath) r.mutablePath = mutablePath(ctx.wsPath, e)
  if (p.object === undefined || p.object === true) r.object = wholeObject(e.obj)
  else if (p.object !== false) r.object = sparse(wholeObject(e.obj), p.object) as Record<string, unknown>
  if (p.relations) {
    let rels: Record<string, ObjectResult[]> | undefined
    for (const [name, rs] of Object.entries(p.relations)) {
      let related = relatedEntries(ctx.idx, e, name, ctx.maxDepth)
      if (related.length === 0) continue
      if (rs.filters?.length) {
        let pred = ctx.compiled.get(rs.filters)
        if (!pred) {
          pred = compileFilters(rs.filters)
          ctx.compiled.set(rs.filters, pred)
        }
        related = related.filter(pred)
      }
      if (rs.limit !== undefined && rs.limit > 0 && related.length > rs.limit) related = related.slice(0, rs.limit)
      if (related.length > ctx.budget) {
        related = related.slice(0, Math.max(0, ctx.budget))
        ctx.truncated = true
      }
      if (related.length === 0) continue
      ctx.budget -= related.length
      const sub = rs.objects ?? DEFAULT_PROJECTION
      ;(rels ??= {})[name] = related.map((x) => render(ctx, x, sub))
    }
    if (rels) r.relations = rels
  }
  return r
}
