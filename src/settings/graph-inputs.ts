/**
 * Schemas of the graph commands' inputs: `targets` (a YAML or JSON list of objects) and
 * `query` (a QuerySpec). Both are checked here, before any request, with messages that name
 * the item and field at fault; hub-behaviour.md §3 gives the limits.
 */
import { z } from 'zod'
import type { Target } from '../model/target.js'
import { DNS_LABEL, oneOf, quoteInput, toServiceUrl } from './fields.js'
import { IMPACT_LIMIT_FIELDS } from './impact-limits.js'

const OBJECT_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/
const GROUP = /^$|^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/
const KIND = /^[A-Za-z][A-Za-z0-9]{0,62}$/

/** Zod's type error for a field: absent is "required", anything else is the wrong kind of value. */
function requiredText(what: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? `is required: ${what}` : `must be text: ${what}`)
}

const TargetSchema = z.strictObject({
  kind: z.string({ error: requiredText('a kind such as Deployment') }).regex(KIND, 'must be a kind such as Deployment or ConfigMap'),
  name: z.string({ error: requiredText('the object name') }).regex(OBJECT_NAME, 'must be a Kubernetes object name (lower-case letters, digits, "-" and ".")'),
  group: z.string().regex(GROUP, 'must be an API group such as apps or networking.k8s.io ("" for the core group)').optional(),
  namespace: z.string().regex(DNS_LABEL, 'must be a namespace name (a DNS-1123 label)').optional(),
  edge: z.string().trim().min(1, 'must not be empty (leave it out to look on every edge)').optional(),
})

const bool = z.boolean()
const positiveInt = (max: number) => z.number().int().min(1).max(max)

const GroupKindSchema = z.strictObject({ apiGroup: z.string().optional(), kind: z.string().min(1) })
const ObjectFilterSchema = z.strictObject({
  groupKind: GroupKindSchema.optional(),
  name: z.string().optional(),
  namespace: z.string().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  labelExpressions: z
    .array(
      z.strictObject({
        key: z.string().min(1),
        operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
        values: z.array(z.string()).optional(),
      }),
    )
    .optional(),
  conditions: z.array(z.strictObject({ type: z.string().min(1), status: z.string().optional(), reason: z.string().optional() })).optional(),
  creationTimestamp: z.strictObject({ after: z.string().optional(), before: z.string().optional() }).optional(),
  id: z.string().optional(),
  jsonpath: z.string().optional(),
  categories: z.array(z.string()).optional(),
})

/** A sparse tree whose leaves are `true`. */
type FieldTree = { [field: string]: true | FieldTree }
const FieldTreeSchema: z.ZodType<FieldTree> = z.lazy(() => z.record(z.string(), z.union([z.literal(true), FieldTreeSchema])))

interface Projection {
  id?: boolean | undefined
  cluster?: boolean | undefined
  mutablePath?: boolean | undefined
  object?: FieldTree | undefined
  relations?: Record<string, RelationBlock> | undefined
}
interface RelationBlock {
  limit?: number | undefined
  filters?: Array<z.infer<typeof ObjectFilterSchema>> | undefined
  objects?: Projection | undefined
}
const ProjectionSchema: z.ZodType<Projection> = z.lazy(() =>
  z.strictObject({
    id: bool.optional(),
    cluster: bool.optional(),
    mutablePath: bool.optional(),
    object: FieldTreeSchema.optional(),
    relations: z
      .record(
        z.string().regex(/^[a-z][a-z-]*\+?$/, 'must be a relation name such as descendants+ or selected-by'),
        z.strictObject({
          limit: positiveInt(10_000).optional(),
          filters: z.array(ObjectFilterSchema).optional(),
          objects: ProjectionSchema.optional(),
        }),
      )
      .optional(),
  }),
)

const ORDER_FIELDS = ['name', 'namespace', 'kind', 'apiGroup', 'cluster', 'creationTimestamp'] as const

const QuerySpecSchema = z
  .strictObject({
    root: z.enum(['objects', 'clusters']).optional(),
    cluster: z.strictObject({ name: z.string().min(1) }).optional(),
    filter: z.strictObject({ objects: z.array(ObjectFilterSchema).optional() }).optional(),
    limit: positiveInt(10_000).optional(),
    page: z.strictObject({ first: z.unknown().optional(), cursor: z.string().optional() }).optional(),
    order: z.array(z.strictObject({ field: z.enum(ORDER_FIELDS), direction: z.enum(['Asc', 'Desc']).optional() })).optional(),
    count: bool.optional(),
    cursor: bool.optional(),
    maxDepth: z.number().int().min(0).max(20).optional(),
    objects: ProjectionSchema.optional(),
  })
  .refine((spec) => countRelationBlocks(spec.objects) <= 10, {
    message: 'has more than 10 relation blocks (the hub allows at most 10 in one query)',
    path: ['objects', 'relations'],
  })
  .refine((spec) => new Set((spec.order ?? []).map((entry) => entry.direction ?? 'Asc')).size <= 1, {
    message:
      "mixes Asc and Desc; the hub pages with one comparison for the whole order tuple (taken from the first field's direction), so a mixed order repeats rows from page 2 on. Give every `order` entry the same direction",
    path: ['order'],
  })
