/** The runner protocol as src/runner.ts writes it. */
import { describe, expect, it } from 'vitest'

describe('runner log lines', () => {
  it('a plain log line cannot start a workflow command, even on its second line', async () => {
    const { info } = await import('../../src/runner.js')
    const written: string[] = []
    const original = process.stdout.write.bind(process.stdout)
    process.stdout.write = (chunk: string) => {
      written.push(String(chunk))
      return true
    }
    try {
      info('Skipped evil.yaml\n::add-mask::everything\n  ::set-env name=X::1')
    } finally {
      process.stdout.write = original
    }
    const lines = written.join('').split('\n')
    expect(lines.filter((line) => line.startsWith('::'))).toEqual([])
    expect(lines[1]).toBe(' ::add-mask::everything')
  })
})
