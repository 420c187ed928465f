/**
 * End to end through a third-party harness: scripts/local-action.ts (`npm run local`) runs the
 * TypeScript sources (src/main.ts's run()) under @github/local-action, with inputs and runner
 * variables from a dotenv file made from .env.example, against the hub emulator over real HTTP.
 * Each run is a child process tree (script → local-action → npm exec tsx → the action).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { parse as parseYaml } from 'yaml'
import { ROOT } from './action-process.ts'
import { startHubEmulator, type HubEmulator } from '../emulator/hub.ts'

const SCRIPT = join(ROOT, 'scripts', 'local-action.ts')
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
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
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

/** The text after a `━━ title` banner the script prints, up to the next banner. */
function section(stdout: string, title: string): string {
  const start = stdout.indexOf(`━━ ${title}`)
  if (start < 0) return ''
  const end = stdout.indexOf('━━ ', start + 3)
  return stdout.slice(start, end < 0 ? undefined : end)
}

function outputsOf(stdout: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  for (const match of section(stdout, 'Step outputs').matchAll(/^ {2}([a-z-]+) = (.*)$/gm)) outputs[match[1]!] = match[2]!
  return outputs
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('npm run local (scripts/local-action.ts through @github/local-action)', () => {
  it('.env.example gives every input action.yml declares, as the runner names it', () => {
    const declared = Object.keys((parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs)
    const given = Object.keys(EXAMPLE).filter((name) => name.startsWith('INPUT_'))
    expect(given.sort()).toEqual(declared.map((name) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`).sort())
  })

  it(
    'runs the action with a .env made from .env.example against the emulator: one run, outputs and summary',
    async () => {
      const envFile = join(tmp, 'from-example.env')
      writeFileSync(envFile, `${EXAMPLE_TEXT}\nINPUT_HUB-URL=${hub.url}\nINPUT_TOKEN=${hub.token}\nINPUT_ORG=${hub.org}\nINPUT_WORKSPACE=${hub.workspace}\n`)
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

      const outputs = outputsOf(run.stdout)
      expect(outputs['run-id']).toBe(created?.id)
      expect(outputs).toMatchObject({ phase: 'Succeeded', settled: 'true', reused: 'false' })
      expect(outputs['result-file']).toContain(`run-${created?.id}.json`)
      const summary = section(run.stdout, 'Job summary')
      expect(summary).toContain('Agent run: quick — Succeeded')
      expect(summary).toContain(created?.id)

      // The token shows only in the mask request, nowhere in the outputs or summary.
      expect(run.stdout.split(hub.token).length - 1).toBe(1)
      expect(run.stdout).toContain(`::add-mask::${hub.token}`)
    },
    TEST_MS,
  )

  it(
    'starts the hub emulator itself when no .env is given, and stops it afterwards',
    async () => {
      const run = await runScript([])
      const log = `${run.stdout}\n${run.stderr}`

      expect(run.code, log).toBe(0)
      const url = /Hub emulator listening on (\S+);/.exec(run.stdout)?.[1]
      expect(url, log).toBeDefined()
      expect(run.stdout).toContain('Running Action')
      const started = [...run.stdout.matchAll(/^Run (\S+) of agent "quick" started/gm)].map((m) => m[1])
      expect(started, 'one run started').toHaveLength(1)

      const outputs = outputsOf(run.stdout)
      expect(outputs['run-id']).toMatch(UUID)
      expect(outputs['run-id']).toBe(started[0])
      expect(outputs).toMatchObject({ phase: 'Succeeded', settled: 'true', reused: 'false' })
      const summary = section(run.stdout, 'Job summary')
      expect(summary).toContain('Agent run: quick — Succeeded')
      expect(summary).toContain(outputs['run-id'])

      // The script waited for its emulator to exit: nothing listens there any more.
      await expect(fetch(`${url}/`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow()
    },
    TEST_MS,
  )
})
