/**
 * Is the live object the one the manifest asks for? Every field the manifest sets must hold the
 * same value live: `spec`, a ConfigMap's `data`, a Role's `rules`, a binding's `subjects` and
 * `roleRef`, a ServiceAccount's fields (every top-level field but identity and status), and the
 * labels and annotations the manifest sets. What the manifest leaves out (defaults, injected
 * sidecars) is not compared. The API server stores an object in its own form (docs/hub-facts.md,
 * "What the API server stores"), so values are compared as it stores them: lists matched by the
 * keys server-side apply merges them by (./list-keys.ts), tolerations as a set, a zero value it
 * omits (`hostNetwork: false`) as absent, `1`/`0` as the booleans a SQLite graph projects them
 * as, quantities by value wherever the API type is a quantity, an image pinned to `tag@sha256:…`
 * by an admission webhook and the `docker.io/library/` prefix as the same image. Fields another
 * manager owns are the caller's to skip (`skip`); `caBundle` (injected) always is, and a PVC may
 * have grown past its manifest. Pure.
 */
import { isRecord } from '../../model/plain-value.js'
import { MAX_LIST, shortText } from './live-object.js'
import { SET_LISTS, entryKey, isKeyedList, member } from './list-keys.js'
import { comparedPart } from './projection.js'

export interface Difference {
  /** `spec.template.spec.containers[web].env[LOG_LEVEL].value` */
  path: string
  want: unknown
  have: unknown
}

export interface CompareOptions {
  /** The manifest's kind, for the rules of one kind (a PVC's storage may grow). */
  kind?: string | undefined
  /** Paths (spelled as a Difference spells them) another manager owns: neither they nor what is under them are compared. */
  skip?: ReadonlySet<string> | undefined
}

/** Maps whose values are quantities: resources, a LimitRange's bounds, a quota, an overhead. */
const QUANTITY_MAPS = new Set([
  'requests',
  'limits',
  'capacity',
  'allocatable',
  'hard',
  'max',
  'min',
  'default',
  'defaultRequest',
  'maxLimitRequestRatio',
  'overhead',
])
/** Fields that are quantities wherever they are (an emptyDir's sizeLimit). */
const QUANTITY_KEYS = new Set(['sizeLimit'])
/** Fields that are quantities inside an HPA's metrics (`target.averageValue`, v2beta1's `targetAverageValue`). */
const METRIC_QUANTITY_KEYS = new Set(['averageValue', 'value', 'targetAverageValue', 'targetValue'])
/** Set by cert-manager's or a service mesh's injector, never by the manifest's author. */
const INJECTED_KEYS = new Set(['caBundle'])

const MAX_DEPTH = 32

/** The first field the manifest sets that the live object does not hold, or undefined when synced. */
export function firstDifference(
  expected: Record<string, unknown>,
  live: unknown,
  options: CompareOptions = {},
): Difference | undefined {
  const context: Context = { kind: options.kind ?? str(expected.kind), skip: options.skip ?? new Set() }
  const part = comparedPart(expected)
  for (const [field, want] of Object.entries(part)) {
    const have = isRecord(live) ? live[field] : undefined
    const difference = compare(want, have, field, field, 0, context)
    if (difference) return difference
  }
  return undefined
}

interface Context {
  kind: string
  skip: ReadonlySet<string>
}

const str = (value: unknown) => (typeof value === 'string' ? value : '')

/** "spec.template.spec.containers[web].image is registry/web:1.4 on the edge, the manifest sets registry/web:1.5" */
export function differenceText(d: Difference): string {
  return `${shortText(d.path)} is ${valueText(d.have)}, the manifest sets ${valueText(d.want)}`
}

export function valueText(value: unknown): string {
  if (value === undefined || value === null) return 'not set'
  return shortText(JSON.stringify(value) ?? typeof value)
}

/** A value the API server omits when it is zero (omitempty): absent live is the same value. */
export function isZero(value: unknown): boolean {
  if (value === false || value === 0 || value === '') return true
  if (Array.isArray(value)) return value.length === 0
  return isRecord(value) && Object.keys(value).length === 0
}

function compare(
  want: unknown,
  have: unknown,
  path: string,
  key: string,
  depth: number,
  context: Context,
): Difference | undefined {
  if (want === undefined || want === null) return undefined
  if (depth > MAX_DEPTH || context.skip.has(path) || INJECTED_KEYS.has(key)) return undefined
  if ((have === undefined || have === null) && isZero(want)) return undefined
  if (Array.isArray(want)) return compareList(want, have, path, key, depth, context)
  if (isRecord(want)) {
    if (!isRecord(have)) return { path, want, have }
    for (const [k, v] of Object.entries(want)) {
      const difference = compare(v, have[k], `${path}${member(k)}`, k, depth + 1, context)
      if (difference) return difference
    }
    return undefined
  }
  if (context.kind === 'PersistentVolumeClaim' && path === 'spec.resources.requests.storage') {
    // the volume may have been expanded since: the claim holds at least what the manifest asks
    const a = quantity(want)
    const b = quantity(have)
    return a !== undefined && b !== undefined && b >= a * (1 - 1e-9) ? undefined : { path, want, have }
  }
  return sameScalar(want, have, key, path) ? undefined : { path, want, have }
}

