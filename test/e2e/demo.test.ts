/**
 * `npm run demo` end to end: scripts/demo.ts runs the built dist/index.js against the emulators
 * and must tell the whole story — run, re-run attaching, failure, impact with its comment, query
 * — as a reader sees it: no raw workflow command, no secret, and an exit code of 0. `npm test`
 * has just built dist/, so the demo is told not to check it.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { DEFAULT_TOKEN } from '../emulator/hub.ts'
import { ACTIONS_TOKEN } from '../emulator/github.ts'
import { ROOT } from './action-process.ts'

it('shows run, impact and query readably and exits 0', { timeout: 120_000 }, () => {
  const demo = spawnSync(process.execPath, [join(ROOT, 'scripts', 'demo.ts'), '--no-build'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 110_000,
  })
  expect(demo.stderr).toBe('')
  expect(demo.status).toBe(0)
  const out = demo.stdout
  const lines = out.split('\n')

  // what is shown is explained first: hub, agent, edge
  const intro = out.slice(0, out.indexOf('━━ 1.'))
  for (const word of ['hub', 'agent', 'edge']) expect(intro).toContain(word)

  // the three commands, each with its log, outputs and what it published
  for (const command of ['command: run', 'command: impact', 'command: query'])
    expect(lines.some((line) => line.startsWith(`━━ `) && line.includes(command))).toBe(true)
  expect(out).toMatch(/attached to the existing run/)
  expect(out).toMatch(/Same run id, reused=true; the hub holds 1 run/)
  expect(out).toMatch(/✖ Error: Run \S+ of agent "failing" failed: model credential missing/)
  expect(out).toMatch(/The comment it posted on pull request #42/)
  expect(out).toMatch(/│ Impact of this change/)
  expect(out).toMatch(/│ Fleet query: \d+ objects/)
  expect(out).toMatch(/Five steps in \d+\.\d s \(/)

  // rendered as GitHub shows it: no workflow command, no markdown table syntax, no secret
  expect(lines.filter((line) => /^\s*(│ )?::/.test(line) || line.includes('##['))).toEqual([])
  expect(lines.filter((line) => /\|\s*---/.test(line))).toEqual([])
  expect(out).not.toContain('<!--')
  expect(out).not.toContain(DEFAULT_TOKEN)
  expect(out).not.toContain(ACTIONS_TOKEN)
  expect(out).not.toContain('\u001b[')
})
