/**
 * Is the live object the one the manifest asks for? Every field the manifest sets under `spec`
 * (the pod template's labels and annotations included) and a ConfigMap's `data` must hold the
 * same value live; what the manifest leaves out (defaults, injected sidecars) is not compared.
 * Lists are matched the way Kubernetes merges them (containers, env, volumes… by name), and the
 * values a cluster rewrites are normalised: quantities (`1000m` is `1`), an image pinned to
 * `tag@sha256:…` by an admission webhook, the `docker.io/library/` prefix. Pure.
 */
import { isRecord } from '../../model/plain-value.js'
import { MAX_LIST, shortText } from './live-object.js'
import { COMPARED_FIELDS } from './projection.js'

export interface Difference {
  /** `spec.template.spec.containers[web].env[LOG_LEVEL].value` */
  path: string
  want: unknown
  have: unknown
}

/** The key each merged list is matched on, as the API's strategic merge patch does. */
const LIST_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ['containers', ['name']],
  ['initContainers', ['name']],
  ['ephemeralContainers', ['name']],
  ['env', ['name']],
  ['volumes', ['name']],
  ['imagePullSecrets', ['name']],
  ['volumeMounts', ['mountPath']],
  // A container port is keyed by containerPort, a Service port by port; a named one by its name.
  ['ports', ['name', 'containerPort', 'port']],
])

/** Maps whose values are quantities (resources, a volume's size): `1000m` equals `1`. */
const QUANTITY_MAPS = new Set(['requests', 'limits', 'capacity', 'hard'])
const QUANTITY_KEYS = new Set(['sizeLimit'])

const MAX_DEPTH = 32

/** The first field the manifest sets that the live object does not hold, or undefined when synced. */
export function firstDifference(expected: Record<string, unknown>, live: unknown): Difference | undefined {
  for (const field of COMPARED_FIELDS) {
    const difference = compare(expected[field], isRecord(live) ? live[field] : undefined, field, field, 0)
    if (difference) return difference
  }
  return undefined
}

/** "spec.template.spec.containers[web].image is registry/web:1.4 on the edge, the manifest sets registry/web:1.5" */
export function differenceText(d: Difference): string {
  return `${shortText(d.path)} is ${valueText(d.have)}, the manifest sets ${valueText(d.want)}`
}

function valueText(value: unknown): string {
  if (value === undefined || value === null) return 'not set'
  return shortText(JSON.stringify(value) ?? typeof value)
}

function compare(want: unknown, have: unknown, path: string, key: string, depth: number): Difference | undefined {
  if (want === undefined || want === null) return undefined
  if (depth > MAX_DEPTH) return undefined
  if (Array.isArray(want)) return compareList(want, have, path, key, depth)
  if (isRecord(want)) {
    const entries = Object.entries(want)
    // An empty map the manifest spells out (`securityContext: {}`) is what the API server omits.
    if (entries.length === 0) return undefined
    if (!isRecord(have)) return { path, want, have }
    for (const [k, v] of entries) {
      const difference = compare(v, have[k], `${path}${member(k)}`, k, depth + 1)
      if (difference) return difference
    }
    return undefined
  }
  return sameScalar(want, have, key, path) ? undefined : { path, want, have }
}

function compareList(want: unknown[], have: unknown, path: string, key: string, depth: number): Difference | undefined {
  if (want.length === 0) return undefined
  if (!Array.isArray(have) || have.length > MAX_LIST) return { path, want, have }
  const keys = LIST_KEYS.get(key)
  const keyOf = keys && ((entry: unknown) => listKey(entry, keys))
  if (keyOf && want.every((entry) => keyOf(entry) !== undefined)) {
    const live = new Map<string, unknown>()
    for (const entry of have) {
      const k = keyOf(entry)
      if (k !== undefined && !live.has(k)) live.set(k, entry)
    }
    for (const entry of want) {
      const k = keyOf(entry) as string
      const difference = compare(entry, live.get(k), `${path}[${k}]`, key, depth + 1)
      if (difference) return difference
    }
    return undefined
  }
  // Scalars (args, command) and unkeyed lists (tolerations, envFrom) are atomic: same length, each entry alike.
  if (want.length !== have.length) return { path, want, have }
  for (const [i, entry] of want.entries()) {
    const difference = compare(entry, have[i], `${path}[${i}]`, key, depth + 1)
    if (difference) return difference
  }
  return undefined
}

function listKey(entry: unknown, keys: readonly string[]): string | undefined {
  if (!isRecord(entry)) return undefined
  for (const k of keys) {
    const value = entry[k]
    if (typeof value === 'string' || typeof value === 'number') return String(value)
  }
  return undefined
}

/** `.name`, or `["checksum/config"]` for a key a dotted path cannot spell. */
function member(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
}

function sameScalar(want: unknown, have: unknown, key: string, path: string): boolean {
  if (want === have) return true
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
