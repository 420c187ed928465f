import { describe, expect, it } from 'vitest'
import { jsonTextForDisplay } from '../../../src/markdown/json-text.js'

describe('jsonTextForDisplay', () => {
  it('parses JSON text and indents it', () => {
    expect(jsonTextForDisplay('{"a":1,"b":["x"]}', 1_000)).toBe('{\n  "a": 1,\n  "b": [\n    "x"\n  ]\n}')
  })
  it('compact style is one line', () => {
    expect(jsonTextForDisplay('{"a": 1,\n "b": 2}', 1_000, 'compact')).toBe('{"a":1,"b":2}')
  })
  it('keeps text that does not parse (clipped by the hub) as it came', () => {
    expect(jsonTextForDisplay('{"a":"cut', 1_000)).toBe('{"a":"cut')
  })
  it('shows an object (an older hub) as JSON too', () => {
    expect(jsonTextForDisplay({ a: 1 }, 1_000, 'compact')).toBe('{"a":1}')
  })
  it('is bounded', () => {
    expect(jsonTextForDisplay(JSON.stringify({ a: 'x'.repeat(5_000) }), 100)).toHaveLength(101)
  })
})
