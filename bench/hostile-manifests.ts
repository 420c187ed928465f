/**
 * Hostile manifests (issue 7, classes 8, 9, 10, 13; issue 18, item 4): peak memory and wall time
 * of the bundled action reading a checkout a hostile pull request filled, case by case and all at
 * once, with the default caps in force (`max-documents`, `max-targets`): a case past a cap ends
 * the step with that cap's error, before any hub request, and is measured all the same. The
 * peak is the kernel's high-water mark (getrusage at exit, from a preload that only observes);
 * the target is the acceptance bound, printed beside it, never asserted here.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAction } from '../test/e2e/action-process.ts'
import { memoryProbe } from '../test/e2e/memory-probe.ts'
import { startHubEmulator } from '../emulator/index.ts'
import { row } from './stats.ts'

const ROUNDS = 3
const MiB = 1024 * 1024
/** Just under the 4 MiB per-file cap, so each is parsed rather than refused unread. */
const UNDER_CAP = 4 * MiB - 1024

const SMALL_OBJECT = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n'

const CASES: Record<string, (dir: string) => void> = {
  '1 MB of `{{` (quadratic regex before)': (dir) => writeFileSync(join(dir, 'braces.yaml'), '{{'.repeat(MiB / 2)),
  '4 MiB flow sequence `[a,a,…]` (densest)': (dir) =>
    writeFileSync(join(dir, 'flow.yaml'), `[${'a,'.repeat(UNDER_CAP / 2)}]`),
  '4 MiB of `[` nesting': (dir) => writeFileSync(join(dir, 'deep.yaml'), '['.repeat(UNDER_CAP)),
  '4 MiB of 76,000 small objects': (dir) =>
    writeFileSync(join(dir, 'bundle.yaml'), SMALL_OBJECT.repeat(Math.floor(UNDER_CAP / SMALL_OBJECT.length))),
  'five such files (390,000 objects)': (dir) => {
    for (let i = 0; i < 5; i++)
      writeFileSync(join(dir, `bundle-${i}.yaml`), SMALL_OBJECT.repeat(Math.floor(UNDER_CAP / SMALL_OBJECT.length)))
  },
  '40 files of 1,000 distinct objects (past max-targets)': (dir) => {
    for (let i = 0; i < 40; i++)
      writeFileSync(
        join(dir, `many-${i}.yaml`),
        Array.from({ length: 1000 }, (_, j) => SMALL_OBJECT.replace('{name: c}', `{name: c-${i}-${j}}`)).join(''),
      )
  },
  'alias bomb (9^7 expansions)': (dir) => writeFileSync(join(dir, 'bomb.yaml'), aliasBomb()),
  '50 MB manifest (over the cap)': (dir) =>
    writeFileSync(join(dir, 'huge.yaml'), 'apiVersion: v1\nkind: ConfigMap\n---\n'.repeat((50 * MiB) / 32)),
  'symlink to /dev/zero': (dir) => symlinkSync('/dev/zero', join(dir, 'zero.yaml')),
}

/** The cases a default cap stops before any hub request. */
const CAPPED = new Set([
  '4 MiB of 76,000 small objects',
  'five such files (390,000 objects)',
  '40 files of 1,000 distinct objects (past max-targets)',
])

export async function hostileManifestFigures(): Promise<void> {
  const hub = await startHubEmulator()
  const scratch = mkdtempSync(join(tmpdir(), 'bench-hostile-manifests-'))
  try {
    console.log(`\nhostile manifests: the action over a checkout a pull request filled, ${ROUNDS} rounds each`)
    const all = Object.values(CASES)
    // with every file at once the first capped file ends the step; without them, every file is parsed
    const uncapped = Object.entries(CASES)
      .filter(([label]) => !CAPPED.has(label))
      .map(([, plant]) => plant)
    const together = [
      ['all of the above at once', (dir: string) => all.forEach((one) => one(dir))],
      ['all of the above but the capped ones, at once', (dir: string) => uncapped.forEach((one) => one(dir))],
    ] as const
    for (const [label, plant] of [...Object.entries(CASES), ...together]) {
      const workspace = join(scratch, 'ws')
      mkdirSync(join(workspace, 'deploy'), { recursive: true })
      writeFileSync(
        join(workspace, 'deploy', 'checkout.yaml'),
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\n',
      )
      plant(join(workspace, 'deploy'))
      const peaks: number[] = []
      let lastStdout = ''
      const times: number[] = []
      for (let round = 0; round < ROUNDS; round++) {
        hub.reset()
        const probe = memoryProbe()
        const result = await runAction({
          inputs: {
            command: 'impact',
            'hub-url': hub.url,
            token: hub.token,
            org: hub.org,
            workspace: hub.workspace,
            manifests: 'deploy/*.yaml',
          },
          env: { GITHUB_WORKSPACE: workspace, GITHUB_EVENT_NAME: 'push', ...probe.env },
          killAfterMs: 120_000,
        })
        // a cap ends the step (exit 1) with its own error; anything else is a failure of the bench
        const capped = result.code === 1 && /::error::Too many (documents in one file|targets):/.test(result.stdout)
        if (result.code !== 0 && !capped)
          throw new Error(
            `hostile-manifest bench "${label}" failed (${result.code ?? result.signal}): ${result.stdout.slice(-2000)}`,
          )
        if (capped && hub.requests.length > 0)
          throw new Error(
            `hostile-manifest bench "${label}": the cap was passed after ${hub.requests.length} hub request(s)`,
          )
        peaks.push((probe.peakBytes() ?? NaN) / MiB)
        probe.cleanup()
        times.push(result.exitedAt - result.startedAt)
        lastStdout = result.stdout
        result.cleanup()
      }
      console.log(`  ${label}${capOf(lastStdout)}`)
      row('  peak memory (whole process)', peaks, 'MB', 'target < 300 MB')
      row('  time (spawn → exit)', times, 'ms', '')
      rmSync(workspace, { recursive: true, force: true })
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
    await hub.close()
  }
}

/** Which cap ended the step, for the label. */
function capOf(stdout: string): string {
  const cap = /::error::Too many (documents in one file|targets):.*?over `(max-[a-z]+)`/.exec(stdout)
  return cap ? ` — stopped by \`${cap[2]}\`, no hub request` : ''
}

function aliasBomb(): string {
  const lines = [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata: {name: lol}',
    'data:',
    '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ]
  for (const [name, previous] of [
    ['b', 'a'],
    ['c', 'b'],
    ['d', 'c'],
    ['e', 'd'],
    ['f', 'e'],
    ['g', 'f'],
  ])
    lines.push(`  ${name}: &${name} [${`*${previous},`.repeat(9).slice(0, -1)}]`)
  return `${lines.join('\n')}\n`
}
