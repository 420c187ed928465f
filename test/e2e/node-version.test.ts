/**
 * End to end, dist/index.js under a Node older than the action needs (the common global Node
 * 20 of a developer's machine, or a runner told `using: node20`): one `::error::` line naming
 * the version needed and the one found, exit 1, and none of the bundle's code on the screen.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { expect, it } from 'vitest'
import { DIST } from './harness.ts'

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
  },
)
