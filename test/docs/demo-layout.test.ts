/** The demo's prose wrapping: lines fit the terminal, and a command in backticks stays on one line to be copied. */
import { describe, expect, it } from 'vitest'
import { wrap } from '../../scripts/demo/layout.ts'

describe('wrap', () => {
  it('breaks at spaces within the width', () => {
    expect(wrap('one two three four', 9)).toBe('one two\nthree\nfour')
  })

  it('keeps a code span whole, so a command shown can be copied', () => {
    expect(wrap('Next: `npm test` for the tests; `npm run emulator` for a hub', 40)).toBe(
      'Next: `npm test` for the tests;\n`npm run emulator` for a hub',
    )
  })
})
