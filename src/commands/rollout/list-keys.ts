/**
 * How a manifest's lists are matched to the live object's, and how a path through them is
 * spelled: the keys server-side apply merges them by (the `+listMapKey` markers of the API
 * types), which are also the keys `managedFields` names list entries by (`k:{"name":"web"}`).
 * Shared by the comparison (./synced.ts) and the ownership walk (./fields-v1.ts), so both
 * spell a path the same way. Pure.
 */
import { isRecord } from '../../model/plain-value.js'

/**
 * A list field's key fields, and the defaults the API server fills in for them: a port is keyed
 * by its number and protocol, so 53/TCP and 53/UDP are two entries.
 */
const LIST_KEYS: ReadonlyMap<string, readonly (readonly [field: string, fallback?: string])[]> = new Map([
  ['containers', [['name']]],
  ['initContainers', [['name']]],
  ['ephemeralContainers', [['name']]],
  ['env', [['name']]],
  ['volumes', [['name']]],
  ['imagePullSecrets', [['name']]],
  ['secrets', [['name']]],
  ['resourceClaims', [['name']]],
  ['webhooks', [['name']]],
  ['volumeMounts', [['mountPath']]],
  ['volumeDevices', [['devicePath']]],
  ['hostAliases', [['ip']]],
  ['topologySpreadConstraints', [['topologyKey'], ['whenUnsatisfiable']]],
  ['ports', [['containerPort'], ['port'], ['protocol', 'TCP']]],
])

/** Lists matched as sets: admission adds entries (tolerations for not-ready nodes), so the manifest's must be among them. */
export const SET_LISTS: ReadonlySet<string> = new Set(['tolerations'])

/** Whether entries of the list under `field` are matched by key fields. */
export function isKeyedList(field: string, entries: readonly unknown[]): boolean {
  return LIST_KEYS.has(field) && entries.every((entry) => entryKey(field, entry) !== undefined)
}

/** The entry's key fields with their defaults (`{containerPort: 53, protocol: 'UDP'}`), or undefined. */
function keyFields(field: string, entry: unknown): Record<string, unknown> | undefined {
  const keys = LIST_KEYS.get(field)
  if (!keys || !isRecord(entry)) return undefined
  const out: Record<string, unknown> = {}
  for (const [name, fallback] of keys) {
    const value = entry[name] ?? fallback
    if (typeof value === 'string' || typeof value === 'number') out[name] = value
  }
  // a port needs its number; anything else its first key
  const first = keys[0]?.[0] as string
  if (field === 'ports' ? out.containerPort === undefined && out.port === undefined : out[first] === undefined)
    return undefined
  return out
}

/** The entry's key as a path spells it: `web`, `53/UDP`. */
export function entryKey(field: string, entry: unknown): string | undefined {
  const fields = keyFields(field, entry)
  return fields && Object.values(fields).map(String).join('/')
}

/** `.name`, or `["checksum/config"]` for a key a dotted path cannot spell. */
export function member(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`
}
