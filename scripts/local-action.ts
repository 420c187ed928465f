/**
 * `npm run local [-- <dotenv file>]`: the action's TypeScript sources run through
 * @github/local-action (`local-action run <root> src/main.ts <dotenv>`, which loads the .env
 * into the environment and imports src/main.ts's run() under tsx), then the step outputs and job
 * summary the action wrote are printed.
 *
 * Without a dotenv file the hub emulator (test/emulator/serve.ts) is started on a free port and
 * .env.example is used against it, its hub URL and credentials replaced by the emulator's.
 *
 * The action speaks the runner protocol itself rather than through @actions/core, so
 * local-action's stubs never see its outputs: they go to the GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files. Those (and RUNNER_TEMP) are pointed at a fresh folder under the
 * system temp folder unless the dotenv file sets them, and read back afterwards. The folder is
 * kept, because the `result-file` output points into it. The exit code is local-action's.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseEnv } from 'node:util'
import { parseOutputFile } from '../test/e2e/action-process.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const LOCAL_ACTION = join(ROOT, 'node_modules', '@github', 'local-action', 'bin', 'local-action.js')
const EMULATOR = join(ROOT, 'test', 'emulator', 'serve.ts')
const EXAMPLE = join(ROOT, '.env.example')
/** Bounded waits: the emulator prints its line at once, and stops at once on SIGTERM. */
const EMULATOR_START_MS = 20_000
const EMULATOR_STOP_MS = 5_000

const args = process.argv.slice(2)
if (args.length > 1 || args.some((a) => a === '-h' || a === '--help')) {
  process.stderr.write('usage: node scripts/local-action.ts [dotenv file]   (no file: start the hub emulator and use .env.example)\n')
  process.exit(args.length > 1 ? 2 : 0)
}

const given = args[0] ? resolve(args[0]) : undefined
if (given && !existsSync(given)) {
  process.stderr.write(`${given} does not exist. Copy .env.example to .env and fill it in, or give no file to use the hub emulator.\n`)
  process.exit(2)
}

const dir = mkdtempSync(join(tmpdir(), 'hub-action-local-'))
let emulator: ChildProcess | undefined
let action: ChildProcess | undefined
// Ctrl-C / SIGTERM go on to the action (it handles them like a cancelled job), and the
// outputs so far are still printed; a second signal, or one before the action started, ends at once.
let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (action && !interrupted) {
      interrupted = true
      action.kill(signal)
      return
    }
    action?.kill('SIGKILL')
    emulator?.kill('SIGKILL')
    process.exit(130)
  })
}

