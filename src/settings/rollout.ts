/**
 * The inputs of `command: rollout`: the targets as for impact (the same schemas, so the same
 * messages, caps and scope), the edges to watch, the quorum (`require`), the kinds the graph
 * was made to sync, and the budget.
 */
import * as z from '../zod.js'
import type { Target } from '../model/target.js'
import { oneOf, seconds, quoteInput, transformed } from './fields.js'
import { ImpactSchema } from './impact.js'
import { IMPACT_LIMIT_FIELDS, type AllowedKind } from './impact-limits.js'
import { noTargetSourceIssue } from './targets.js'

/** How many edges must report every target rolled out. */
export type Quorum = { kind: 'all' } | { kind: 'edges'; count: number } | { kind: 'percent'; percent: number }

export interface RolloutSettings {
  targets: readonly Target[]
  manifests: readonly string[]
  renderedHead: readonly string[]
  defaultNamespace: string | undefined
  /** The edges named by the user; undefined: every engaged edge of the workspace. */
  edges: readonly string[] | undefined
  require: Quorum
  timeoutSeconds: number
  onTimeout: 'fail' | 'warn'
  githubToken: string
  /** As for impact: the most distinct targets, documents a file may hold, and the scope queried. */
  maxTargets: number
  maxDocuments: number
  scope: Readonly<{ namespaces: readonly string[]; kinds: readonly AllowedKind[] }>
  /** Kinds outside the graph's default sync list that its operator made it sync (`synced-kinds`). */
  syncedKinds: readonly AllowedKind[]
}

const EDGE_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/

export const RolloutSchema = z
  .object({
    targets: ImpactSchema.shape.targets,
    manifests: ImpactSchema.shape.manifests,
    'rendered-head': ImpactSchema.shape['rendered-head'],
    namespace: ImpactSchema.shape.namespace,
    'github-token': z.string(),
    edges: transformed(z.string(), (text, ctx) => {
      const names = text
        .split(/[\s,]+/)
        .map((name) => name.trim())
        .filter(Boolean)
      for (const name of names) {
        if (!EDGE_NAME.test(name)) {
          ctx.addIssue({
            code: 'custom',
            message: `${quoteInput(name)} is not an edge name (letters, digits, '.', '_' and '-'). List edge names separated by commas or new lines, or leave it empty for every engaged edge.`,
          })
        }
      }
      return names.length > 0 ? [...new Set(names)] : undefined
    }),
    require: transformed(z.string().check(z.trim()), (text, ctx): Quorum => {
      const value = text.toLowerCase()
      if (value === 'all') return { kind: 'all' }
      const match = /^(\d{1,6})\s*(%|edges?)?$/.exec(value)
      const count = Number(match?.[1])
      if (match && match[2] === '%' && count >= 1 && count <= 100) return { kind: 'percent', percent: count }
      if (match && match[2] !== '%' && count >= 1) return { kind: 'edges', count }
      ctx.addIssue({
        code: 'custom',
        message: `${quoteInput(text)} is not a quorum: use \`all\` (every target on every edge), a number of edges such as \`2\`, or a percentage of edges such as \`80%\` (1 to 100).`,
      })
      return z.NEVER
    }),
    'timeout-seconds': seconds(
      'Use a whole number of seconds such as 600 for 10 minutes: how long to wait for every target to roll out.',
      1,
    ),
    'on-timeout': oneOf(
      ['fail', 'warn'],
      'It says what to do when `timeout-seconds` runs out before every target rolled out (`cancel` is for runs).',
    ),
    ...IMPACT_LIMIT_FIELDS,
    'synced-kinds': IMPACT_LIMIT_FIELDS['allowed-kinds'],
  })
  .check(
    z.superRefine((value, ctx) => {
      const noTargets = noTargetSourceIssue(
        value,
        'rollout',
        'name the objects, or give globs of the manifests that were deployed (the expected state).',
      )
      if (noTargets) ctx.addIssue(noTargets)
    }),
  )

export function rolloutSettings(input: z.infer<typeof RolloutSchema>): Readonly<RolloutSettings> {
  return Object.freeze({
    targets: Object.freeze(input.targets),
    manifests: Object.freeze(input.manifests),
    renderedHead: Object.freeze(input['rendered-head']),
    defaultNamespace: input.namespace || undefined,
    edges: input.edges && Object.freeze(input.edges),
    require: input.require,
    timeoutSeconds: input['timeout-seconds'],
    onTimeout: input['on-timeout'],
    githubToken: input['github-token'],
    maxTargets: input['max-targets'],
    maxDocuments: input['max-documents'],
    scope: Object.freeze({
      namespaces: Object.freeze(input['allowed-namespaces']),
      kinds: Object.freeze(input['allowed-kinds']),
    }),
    syncedKinds: Object.freeze(input['synced-kinds']),
  })
}
