// Filters: an ObjectFilter compiled to a predicate over fleet entries.
import type { FleetObject } from '../fleet.ts'
import { resolveKind } from '../fleet.ts'
import type { Entry } from '../fleet-index.ts'
import { matchExpression } from '../relations.ts'
import type { ObjectFilter } from './spec.ts'
import { isObj } from './decode.ts'

const CATEGORIES: Record<string, readonly string[]> = {
  all: [
    'Pod',
    'Service',
    'Deployment',
    'ReplicaSet',
    'StatefulSet',
    'DaemonSet',
    'Job',
    'CronJob',
    'HorizontalPodAutoscaler',
    'ReplicationController',
  ],
  workloads: ['Pod', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob'],
  config: ['ConfigMap', 'Secret'],
  network: ['Service', 'Ingress', 'NetworkPolicy', 'Endpoints'],
}

function jsonpathValue(obj: FleetObject, expr: string): unknown {
  let p = expr.trim()
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim()
  if (p.startsWith('$')) p = p.slice(1)
  if (p.startsWith('.')) p = p.slice(1)
  let cur: unknown = obj
  for (const seg of p.split('.').filter(Boolean)) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(seg)
    if (!m) return undefined
    if (m[1]) cur = isObj(cur) ? cur[m[1]] : undefined
    for (const ix of (m[2] ?? '').match(/\d+/g) ?? []) cur = Array.isArray(cur) ? cur[Number(ix)] : undefined
    if (cur === undefined) return undefined
  }
  return cur
}

export type Pred = (e: Entry) => boolean

function compileFilter(f: ObjectFilter): Pred {
  const checks: Pred[] = []
  const kind = f.groupKind?.kind ?? ''
  const group = f.groupKind?.apiGroup ?? ''
  if (kind) {
    const info = resolveKind(kind)
    if (info) checks.push((e) => e.kind === info.kind)
    else {
      const k = kind.toLowerCase()
      checks.push((e) => {
        const ek = e.kind.toLowerCase()
        return ek === k || `${ek}s` === k
      })
    }
  }
  if (group) checks.push((e) => e.group === group)
  if (f.name) {
    const n = f.name
    checks.push((e) => e.name === n)
  }
  if (f.namespace) {
    const ns = f.namespace
    checks.push((e) => e.ns === ns)
  }
  if (f.id) {
    const id = f.id
    checks.push((e) => e.uid === id)
  }
  if (f.labels) {
    const ls = Object.entries(f.labels)
    if (ls.length) checks.push((e) => ls.every(([k, v]) => e.labels[k] === v))
  }
  for (const x of f.labelExpressions ?? []) checks.push((e) => matchExpression(e.labels, x.key, x.operator, x.values))
  for (const c of f.conditions ?? []) {
    checks.push((e) => {
      const conds = e.obj.status?.conditions
      if (!Array.isArray(conds)) return false
      return conds.some(
        (x: any) =>
          x?.type === c.type &&
          (c.status === undefined || c.status === '' || x.status === c.status) &&
          (c.reason === undefined || c.reason === '' || x.reason === c.reason),
      )
    })
  }
  const after = f.creationTimestamp?.after ? Date.parse(f.creationTimestamp.after) : undefined
  const before = f.creationTimestamp?.before ? Date.parse(f.creationTimestamp.before) : undefined
  if (after !== undefined) checks.push((e) => Date.parse(e.ts) > after)
  if (before !== undefined) checks.push((e) => Date.parse(e.ts) < before)
  if (f.jsonpath) {
    const jp = f.jsonpath
    checks.push((e) => {
      const v = jsonpathValue(e.obj, jp)
      return v !== undefined && v !== null && v !== false
    })
  }
  if (f.categories?.length) {
    const kinds = new Set(f.categories.flatMap((c) => CATEGORIES[c.toLowerCase()] ?? []))
    checks.push((e) => kinds.has(e.kind))
  }
  if (checks.length === 0) return () => true
  if (checks.length === 1) return checks[0] as Pred
  return (e) => {
    for (const c of checks) if (!c(e)) return false
    return true
  }
}

/** OR of filters; an empty list matches everything. */
export function compileFilters(fs: readonly ObjectFilter[]): Pred {
  if (fs.length === 0) return () => true
  const ps = fs.map(compileFilter)
  if (ps.length === 1) return ps[0] as Pred
  return (e) => ps.some((p) => p(e))
}

/** AND of filters, as the engine joins a relation's `filters` into one condition; empty matches everything. */
export function compileAllFilters(fs: readonly ObjectFilter[]): Pred {
  const ps = fs.map(compileFilter)
  return (e) => ps.every((p) => p(e))
}
