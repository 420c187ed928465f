/**
 * End to end through a third-party harness: `npm run local -- <dotenv>` runs the TypeScript
 * sources (src/main.ts's run()) under @github/local-action, which stubs @actions/core, with
 * inputs and runner variables from a dotenv file made from .env.example, against the hub
 * emulator over real HTTP. No script of ours sits in between: outputs reach local-action's
 * own table through the core stubs. Each run is a child process tree (npm → local-action → tsx).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { parse as parseYaml } from 'yaml'
import { ROOT } from './harness.ts'
import { startHubEmulator, type HubEmulator } from '../emulator/hub.ts'

const EXAMPLE_TEXT = readFileSync(join(ROOT, '.env.example'), 'utf8')
const EXAMPLE = parseEnv(EXAMPLE_TEXT)
/** local-action re-launches itself through npm and tsx: a cold run takes several seconds. */
const TEST_MS = 120_000
/** Safety net only: the process tree is killed if it has not ended by then. */
const KILL_AFTER_MS = 100_000

interface ScriptRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

let hub: HubEmulator
let tmp: string

beforeAll(async () => {
  hub = await startHubEmulator()
  tmp = mkdtempSync(join(tmpdir(), 'hub-action-local-test-'))
})
afterAll(async () => {
  await hub?.close()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

/**
 * Run the script as `npm run local` would, with a clean runner environment (no GITHUB_* or
 * INPUT_* leaking in from a CI runner) and TMPDIR inside this test's folder, so every file it
 * keeps is removed afterwards. It gets its own process group, so the safety net kills the tree.
 */
function runScript(args: string[]): Promise<ScriptRun> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(GITHUB_|INPUT_|RUNNER_|ACTIONS_)/.test(name)))
  env.TMPDIR = tmp
  // In a git worktree node_modules is a symlink: local-action stubs @actions/core at the path
  // npm reports, so Node must keep that path rather than resolve it to the real one.
  env.NODE_OPTIONS = '--preserve-symlinks'
  return new Promise((resolvePromise, reject) => {
    const child = spawn('npm', ['run', '--silent', 'local', '--', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }, KILL_AFTER_MS)
    child.on('error', (error) => {
      clearTimeout(killer)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(killer)
      resolvePromise({ code, signal, stdout, stderr })
    })
  })
}

/** local-action's table of the outputs the action set through @actions/core (single-line values). */
function outputsOf(stdout: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const table = stdout.slice(stdout.indexOf('Action Outputs'))
  for (const match of table.matchAll(/^│ \d+\s+│ '([a-z-]+)'\s+│ '(.*?)'\s+│$/gm)) outputs[match[1]!] = match[2]!
  return outputs
}

describe('npm run local (@github/local-action on the sources, no script of ours)', () => {
  it('.env.example gives every input action.yml declares, as the runner names it', () => {
    const declared = Object.keys((parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs)
    const given = Object.keys(EXAMPLE).filter((name) => name.startsWith('INPUT_'))
    expect(given.sort()).toEqual(declared.map((name) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`).sort())
  })

  it(
    'runs the action with a .env made from .env.example against the emulator: one run, outputs through the core stubs, the summary',
    async () => {
      const envFile = join(tmp, 'from-example.env')
      const summaryFile = join(tmp, 'summary.md')
      writeFileSync(summaryFile, '')
      writeFileSync(
        envFile,
        `${EXAMPLE_TEXT}\nINPUT_HUB-URL=${hub.url}\nINPUT_TOKEN=${hub.token}\nINPUT_ORG=${hub.org}\nINPUT_WORKSPACE=${hub.workspace}\nGITHUB_STEP_SUMMARY=${summaryFile}\nRUNNER_TEMP=${tmp}\n`,
      )
      const run = await runScript([envFile])
      const log = `${run.stdout}\n${run.stderr}`

      expect(run.code, log).toBe(0)
      // It went through local-action: its stages frame the action's own log.
      expect(run.stdout).toContain('Running Action')
      expect(run.stdout).toContain('Action Outputs')

      expect(hub.runs()).toHaveLength(1)
      const [created] = hub.runs()
      expect(created?.agent).toBe(EXAMPLE.INPUT_AGENT)
      expect(created?.task).toBe(EXAMPLE.INPUT_TASK)
      expect(created?.phase).toBe('Succeeded')
      // The runner variables from the .env reached the action: the key is derived from them.
      expect(created?.idempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)

      // local-action's core stubs caught the outputs: its table lists them (empty under the real core).
      const outputs = outputsOf(run.stdout)
      expect(outputs['run-id'], log).toBe(created?.id)
      expect(outputs).toMatchObject({ phase: 'Succeeded', settled: 'true', reused: 'false' })
      expect(outputs['result-file']).toContain(`run-${created?.id}.json`)
      const summary = readFileSync(summaryFile, 'utf8')
      expect(summary).toContain('Agent run: quick — Succeeded')
      expect(summary).toContain(created?.id)

      // The token shows nowhere: not in the log, the outputs or the summary.
      expect(log).not.toContain(hub.token)
      expect(summary).not.toContain(hub.token)
    },
    TEST_MS,
  )
})