export type QuerySpecInput = z.infer<typeof QuerySpecSchema>

function countRelationBlocks(projection: Projection | undefined): number {
  if (!projection?.relations) return 0
  return Object.values(projection.relations).reduce((sum, block) => sum + 1 + countRelationBlocks(block.objects), 0)
}

let yaml: typeof import('yaml') | undefined

/**
 * Load the YAML parser. Only the commands that read `targets` or `query` need it, so a `run`
 * step does not pay its load time (~24 ms); readSettings' caller loads it for those commands.
 */
export async function loadStructuredParser(): Promise<void> {
  yaml ??= await import('yaml')
}

/** YAML is a superset of JSON, so one parser reads both. */
function parseStructured(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!yaml) throw new Error('parseStructured: call loadStructuredParser() first (the YAML parser loads on demand).')
  try {
    return { ok: true, value: yaml.parse(text, { maxAliasCount: 100 }) as unknown }
  } catch (error) {
    const firstLine = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)
    // The parser's first line ends in ":" before a code excerpt we leave out.
    return { ok: false, message: firstLine.replace(/[\s:]+$/, '') }
  }
}

/** "item 2 (`namespace`)": where in the input a problem is. */
function describePath(path: readonly PropertyKey[], listName: string): string {
  if (path.length === 0) return ''
  const [head, ...rest] = path
  const field = rest.map(String).join('.')
  if (typeof head === 'number') return ` ${listName} ${head + 1}${field ? ` (\`${field}\`)` : ''}`
  return ` at \`${path.map(String).join('.')}\``
}

// The inputs of `command: impact` and `command: query`.

export const ImpactSchema = z
  .object({
    targets: z.string().transform((text, ctx) => parseTargets(text, ctx)),
    manifests: z.string().transform(globLines),
    'rendered-head': z.string().transform(globLines),
    'rendered-base': z.string().transform(globLines),
    namespace: z
      .string()
      .trim()
      .refine((v) => v === '' || DNS_LABEL.test(v), {
        error: (issue) =>
          `${quoteInput(issue.input)} is not a namespace name (a DNS-1123 label). It is the namespace given to manifest objects that name none.`,
      }),
    'impact-source': oneOf(['query', 'mcp'], "`query` computes impact with the query API; `mcp` asks the hub's graph_impact tool at `mcp-url`."),
    'mcp-url': z
      .string()
      .trim()
      .transform((text, ctx) =>
        text ? toServiceUrl(text, ctx, 'https://hub.example.com/services/mcpserver/…/mcp', 'the MCP server URL the hub publishes') : undefined,
      ),
    'max-depth': z
      .string()
      .trim()
      .regex(/^\d+$/, { error: (issue) => `${quoteInput(issue.input)} is not a whole number. Use 1 to 20 (the hub's limit).` })
      .transform(Number)
      .refine((n) => n >= 1 && n <= 20, { error: (issue) => `${quoteInput(issue.input)} is out of range: use 1 to 20 (the hub's limit).` }),
    'fail-on-downstream': z
      .string()
      .trim()
      .refine((v) => v === '' || /^\d+$/.test(v), {
        error: (issue) =>
          `${quoteInput(issue.input)} is not a whole number: the step fails when more distinct objects than this are downstream. Leave it empty to never fail.`,
      })
      .transform((v) => (v === '' ? undefined : Number(v))),
    comment: oneOf(['update', 'new', 'off'], '`update` keeps one sticky comment up to date, `new` adds one per run, `off` comments nothing.'),
    'comment-key': z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._-]{1,64}$/, {
        error: (issue) => `${quoteInput(issue.input)} must be 1 to 64 letters, digits, '.', '_' or '-': it tells several reports on one PR apart.`,
      }),
    'github-token': z.string(),
    ...IMPACT_LIMIT_FIELDS,
  })
  .superRefine((value, ctx) => {
    if (value.targets.length === 0 && value.manifests.length === 0 && value['rendered-head'].length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['targets'],
        message:
          'or `manifests` is required for `command: impact`, or `rendered-head`: name the objects, globs of manifest files, or globs of rendered manifests.',
      })
    }
    if (value['rendered-base'].length > 0 && value['rendered-head'].length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['rendered-base'],
        message:
          'needs `rendered-head`: the base set is what the head set is compared with. Render the pull request head too and give its files in `rendered-head`.',
      })
    }
    if (value['impact-source'] === 'mcp' && !value['mcp-url']) {
      ctx.addIssue({ code: 'custom', path: ['mcp-url'], message: 'is required with `impact-source: mcp`: the MCP server URL the hub publishes in its status.' })
    }
  })

