/**
 * The inputs of `command: impact`: the objects to report on (./targets.ts), where the impact
 * comes from, how the report is published, and the bounds impact shares with rollout (settings/target-limits.ts).
 */
import * as z from '../../zod.js'
import type { RunnerContext } from '../../runner/context.js'
import type { Target } from '../../model/target.js'
import { mcpOriginProblems } from './bearer-origin.js'
import {
  oneOf,
  quoteInput,
  seconds,
  TIMING_INPUTS,
  toServiceUrl,
  transformed,
  type InputDeclarations,
} from '../../settings/fields.js'
import type { StepSettings } from '../../settings/settings.js'
import { TARGET_LIMIT_FIELDS, TARGET_LIMIT_INPUTS, type TargetScope } from '../../settings/target-limits.js'
import {
  githubTokenProblems,
  globList,
  noTargetSourceIssue,
  TARGET_SOURCE_FIELDS,
  TARGET_SOURCE_INPUTS,
  targetSourceSettings,
} from '../../settings/targets.js'

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

/** The inputs `impact` reads (its schema's and `mcp-trusted-origin`, which its checks read), declared in action.yml's order. */
export const IMPACT_INPUTS = {
  targets: TARGET_SOURCE_INPUTS.targets,
  manifests: TARGET_SOURCE_INPUTS.manifests,
  'rendered-head': TARGET_SOURCE_INPUTS['rendered-head'],
  'rendered-base': {
    description:
      'For `impact`, with `rendered-head`: newline-separated globs of the same rendering of the base commit. The targets are then the objects added, removed or changed between the two (by group, kind, namespace and name), ignoring checksum/* and Kustomize build annotations, the helm.sh/chart label, creationTimestamp and status.',
    default: '',
  },
  namespace: TARGET_SOURCE_INPUTS.namespace,
  'impact-source': {
    description:
      "For `impact`: `query` computes impact through the query API; `mcp` asks the hub's graph_impact tool at `mcp-url`. Both give the same report.",
    default: 'query',
  },
  'mcp-url': {
    description:
      "For `impact-source` mcp, the MCP server URL the hub publishes in its status (the aggregate endpoint). It receives the hub token, so it must be on `hub-url`'s origin unless `mcp-trusted-origin` names its origin.",
    default: '',
  },
  'mcp-trusted-origin': {
    description:
      "For `impact`, the origin of an `mcp-url` on another origin than `hub-url` that you trust with the hub token, e.g. https://mcp.example.com; it must equal `mcp-url`'s origin exactly. Empty sends the token to `hub-url`'s origin only.",
    default: '',
  },
  'max-depth': {
    description: 'For `impact`, how deep transitive relations are followed (1 to 20).',
    default: '5',
  },
  'fail-on-downstream': {
    description:
      'For `impact`, fail the step when more distinct objects than this are downstream (after the summary and comment are published). Empty never fails.',
    default: '',
  },
  ...TARGET_LIMIT_INPUTS,
  comment: {
    description:
      'For `impact` on pull requests: `update` keeps one sticky comment up to date, `new` adds a comment per run, `off` comments nothing.',
    default: 'update',
  },
  'comment-key': {
    description: 'For `impact`, tells several sticky reports on one pull request apart.',
    default: 'default',
  },
  'github-token': TARGET_SOURCE_INPUTS['github-token'],
  'timeout-seconds': TIMING_INPUTS['timeout-seconds'],
} as const satisfies InputDeclarations

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
    ...targetSourceSettings(impact),
    renderedBase: Object.freeze(impact['rendered-base']),
    source: impact['impact-source'],
    mcpUrl: impact['mcp-url'],
    maxDepth: impact['max-depth'],
    failOnDownstream: impact['fail-on-downstream'],
    comment: impact.comment,
    commentKey: impact['comment-key'],
    timeoutSeconds: impact['timeout-seconds'],
  })
}
