/**
 * `npm run local [-- <dotenv file>]`: the action's TypeScript sources (src/main.ts's run()) under
 * @github/local-action, which stubs @actions/core and prints the outputs, with the inputs and
 * runner variables of a dotenv file (default: .env in the current folder). Without a file, a hub
 * emulator starts on 127.0.0.1 and .env.example runs against it, so a newcomer's first
 * `npm run local` shows a real run. What local-action prints is shown as the demo shows a step: the
 * action's log as GitHub's log viewer shows it and its outputs one a line, within 100 columns; then
 * the job summary the action wrote, rendered for the terminal. A missing or unusable file is one
 * line, never a stack trace. `npm run emulator -- --github` writes a dotenv file for a pull request.
 * Where the runner or a newcomer would need a word the action cannot give, it says it: an INPUT_ that
 * action.yml does not declare gets the runner's "Unexpected input(s)" warning, and a hub URL on this
 * machine where nothing listens, the command that starts the emulator there.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseEnv } from 'node:util'
import { parse as parseYaml } from 'yaml'
import { ROOT } from '../test/e2e/action-process.ts'
import { startHubEmulator, type HubEmulator } from '../emulator/index.ts'
import { dotenvText } from './emulator/pull-request.ts'
import { fold, oneLine } from './demo/layout.ts'
import { renderRunnerLog } from './demo/runner-log.ts'
import { styleFor, visibleWidth } from './demo/style.ts'
import { renderMarkdown } from './demo/terminal-markdown.ts'
import { readLocalAction, type LocalActionRun } from './local/local-action-log.ts'
import { connectionRefused, loopbackAddress, startEmulatorHint, unexpectedInputs } from './local/dotenv-checks.ts'

const USAGE =
  'usage: npm run local [-- <dotenv file>]   (no file and no .env here: .env.example against a hub emulator)'
const style = styleFor(process.stdout, process.env)
const print = (...lines: string[]): void => console.log(lines.flatMap((line) => fold(line)).join('\n'))

/** One line on stderr and the exit code: what is wrong, with what, and what to do. */
function refuse(message: string, code = 2): never {
  process.stderr.write(`npm run local: ${message}\n`)
  process.exit(code)
}

/** The dotenv file's variables, or one line saying why the file cannot be used. */
function readDotenv(file: string, shown: string): Record<string, string> {
  let text: string
  try {
    if (!statSync(file).isFile())
      refuse(`${shown} is not a file: give a dotenv file made from .env.example (cp .env.example .env).`)
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT')
      refuse(
        `${shown} does not exist: copy .env.example there (cp .env.example ${shown}), or run \`npm run local\` without a file to use the hub emulator.`,
      )
    refuse(`${shown} cannot be read (${code ?? String(error)}): check its permissions.`)
  }
  const variables = parseEnv(text) as Record<string, string>
  if (!Object.keys(variables).some((name) => name.startsWith('INPUT_')))
    refuse(
      `${shown} sets no INPUT_ variable (lines NAME=value, like INPUT_HUB-URL=https://hub.example.com): start from .env.example (cp .env.example .env, then fill it in).`,
    )
  return variables
}

const args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  print(USAGE)
  process.exit(0)
}
if (args.length > 1 || args.some((arg) => arg.startsWith('-')))
  refuse(`unexpected arguments ${args.join(' ')}: ${USAGE}`)

const given = args[0] ?? (existsSync('.env') ? '.env' : undefined)
const fromGiven = given === undefined ? undefined : readDotenv(resolve(given), given)

// Any runner file the dotenv file leaves unset goes to a fresh folder; local-action loads the
// file over this environment, so the file's own values win.
const runnerDir = mkdtempSync(join(tmpdir(), 'hub-action-local-'))
mkdirSync(join(runnerDir, 'runner_temp'))
const runnerFiles = {
  GITHUB_STEP_SUMMARY: join(runnerDir, 'step_summary.md'),
  RUNNER_TEMP: join(runnerDir, 'runner_temp'),
}

let hub: HubEmulator | undefined
let dotenvFile: string
let fromFile: Record<string, string>
if (given !== undefined && fromGiven !== undefined) {
  dotenvFile = resolve(given)
  fromFile = fromGiven
  print(style.dim(`Running src/main.ts under local-action with ${given}.`))
} else {
  hub = await startHubEmulator()
  // .env.example with the emulator's hub values, which differ from the example's in the port only
  const overrides = {
    'INPUT_HUB-URL': hub.url,
    INPUT_TOKEN: hub.token,
    INPUT_ORG: hub.org,
    INPUT_WORKSPACE: hub.workspace,
  }
  dotenvFile = join(runnerDir, 'emulator.env')
  writeFileSync(dotenvFile, dotenvText(overrides))
  fromFile = parseEnv(readFileSync(dotenvFile, 'utf8')) as Record<string, string>
  print(
    style.dim(
      `No .env here: running src/main.ts under local-action with .env.example against a hub emulator at ${hub.url} (cp .env.example .env for your own values).`,
    ),
  )
}

