/**
 * The inputs that bound what an impact or rollout step may be asked to do: how many targets, how many
 * documents one file may hold, and which namespaces and kinds it may report on. The objects
 * come from a pull request, which may be built to hurt; these inputs are the workflow's, which
 * the pull request cannot widen.
 */
import * as z from '../zod.js'
import { DNS_LABEL, quoteInput, transformed, type InputDeclarations } from './fields.js'

const KIND = /^[A-Za-z][A-Za-z0-9]{0,62}$/
const GROUP = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/

const cap = (what: string, max: number) =>
  transformed(
    z
      .string()
      .check(
        z.trim(),
        z.regex(/^\d+$/, { error: (issue) => `${quoteInput(issue.input)} is not a whole number: ${what}.` }),
      ),
    Number,
  ).check(
    z.refine((n) => n >= 1 && n <= max, {
      error: (issue) => `${quoteInput(issue.input)} is out of range: use 1 to ${max}.`,
    }),
  )

/** Entries separated by newlines or commas; blank ones and `#` comments left out. */
function entries(text: string): string[] {
  return text
    .split(/\r?\n/)
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => line.split(','))
    .map((entry) => entry.trim())
    .filter(Boolean)
}

/** One entry of `allowed-kinds`: `Deployment` (that kind in any API group) or `Deployment.apps` (in that group only). */
export interface AllowedKind {
  kind: string
  /** Undefined: any group. */
  group: string | undefined
}

/** Targets outside these are skipped, not queried; empty: no restriction. */
export type TargetScope = Readonly<{ namespaces: readonly string[]; kinds: readonly AllowedKind[] }>

export const TARGET_LIMIT_FIELDS = {
  'max-targets': cap('the most distinct objects one step reports on', 10_000),
  'max-documents': cap('the most YAML documents (and List items) one manifest file may hold', 100_000),
  'allowed-namespaces': transformed(z.string(), (text, ctx) => {
    const list = entries(text)
    for (const name of list) {
      if (!DNS_LABEL.test(name))
        ctx.addIssue({
          code: 'custom',
          message: `${quoteInput(name)} is not a namespace name (a DNS-1123 label). List namespaces, one a line.`,
        })
    }
    return list
  }),
  'allowed-kinds': transformed(z.string(), (text, ctx) => {
    const list: AllowedKind[] = []
    for (const entry of entries(text)) {
      const dot = entry.indexOf('.')
      const kind = dot === -1 ? entry : entry.slice(0, dot)
      const group = dot === -1 ? undefined : entry.slice(dot + 1)
      if (!KIND.test(kind) || (group !== undefined && !GROUP.test(group))) {
        ctx.addIssue({
          code: 'custom',
          message: `${quoteInput(entry)} is not a kind: list kinds such as Deployment (any API group) or Deployment.apps (that group only), one a line.`,
        })
        continue
      }
      list.push({ kind, group })
    }
    return list
  }),
}

/** The declarations of TARGET_LIMIT_FIELDS' inputs. */
export const TARGET_LIMIT_INPUTS = {
  'max-targets': {
    description:
      'For `impact` and `rollout`, the most distinct objects one step reports on (1 to 10000). When `targets`, `manifests` and the rendered sets declare more, the step fails before any hub request, naming the count.',
    default: '200',
  },
  'max-documents': {
    description:
      "For `impact` and `rollout`, the most YAML documents (a `List`'s items each count as one) one manifest or rendered file may hold (1 to 100000). Past it the step fails before any hub request, naming the file; reading stops there.",
    default: '1000',
  },
  'allowed-namespaces': {
    description:
      'For `impact` and `rollout`, the namespaces the step may report on (one a line, or comma-separated); empty allows any. A target in another namespace, or naming none, is listed as skipped and never queried. Set it where a pull request you do not trust chooses the targets.',
    default: '',
  },
  'allowed-kinds': {
    description:
      'For `impact` and `rollout`, the kinds the step may report on, as `Deployment` (any API group) or `Deployment.apps` (that group only), one a line or comma-separated; empty allows any. A target of another kind is listed as skipped and never queried.',
    default: '',
  },
} as const satisfies InputDeclarations
