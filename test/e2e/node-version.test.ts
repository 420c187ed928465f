/**
 * End to end, dist/index.js under a Node older than the action needs (the common global Node
 * 20 of a developer's machine, or a runner told `using: node20`): one `::error::` line naming
 * the version needed and the one found, exit 1, and none of the bundle's code on the screen.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { expect, it } from 'vitest'
import { dirname } from 'node:path'
import { DIST, ROOT } from './harness.ts'

/** The first `node` on the machine (PATH, then the usual places) older than 24, if any. */
function olderNode(): { path: string; version: string } | undefined {
  const onPath = (process.env.PATH ?? '').split(':').map((dir) => `${dir}/node`)
  for (const path of [...onPath, '/usr/local/bin/node', '/usr/bin/node', '/bin/node']) {
    if (!existsSync(path)) continue
    const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '')
    if (Number(version.split('.')[0]) < 24) return { path, version }
  }
  return undefined
}

const older = olderNode()

it.skipIf(!older)(
  `says in one line which Node it needs under ${older ? `Node ${older.version} (${older.path})` : 'an older Node (skipped: no node older than 24 on this machine)'}`,
  () => {
    const { path, version } = older!
    const result = spawnSync(path, [DIST], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } })
    expect(result.status).toBe(1)
    expect(result.stderr).toBe('')
    expect(result.stdout.split('\n')).toEqual([
      expect.stringMatching(/^::error::hub-action needs Node 24 or newer \(this runner has Node /),
      '',
    ])
    expect(result.stdout).toContain(`Node ${version}`)
    expect(result.stdout).toContain('runs.using: node24')
    // locally: how to run this same bundle on the project's Node 24, not only the sources (npm run local)
    const command = /`(npx node dist\/index\.js)` from the project's folder/.exec(result.stdout)?.[1]
    expect(command, result.stdout).toBeDefined()
    expect(result.stdout).toContain('`npm run local`')
  },
)

it('the command that message names for running dist/ runs it on Node 24 or newer', () => {
  // npx puts the project's node_modules/.bin first: its Node 24 package, not the global Node
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: older ? `${dirname(older.path)}:/usr/bin:/bin` : process.env.PATH,
  }
  const version = execFileSync('npx', ['--no-install', 'node', '--version'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  }).trim()
  expect(Number(/^v(\d+)\./.exec(version)?.[1])).toBeGreaterThanOrEqual(24)
  const result = spawnSync('npx', ['--no-install', 'node', DIST], {
    cwd: ROOT,
    env: { PATH: env.PATH ?? '' },
    encoding: 'utf8',
  })
  // past the version check: the bundle itself ran and asked for its inputs
  expect(result.stdout).not.toContain('needs Node 24')
  expect(result.stdout).toMatch(/^::error::\d+ invalid inputs:/)
})
