/**
 * The structured inputs (`targets`, `query`): YAML or JSON text, parsed on demand, and zod's
 * issues about them put in our words, with the item and field at fault.
 */
import type * as z from '../zod.js'
import { unwalkable } from '../model/plain-value.js'
import { redactValue } from '../redact.js'
import { quoteInput } from './fields.js'

let yaml: typeof import('yaml') | undefined

/**
 * Load the YAML parser. Only the commands that read `targets` or `query` need it, so a `run`
 * step does not pay its load time (~24 ms); readSettings' caller loads it for those commands.
 */
export async function loadStructuredParser(): Promise<void> {
  yaml ??= await import('yaml')
}

/** YAML is a superset of JSON, so one parser reads both. */
export function parseStructured(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (!yaml) throw new Error('parseStructured: call loadStructuredParser() first (the YAML parser loads on demand).')
  let value: unknown
  try {
    value = yaml.parse(text, { maxAliasCount: 100 }) as unknown
  } catch (error) {
    const firstLine = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)
    // The parser's first line ends in ":" before a code excerpt we leave out.
    return { ok: false, message: firstLine.replace(/[\s:]+$/, '') }
  }
  const shape = unwalkable(value, MAX_NESTING)
  if (shape) return { ok: false, message: shape }
  // Scrubbed as received: a message may quote part of a value (an apiVersion's group, cut at its
  // last `/`), and a secret cut there is no longer whole for the sinks to find.
  return { ok: true, value: redactValue(value) }
}

/** Deeper than any QuerySpec or target list needs; past it a schema's recursion could overflow the stack. */
const MAX_NESTING = 64

/** "item 2 (`namespace`)": where in the input a problem is. */
export function describePath(path: readonly PropertyKey[], listName: string): string {
  if (path.length === 0) return ''
  const [head, ...rest] = path
  const field = rest.map(String).join('.')
  if (typeof head === 'number') return ` ${listName} ${head + 1}${field ? ` (\`${field}\`)` : ''}`
  return ` at \`${path.map(String).join('.')}\``
}

/** A zod issue in our words, with the bad value first: `0 is too small: the least is 1`. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const value = valueBefore(issue)
  switch (issue.code) {
    case 'too_small':
      return `${value}is too small: the least is ${String(issue.minimum)}`
    case 'too_big':
      return `${value}is too large: the most is ${String(issue.maximum)}`
    case 'invalid_value':
      return `${value}is not one of ${issue.values.map(String).join(', ')}`
    case 'invalid_type':
      // Our own texts (requiredText) say what is wanted; zod's default only names the type.
      if (!issue.message.startsWith('Invalid input')) return `${value}${issue.message}`
      return issue.input === undefined
        ? `is required (${typeWords(issue.expected)})`
        : `${value}is not ${typeWords(issue.expected)}`
    default:
      return `${value}${issue.message}`
  }
}

/** The bad value quoted, and a space, to stand before what is wrong with it; empty for a list or map. */
export function valueBefore(issue: z.core.$ZodIssue): string {
  return issue.input === undefined || typeof issue.input === 'object' ? '' : `${quoteInput(issue.input)} `
}

/** Zod's type names as a user reads them: `an object`, `a list`. */
function typeWords(expected: string): string {
  const words: Record<string, string> = {
    object: 'an object',
    array: 'a list',
    record: 'a map',
    boolean: 'true or false',
    string: 'text',
    number: 'a number',
    int: 'a whole number',
  }
  return words[expected] ?? `a ${expected}`
}
