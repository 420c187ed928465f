/**
 * `npm ci` under a global Node 20 warns `EBADENGINE` (five lines each) for every package in the
 * lockfile whose `engines.node` that Node does not satisfy: npm checks with the Node running it,
 * before the Node 24 binary package (which every script runs on) is installed. The
 * warnings are pinned here and named in CONTRIBUTING.md's set-up paragraph and the README's
 * first screen, so a new one is a choice someone made and explained, not noise a newcomer
 * learns to ignore.
 */
import { readFileSync } from 'node:fs'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  name: string
  packages: Record<string, { engines?: { node?: string } }>
}
const contributing = readFileSync(new URL('../../CONTRIBUTING.md', import.meta.url), 'utf8')
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

/** The packages, one per installed copy (npm warns per copy), that `npm ci` warns about under this Node. */
function warnedUnder(node: string): string[] {
  return Object.entries(lock.packages)
    .filter(([, entry]) => entry.engines?.node !== undefined && !semver.satisfies(node, entry.engines.node))
    .map(([path]) => (path === '' ? lock.name : path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)))
    .sort()
}

/** What remains, and why it cannot go: each needs Node 22. */
const EXPECTED = [
  '@azure/core-rest-pipeline', // these three under @github/local-action → @actions/artifact
  '@azure/storage-blob',
  '@azure/storage-common',
  'content-type', // under @octokit/request, bundled into dist/
  'undici', // the HTTP client the action bundles, pinned
  'vitest', // the test runner
]

describe('EBADENGINE warnings of npm ci under a global Node 20', () => {
  it('are the six packages that need Node 22, one copy each (our own package declares no engines)', () => {
    // 20.19 and later: earlier Node 20 releases add the ESLint and knip families.
    expect(warnedUnder('20.19.0')).toEqual(EXPECTED)
    expect(warnedUnder('20.20.2')).toEqual(EXPECTED)
  })

  it('are none under Node 22.19 or later', () => {
    expect(warnedUnder('22.19.0')).toEqual([])
    expect(warnedUnder('24.0.0')).toEqual([])
  })

  it.each([
    ['CONTRIBUTING.md', contributing],
    ['README.md', readme],
  ])('are what %s says, package by package', (_name, text) => {
    const paragraph = text.split(/\n\n/).find((block) => block.includes('EBADENGINE')) ?? ''
    expect(paragraph).toMatch(/\bsix\b/)
    for (const name of EXPECTED) expect(paragraph, name).toContain(`\`${name}\``)
  })
})
