/**
 * The inputs of `command: rollout`: the targets as for impact (the same schemas, so the same
 * messages, caps and scope), the edges to watch, the quorum (`require`), the kinds the graph
 * was made to sync, and the budget.
 */
import * as z from '../../zod.js'
import type { Target } from '../../model/target.js'
import {
  oneOf,
  seconds,
  quoteInput,
  TIMING_INPUTS,
  transformed,
  type InputDeclarations,
} from '../../settings/fields.js'
import type { StepSettings } from '../../settings/settings.js'
import {
  TARGET_LIMIT_FIELDS,
  TARGET_LIMIT_INPUTS,
  type AllowedKind,
  type TargetScope,
} from '../../settings/target-limits.js'
import {
  noTargetSourceIssue,
  TARGET_SOURCE_FIELDS,
  TARGET_SOURCE_INPUTS,
  targetSourceSettings,
} from '../../settings/targets.js'

/** How many edges must report every target rolled out. */
export type Quorum = { kind: 'all' } | { kind: 'edges'; count: number } | { kind: 'percent'; percent: number }

/** The settings of the `rollout` step (its row is ./index.ts). */
export type RolloutStepSettings = StepSettings<'rollout', { rollout: Readonly<RolloutSettings> }>

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
  scope: TargetScope
  /** Kinds outside the graph's default sync list that its operator made it sync (`synced-kinds`). */
  syncedKinds: readonly AllowedKind[]
  /** The label or annotation a deploy stamps on this release (`revision`); binds a `targets` gate to it. */
  revision?: Revision | undefined
  /** How long a target may be missing from every engaged edge before the gate calls it a wrong name; `absent-grace-seconds`, default ABSENT_GRACE_SECONDS. */
  absentGraceSeconds?: number | undefined
  /** When the only release carriers are kinds the gate cannot check (a HelmRelease…): fail (the default), or warn. */
  onUnverifiable?: 'fail' | 'warn' | undefined
  /** `deployment-environment`: record one GitHub deployment per watched edge, in environment `<this>/<edge>`; undefined: off. */
  deploymentEnvironment?: string | undefined
}

/** Flux and Argo CD apply minutes after the commit: a target missing that long is a wrong name. */
export const ABSENT_GRACE_SECONDS = 600

/** `revision: 1.4.2` or `revision: app.kubernetes.io/version=1.4.2`: a key, and the value this release stamps. */
export interface Revision {
  key: string
  value: string
}

/** The label deploys conventionally stamp with the version (Helm charts, kustomize `labels`). */
const DEFAULT_REVISION_KEY = 'app.kubernetes.io/version'

