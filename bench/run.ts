/**
 * `npm run bench`: figures, printed. Nothing here passes or fails on time; the targets are
 * printed beside the figures for a reader to compare.
 *
 *   settle detection   action exit minus the instant the emulator settled the run
 *   cold start         spawn to the first request the hub sees, beside a bare `node -e 0`
 *   requests           requests the action makes for a run that settles in 3 s
 *   dist size          bytes of dist/
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { startHubEmulator } from '../test/emulator/hub.ts'
import { DIST, ROOT, runAction } from '../test/e2e/action-process.ts'

const ROUNDS = 7
const hub = await startHubEmulator({
  agents: {
    'settles-fast': { steps: [{ phase: 'Running', afterMs: 0 }, { phase: 'Succeeded', afterMs: 400 }], output: 'done' },
    'settles-in-3s': { steps: [{ phase: 'Running', afterMs: 100 }, { phase: 'Succeeded', afterMs: 2900 }], output: 'done' },
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
  console.log(`hub-action benchmarks — Node ${process.version}, ${ROUNDS} rounds each, emulator on ${hub.url}\n`)

  const detection: number[] = []
  const coldStart: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    hub.reset()
    const result = await runAction({ inputs: inputs('settles-fast', `detect ${round}`) })
    const run = hub.runs()[0]
    const first = hub.requests[0]
    if (result.code !== 0 || !run?.settledAt || !first) throw new Error(`round ${round} failed: ${result.stdout}${result.stderr}`)
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
  row('settle detection (exit − settled)', detection, 'ms', 'target < 100 ms')
  row('cold start to first request', coldStart, 'ms', `target ≤ bare + 150 ms`)
  row('bare `node -e 0` (spawn to exit)', bare, 'ms', '')
  console.log(`  cold start over bare node (medians): ${(median(coldStart) - median(bare)).toFixed(0)} ms`)

  hub.reset()
  const slow = await runAction({ inputs: inputs('settles-in-3s', 'three seconds') })
  const requests = hub.requests.map((r) => `${r.method} ${r.path.replace(/^\/services\/providers\/agents/, '')}`)
  console.log(`\n  requests for a run that settles in 3 s: ${requests.length} (target ≤ 3)  [${requests.join(', ')}]  exit ${slow.code}`)
  slow.cleanup()

  const distBytes = folderBytes(join(ROOT, 'dist'))
  console.log(`  dist/ size: ${(distBytes / 1024 / 1024).toFixed(2)} MB (${distBytes} bytes; index.js ${statSync(DIST).size} bytes) (target < 1.5 MB)`)
} finally {
  await hub.close()
}

function row(label: string, values: number[], unit: string, target: string): void {
  const sorted = [...values].sort((a, b) => a - b)
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)] ?? NaN
  console.log(
    `  ${label.padEnd(36)} median ${median(values).toFixed(0).padStart(4)} ${unit}  p90 ${p90.toFixed(0).padStart(4)} ${unit}  min ${sorted[0]?.toFixed(0)} ${unit}  ${target}`,
  )
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const path = join(dir, name)
    const stat = statSync(path)
    return sum + (stat.isDirectory() ? folderBytes(path) : stat.size)
  }, 0)
}
