/**
 * The inputs of `command: query`: `query`, a QuerySpec as YAML or JSON, checked against the
 * hub's limits (docs/hub-facts.md, "Graph queries") before any request, and `max-objects`.
 */
import * as z from '../../zod.js'
import { quoteInput, seconds, TIMING_INPUTS, transformed, type InputDeclarations } from '../../settings/fields.js'
import type { StepSettings } from '../../settings/settings.js'
import { isRecord } from '../../model/plain-value.js'
import { ACTION_OWNED, actionOwnedProblem, describeQueryIssue } from './input-messages.js'
import { describePath, parseStructured } from '../../settings/structured.js'

/** The settings of the `query` step (its row is ./index.ts). */
export type QueryStepSettings = StepSettings<'query', { query: Readonly<QuerySettings> }>

export interface QuerySettings {
  spec: QuerySpecInput
  maxObjects: number
  /** The step's one time budget (http/budget.ts): every page's request included. */
  timeoutSeconds: number
}

const bool = z.boolean()
const positiveInt = (max: number) => z.number().check(z.int(), z.gte(1), z.lte(max))

const GroupKindSchema = z.strictObject({ apiGroup: z.optional(z.string()), kind: z.string().check(z.minLength(1)) })
const ObjectFilterSchema = z.strictObject({
  groupKind: z.optional(GroupKindSchema),
  name: z.optional(z.string()),
  namespace: z.optional(z.string()),
  labels: z.optional(z.record(z.string(), z.string())),
  labelExpressions: z.optional(
    z.array(
      z.strictObject({
        key: z.string().check(z.minLength(1)),
        operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
        values: z.optional(z.array(z.string())),
      }),
    ),
  ),
  conditions: z.optional(
    z.array(
      z.strictObject({
        type: z.string().check(z.minLength(1)),
        status: z.optional(z.string()),
        reason: z.optional(z.string()),
      }),
    ),
  ),
  creationTimestamp: z.optional(z.strictObject({ after: z.optional(z.string()), before: z.optional(z.string()) })),
  id: z.optional(z.string()),
  jsonpath: z.optional(z.string()),
  categories: z.optional(z.array(z.string())),
})

/** A sparse tree whose leaves are `true`. */
type FieldTree = { [field: string]: true | FieldTree }
const FieldTreeSchema: z.ZodMiniType<FieldTree> = z.lazy(() =>
  z.record(z.string(), z.union([z.literal(true), FieldTreeSchema])),
)

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
const ProjectionSchema: z.ZodMiniType<Projection> = z.lazy(() =>
  z.strictObject({
    id: z.optional(bool),
    cluster: z.optional(bool),
    mutablePath: z.optional(bool),
    object: z.optional(FieldTreeSchema),
    relations: z.optional(
      z.record(
        z.string().check(z.regex(/^[a-z][a-z-]*\+?$/, 'must be a relation name such as descendants+ or selected-by')),
        z.strictObject({
          limit: z.optional(positiveInt(10_000)),
          filters: z.optional(z.array(ObjectFilterSchema)),
          objects: z.optional(ProjectionSchema),
        }),
      ),
    ),
  }),
)

const ORDER_FIELDS = ['name', 'namespace', 'kind', 'apiGroup', 'cluster', 'creationTimestamp'] as const

const QuerySpecSchema = z
  .strictObject({
    root: z.optional(z.enum(['objects', 'clusters'])),
    cluster: z.optional(z.strictObject({ name: z.string().check(z.minLength(1)) })),
    filter: z.optional(z.strictObject({ objects: z.optional(z.array(ObjectFilterSchema)) })),
    limit: z.optional(positiveInt(10_000)),
    order: z.optional(
      z.array(z.strictObject({ field: z.enum(ORDER_FIELDS), direction: z.optional(z.enum(['Asc', 'Desc'])) })),
    ),
    count: z.optional(bool),
    maxDepth: z.optional(z.number().check(z.int(), z.gte(0), z.lte(20))),
    objects: z.optional(ProjectionSchema),
  })
  .check(
    z.refine((spec) => countRelationBlocks(spec.objects) <= 10, {
      message: 'has more than 10 relation blocks (the hub allows at most 10 in one query)',
      path: ['objects', 'relations'],
    }),
    z.superRefine((spec, ctx) => {
      for (const problem of engineProblems(spec.filter?.objects, ['filter', 'objects'], spec.objects, ['objects']))
        ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path, input: problem.input })
    }),
    z.refine((spec) => new Set((spec.order ?? []).map((entry) => entry.direction ?? 'Asc')).size <= 1, {
      message:
        "mixes Asc and Desc; the hub pages with one comparison for the whole order tuple (taken from the first field's direction), so a mixed order repeats rows from page 2 on. Give every `order` entry the same direction",
      path: ['order'],
    }),
  )
type QuerySpecInput = z.infer<typeof QuerySpecSchema>

type Filter = z.infer<typeof ObjectFilterSchema>

/**
 * What the engine answers wrongly or with a 500 although the shape is valid (docs/hub-facts.md,
 * "Relations, more precisely"): refused here, naming the field and the fix, before any request.
 */
