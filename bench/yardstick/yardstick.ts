/**
 * Start-up against a yardstick: the minimal @actions/core action in action.mjs (reads its inputs,
 * sends one request), and dist/ — each timed from spawn to the first request the hub emulator
 * sees, in alternating rounds of one run, so all meet the same machine load. The figure is the
 * ratio of the medians (target ≤ 1.3×). The yardstick is bundled twice: the ordinary way
 * (`ncc --minify`, what the figure was defined against) and the way dist/ is built
 * (scripts/build.ts), which makes it faster too, so both ratios are printed.
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bundle } from '../../scripts/build.ts'
import { startHubEmulator } from '../../emulator/index.ts'
import { ROOT, runAction } from '../../test/e2e/action-process.ts'
import { median, row } from '../stats.ts'

const ROUNDS = 9

export async function yardstickFigures(): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'hub-action-yardstick-'))
  const hub = await startHubEmulator({
    agents: { quick: { steps: [{ phase: 'Succeeded', afterMs: 0 }], output: 'done' } },
  })
  try {
    const built = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/@vercel/ncc/dist/ncc/cli.js'),
        'build',
        join(ROOT, 'bench/yardstick/action.mjs'),
        '-o',
        out,
        '--minify',
        '--quiet',
      ],
      {
        encoding: 'utf8',
      },
    )
    if (built.status !== 0) throw new Error(`ncc could not bundle the yardstick: ${built.stderr}`)
    bundle('bench/yardstick/action.mjs', join(out, 'ours'))
    const inputs = {
      'hub-url': hub.url,
      token: hub.token,
      org: hub.org,
      workspace: hub.workspace,
      agent: 'quick',
      task: 'start-up',
      'idempotency-key': 'none',
    }

    const ours: number[] = []
    const yardstick: number[] = []
    const sameBuild: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      hub.reset()
      const result = await runAction({ inputs })
      const first = hub.requests[0]
      if (result.code !== 0 || !first)
        throw new Error(
          `round ${round} of the action failed (exit ${result.code}): ${(result.stdout + result.stderr).slice(-2000)}`,
        )
      ours.push(first.at - result.startedAt)
      result.cleanup()

      hub.reset()
      yardstick.push(await timeYardstick(join(out, 'index.mjs'), inputs, () => hub.requests[0]?.at))
      hub.reset()
      sameBuild.push(await timeYardstick(join(out, 'ours', 'index.mjs'), inputs, () => hub.requests[0]?.at))
    }
    console.log(`start-up against an @actions/core yardstick: ${ROUNDS} alternating rounds, spawn to first request`)
    row('hub-action (dist/)', ours, 'ms', '')
    row('yardstick (core, inputs, one request)', yardstick, 'ms', '')
    row('yardstick, built as dist/ is', sameBuild, 'ms', '')
    const ratio = median(ours) / median(yardstick)
    console.log(`  start-up ratio (medians): ${ratio.toFixed(2)}× the yardstick (target ≤ 1.3×)`)
    console.log(`  against the yardstick built as dist/ is: ${(median(ours) / median(sameBuild)).toFixed(2)}×\n`)
    return ratio
  } finally {
    await hub.close()
    rmSync(out, { recursive: true, force: true })
  }
}

/** Spawn the bundled yardstick with the inputs as the runner passes them; spawn to first request. */
async function timeYardstick(
  bundle: string,
  inputs: Record<string, string>,
  firstRequestAt: () => number | undefined,
): Promise<number> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value
  const startedAt = Date.now()
  const child = spawn(process.execPath, [bundle], { env, stdio: 'ignore' })
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => child.kill(), 30_000)
    child.on('error', reject)
    child.on('exit', (exitCode) => {
      clearTimeout(timer)
      resolve(exitCode)
    })
  })
  const at = firstRequestAt()
  if (code !== 0 || at === undefined) throw new Error(`the yardstick exited ${code} without a request to the hub`)
  return at - startedAt
}