/** A label or annotation key: an optional DNS-subdomain prefix and a name of 63 characters at most. */
const METADATA_KEY = /^(?:[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/

/**
 * A prefix for GitHub environment names: printable, no leading or trailing slash, room left for
 * `/<edge>` under GitHub's 255 characters. Characters GitHub's UI and URLs treat specially (`,`
 * `;` `:` quotes, `#`, `?`, `%`, `&`, `\`) are kept out.
 */
const ENVIRONMENT_PREFIX = /^[A-Za-z0-9]([A-Za-z0-9 ._/-]{0,98}[A-Za-z0-9])?$/

const EDGE_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/

/** The inputs `rollout` reads, declared: those it shares with impact, then its own in action.yml's order. */
export const ROLLOUT_INPUTS = {
  targets: TARGET_SOURCE_INPUTS.targets,
  manifests: TARGET_SOURCE_INPUTS.manifests,
  'rendered-head': TARGET_SOURCE_INPUTS['rendered-head'],
  namespace: TARGET_SOURCE_INPUTS.namespace,
  'github-token': TARGET_SOURCE_INPUTS['github-token'],
  ...TIMING_INPUTS,
  ...TARGET_LIMIT_INPUTS,
  edges: {
    description:
      'For `rollout`, the edges to watch, separated by commas or new lines. Empty watches every engaged edge of the workspace. A named edge that is not engaged is not reporting, never rolled out.',
    default: '',
  },
  require: {
    description:
      'For `rollout`, how many edges must have every target current: `all`, a number of edges (`2`), or a percentage (`80%`). The other edges are tolerated only while not reporting (offline), and the report names them.',
    default: 'all',
  },
  'synced-kinds': {
    description:
      'For `rollout`, kinds the graph syncs beyond its default list (its operator widened it), as `Secret` (any API group) or `HelmRelease.helm.toolkit.fluxcd.io` (that group only), one a line or comma-separated. A target of another kind outside the default list is listed as not checked and never waited for.',
    default: '',
  },
  revision: {
    description:
      'For `rollout` with `targets` (no manifests), the value the deploy stamps on this release, such as `1.4.2`, read from the label or annotation `app.kubernetes.io/version` of each target and of its pod template; `key=value` reads another key (`helm.sh/chart=web-1.4.2`). A target passes only where it carries it. Empty: a target passes only once a change is seen during the step (a new generation, an object created), never on its first read of an unchanged object.',
    default: '',
  },
  'absent-grace-seconds': {
    description:
      'For `rollout`, how long a target may be missing from every engaged edge before the gate fails it as a wrong name. The default suits pull-based delivery (Flux and Argo CD apply minutes after the commit); shorten it when the deploy applies before the gate starts (`kubectl apply`, `helm upgrade`). Never more than `timeout-seconds`.',
    default: String(ABSENT_GRACE_SECONDS),
  },
  'on-unverifiable': {
    description:
      'For `rollout`, when the only release carriers are kinds the gate cannot check (a HelmRelease, a Flux Kustomization, an Argo CD Application, an Argo Rollout) and nothing it checks runs pods: `fail` (at once, before any graph request) or `warn` (gate on the rest, and pass with a warning).',
    default: 'fail',
  },
  'deployment-environment': {
    description:
      'For `rollout`, record one GitHub deployment per watched edge in the environment `<this>/<edge>` (such as `production/prod-eu`), with its status: `in_progress` while the gate watches the edge, then `success`, `failure` or (at the timeout) `error`. Needs `permissions: deployments: write`. Empty: no deployments.',
    default: '',
  },
} as const satisfies InputDeclarations

export const RolloutSchema = z
  .object({
    targets: TARGET_SOURCE_FIELDS.targets,
    manifests: TARGET_SOURCE_FIELDS.manifests,
    'rendered-head': TARGET_SOURCE_FIELDS['rendered-head'],
    namespace: TARGET_SOURCE_FIELDS.namespace,
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
    ...TARGET_LIMIT_FIELDS,
    'synced-kinds': TARGET_LIMIT_FIELDS['allowed-kinds'],
    revision: transformed(z.string().check(z.trim()), (text, ctx): Revision | undefined => {
      if (text === '') return undefined
      const cut = text.indexOf('=')
      const key = cut === -1 ? DEFAULT_REVISION_KEY : text.slice(0, cut).trim()
      const value = cut === -1 ? text : text.slice(cut + 1).trim()
      if (METADATA_KEY.test(key) && value !== '' && value.length <= 1024 && !/[\r\n]/.test(value)) return { key, value }
      ctx.addIssue({
        code: 'custom',
        message: `${quoteInput(text)} is not a revision: give the value the deploy stamps on this release, such as \`1.4.2\` (read from the label or annotation \`${DEFAULT_REVISION_KEY}\`), or \`key=value\` for another label or annotation key, such as \`helm.sh/chart=web-1.4.2\`.`,
      })
      return z.NEVER
    }),
    'absent-grace-seconds': seconds(
      'Use a whole number of seconds such as 600: how long a target may be missing from every engaged edge before the gate fails it as a wrong name.',
      0,
    ),
    'deployment-environment': transformed(z.string().check(z.trim()), (text, ctx): string | undefined => {
      if (text === '') return undefined
      if (ENVIRONMENT_PREFIX.test(text) && !text.includes('//')) return text
      ctx.addIssue({
        code: 'custom',
        message: `${quoteInput(text)} is not a GitHub environment name to put the edges under: use up to 100 letters, digits, spaces, '.', '_', '-' and '/' (not first or last, not twice in a row), such as \`production\`; each edge gets the environment \`production/<edge>\`. Leave it empty to write no deployments.`,
      })
      return z.NEVER
    }),
    'on-unverifiable': oneOf(
      ['fail', 'warn'],
      'It says what to do when the only release carriers are kinds the gate cannot check (a HelmRelease, a Kustomization, an Argo CD Application or Rollout).',
    ),
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
    ...targetSourceSettings(input),
    edges: input.edges && Object.freeze(input.edges),
    require: input.require,
    timeoutSeconds: input['timeout-seconds'],
    onTimeout: input['on-timeout'],
    syncedKinds: Object.freeze(input['synced-kinds']),
    revision: input.revision && Object.freeze(input.revision),
    absentGraceSeconds: input['absent-grace-seconds'],
    onUnverifiable: input['on-unverifiable'],
    deploymentEnvironment: input['deployment-environment'],
  })
}
