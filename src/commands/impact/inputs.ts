/**
 * The inputs of `command: impact`: the objects to report on (./targets.ts), where the impact
 * comes from, how the report is published, and the bounds impact shares with rollout (settings/target-limits.ts).
 */
import * as z from '../../zod.js'
import type { RunnerContext } from '../../runner/context.js'
import type { Target } from '../../model/target.js'
import { mcpOriginProblems } from './bearer-origin.js'
import { oneOf, quoteInput, seconds, toServiceUrl, transformed } from '../../settings/fields.js'
import type { StepSettings } from '../../settings/settings.js'
import { TARGET_LIMIT_FIELDS, type TargetScope } from '../../settings/target-limits.js'
import { githubTokenProblems, globList, noTargetSourceIssue, TARGET_SOURCE_FIELDS } from '../../settings/targets.js'

/** The settings of the `impact` step (its row is ./index.ts). */
export type ImpactStepSettings = StepSettings<'impact', { impact: Readonly<ImpactSettings> }>

export interface ImpactSettings {
  targets: readonly Target[]
  /** Globs of manifest files; on a pull request, matched against the files it changes. */
  manifests: readonly string[]
  /** Globs of rendered manifest sets (helm template, kustomize build): the head's, and the base's to diff against. */
  renderedHead?: readonly string[] | undefined
  renderedBase?: readonly string[] | undefined
  defaultNamespace: string | undefined
  source: 'query' | 'mcp'
  mcpUrl: URL | undefined
  maxDepth: number
  /** Fail when more distinct objects than this are downstream; undefined: never. */
  failOnDownstream: number | undefined
  comment: 'update' | 'new' | 'off'
  commentKey: string
  githubToken: string
  /** The most distinct targets one step reports on; past it the step fails before any hub request. */
  maxTargets: number
  /** The most YAML documents (and List items) one manifest or rendered file may hold. */
  maxDocuments: number
  /** Targets outside these are skipped, not queried; empty: no restriction. */
  scope: TargetScope
  /** The step's one time budget (http/budget.ts): every hub and GitHub request included. */
  timeoutSeconds: number
}

export const ImpactSchema = z
  .object({
    ...TARGET_SOURCE_FIELDS,
    'rendered-base': globList,
    'impact-source': oneOf(
      ['query', 'mcp'],
      "`query` computes impact with the query API; `mcp` asks the hub's graph_impact tool at `mcp-url`.",
    ),
    'mcp-url': transformed(z.string().check(z.trim()), (text, ctx) =>
      text
        ? toServiceUrl(
            text,
            ctx,
            'https://hub.example.com/services/mcpserver/…/mcp',
            'the MCP server URL the hub publishes',
          )
        : undefined,
    ),
    'max-depth': transformed(
      z.string().check(
        z.trim(),
        z.regex(/^\d+$/, {
          error: (issue) => `${quoteInput(issue.input)} is not a whole number. Use 1 to 20 (the hub's limit).`,
        }),
      ),
      Number,
    ).check(
      z.refine((n) => n >= 1 && n <= 20, {
        error: (issue) => `${quoteInput(issue.input)} is out of range: use 1 to 20 (the hub's limit).`,
      }),
    ),
    'fail-on-downstream': transformed(
      z.string().check(
        z.trim(),
        z.refine((v) => v === '' || /^\d+$/.test(v), {
          error: (issue) =>
            `${quoteInput(issue.input)} is not a whole number: the step fails when more distinct objects than this are downstream. Leave it empty to never fail.`,
        }),
      ),
      (v) => (v === '' ? undefined : Number(v)),
    ),
    comment: oneOf(
      ['update', 'new', 'off'],
      '`update` keeps one sticky comment up to date, `new` adds one per run, `off` comments nothing.',
    ),
    'comment-key': z.string().check(
      z.trim(),
      z.regex(/^[A-Za-z0-9._-]{1,64}$/, {
        error: (issue) =>
          `${quoteInput(issue.input)} must be 1 to 64 letters, digits, '.', '_' or '-': it tells several reports on one PR apart.`,
      }),
    ),
    'github-token': z.string(),
    'timeout-seconds': seconds(
      'Use a whole number of seconds such as 600 for 10 minutes: it bounds the whole step, every request to the hub and GitHub included.',
      1,
    ),
    ...TARGET_LIMIT_FIELDS,
  })
  .check(
    z.superRefine((value, ctx) => {
      const noTargets = noTargetSourceIssue(
        value,
        'impact',
        'name the objects, globs of manifest files, or globs of rendered manifests.',
      )
      if (noTargets) ctx.addIssue(noTargets)
      if (value['rendered-base'].length > 0 && value['rendered-head'].length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['rendered-base'],
          message:
            'needs `rendered-head`: the base set is what the head set is compared with. Render the pull request head too and give its files in `rendered-head`.',
        })
      }
      if (value['impact-source'] === 'mcp' && !value['mcp-url']) {
        ctx.addIssue({
          code: 'custom',
          path: ['mcp-url'],
          message: 'is required with `impact-source: mcp`: the MCP server URL the hub publishes in its status.',
        })
      }
    }),
  )

/** Checks that need several inputs, the event or the hub URL at once. */
export function impactProblems(
  impact: z.infer<typeof ImpactSchema>,
  runner: RunnerContext,
  hubUrl: URL | undefined,
  trustedOrigin: string,
): string[] {
  return [...githubTokenProblems(impact, runner), ...mcpOriginProblems(hubUrl, impact['mcp-url'], trustedOrigin)]
}

export function impactSettings(impact: z.infer<typeof ImpactSchema>): Readonly<ImpactSettings> {
  return Object.freeze({
    targets: Object.freeze(impact.targets),
    manifests: Object.freeze(impact.manifests),
    renderedHead: Object.freeze(impact['rendered-head']),
    renderedBase: Object.freeze(impact['rendered-base']),
    defaultNamespace: impact.namespace || undefined,
    source: impact['impact-source'],
    mcpUrl: impact['mcp-url'],
    maxDepth: impact['max-depth'],
    failOnDownstream: impact['fail-on-downstream'],
    comment: impact.comment,
    commentKey: impact['comment-key'],
    githubToken: impact['github-token'],
    maxTargets: impact['max-targets'],
    maxDocuments: impact['max-documents'],
    timeoutSeconds: impact['timeout-seconds'],
    scope: Object.freeze({
      namespaces: Object.freeze(impact['allowed-namespaces']),
      kinds: Object.freeze(impact['allowed-kinds']),
    }),
  })
}
