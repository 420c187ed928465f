/**
 * Input `output-schema` (issue 35): a JSON Schema, as JSON or YAML text, that the agent's answer
 * must end with a match for. Validation is @cfworker/json-schema's (no code generation, ~23 kB
 * minified), loaded only when the input is set. The schema itself is checked before any request
 * against META below, with the same validator, so a typo (`type: strng`, `required: verdict`)
 * is an input error, not a run that can never pass.
 */
import { parseStructured } from '../../settings/structured.js'

type ValidatorModule = typeof import('@cfworker/json-schema')

let validator: ValidatorModule | undefined

/** Load the validator (and readSettings needs it loaded: it checks the schema synchronously). */
export async function loadSchemaValidator(): Promise<void> {
  validator ??= await import('@cfworker/json-schema')
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']

/** What the keywords the docs promise must look like; other keywords pass through to the validator. */
const META = {
  $ref: '#/$defs/schema',
  $defs: {
    schema: {
      type: ['object', 'boolean'],
      properties: {
        type: {
          anyOf: [{ enum: TYPES }, { type: 'array', items: { enum: TYPES }, minItems: 1 }],
        },
        properties: { type: 'object', additionalProperties: { $ref: '#/$defs/schema' } },
        additionalProperties: { $ref: '#/$defs/schema' },
        required: { type: 'array', items: { type: 'string' } },
        enum: { type: 'array', minItems: 1 },
        items: { $ref: '#/$defs/schema' },
        minItems: { type: 'integer', minimum: 0 },
        maxItems: { type: 'integer', minimum: 0 },
        minLength: { type: 'integer', minimum: 0 },
        maxLength: { type: 'integer', minimum: 0 },
        minimum: { type: 'number' },
        maximum: { type: 'number' },
        pattern: { type: 'string' },
        anyOf: { type: 'array', items: { $ref: '#/$defs/schema' }, minItems: 1 },
        oneOf: { type: 'array', items: { $ref: '#/$defs/schema' }, minItems: 1 },
        allOf: { type: 'array', items: { $ref: '#/$defs/schema' }, minItems: 1 },
      },
    },
  },
}

/** Wrapping keywords: their errors only say "a part below did not match"; the part's own error says what. */
const WRAPPERS = new Set([
  '$ref',
  'properties',
  'additionalProperties',
  'patternProperties',
  'items',
  'prefixItems',
  'allOf',
  'dependentSchemas',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
])

/** A check of values against one schema: the first error (a path and a message), or undefined. */
export type SchemaCheck = (value: unknown) => string | undefined

function loaded(): ValidatorModule {
  if (!validator) throw new Error('output-schema: call loadSchemaValidator() first (the validator loads on demand).')
  return validator
}

/** Errors quote the answer's property names: one short line, control characters escaped, for any log. */
export function oneLine(text: string): string {
  const escaped = text.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
  return escaped.length > 300 ? `${escaped.slice(0, 300)}…` : escaped
}

/** `Validator` errors → the first that says what is wrong, at its path (`at /verdict: …`). */
function checkWith(schema: unknown): SchemaCheck {
  const { Validator } = loaded()
  const compiled = new Validator(schema as object, '2020-12', false)
  return (value) => {
    let result: ReturnType<typeof compiled.validate>
    try {
      result = compiled.validate(value)
    } catch (error) {
      // A `$ref` the check before the run could not reach (a nested one to nowhere): the schema's fault.
      const first = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
      return oneLine(`the schema could not be applied: ${first}`)
    }
    if (result.valid) return undefined
    const error = result.errors.find((e) => !WRAPPERS.has(e.keyword)) ?? result.errors[0]
    if (!error) return 'does not match the schema'
    const path = error.instanceLocation.replace(/^#/, '')
    return oneLine(`at ${path ? `\`${path}\`` : 'the top level'}: ${error.error}`)
  }
}

/** The parsed schema, or the problem with it (without the input's name: the caller adds it). */
export function readOutputSchema(text: string): { ok: true; schema: unknown } | { ok: false; problem: string } {
  const parsed = parseStructured(text)
  if (!parsed.ok) return { ok: false, problem: `is not JSON or YAML: ${parsed.message}.` }
  const wrong = checkWith(META)(parsed.value)
  if (wrong)
    return { ok: false, problem: `is not a usable JSON Schema: ${wrong.replace(/^at the top level/, 'at the top')}` }
  // A `$ref` to nowhere throws only when validation reaches it: try once on a value.
  const applied = checkWith(parsed.value)(null)
  if (applied?.startsWith('the schema could not be applied'))
    return {
      ok: false,
      problem: `is not a usable JSON Schema: ${applied.replace(/^the schema could not be applied: /, '')}`,
    }
  return { ok: true, schema: parsed.value }
}

/** The check of answers against a schema `readOutputSchema` accepted. */
export function outputSchemaCheck(schema: unknown): SchemaCheck {
  return checkWith(schema)
}

/**
 * The task with the one fixed instruction `output-schema` adds: end with a single fenced `json`
 * block matching the schema (given compact, so the task stays short).
 */
export function withSchemaInstruction(task: string, schema: unknown): string {
  return `${task}\n\nAt the end of your answer, give a single fenced \`json\` block (three backticks and \`json\`) with one JSON value that matches this JSON Schema:\n${JSON.stringify(schema)}`
}