try {
  let envFile: string
  if (given) {
    envFile = given
  } else {
    const started = await startEmulator()
    envFile = join(dir, '.env')
    writeFileSync(
      envFile,
      `${readFileSync(EXAMPLE, 'utf8')}\n# Set by scripts/local-action.ts for the hub emulator it started (later lines win).\n` +
        `INPUT_HUB-URL=${started.info.url}\nINPUT_TOKEN=${started.info.token}\nINPUT_ORG=${started.info.org}\nINPUT_WORKSPACE=${started.info.workspace}\n`,
    )
    banner(`Hub emulator listening on ${started.info.url}; running with .env.example against it`)
  }

  // local-action loads the dotenv file over the environment, so what the file sets wins.
  const set = parseEnv(readFileSync(envFile, 'utf8'))
  const pick = (name: string, fallback: string) => (name in set ? (set[name] ?? '') : fallback)
  const outputFile = pick('GITHUB_OUTPUT', join(dir, 'github_output'))
  const summaryFile = pick('GITHUB_STEP_SUMMARY', join(dir, 'step_summary'))
  const runnerFiles = { GITHUB_OUTPUT: outputFile, GITHUB_STEP_SUMMARY: summaryFile, RUNNER_TEMP: pick('RUNNER_TEMP', join(dir, 'runner_temp')) }
  // Only what this run appends is shown, so a file kept across runs is not repeated.
  const from = { output: touch(outputFile), summary: touch(summaryFile) }

  const code = await runLocalAction(envFile, runnerFiles)

  banner(`Step outputs (exit code ${code}), from GITHUB_OUTPUT ${outputFile || '(unset: see the ::set-output lines above)'}`)
  console.log("  (local-action's own table above is empty: the action writes GITHUB_OUTPUT itself instead of calling @actions/core.)\n")
  const outputs = outputFile ? parseOutputFile(readFrom(outputFile, from.output)) : {}
  if (Object.keys(outputs).length === 0) console.log('  (none)')
  for (const [name, value] of Object.entries(outputs)) {
    const lines = value.split('\n')
    console.log(`  ${name} = ${lines.length > 1 ? `${lines[0]} … (${lines.length} lines)` : value}`)
  }
  banner(`Job summary, from GITHUB_STEP_SUMMARY ${summaryFile || '(unset: no summary)'}`)
  console.log(indent((summaryFile ? readFrom(summaryFile, from.summary) : '').trim() || '(empty)'))
  console.log(`\nRunner files kept in ${dir}`)
  process.exitCode = code
} catch (error) {
  process.stderr.write(`local-action run failed: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
} finally {
  if (emulator) await stop(emulator)
}

interface EmulatorInfo {
  url: string
  token: string
  org: string
  workspace: string
}

/** Start test/emulator/serve.ts on a free port and read the JSON line it prints. */
function startEmulator(): Promise<{ info: EmulatorInfo }> {
  const child = spawn(process.execPath, [EMULATOR, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  emulator = child
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => fail(new Error(`the hub emulator printed nothing within ${EMULATOR_START_MS} ms`)), EMULATOR_START_MS)
    const lines = createInterface({ input: child.stdout })
    const fail = (error: Error) => {
      clearTimeout(timer)
      lines.close()
      child.kill('SIGKILL')
      reject(error)
    }
    child.once('error', fail)
    child.once('exit', (code, signal) => fail(new Error(`the hub emulator exited before it was ready (${signal ?? `code ${code}`})`)))
    lines.once('line', (line) => {
      clearTimeout(timer)
      child.removeAllListeners('exit')
      lines.close()
      child.stdout.resume() // keep draining, it prints nothing more
      try {
        resolvePromise({ info: JSON.parse(line) as EmulatorInfo })
      } catch {
        fail(new Error(`the hub emulator printed ${JSON.stringify(line)}, not its JSON line`))
      }
    })
  })
}

/** `local-action run <root> src/main.ts <envFile>`, on the Node that runs this script; resolves to its exit code. */
function runLocalAction(envFile: string, runnerFiles: Record<string, string>): Promise<number> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...runnerFiles,
    // local-action re-launches itself through `npm exec tsx`, whose `node` comes from PATH:
    // keep it the Node 24 that runs this script (the dev dependency), as under `npm run`.
    PATH: [dirname(process.execPath), join(ROOT, 'node_modules', '.bin'), process.env.PATH ?? ''].join(delimiter),
  }
  // local-action joins its arguments into a shell command unquoted: paths must not contain spaces.
  const child = spawn(process.execPath, [LOCAL_ACTION, 'run', ROOT, 'src/main.ts', envFile], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] })
  action = child
  return new Promise((resolvePromise, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => resolvePromise(code ?? 1))
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), EMULATOR_STOP_MS)
  await exited
  clearTimeout(timer)
}

/** Create the file if missing (its folder must exist); returns its current size. */
function touch(path: string): number {
  if (!path) return 0
  const file = resolve(ROOT, path)
  if (!existsSync(file)) writeFileSync(file, '')
  return statSync(file).size
}

function readFrom(path: string, offset: number): string {
  const file = resolve(ROOT, path)
  if (!existsSync(file)) return ''
  const size = statSync(file).size
  if (size <= offset) return ''
  const buffer = Buffer.alloc(size - offset)
  const fd = openSync(file, 'r')
  try {
    readSync(fd, buffer, 0, buffer.length, offset)
  } finally {
    closeSync(fd)
  }
  return buffer.toString('utf8')
}

function banner(text: string): void {
  console.log(`\n━━ ${text}\n`)
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ')
}
