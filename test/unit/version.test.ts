import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { VERSION } from '../../src/version.js'

describe('VERSION', () => {
  it("equals package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/)
    expect(VERSION).toBe(pkg.version)
  })
})
