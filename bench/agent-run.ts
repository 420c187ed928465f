/**
 * Figures of the `run` command:
 *   settle → exit      action exit minus the instant the emulator settled the run (bench/README.md)
 *   cold start         spawn to the first request the hub sees, beside a bare `node -e 0`
 *   requests           requests the action makes for a run that settles in 3 s (whoami preflight included)
 *   dist size          bytes of dist/
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startHubEmulator } from '../emulator/index.ts'
import { DIST, ROOT, runAction } from '../test/e2e/action-process.ts'
import { median, row } from './stats.ts'

const ROUNDS = 7

export async function runFigures(): Promise<{ settleToExitMs: number; distBytes: number }> {
  const hub = await startHubEmulator({
    agents: {
      'settles-fast': {
        steps: [
          { phase: 'Running', afterMs: 0 },
          { phase: 'Succeeded', afterMs: 400 },
        ],
        output: 'done',
      },
      'settles-in-3s': {
        steps: [
          { phase: 'Running', afterMs: 100 },
          { phase: 'Succeeded', afterMs: 2900 },
        ],
        output: 'done',
      },
    },
  })
  const inputs = (agent: string, task: string) => ({
    'hub-url': hub.url,
    token: hub.token,
    org: hub.org,
    workspace: hub.workspace,
    agent,
    task,
    'idempotency-key': 'none',
  })

  try {
    console.log(`run command: ${ROUNDS} rounds each, emulator on ${hub.url}`)

    const detection: number[] = []
    const coldStart: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      hub.reset()
      const result = await runAction({ inputs: inputs('settles-fast', `detect ${round}`) })
      const run = hub.runs()[0]
      const first = hub.requests[0]
      if (result.code !== 0 || !run?.settledAt || !first)
        throw new Error(`round ${round} failed: ${result.stdout}${result.stderr}`)
      detection.push(result.exitedAt - run.settledAt)
      coldStart.push(first.at - result.startedAt)
      result.cleanup()
    }
    const bare: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now()
      spawnSync(process.execPath, ['-e', '0'])
      bare.push(performance.now() - started)
    }
    row('settle → exit (exit − settled)', detection, 'ms', 'target ≤ 50 ms')
    row('cold start to first request', coldStart, 'ms', `target ≤ bare + 150 ms`)
    row('bare `node -e 0` (spawn to exit)', bare, 'ms', '')
    console.log(`  cold start over bare node (medians): ${(median(coldStart) - median(bare)).toFixed(0)} ms`)

    hub.reset()
    const slow = await runAction({ inputs: inputs('settles-in-3s', 'three seconds') })
    const requests = hub.requests.map((r) => `${r.method} ${r.path.replace(/^\/services\/providers\/agents/, '')}`)
    console.log(
      `\n  requests for a run that settles in 3 s: ${requests.length} (target ≤ 3)  [${requests.join(', ')}]  exit ${slow.code}`,
    )
    slow.cleanup()

    const distBytes = folderBytes(join(ROOT, 'dist'))
    console.log(
      `  dist/ size: ${(distBytes / 1024 / 1024).toFixed(2)} MB (${distBytes} bytes; index.js ${statSync(DIST).size} bytes) (target ≤ 2 MB)`,
    )
    return { settleToExitMs: median(detection), distBytes }
  } finally {
    await hub.close()
  }
}

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const path = join(dir, name)
    const stat = statSync(path)
    return sum + (stat.isDirectory() ? folderBytes(path) : stat.size)
  }, 0)
}
