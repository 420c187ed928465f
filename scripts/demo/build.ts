/**
 * The demo runs dist/index.js, so it must be the build of the sources in this folder. Building
 * takes 20 s to a minute on a small machine, so the demo builds only when it cannot show that
 * dist/ is current, either way:
 * - git shows the sources and dist/ exactly as in the commit that last changed dist/ (CI's
 *   check-dist makes every such commit a build of its own sources): a fresh clone starts at once;
 * - the demo built dist/ itself from sources with the same content (a digest kept in the temp
 *   folder): a second demo after an edit starts at once.
 * Anything else — an edited source, a branch whose dist/ lags, no git — means a build.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Everything the build (scripts/build.ts) depends on (dependencies and overrides reach it through the lockfile). */
const BUILD_INPUTS = ['src', 'scripts/build.ts', 'package-lock.json', 'tsconfig.json'] as const

export type Freshness = { current: true; commit: string } | { current: false; reason: string }

type Git = (args: string[]) => { status: number | null; stdout: string }

export function distFreshness(root: string, git: Git = gitIn(root)): Freshness {
  const byGit = committedBuild(git)
  if (byGit.current) return byGit
  const stamp = readStamp(root)
  if (stamp && stamp.inputs === digest(root, BUILD_INPUTS) && stamp.dist === digest(root, ['dist']))
    return { current: true, commit: 'the last demo build' }
  return byGit
}

function committedBuild(git: Git): Freshness {
  const last = git(['log', '-1', '--format=%h', '--', 'dist'])
  const commit = last.stdout.trim()
  if (last.status !== 0 || !commit) return { current: false, reason: 'no git history for dist/' }
  const changed = git(['diff', '--name-only', commit, '--', ...BUILD_INPUTS, 'dist'])
  if (changed.status !== 0) return { current: false, reason: 'git could not compare the sources' }
  const untracked = git(['ls-files', '--others', '--exclude-standard', '--', 'src', 'dist'])
  const paths = [...changed.stdout.split('\n'), ...untracked.stdout.split('\n')].filter(Boolean)
  if (untracked.status !== 0) return { current: false, reason: 'git could not list new files' }
  if (paths.length > 0)
    return { current: false, reason: `changed since dist/ was built in ${commit}: ${summarise(paths)}` }
  return { current: true, commit }
}

function summarise(paths: string[]): string {
  return paths.length <= 3 ? paths.join(', ') : `${paths.slice(0, 3).join(', ')} and ${paths.length - 3} more`
}

function gitIn(root: string): Git {
  return (args) => {
    const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' })
    return { status: result.error ? null : result.status, stdout: result.stdout ?? '' }
  }
}

/** `npm run build`, its output shown, then the stamp that lets the next demo skip it; throws when it fails. */
export function build(root: string): void {
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  })
  if (result.status !== 0)
    throw new Error(`npm run build failed (exit code ${result.status ?? result.signal}); the demo needs dist/index.js.`)
  writeFileSync(stampPath(root), JSON.stringify({ inputs: digest(root, BUILD_INPUTS), dist: digest(root, ['dist']) }))
}

/** sha256 over the paths and contents of every file under the given paths, in a stable order. */
export function digest(root: string, paths: readonly string[]): string {
  const hash = createHash('sha256')
  const visit = (path: string): void => {
    const full = join(root, path)
    if (!existsSync(full)) {
      hash.update(`missing ${path}\0`)
    } else if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) visit(join(path, name))
    } else hash.update(`${path}\0`).update(readFileSync(full)).update('\0')
  }
  for (const path of paths) visit(path)
  return hash.digest('hex')
}

function stampPath(root: string): string {
  return join(tmpdir(), `hub-action-demo-build-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`)
}

function readStamp(root: string): { inputs?: string; dist?: string } | undefined {
  try {
    return JSON.parse(readFileSync(stampPath(root), 'utf8')) as { inputs?: string; dist?: string }
  } catch {
    return undefined
  }
}
