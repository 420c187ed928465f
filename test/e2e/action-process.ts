/**
 * Runs the bundled action (dist/index.js) the way the GitHub runner does: a separate Node
 * process, inputs as INPUT_* variables, and the runner's file commands (GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH) as real files, which are read back afterwards.
 * Shared by the end-to-end tests, the demo and the benchmarks.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
/** The bundle under test; HUB_ACTION_DIST points at another build, e.g. to see a new test fail on an older one. */
export const DIST = process.env.HUB_ACTION_DIST ?? join(ROOT, 'dist', 'index.js')

/** A runner-like environment for one job on one commit (overridable per run). */
export const RUNNER_ENV: Readonly<Record<string, string>> = Object.freeze({
  GITHUB_ACTIONS: 'true',
  CI: 'true',
  GITHUB_REPOSITORY: 'acme/shop',
  GITHUB_SHA: '4c5e1f0b9a7d3e2c1b0a9f8e7d6c5b4a39281706',
  GITHUB_WORKFLOW: 'release',
  GITHUB_JOB: 'notes',
  GITHUB_RUN_ID: '7001',
  GITHUB_RUN_ATTEMPT: '1',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_EVENT_NAME: 'push',
})

export interface ActionRun {
  /** Process exit code (null when killed by a signal). */
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  /** Wall-clock instants (ms since epoch, Date.now()) of spawn and exit. */
  startedAt: number
  exitedAt: number
  /** Every file the action could have written to, for "the token is nowhere" checks. */
  files: Record<string, string>
  /** Working folder (RUNNER_TEMP lives inside); removed by `cleanup()`. */
  dir: string
  cleanup(): void
}

export interface ActionOptions {
  inputs: Record<string, string>
  env?: Record<string, string>
  event?: unknown
  /** Called once the process is running (e.g. to send it a signal later). */
  onSpawn?: (child: ChildProcess) => void
  /** Called on every chunk of stdout (e.g. to react to a log line). */
  onStdout?: (text: string, child: ChildProcess) => void
  /** Kill the process after this long (a safety net, never a pass condition). */
  killAfterMs?: number
  /** Node binary; defaults to the one running this code. */
  node?: string
}

export function runAction(options: ActionOptions): Promise<ActionRun> {
  if (!existsSync(DIST)) throw new Error(`${DIST} is missing: run \`npm run build\` first.`)
  const dir = mkdtempSync(join(tmpdir(), 'hub-action-'))
  const outputPath = join(dir, 'github_output')
  const summaryPath = join(dir, 'step_summary')
  const eventPath = join(dir, 'event.json')
  const runnerTemp = join(dir, 'runner_temp')
  writeFileSync(outputPath, '')
  writeFileSync(summaryPath, '')
  writeFileSync(eventPath, JSON.stringify(options.event ?? {}))

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dir,
    ...RUNNER_ENV,
    RUNNER_TEMP: runnerTemp,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_WORKSPACE: ROOT,
    ...options.env,
  }
  for (const [name, value] of Object.entries(options.inputs))
    env[`INPUT_${name.toUpperCase().replace(/ /g, '_')}`] = value

  return new Promise((resolvePromise, reject) => {
    const startedAt = Date.now()
    const child = spawn(options.node ?? process.execPath, [DIST], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      options.onStdout?.(chunk, child)
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 60_000)
    options.onSpawn?.(child)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      const exitedAt = Date.now()
      clearTimeout(killer)
      const files: Record<string, string> = {}
      for (const path of [outputPath, summaryPath, ...listFiles(runnerTemp)]) files[path] = readFileSync(path, 'utf8')
      resolvePromise({
        code,
        signal,
        stdout,
        stderr,
        outputs: parseOutputFile(files[outputPath] ?? ''),
        summary: files[summaryPath] ?? '',
        startedAt,
        exitedAt,
        files,
        dir,
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      })
    })
  })
}

/** Parse the runner's `name<<DELIMITER … DELIMITER` file-command format. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc?.[1] && heredoc[2]) {
      const value: string[] = []
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i] ?? '')
      outputs[heredoc[1]] = value.join('\n')
    } else if (line.includes('=')) {
      const at = line.indexOf('=')
      outputs[line.slice(0, at)] = line.slice(at + 1)
    }
  }
  return outputs
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? listFiles(path) : [path]
  })
}