/** Newline-separated globs; blank lines and `#` comments left out. */
function globLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
}

export const QuerySchema = z.object({
  query: z.string().transform((text, ctx) => {
    if (!text.trim()) {
      ctx.addIssue({
        code: 'custom',
        message:
          'is required for `command: query`: a QuerySpec as JSON or YAML, e.g. {"filter":{"objects":[{"groupKind":{"apiGroup":"apps","kind":"Deployment"}}]}}.',
      })
      return z.NEVER
    }
    const parsed = parseStructured(text)
    if (!parsed.ok) {
      ctx.addIssue({
        code: 'custom',
        message: `is not valid JSON or YAML: ${parsed.message}. Give a QuerySpec such as {"filter":{"objects":[{"name":"checkout"}]}}.`,
      })
      return z.NEVER
    }
    const spec = QuerySpecSchema.safeParse(parsed.value ?? {}, { reportInput: true })
    if (!spec.success) {
      for (const issue of spec.error.issues) {
        ctx.addIssue({ code: 'custom', message: `is not a valid QuerySpec${describePath(issue.path, 'item')}: ${describeQueryIssue(issue)}.` })
      }
      return z.NEVER
    }
    return spec.data
  }),
  'max-objects': z
    .string()
    .trim()
    .regex(/^\d+$/, { error: (issue) => `${quoteInput(issue.input)} is not a whole number: the most objects to collect across all pages.` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1_000_000, { error: (issue) => `${quoteInput(issue.input)} is out of range: use 1 to 1000000.` }),
})

function parseTargets(text: string, ctx: z.RefinementCtx): Target[] {
  if (!text.trim()) return []
  const parsed = parseStructured(text)
  if (!parsed.ok) {
    ctx.addIssue({
      code: 'custom',
      message: `is not valid YAML or JSON: ${parsed.message}. Give a list such as [{kind: Deployment, name: checkout, namespace: shop, group: apps}].`,
    })
    return []
  }
  if (!Array.isArray(parsed.value)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a list of objects, each with \`kind\` and \`name\` (and optional \`group\`, \`namespace\`, \`edge\`); it is ${quoteInput(text.trim())}. Give a list such as [{kind: Deployment, name: checkout}].`,
    })
    return []
  }
  const targets: Target[] = []
  parsed.value.forEach((item, index) => {
    const result = TargetSchema.safeParse(item, { reportInput: true })
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field =
          issue.code === 'unrecognized_keys'
            ? ` (unknown ${issue.keys.map((k) => `\`${k}\``).join(', ')}; allowed: ${Object.keys(TargetSchema.shape).join(', ')})`
            : describePath([index, ...issue.path], 'item').replace(` item ${index + 1}`, '')
        const problem = issue.code === 'unrecognized_keys' ? `has fields the action does not know${apiVersionFix(item)}` : describeIssue(issue)
        ctx.addIssue({ code: 'custom', message: `item ${index + 1}${field}: ${problem}.` })
      }
      return
    }
    const { kind, name, group, namespace, edge } = result.data
    targets.push({ kind, name, group: group ?? '', namespace, edge, origin: { kind: 'input' } })
  })
  return targets
}

/** A zod issue in our words, with the bad value first: `0 is too small: the least is 1`. */
function describeIssue(issue: z.core.$ZodIssue): string {
  const value = issue.input === undefined || typeof issue.input === 'object' ? '' : `${quoteInput(issue.input)} `
  switch (issue.code) {
    case 'too_small':
      return `${value}is too small: the least is ${String(issue.minimum)}`
    case 'too_big':
      return `${value}is too large: the most is ${String(issue.maximum)}`
    case 'invalid_value':
      return `${value}is not one of ${issue.values.map(String).join(', ')}`
    case 'invalid_type':
      // Our own texts (requiredText) say what is wanted; zod's default only names the type.
      if (!issue.message.startsWith('Invalid input')) return `${value}${issue.message}`
      return issue.input === undefined ? `is required (${issue.expected})` : `${value}is not a ${issue.expected}`
    default:
      return `${value}${issue.message}`
  }
}

/** A target written like a manifest (`apiVersion: apps/v1`) names its group so: `group: apps`. */
function apiVersionFix(item: unknown): string {
  const apiVersion = (item as { apiVersion?: unknown } | null)?.apiVersion
  if (typeof apiVersion !== 'string') return ''
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : ''
  return group
    ? `: for \`apiVersion: ${apiVersion}\` write \`group: ${group}\``
    : `: \`apiVersion: ${apiVersion}\` is the core group, so leave \`apiVersion\` out (or write \`group: ""\`)`
}

/** Zod's text, with the bad value before it, and for an unknown field the fields allowed there. */
function describeQueryIssue(issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys') return describeIssue(issue)
  const allowed = allowedKeysAt(QuerySpecSchema, issue.path)
  const unknown = issue.keys.map((key) => `\`${key}\``).join(', ')
  return `unknown field ${unknown}${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}`
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
