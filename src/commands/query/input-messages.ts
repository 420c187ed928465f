/**
 * The `query` input's problems in a user's words: the fields allowed where an unknown one
 * stands, an example of the shape a misshapen field takes, and, for a kubectl-style `kind:`,
 * where the kind goes in a QuerySpec (`filter.objects[].groupKind`, docs/hub-facts.md, "Graph queries").
 */
import type * as z from '../../zod.js'
import { quoteInput } from '../../settings/fields.js'
import { describeIssue, valueBefore } from '../../settings/structured.js'

/** Fields the action sets on every page itself; a user's would fight its paging. */
export const ACTION_OWNED = ['page', 'cursor'] as const

export function actionOwnedProblem(given: readonly string[]): string {
  const fields = given.map((key) => `\`${key}\``).join(' and ')
  return `must not set \`page\` or \`cursor\`: the action follows every page by itself (\`limit\` in the query sets the page size, the \`max-objects\` input the total). Remove ${fields}.`
}

const GROUP_KIND = '{apiGroup: apps, kind: Deployment}'
const SELECTOR = `{groupKind: ${GROUP_KIND}, namespace: shop}`
const TREE = '{name: true}'
/** One example per place in a QuerySpec (see placeOf), for a field of the wrong shape. */
const EXAMPLES: Record<string, string> = {
  '': `{filter: {objects: [{groupKind: ${GROUP_KIND}}]}}`,
  cluster: '{name: edge-1}',
  filter: `{objects: [${SELECTOR}]}`,
  'filter.objects': `[${SELECTOR}]`,
  'objects[]': SELECTOR,
  filters: `[${SELECTOR}]`,
  'filters[]': SELECTOR,
  groupKind: GROUP_KIND,
  labels: '{app: checkout}',
  labelExpressions: '[{key: tier, operator: In, values: [web]}]',
  'labelExpressions[]': '{key: tier, operator: In, values: [web]}',
  conditions: '[{type: Available}]',
  'conditions[]': '{type: Available}',
  creationTimestamp: '{after: 2024-01-01T00:00:00Z}',
  categories: '[all]',
  order: '[{field: name, direction: Asc}]',
  'order[]': '{field: name, direction: Asc}',
  objects: '{id: true, object: {metadata: {name: true}}}',
  object: '{metadata: {name: true}}',
  'object.*': TREE,
  relations: '{descendants+: {limit: 50}}',
  'relations.*': '{limit: 50, objects: {object: {metadata: {name: true}}}}',
}

/** Zod's text, with the bad value before it; an unknown field gets the fields allowed there, a misshapen one an example. */
export function describeQueryIssue(issue: z.core.$ZodIssue, schema: z.core.$ZodType): string {
  const example = exampleAt(issue.path)
  if (issue.code === 'invalid_union' && placeOf(issue.path).at(-1) === 'object.*')
    return `${valueBefore(issue)}is neither true nor a tree of fields such as ${TREE}`
  if (issue.code === 'invalid_type' && issue.input !== undefined && example)
    return `${describeIssue(issue)} such as ${example}`
  if (issue.code !== 'unrecognized_keys') return describeIssue(issue)
  const allowed = allowedKeysAt(schema, issue.path)
  const unknown = issue.keys.map((key) => `\`${key}\``).join(', ')
  return `unknown field ${unknown}${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}${kindPointer(issue.keys, issue.input, issue.path)}`
}

/**
 * Where a path stands, as the keys of EXAMPLES: a list item is `name[]`, a relation `relations.*`,
 * anything inside a projection's field tree `object.*` (its keys are the user's).
 */
function placeOf(path: readonly PropertyKey[]): string[] {
  const places: string[] = []
  path.forEach((segment, index) => {
    if (places.at(-1) === 'object.*') return
    const previous = path[index - 1]
    if (typeof segment === 'number') places.push(`${places.pop() ?? ''}[]`)
    else if (previous === 'relations') places.push('relations.*')
    else if (previous === 'object') places.push('object.*')
    else places.push(String(segment))
  })
  return places
}

function exampleAt(path: readonly PropertyKey[]): string | undefined {
  const places = placeOf(path)
  return EXAMPLES[places.slice(-2).join('.')] ?? EXAMPLES[places.at(-1) ?? '']
}

const KIND_FIELDS = new Set(['kind', 'apiVersion', 'group', 'apiGroup'])

/** kubectl writes `kind:` and `apiVersion:` at the top; a QuerySpec selects a kind in `filter.objects[].groupKind`. */
function kindPointer(keys: readonly string[], input: unknown, path: readonly PropertyKey[]): string {
  if (!keys.some((key) => KIND_FIELDS.has(key))) return ''
  const given = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>
  const groupKind = groupKindOf(given)
  const place = placeOf(path).at(-1) ?? ''
  if (place === 'groupKind') return `; the group is \`apiGroup\` here: ${groupKind}`
  if (place === 'objects[]' || place === 'filters[]')
    return `; a selector names its kind in \`groupKind\`: {groupKind: ${groupKind}}`
  // A manifest pasted whole names its object in `metadata`: carry that over too.
  const metadata = (given.metadata && typeof given.metadata === 'object' ? given.metadata : {}) as Record<
    string,
    unknown
  >
  const rest = ['namespace', 'name'].flatMap((key) => {
    const value = [given[key], metadata[key]].find((v) => typeof v === 'string')
    return typeof value === 'string' ? [`, ${key}: ${flow(value)}`] : []
  })
  return `; the kind goes in \`filter.objects[].groupKind\`: {filter: {objects: [{groupKind: ${groupKind}${rest.join('')}}]}}`
}

/** `{apiGroup: apps, kind: Deployment}` from what the user wrote (`apiVersion: apps/v1`, `group: apps`, `kind: …`). */
function groupKindOf(given: Record<string, unknown>): string {
  const { kind, apiVersion } = given
  const named = [given.apiGroup, given.group].find((value) => typeof value === 'string')
  const group =
    typeof apiVersion === 'string'
      ? apiVersion.includes('/')
        ? apiVersion.slice(0, apiVersion.lastIndexOf('/'))
        : ''
      : named
  if (typeof kind !== 'string') return group === undefined ? GROUP_KIND : `{apiGroup: ${flow(group)}, kind: Deployment}`
  return group === undefined ? `{kind: ${flow(kind)}}` : `{apiGroup: ${flow(group)}, kind: ${flow(kind)}}`
}

/** A user's value as YAML flow text: bare when plain, quoted (and clipped) otherwise. */
function flow(value: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/.test(value) ? value : quoteInput(value)
}

/** The field names an object schema allows at `path`, walking through optional, list, map and lazy schemas. */
function allowedKeysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string }
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return allowedKeysAt(def.innerType as z.core.$ZodType, path)
    case 'lazy':
      return allowedKeysAt((def.getter as () => z.core.$ZodType)(), path)
    case 'array':
      return path.length ? allowedKeysAt(def.element as z.core.$ZodType, path.slice(1)) : []
    case 'record':
      return path.length ? allowedKeysAt(def.valueType as z.core.$ZodType, path.slice(1)) : []
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>
      if (path.length === 0) return Object.keys(shape)
      const next = shape[String(path[0])]
      return next ? allowedKeysAt(next, path.slice(1)) : []
    }
    default:
      return []
  }
}
