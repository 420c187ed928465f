/**
 * The inputs that name the objects a step reports on: `targets`, a YAML or JSON list of
 * objects checked item by item, and the newline-separated globs of `manifests` and the
 * rendered sets. Any command that reports on objects reads them with these fields.
 */
import * as z from '../zod.js'
import type { Target } from '../model/target.js'
import { isPullRequestEvent, type RunnerContext } from '../runner/context.js'
import { DNS_LABEL, quoteInput, transformed, type InputDeclarations, type IssueSink } from './fields.js'
import { describeIssue, describePath, parseStructured } from './structured.js'
import type { AllowedKind, TargetScope } from './target-limits.js'

const OBJECT_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/
const GROUP = /^$|^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/
const KIND = /^[A-Za-z][A-Za-z0-9]{0,62}$/

/** Zod's type error for a field: absent is "required", anything else is the wrong kind of value. */
function requiredText(what: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? `is required: ${what}` : `must be text: ${what}`)
}

const TargetSchema = z.strictObject({
  kind: z
    .string({ error: requiredText('a kind such as Deployment') })
    .check(z.regex(KIND, 'must be a kind such as Deployment or ConfigMap')),
  name: z
    .string({ error: requiredText('the object name') })
    .check(z.regex(OBJECT_NAME, 'must be a Kubernetes object name (lower-case letters, digits, "-" and ".")')),
  group: z.optional(
    z.string().check(z.regex(GROUP, 'must be an API group such as apps or networking.k8s.io ("" for the core group)')),
  ),
  namespace: z.optional(z.string().check(z.regex(DNS_LABEL, 'must be a namespace name (a DNS-1123 label)'))),
  edge: z.optional(
    z.string().check(z.trim(), z.minLength(1, 'must not be empty (leave it out to look on every edge)')),
  ),
})

/** `targets`: the objects, as a list; empty text is no targets. */
const targetList = transformed(z.string(), parseTargets)

/** Newline-separated globs; blank lines and `#` comments left out. */
export const globList = transformed(z.string(), (text) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#')),
)

function parseTargets(text: string, ctx: IssueSink): Target[] {
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
        const problem =
          issue.code === 'unrecognized_keys'
            ? `has fields the action does not know${apiVersionFix(item)}`
            : describeIssue(issue)
        ctx.addIssue({ code: 'custom', message: `item ${index + 1}${field}: ${problem}.` })
      }
      return
    }
    const { kind, name, group, namespace, edge } = result.data
    targets.push({ kind, name, group: group ?? '', namespace, edge, origin: { kind: 'input' } })
  })
  return targets
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

/**
 * `impact` and `rollout` look at the objects named in `targets`, in the files `manifests` matches
 * or in the rendered set `rendered-head`: with none of the three there is nothing to look at.
 */
export function noTargetSourceIssue(
  value: { targets: readonly unknown[]; manifests: readonly unknown[]; 'rendered-head': readonly unknown[] },
  command: 'impact' | 'rollout',
  what: string,
): { code: 'custom'; path: ['targets']; message: string } | undefined {
  if (value.targets.length > 0 || value.manifests.length > 0 || value['rendered-head'].length > 0) return undefined
  return {
    code: 'custom',
    path: ['targets'],
    message: `or \`manifests\` is required for \`command: ${command}\`, or \`rendered-head\`: ${what}`,
  }
}

/** The fields of the inputs that name the objects, as impact and rollout read them (the same messages, caps and scope). */
export const TARGET_SOURCE_FIELDS = {
  targets: targetList,
  manifests: globList,
  'rendered-head': globList,
  namespace: z.string().check(
    z.trim(),
    z.refine((v) => v === '' || DNS_LABEL.test(v), {
      error: (issue) =>
        `${quoteInput(issue.input)} is not a namespace name (a DNS-1123 label). It is the namespace given to manifest objects that name none.`,
    }),
  ),
}

/** The declarations of TARGET_SOURCE_FIELDS' inputs and of `github-token`, which impact and rollout share. */
export const TARGET_SOURCE_INPUTS = {
  targets: {
    description:
      'For `impact` and `rollout`: a YAML or JSON list of objects, each with `kind` and `name`, and optional `group` ("" or absent for core), `namespace` and `edge` (absent: every edge).',
    default: '',
  },
  manifests: {
    description:
      'For `impact` and `rollout` (where they are the expected state): newline-separated globs of manifest files. On a pull request, the changed files that match (removed ones read at the base commit); elsewhere, the matching files in the workspace.',
    default: '',
  },
  'rendered-head': {
    description:
      'For `impact` and `rollout`: newline-separated globs of rendered manifests of the head (the output of `helm template` or `kustomize build` in an earlier step), read whole on any event, whichever files a pull request changes. Without `rendered-base`, every object in them is a target.',
    default: '',
  },
  namespace: {
    description: 'For `impact` and `rollout`, the namespace given to manifest objects that name none.',
    default: '',
  },
  'github-token': {
    description:
      "Token for reading the pull request's files and writing its comment (needs `pull-requests write` for comments).",
    default: '${{ github.token }}',
  },
} as const satisfies InputDeclarations

/** On a pull request, the changed files and the comment need `github-token` (impact and rollout alike). */
export function githubTokenProblems(
  inputs: { comment: string; manifests: readonly string[]; 'github-token': string },
  runner: RunnerContext,
): string[] {
  const onPullRequest = isPullRequestEvent(runner.eventName)
  const needsGitHub = onPullRequest && (inputs.comment !== 'off' || inputs.manifests.length > 0)
  if (!needsGitHub || inputs['github-token'].trim()) return []
  return [
    'Input `github-token` is required on pull requests to read changed files and comment: keep its default `${{ github.token }}`, or set `comment: off` and give `targets`.',
  ]
}

/** What impact and rollout build alike from the target inputs: the objects, their sources, the caps and the scope. */
export function targetSourceSettings(input: {
  targets: readonly Target[]
  manifests: readonly string[]
  'rendered-head': readonly string[]
  namespace: string
  'github-token': string
  'max-targets': number
  'max-documents': number
  'allowed-namespaces': readonly string[]
  'allowed-kinds': readonly AllowedKind[]
}) {
  const scope: TargetScope = Object.freeze({
    namespaces: Object.freeze(input['allowed-namespaces']),
    kinds: Object.freeze(input['allowed-kinds']),
  })
  return {
    targets: Object.freeze(input.targets),
    manifests: Object.freeze(input.manifests),
    renderedHead: Object.freeze(input['rendered-head']),
    defaultNamespace: input.namespace || undefined,
    githubToken: input['github-token'],
    maxTargets: input['max-targets'],
    maxDocuments: input['max-documents'],
    scope,
  }
}
