/**
 * Without Chromium, a test run ends by saying the browser tests were skipped and why, after
 * vitest's summary (where a reader looks), not only in one stderr line among hundreds.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

it('ends the run with the reason the browser tests were skipped', { timeout: 120_000 }, () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHROMIUM_PATH: '/nonexistent/chromium',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  }
  delete env.REQUIRE_BROWSER
  delete env.SCREENSHOTS
  const result = spawnSync(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', 'test/browser/screenshots.test.ts'],
    {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    },
  )
  expect(result.status).toBe(0)
  const lines = result.stdout.split('\n').filter((line) => line.trim() !== '')
  const summary = lines.findIndex((line) => /^\s*Tests\s/.test(line))
  expect(summary).toBeGreaterThan(0)
  expect(lines.at(-1)).toMatch(
    /^Browser tests skipped: CHROMIUM_PATH=\/nonexistent\/chromium does not exist; install it with `apt-get install chromium`, or set CHROMIUM_PATH to a Chromium binary\. They are the \d+ skipped tests above \(test\/browser\/screenshots\.test\.ts\)\.$/,
  )
  // one number, said twice the same way: the summary's "N skipped" is the count in the last line
  const skipped = Number(/the (\d+) skipped tests above/.exec(lines.at(-1)!)?.[1])
  expect(skipped).toBeGreaterThan(3)
  expect(lines[summary]).toMatch(/\b\d+ skipped\b/)
  expect(Number(/\b(\d+) skipped\b/.exec(lines[summary]!)?.[1])).toBe(skipped)
})