function compareList(
  want: unknown[],
  have: unknown,
  path: string,
  key: string,
  depth: number,
  context: Context,
): Difference | undefined {
  if (!Array.isArray(have) || have.length > MAX_LIST) return { path, want, have }
  if (isKeyedList(key, want)) {
    const live = new Map<string, unknown>()
    for (const entry of have) {
      const k = entryKey(key, entry)
      if (k !== undefined && !live.has(k)) live.set(k, entry)
    }
    for (const entry of want) {
      const k = entryKey(key, entry) as string
      const difference = compare(entry, live.get(k), `${path}[${k}]`, key, depth + 1, context)
      if (difference) return difference
    }
    return undefined
  }
  if (SET_LISTS.has(key)) {
    for (const [i, entry] of want.entries()) {
      if (!have.some((h) => compare(entry, h, `${path}[${i}]`, key, depth + 1, context) === undefined))
        return { path: `${path}[${i}]`, want: entry, have: undefined }
    }
    return undefined
  }
  // Scalars (args, command) and atomic lists (rules, subjects, envFrom) are whole: same length, each entry alike.
  if (want.length !== have.length) return { path, want, have }
  for (const [i, entry] of want.entries()) {
    const difference = compare(entry, have[i], `${path}[${i}]`, key, depth + 1, context)
    if (difference) return difference
  }
  return undefined
}

function sameScalar(want: unknown, have: unknown, key: string, path: string): boolean {
  if (want === have) return true
  // A SQLite graph projects a boolean leaf as 1 or 0 (docs/hub-facts.md, "What the API server stores").
  if (typeof want === 'boolean' && (have === 1 || have === 0)) return want === (have === 1)
  if (key === 'image' && typeof want === 'string' && typeof have === 'string') return sameImage(want, have)
  if (isQuantityPath(key, path)) {
    const a = quantity(want)
    const b = quantity(have)
    return a !== undefined && b !== undefined && Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b))
  }
  return false
}

function isQuantityPath(key: string, path: string): boolean {
  if (QUANTITY_KEYS.has(key)) return true
  if (METRIC_QUANTITY_KEYS.has(key) && /(?:^|\.)metrics\[/.test(path)) return true
  const parent = /\.([A-Za-z]+)(?:\.[^.[]+|\["[^"]*"\])$/.exec(path)?.[1]
  return parent !== undefined && QUANTITY_MAPS.has(parent)
}

const DECIMAL: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
}
const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 }

/** A Kubernetes quantity (`250m`, `1.5Gi`, `1e3`, `2`) as a number; undefined when it is not one. @internal */
export function quantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'string') return undefined
  const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/.exec(value.trim())
  if (!match) return undefined
  const number = Number(match[1])
  if (match[2]) return number * 10 ** Number(match[2].slice(1))
  const suffix = match[3] ?? ''
  return number * (BINARY[suffix] ?? DECIMAL[suffix] ?? 1)
}

interface ImageRef {
  name: string
  tag: string | undefined
  digest: string | undefined
}

/** `nginx`, `docker.io/library/nginx:1.25`, `registry/web:1.5@sha256:…` split and put in the short form. @internal */
export function imageRef(reference: string): ImageRef {
  const at = reference.indexOf('@')
  const digest = at === -1 ? undefined : reference.slice(at + 1)
  let rest = at === -1 ? reference : reference.slice(0, at)
  const colon = rest.lastIndexOf(':')
  let tag: string | undefined
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1)
    rest = rest.slice(0, colon)
  }
  const name = rest.replace(/^(?:index\.)?docker\.io\//, '').replace(/^library\//, '')
  // An image with neither tag nor digest is pulled as :latest.
  return { name, tag: tag ?? (digest ? undefined : 'latest'), digest }
}

/**
 * The live image is the one the manifest names: same repository, the manifest's tag and digest
 * where it gives them. A digest the cluster added to a tag (an admission webhook pinning it) is
 * the same image.
 */
export function sameImage(want: string, have: string): boolean {
  const a = imageRef(want)
  const b = imageRef(have)
  if (a.name !== b.name) return false
  if (a.tag !== undefined && a.tag !== b.tag) return false
  return a.digest === undefined || a.digest === b.digest
}
