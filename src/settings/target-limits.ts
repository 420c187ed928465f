/**
 * The inputs that bound what an impact or rollout step may be asked to do: how many targets, how many
 * documents one file may hold, and which namespaces and kinds it may report on. The objects
 * come from a pull request, which may be built to hurt; these inputs are the workflow's, which
 * the pull request cannot widen.
 */
import * as z from '../zod.js'
import { DNS_LABEL, quoteInput, transformed } from './fields.js'

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
