/** When `npm run demo` may skip the build: dist/ provably built from the sources in the folder. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { digest, distFreshness } from '../../scripts/demo/build.ts'

type Answers = Record<string, { status: number | null; stdout: string }>
const fakeGit = (answers: Answers) => (args: string[]) => answers[args[0] ?? ''] ?? { status: 1, stdout: '' }

let root = ''
afterEach(() => rmSync(root, { recursive: true, force: true }))
const folder = (): string => (root = mkdtempSync(join(tmpdir(), 'hub-action-demo-build-test-')))

describe('distFreshness', () => {
  it('is current when nothing under the build inputs or dist/ changed since the commit that last built dist/', () => {
    const git = fakeGit({
      log: { status: 0, stdout: 'f8e6bd5\n' },
      diff: { status: 0, stdout: '' },
      'ls-files': { status: 0, stdout: '' },
    })
    expect(distFreshness(folder(), git)).toEqual({ current: true, commit: 'f8e6bd5' })
  })

  it('is not current when a source changed or a new source appeared, and says which', () => {
    const git = fakeGit({
      log: { status: 0, stdout: 'f8e6bd5\n' },
      diff: { status: 0, stdout: 'src/main.ts\n' },
      'ls-files': { status: 0, stdout: 'src/new.ts\n' },
    })
    expect(distFreshness(folder(), git)).toEqual({
      current: false,
      reason: 'changed since dist/ was built in f8e6bd5: src/main.ts, src/new.ts',
    })
  })

  it('is not current without git', () => {
    expect(distFreshness(folder(), () => ({ status: null, stdout: '' }))).toEqual({
      current: false,
      reason: 'no git history for dist/',
    })
  })
})

describe('digest', () => {
  it('changes with any file content under the paths, and only then', () => {
    const dir = folder()
    mkdirSync(join(dir, 'src'))
    writeFileSync(join(dir, 'src', 'a.ts'), 'one')
    const first = digest(dir, ['src', 'tsconfig.json'])
    expect(digest(dir, ['src', 'tsconfig.json'])).toBe(first)
    writeFileSync(join(dir, 'src', 'a.ts'), 'two')
    expect(digest(dir, ['src', 'tsconfig.json'])).not.toBe(first)
  })
})
