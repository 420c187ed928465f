/**
 * Issue 35's pure parts: the cost sums over a step's runs and their children, the exact decimal
 * of `cost-usd`, the last fenced json block of an answer, and the schema check's first error.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { runCost, usdDecimal, costOutputs } from '../../../../src/commands/runs/cost.js'
import { checkAnswer, lastJsonBlock } from '../../../../src/commands/runs/structured.js'
import {
  loadSchemaValidator,
  outputSchemaCheck,
  readOutputSchema,
} from '../../../../src/commands/runs/output-schema.js'
import { loadStructuredParser } from '../../../../src/settings/structured.js'
import { detail } from '../../fixtures/run.js'
import { deriveFollowUpKey } from '../../../../src/runner/context.js'

describe('runCost', () => {
  it('sums the runs and the children that report, and says what it left out', () => {
    const first = detail('Succeeded', { usdMicros: 10, inputTokens: 1, outputTokens: 2 })
    const second = detail('Succeeded', {
      usdMicros: 20,
      inputTokens: 3,
      outputTokens: 4,
      children: [{ id: 'c1', usdMicros: 5, inputTokens: 6, outputTokens: 7 }, { id: 'c2' }, 'junk', { usdMicros: -3 }],
    })
    expect(runCost([first, second])).toEqual({
      usdMicros: 35,
      inputTokens: 10,
      outputTokens: 13,
      runs: 2,
      children: 2,
      childrenUnreported: 2,
      mayHaveMore: false,
    })
    const many = detail('Succeeded', { children: Array.from({ length: 50 }, () => ({ usdMicros: 1 })) })
    expect(runCost([many])).toMatchObject({ usdMicros: 50, children: 50, mayHaveMore: true })
  })

  it('writes dollars exactly, and nothing when no detail was read', () => {
    expect([0, 1, 4_215, 1_000_000, 1_005_000, 12_345_678].map(usdDecimal)).toEqual([
      '0',
      '0.000001',
      '0.004215',
      '1',
      '1.005',
      '12.345678',
    ])
    expect(costOutputs(runCost([]))).toEqual({ 'cost-usd': '', 'input-tokens': '', 'output-tokens': '' })
  })
})

describe('lastJsonBlock', () => {
  it('takes the last fenced json block, of any fence length, and ignores other languages', () => {
    const answer = ['```json', '{"a":1}', '```', '', '````JSON', '{"a":2}', '````', '', '```yaml', 'a: 3', '```'].join(
      '\n',
    )
    expect(lastJsonBlock(answer)).toBe('{"a":2}')
    expect(lastJsonBlock('no block here')).toBeUndefined()
    expect(lastJsonBlock('```json\n{"open": true}')).toBe('{"open": true}')
  })
})

describe('the schema check', () => {
  beforeAll(async () => {
    await loadStructuredParser()
    await loadSchemaValidator()
  })

  it('reads JSON or YAML schemas and refuses what is not one', () => {
    expect(readOutputSchema('{"type":"object","required":["a"]}')).toMatchObject({ ok: true })
    expect(readOutputSchema('type: array\nitems: { type: integer }')).toMatchObject({ ok: true })
    expect(readOutputSchema('type: strng')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('`/type`') as unknown,
    })
    expect(readOutputSchema('required: verdict')).toMatchObject({ ok: false })
    expect(readOutputSchema('{ nope')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('not JSON or YAML') as unknown,
    })
  })

  it('names the first real error with its path, escaped to one line', () => {
    const read = readOutputSchema(
      'type: object\nproperties: { verdict: { enum: [pass, fail] }, n: { type: number } }\nrequired: [verdict]',
    )
    if (!read.ok) throw new Error(read.problem)
    const check = outputSchemaCheck(read.schema)
    expect(checkAnswer('```json\n{"verdict":"pass","n":1}\n```', check)).toEqual({
      ok: true,
      value: '{"verdict":"pass","n":1}',
    })
    expect(checkAnswer('```json\n{"verdict":"maybe"}\n```', check)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^at `\/verdict`: /) as unknown,
    })
    expect(checkAnswer('```json\n{"n":1}\n```', check)).toMatchObject({
      error: expect.stringContaining('"verdict"') as unknown,
    })
    expect(checkAnswer('plain text', check)).toMatchObject({ ok: false, block: undefined })
    const broken = checkAnswer('```json\n{"verdict":\n```', check)
    expect(broken).toMatchObject({ ok: false, error: expect.stringContaining('is not JSON') as unknown })
    expect(broken.ok ? '' : broken.error).not.toMatch(/\n/)
  })
})

describe('the follow-up key', () => {
  it('follows the first key with the token: the same pair, the same key; another token or key, another', () => {
    const key = deriveFollowUpKey('gha-first', 'token-1')
    expect(key).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(deriveFollowUpKey('gha-first', 'token-1')).toBe(key)
    expect(key).not.toBe('gha-first')
    expect(deriveFollowUpKey('gha-first', 'token-2')).not.toBe(key)
    expect(deriveFollowUpKey('gha-other', 'token-1')).not.toBe(key)
    // Without a secret that lasts (OIDC) it is random, as the first key then is.
    expect(deriveFollowUpKey('gha-first', undefined, () => 'a-b')).toBe('gha-ab')
  })
})

describe('a schema with a $ref the first check cannot reach', () => {
  beforeAll(async () => {
    await loadStructuredParser()
    await loadSchemaValidator()
  })

  it('is refused at the top, and a nested one is an error of the answer, not a crash', () => {
    expect(readOutputSchema('$ref: "#/nowhere"')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('Unresolved $ref') as unknown,
    })
    const read = readOutputSchema('type: object\nproperties: { a: { $ref: "#/nowhere" } }')
    if (!read.ok) throw new Error(read.problem)
    expect(outputSchemaCheck(read.schema)({ a: 1 })).toMatch(/^the schema could not be applied: Unresolved \$ref/)
  })
})
