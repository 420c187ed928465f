/**
 * The inputs every command reads: where the hub is, who the step is there, and whether it only
 * prints its requests. Their schema and their declarations (description, default) side by side;
 * `command`'s own declaration is written from the table it chooses among (`commandInput`).
 */
import * as z from '../zod.js'
import { boolean, CLUSTER_ID, hubUrl, oneOf, quoteInput, uuid, type InputDeclaration } from './fields.js'

export const CommonSchema = z.object({
  'hub-url': hubUrl,
  token: z.string(),
  'oidc-audience': z.string().check(
    z.trim(),
    z.refine((v) => v === '' || /^[\x21-\x7e]{1,256}$/.test(v), {
      error: (issue) =>
        `${quoteInput(issue.input)} is not an audience (1 to 256 printable characters, no spaces): use the audience the hub's identity provider expects.`,
    }),
  ),
  'dry-run': boolean(),
  org: uuid('org'),
  workspace: uuid('workspace'),
  'cluster-id': z.string().check(
    z.trim(),
    z.refine((v) => v === '' || CLUSTER_ID.test(v), {
      error: (issue) =>
        `${quoteInput(issue.input)} is not a cluster id (letters, digits, '.', '_' and '-'). Leave it empty unless you use a service-account token.`,
    }),
  ),
})

/** The common inputs as action.yml declares them, in its order (after `command`). */
export const COMMON_INPUTS = {
  'hub-url': {
    description:
      'Hub base URL, e.g. https://hub.example.com. https is required, except for loopback addresses that need no DNS lookup (localhost, 127.0.0.0/8, [::1]; local hubs and tests).',
    default: '',
    required: true,
  },
  token: {
    description:
      'Bearer token for the hub (a user or service-account token issued in the workspace). Pass it from a secret; it is masked at once. May be empty with `oidc-audience`.',
    default: '',
  },
  org: { description: 'Organization UUID (not its display name).', default: '', required: true },
  workspace: { description: 'Workspace UUID (not its display name).', default: '', required: true },
  'cluster-id': {
    description:
      "The workspace's cluster id. When set, runs go through the provider's service-account route, which accepts service-account tokens but has no cancel and no inbox: `command: cancel`, `command: approve`, `on-timeout: cancel` and `on-cancel: cancel` are refused with it.",
    default: '',
  },
  'oidc-audience': {
    description:
      "When set and `token` is empty, the action requests a GitHub OIDC ID token for this audience (the job needs `permissions id-token write`) and uses it as the hub bearer. Only for a hub whose operator made it trust GitHub's issuer and created the user the token maps to; a stock hub refuses it (401).",
    default: '',
  },
  'dry-run': {
    description:
      '`true`: check the inputs, derive the idempotency key and session id, print the exact requests the action would send (token redacted), set the outputs it can, and send nothing.',
    default: 'false',
  },
} as const satisfies Readonly<Record<keyof typeof CommonSchema.shape, InputDeclaration>>

/** The names of the inputs every command reads. */
export type CommonInputName = 'command' | keyof typeof COMMON_INPUTS

export const commandField = (names: readonly [string, ...string[]]) =>
  oneOf(
    names,
    'Choose what the step does: run an agent, wait for, cancel or approve a run, report impact, query the graph, or gate on a rollout.',
  )

/**
 * `command`, declared from the table: each command in the table's order with what it does (its
 * row's `summary`); the first is the default.
 */
export function commandInput(table: Readonly<Record<string, { summary: string }>>): InputDeclaration {
  const named = Object.entries(table).map(([name, row]) => `\`${name}\` (${row.summary})`)
  const last = named.pop()
  if (last === undefined) throw new Error('the command table has no row')
  return {
    description: `What the step does: ${named.length > 0 ? `${named.join(', ')} or ${last}` : last}.`,
    default: Object.keys(table)[0] ?? '',
  }
}
