/**
 * The inputs of `command: query`: `query`, a QuerySpec as YAML or JSON, checked against the
 * hub's limits (hub-behaviour.md §3) before any request, and `max-objects`.
 */
import { z } from 'zod'
import { quoteInput } from './fields.js'
import { ACTION_OWNED, actionOwnedProblem, describeQueryIssue } from './query-messages.js'
import { describePath, parseStructured } from './structured.js'

export interface QuerySettings {
  spec: QuerySpecInput
  maxObjects: number
}

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
    order: z.array(z.strictObject({ field: z.enum(ORDER_FIELDS), direction: z.enum(['Asc', 'Desc']).optional() })).optional(),
    count: bool.optional(),
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
type QuerySpecInput = z.infer<typeof QuerySpecSchema>

function countRelationBlocks(projection: Projection | undefined): number {
  if (!projection?.relations) return 0
  return Object.values(projection.relations).reduce((sum, block) => sum + 1 + countRelationBlocks(block.objects), 0)
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
    const value = parsed.value ?? {}
    // The action's own paging fields are one problem, however many of them and whatever their values.
    const owned = isMap(value) ? ACTION_OWNED.filter((key) => key in value) : []
    if (owned.length) ctx.addIssue({ code: 'custom', message: actionOwnedProblem(owned) })
    const rest = isMap(value) && owned.length ? Object.fromEntries(Object.entries(value).filter(([key]) => !owned.includes(key as never))) : value
    const spec = QuerySpecSchema.safeParse(rest, { reportInput: true })
    if (!spec.success) {
      for (const issue of spec.error.issues) {
        ctx.addIssue({
          code: 'custom',
          message: `is not a valid QuerySpec${describePath(issue.path, 'item')}: ${describeQueryIssue(issue, QuerySpecSchema)}.`,
        })
      }
    }
    return spec.success && !owned.length ? spec.data : z.NEVER
  }),
  'max-objects': z
    .string()
    .trim()
    .regex(/^\d+$/, { error: (issue) => `${quoteInput(issue.input)} is not a whole number: the most objects to collect across all pages.` })
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1_000_000, { error: (issue) => `${quoteInput(issue.input)} is out of range: use 1 to 1000000.` }),
})

export function querySettings(query: z.infer<typeof QuerySchema>): Readonly<QuerySettings> {
  return Object.freeze({ spec: query.query, maxObjects: query['max-objects'] })
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