function engineProblems(
  filters: readonly Filter[] | undefined,
  filtersAt: PropertyKey[],
  projection: Projection | undefined,
  projectionAt: PropertyKey[],
): Array<{ message: string; path: PropertyKey[]; input: unknown }> {
  const problems: Array<{ message: string; path: PropertyKey[]; input: unknown }> = []
  ;(filters ?? []).forEach((filter, i) =>
    (filter.labelExpressions ?? []).forEach((expression, j) => {
      if ((expression.operator === 'In' || expression.operator === 'NotIn') && !expression.values?.length)
        problems.push({
          message: EMPTY_VALUES(expression.operator),
          path: [...filtersAt, i, 'labelExpressions', j],
          input: expression,
        })
    }),
  )
  for (const [name, block] of Object.entries(projection?.relations ?? {})) {
    const at = [...projectionAt, 'relations', name]
    if (name.endsWith('+') && !TRANSITIVE_FORMS.includes(name))
      problems.push({ message: NO_TRANSITIVE_FORM, path: at, input: name })
    if (name.endsWith('+') && (block.filters ?? []).some((f) => f.groupKind || f.name || f.namespace))
      problems.push({ message: NO_FILTER_ON_TRANSITIVE, path: [...at, 'filters'], input: block.filters })
    if (name === 'references')
      (block.filters ?? []).forEach((f, i) => {
        const kind = f.groupKind?.kind
        if (kind && !/^[A-Z]/.test(kind))
          problems.push({ message: inexactKind(kind), path: [...at, 'filters', i, 'groupKind', 'kind'], input: kind })
      })
    problems.push(...engineProblems(block.filters, [...at, 'filters'], block.objects, [...at, 'objects']))
  }
  return problems
}

/** The only transitive forms the engine has; any other `X+` fails its query with a 500. */
const TRANSITIVE_FORMS = ['descendants+', 'owners+', 'linked+']
const NO_TRANSITIVE_FORM =
  'is not a transitive relation the hub has: only `descendants+`, `owners+` and `linked+` exist, and any other name ending in `+` fails the whole query (500). Drop the `+`, or use one of those three'
const NO_FILTER_ON_TRANSITIVE =
  'cannot filter by kind, name or namespace on a transitive (`+`) relation: the hub fails the whole query (500) on such a filter (and ignores its other fields). Filter on the client, or use the relation without `+`'
const EMPTY_VALUES = (operator: string): string =>
  `needs values with operator ${operator}: the hub drops an ${operator} expression without values, so the filter would match everything. Give \`values: [...]\`, or use Exists or DoesNotExist`
/** Short and lower-case spellings of kinds a `references` filter is commonly given. */
const CANONICAL_KINDS: Record<string, string> = {
  cm: 'ConfigMap',
  configmap: 'ConfigMap',
  secret: 'Secret',
  svc: 'Service',
  service: 'Service',
  sa: 'ServiceAccount',
  serviceaccount: 'ServiceAccount',
  pvc: 'PersistentVolumeClaim',
  persistentvolumeclaim: 'PersistentVolumeClaim',
}
function inexactKind(kind: string): string {
  const canonical = CANONICAL_KINDS[kind.toLowerCase()]
  return `names a kind the \`references\` relation compares exactly and case-sensitively, so ${quoteInput(kind)} matches nothing: write the kind as Kubernetes spells it${canonical ? ` (${canonical})` : ', such as ConfigMap or Secret'}`
}

function countRelationBlocks(projection: Projection | undefined): number {
  if (!projection?.relations) return 0
  return Object.values(projection.relations).reduce((sum, block) => sum + 1 + countRelationBlocks(block.objects), 0)
}

/** The inputs `query` reads, declared in action.yml's order. */
export const QUERY_INPUTS = {
  query: {
    description:
      'For `query`, a QuerySpec as JSON or YAML. Every page is followed (ordered by edge first) and the objects stream to `result-file`.',
    default: '',
  },
  'max-objects': { description: 'For `query`, the most objects to collect across all pages.', default: '10000' },
  'timeout-seconds': TIMING_INPUTS['timeout-seconds'],
} as const satisfies InputDeclarations

export const QuerySchema = z.object({
  query: transformed(z.string(), (text, ctx) => {
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
    const owned = isRecord(value) ? ACTION_OWNED.filter((key) => key in value) : []
    if (owned.length) ctx.addIssue({ code: 'custom', message: actionOwnedProblem(owned) })
    const rest =
      isRecord(value) && owned.length
        ? Object.fromEntries(Object.entries(value).filter(([key]) => !owned.includes(key as never)))
        : value
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
  'max-objects': transformed(
    z.string().check(
      z.trim(),
      z.regex(/^\d+$/, {
        error: (issue) =>
          `${quoteInput(issue.input)} is not a whole number: the most objects to collect across all pages.`,
      }),
    ),
    Number,
  ).check(
    z.refine((n) => n >= 1 && n <= 1_000_000, {
      error: (issue) => `${quoteInput(issue.input)} is out of range: use 1 to 1000000.`,
    }),
  ),
  'timeout-seconds': seconds(
    'Use a whole number of seconds such as 600 for 10 minutes: it bounds the whole step, every page of the query included.',
    1,
  ),
})

export function querySettings(query: z.infer<typeof QuerySchema>): Readonly<QuerySettings> {
  return Object.freeze({
    spec: query.query,
    maxObjects: query['max-objects'],
    timeoutSeconds: query['timeout-seconds'],
  })
}
