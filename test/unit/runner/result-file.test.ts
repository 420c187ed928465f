import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resultDirectory, writeJsonFile } from '../../../src/runner/result-file.js'
import { setSecret } from '../../../src/runner/workflow.js'

/** Registers a secret as the step would, without the mask command it prints reaching the test's output. */
function registerQuietly(secret: string): void {
  const original = process.stdout.write.bind(process.stdout)
  process.stdout.write = () => true
  try {
    setSecret(secret)
  } finally {
    process.stdout.write = original
  }
}

/** Runs `body` with a fresh temporary folder, removed afterwards. */
function inTempRoot(body: (root: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'hub-action-unit-'))
  try {
    body(root)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

describe('result files', () => {
  it('writes the result file as JSON, private, with a safe name', () => {
    inTempRoot((root) => {
      const directory = resultDirectory(root)
      expect(directory).toBe(join(root, 'hub-action'))
      const path = writeJsonFile(directory, '../run r1.json', { a: 1 })
      expect(path).toBe(join(directory, '.._run_r1.json'))
      expect(readFileSync(path, 'utf8')).toBe('{\n  "a": 1\n}\n')
      expect(statSync(path).mode & 0o777).toBe(0o600)
      // A run id from the hub can be long: the name is cut, and stays distinct.
      const long = (tail: string) => writeJsonFile(directory, `run-${'x'.repeat(5000)}${tail}.json`, {})
      const [first, second] = [long('a'), long('b')]
      expect(first).not.toBe(second)
      for (const file of [first, second])
        expect(file.slice(directory.length + 1)).toMatch(/^run-x+-[0-9a-f]{12}\.json$/)
      expect(first.length - directory.length - 1).toBeLessThanOrEqual(100)
    })
  })

  it('redacts a secret holding `"` and `\\` before JSON escapes it, in values and in keys', () => {
    const secret = 'quo"te\\back\\slash-7e1d'
    registerQuietly(secret)
    inTempRoot((root) => {
      const path = writeJsonFile(root, 'r.json', {
        message: `denied for ${secret}`,
        nested: [{ [secret]: 1, echo: JSON.stringify({ token: secret }) }],
      })
      const text = readFileSync(path, 'utf8')
      expect(text).not.toContain('7e1d')
      expect(JSON.parse(text)).toEqual({ message: 'denied for ***', nested: [{ '***': 1, echo: '{"token":"***"}' }] })
    })
  })

  it('writes, in pieces, exactly the text JSON.stringify writes, a secret redacted in every piece', () => {
    const secret = 'piece-secret-5b3c9a'
    registerQuietly(secret)
    inTempRoot((root) => {
      // Large enough for many pieces; a `<` now and then holds a piece open past it (the markup pass).
      const cells = Array.from({ length: 20_000 }, (_, i) => ({
        i,
        reason: i % 997 === 0 ? `saw ${secret} <b>` : `available ${i}/2`,
        at: new Date(i * 1000),
        skipped: undefined,
        nested: [i, null, undefined, { empty: {}, none: [] }],
      }))
      const content = { a: 1, odd: [NaN, -0, true, 'x\n"y'], [`key ${secret}`]: 'k', cells }
      const path = writeJsonFile(root, 'pieces.json', content)
      const text = readFileSync(path, 'utf8')
      expect(text.length).toBeGreaterThan(1 << 20)
      expect(text).not.toContain('5b3c9a')
      const masked = (value: unknown) => JSON.stringify(value, null, 2).replaceAll(secret, '***')
      expect(text).toBe(`${masked(content)}\n`)
    })
  })

  it('masks a JWT-shaped token and a standard base64 one, and their encoded forms, in every piece', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhLWJfYyJ9.Zm9v_YmFy-YmF6_qux-Q1w2'
    const base64 = 'Zm9vYmFyYmF6cXV4K2Evb2I9PQ=='
    registerQuietly(jwt)
    registerQuietly(base64)
    const encoded = Buffer.from(jwt).toString('base64')
    inTempRoot((root) => {
      const cells = Array.from({ length: 30_000 }, (_, i) => ({
        i,
        reason: i % 501 === 0 ? `saw ${jwt} / ${base64} / ${encoded} <i>` : `x${i}`,
      }))
      const text = readFileSync(writeJsonFile(root, 'forms.json', { cells, [jwt]: base64 }), 'utf8')
      expect(text.length).toBeGreaterThan(1 << 20)
      for (const form of [jwt, base64, encoded, 'Zm9v_YmFy-YmF6', 'YmF6cXV4K2Ev']) expect(text).not.toContain(form)
    })
  })
})