// The runner warns about a `with:` key action.yml does not declare, and the action never sees it: a
// misspelt variable in the file gets the same warning here, where local-action would pass it over.
const declared = Object.keys(
  (parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs,
)
const unexpected = unexpectedInputs(fromFile, declared)
if (unexpected) print(style.warning(`⚠ Warning: ${unexpected}`))

// local-action's own launcher (its bin) wraps any non-zero exit in a stack trace; this starts
// what the launcher starts, with the variables it sets. Its stdout is read as it comes and shown
// as the demo shows a step (scripts/local/local-action-log.ts); stderr passes through.
const child = spawn(
  process.execPath,
  [
    fileURLToPath(import.meta.resolve('tsx/cli')),
    fileURLToPath(import.meta.resolve('@github/local-action')),
    'run',
    ROOT,
    'src/main.ts',
    dotenvFile,
  ],
  {
    cwd: ROOT,
    stdio: ['inherit', 'pipe', 'inherit'],
    env: {
      ...process.env,
      ...runnerFiles,
      TARGET_ACTION_PATH: ROOT,
      NODE_PACKAGE_MANAGER: 'npm',
      NODE_NO_WARNINGS: '1',
      // plain text to read: this script colours what it prints itself
      FORCE_COLOR: '0',
    },
  },
)
// Ctrl-C reaches the child from the terminal too; a plain kill of this script is passed on, so the action can detach or cancel.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal))

let stdout = ''
let logStarted = false
let shownLines = 0
/** The action's log lines not shown yet, as GitHub's log viewer shows them (groups open). */
function showLog(text: string): LocalActionRun {
  const seen = readLocalAction(text)
  if (!seen.ran) return seen
  if (!logStarted) print('', style.heading('The action’s log, as GitHub shows it'), '')
  logStarted = true
  const lines = renderRunnerLog(seen.runnerLog, { style, expand: () => true }).map((line) => `  ${line}`.trimEnd())
  if (lines.length > shownLines) print(...lines.slice(shownLines))
  shownLines = Math.max(shownLines, lines.length)
  return seen
}
// complete lines only: a line still being written is read once it ends
let read = 0
child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
  stdout += chunk
  const complete = stdout.lastIndexOf('\n') + 1
  if (complete > read) showLog(stdout.slice(0, (read = complete)))
})
const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveEnd) =>
  child
    .on('close', (code, signal) => resolveEnd({ code, signal }))
    .on('error', (error) => {
      print(style.error(`npm run local: could not start local-action: ${error.message}`))
      resolveEnd({ code: 1, signal: null })
    }),
)
const run = showLog(stdout)
// local-action stopped before the action ran: what it said is all there is to show
if (!run.ran) print(...run.preamble)
else {
  // the runner's temporary folder as a workflow names it, so that a result file's path fits the line
  const runnerTemp = fromFile.RUNNER_TEMP === undefined ? runnerFiles.RUNNER_TEMP : resolve(ROOT, fromFile.RUNNER_TEMP)
  const outputs = Object.entries(run.outputs).map(([name, value]): [string, string] => [
    name,
    value.split(runnerTemp).join('$RUNNER_TEMP'),
  ])
  const width = Math.max(0, ...outputs.map(([name]) => name.length))
  print(
    '',
    style.heading('Outputs (steps.<id>.outputs.*)'),
    '',
    ...(outputs.length === 0 ? [style.dim('  none')] : []),
    ...outputs.map(([name, value]) =>
      clip(`  ${name.padEnd(width)}  ${value === '' ? style.dim('(empty)') : oneLine(value)}`),
    ),
    ...run.after,
  )
}

const summaryFile =
  fromFile.GITHUB_STEP_SUMMARY === undefined
    ? runnerFiles.GITHUB_STEP_SUMMARY
    : resolve(ROOT, fromFile.GITHUB_STEP_SUMMARY)
const summary = fromFile.GITHUB_STEP_SUMMARY === '' || !existsSync(summaryFile) ? '' : readFileSync(summaryFile, 'utf8')
if (summary.trim())
  print(
    '',
    style.heading(`Job summary (${shown(summaryFile)})`),
    '',
    ...renderMarkdown(summary, { style }).map((line) => `  │ ${line}`.trimEnd()),
  )
else
  print(
    '',
    style.dim(
      fromFile.GITHUB_STEP_SUMMARY === ''
        ? 'No job summary: GITHUB_STEP_SUMMARY is empty in the file.'
        : 'The action wrote no job summary.',
    ),
  )

if (hub) {
  const runs = hub.runs().map((run) => `${run.id} (agent ${run.agent}, ${run.phase})`)
  print(
    '',
    style.dim(
      `The hub emulator served ${hub.requests.length} requests; its runs: ${runs.join(', ') || 'none'}. It is stopped now.`,
    ),
  )
  await hub.close()
}
if (fromFile.RUNNER_TEMP === undefined)
  print(style.dim(`Result files: $RUNNER_TEMP is ${shown(runnerFiles.RUNNER_TEMP)}`))
// The action's error already says to start the emulator; this line adds what only npm run local knows: which
// file names the hub, and that running without a .env starts an emulator of its own.
const hubUrl = fromFile['INPUT_HUB-URL']
const loopback = hub === undefined ? loopbackAddress(hubUrl) : undefined
if (hubUrl && loopback && (await connectionRefused(loopback)))
  print('', style.error(startEmulatorHint(hubUrl, loopback.port, given ?? '.env')))
if (ended.code !== 0) print(style.error(`local-action ended with ${ended.signal ?? `exit code ${ended.code}`}.`))
process.exitCode = ended.code ?? 1

/** A line cut to the terminal's 100 columns, for values that are not prose to fold. */
function clip(line: string): string {
  return visibleWidth(line) <= 100 ? line : `${[...line].slice(0, 98).join('')} …`
}

function shown(path: string): string {
  const local = relative(process.cwd(), path)
  return local.startsWith('..') ? path : local
}
