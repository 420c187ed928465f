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
  it('marks a run of blanks in a value, so the tail stays in sight; the indentation stays', () => {
    const args = JSON.stringify({ command: `kubectl get pods${' '.repeat(300)}&& kubectl delete ns prod` })
    expect(jsonTextForDisplay(args, 1_000)).toBe('{\n  "command": "kubectl get pods␠×300&& kubectl delete ns prod"\n}')
    expect(jsonTextForDisplay(args, 1_000, 'compact')).toBe(
      '{"command":"kubectl get pods␠×300&& kubectl delete ns prod"}',
    )
    // Unicode spaces too, in keys as in values; three blanks or fewer are left
    expect(jsonTextForDisplay({ 'a\u3000\u3000\u2003\u00a0b': 'x   y' }, 1_000, 'compact')).toBe('{"a␠×4b":"x   y"}')
  })
  it('marks runs of blanks and line breaks in text that is not JSON', () => {
    expect(jsonTextForDisplay(`{"cmd":"ls${'\n'.repeat(50)}rm -rf /`, 1_000)).toBe('{"cmd":"ls␠×50rm -rf /')
  })
})
