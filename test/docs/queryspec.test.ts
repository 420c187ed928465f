/** The QuerySpec reference (docs/commands.md): its worked examples are valid `query` inputs, as written. */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { QuerySchema } from '../../src/commands/query/inputs.ts'
import { loadStructuredParser } from '../../src/settings/structured.ts'

const commands = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8')
const start = commands.indexOf('### QuerySpec reference')
const section = commands.slice(start, commands.indexOf('\n## ', start))
const examples = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((match) => match[1] ?? '')

beforeAll(loadStructuredParser)

describe('QuerySpec reference', () => {
  it('has three worked examples', () => {
    expect(start).toBeGreaterThan(0)
    expect(examples).toHaveLength(3)
  })

  it.each(examples.map((example, index) => [index + 1, example]))('example %i is a valid query input', (_, example) => {
    const result = QuerySchema.safeParse({ query: example, 'max-objects': '10000', 'timeout-seconds': '1800' })
    expect(result.success ? [] : result.error.issues.map((issue) => issue.message)).toEqual([])
  })

  it('lists every field the schema accepts', () => {
    for (const field of [
      'root',
      'cluster',
      'filter',
      'limit',
      'order',
      'maxDepth',
      'count',
      'objects',
      'labelExpressions',
      'conditions',
      'relations',
    ])
      expect(section).toContain(`\`${field}`)
  })
})
