/**
 * End to end through a third-party harness: `npm run local` (scripts/local.ts) runs the
 * TypeScript sources (src/main.ts's run()) under @github/local-action, which stubs @actions/core,
 * with inputs and runner variables from a dotenv file made from .env.example, against the hub
 * emulator over real HTTP. Outputs reach local-action's own table through the core stubs; the
 * script prints the job summary afterwards. What .env.example says `npm run local` does is
 * checked here: no .env starts an emulator of its own, a .env is used, a missing file is one line.
 * Each run is a child process tree (node → tsx → local-action), in a folder of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { parse as parseYaml } from 'yaml'
import { visibleWidth } from '../../scripts/demo/style.ts'
import { ROOT } from './harness.ts'
import { COMMANDS } from '../../src/commands/index.ts'
import { runLocal, type ScriptRun } from './local-script.ts'
import { startHubEmulator, type HubEmulator } from '../../emulator/index.ts'

const EXAMPLE_TEXT = readFileSync(join(ROOT, '.env.example'), 'utf8')
const EXAMPLE = parseEnv(EXAMPLE_TEXT)
/** local-action runs the sources through tsx: a cold run takes several seconds. */
const TEST_MS = 120_000
const LOG_HEADING = 'The action’s log, as GitHub shows it'
const OUTPUTS_HEADING = 'Outputs (steps.<id>.outputs.*)'

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

/** scripts/local.ts in `cwd`, its temporary files in this test's folder. */
const runScript = (cwd: string, args: string[] = []): Promise<ScriptRun> => runLocal(cwd, args, tmp)

/** A fresh folder of this test's to run the script in. */
function folder(name: string): string {
  const dir = join(tmp, name)
  mkdirSync(dir)
  return dir
}

/** The outputs the script lists after the action's log, one a line (multi-line values shortened). */
function outputsOf(stdout: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const list = stdout.slice(stdout.indexOf(OUTPUTS_HEADING) + OUTPUTS_HEADING.length).split('\n\n')[1] ?? ''
  for (const match of list.matchAll(/^ {2}([a-z-]+) +(.*)$/gm)) outputs[match[1]!] = match[2]!
  return outputs
}

/** What the script printed after the action's log: the outputs, the rendered summary and the closing lines. */
function afterLocalAction(stdout: string): string {
  return stdout.slice(stdout.lastIndexOf(OUTPUTS_HEADING))
}

describe('npm run local (@github/local-action on the sources)', () => {
  it('.env.example gives every input action.yml declares, as the runner names it', () => {
    const declared = Object.keys(
      (parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs,
    )
    const given = Object.keys(EXAMPLE).filter((name) => name.startsWith('INPUT_'))
    expect(given.sort()).toEqual(declared.map((name) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`).sort())
  })

  it('.env.example names every command, above INPUT_COMMAND and in a section of its own', () => {
    const names = Object.keys(COMMANDS)
    const comment = /((?:^#.*\n)+)INPUT_COMMAND=/m.exec(EXAMPLE_TEXT)?.[1] ?? ''
    for (const name of names) {
      expect(comment, `the comment above INPUT_COMMAND names ${name}`).toMatch(new RegExp(`\\b${name}\\b`))
      expect(EXAMPLE_TEXT, `a section for ${name}`).toMatch(new RegExp(`^# ── command: .*\\b${name}\\b`, 'm'))
    }
  })

  it(
    'with no .env: starts a hub emulator, runs .env.example against it, prints the job summary and stops the emulator',
    async () => {
      const run = await runScript(folder('no-env'))
      const log = `${run.stdout}\n${run.stderr}`

      expect(run.code, log).toBe(0)
      expect(run.stdout.replace(/\s+/g, ' ')).toMatch(
        /^No \.env here: running src\/main\.ts under local-action with \.env\.example against a hub emulator at http:\/\/127\.0\.0\.1:\d+/,
      )
      expect(run.stdout).toContain(LOG_HEADING)
      // The run local-action reports is the one the script's emulator served (this test's hub saw nothing).
      const outputs = outputsOf(run.stdout)
      expect(outputs, log).toMatchObject({ phase: 'Succeeded', settled: 'true', reused: 'false' })
      const runId = outputs['run-id']!
      expect(runId).toMatch(/^[0-9a-f-]{36}$/)
      const closing = afterLocalAction(run.stdout)
      expect(closing.replace(/\s+/g, ' ')).toContain(
        `its runs: ${runId} (agent ${EXAMPLE.INPUT_AGENT}, Succeeded). It is stopped now.`,
      )
      expect(hub.runs()).toHaveLength(0)

      // The summary the action wrote, printed for the terminal after local-action's table.
      expect(closing).toMatch(/^Job summary \(.*step_summary\.md\)$/m)
      expect(closing).toContain('│ ✅ Agent run: quick — Succeeded')
      expect(closing).toMatch(new RegExp(`│ ${runId}\\s+Succeeded`))
      expect(closing).toMatch(/^Result files: \$RUNNER_TEMP is .*runner_temp$/m)
      expect(run.stderr.trim()).toBe('')

      // It reads like the demo: the log as GitHub shows it, no banner, no tables of action.yml, no
      // workflow command the runner would have acted on, and every line within 100 columns.
      const lines = run.stdout.split('\n')
      expect(lines.filter((line) => visibleWidth(line) > 100)).toEqual([])
      expect(lines.filter((line) => /^\s*(│ )?::|stop-commands/.test(line))).toEqual([])
      expect(lines.filter((line) => /_{3}|^={10,}$|\(index\)|Action Metadata|Action Debugger/.test(line))).toEqual([])
      expect(run.stdout).toMatch(/^ {2}▾ Waiting up to 30 min for run [0-9a-f-]{36}\n {4}Step 1: graph_query ok/m)
      expect(run.stdout).toMatch(/^ {2}ℹ Notice: Run [0-9a-f-]{36} of agent "quick" succeeded\.$/m)
      expect(closing).toMatch(/^ {2}output +## Answer … \(\d+ lines\)$/m)
    },
    TEST_MS,
  )

  it(
    'with a .env made from .env.example: runs against the hub it names; outputs through the core stubs, the summary where the file says',
    async () => {
      const cwd = folder('with-env')
      const summaryFile = join(tmp, 'summary.md')
      writeFileSync(summaryFile, '')
      writeFileSync(
        join(cwd, '.env'),
        `${EXAMPLE_TEXT}\nINPUT_HUB-URL=${hub.url}\nINPUT_TOKEN=${hub.token}\nINPUT_ORG=${hub.org}\nINPUT_WORKSPACE=${hub.workspace}\nGITHUB_STEP_SUMMARY=${summaryFile}\nRUNNER_TEMP=${tmp}\n`,
      )
      const run = await runScript(cwd)
      const log = `${run.stdout}\n${run.stderr}`

      expect(run.code, log).toBe(0)
      expect(run.stdout).toMatch(/^Running src\/main\.ts under local-action with \.env\./)
      // It went through local-action: the log and the outputs its core stubs caught.
      expect(run.stdout).toContain(LOG_HEADING)
      expect(run.stdout).toContain(OUTPUTS_HEADING)

      expect(hub.runs()).toHaveLength(1)
      const [created] = hub.runs()
      expect(created?.agent).toBe(EXAMPLE.INPUT_AGENT)
      expect(created?.task).toBe(EXAMPLE.INPUT_TASK)
      expect(created?.phase).toBe('Succeeded')
      // The runner variables from the .env reached the action: the key is derived from them.
      expect(created?.idempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)

      // local-action's core stubs caught the outputs: the script lists them (none under the real core).
      const outputs = outputsOf(run.stdout)
      expect(outputs['run-id'], log).toBe(created?.id)
      expect(outputs).toMatchObject({ phase: 'Succeeded', settled: 'true', reused: 'false' })
      expect(outputs['result-file']).toBe(`$RUNNER_TEMP/hub-action/run-${created?.id}.json`)
      const summary = readFileSync(summaryFile, 'utf8')
      expect(summary).toContain('Agent run: quick — Succeeded')
      expect(summary).toContain(created?.id)
      // The file's own summary path won, and that summary is what was printed.
      expect(afterLocalAction(run.stdout)).toContain(`Job summary (${summaryFile})`)
      expect(afterLocalAction(run.stdout)).toContain('│ ✅ Agent run: quick — Succeeded')
      expect(afterLocalAction(run.stdout)).not.toContain('Result files:')

      // The token shows nowhere: not in the log, the outputs or the summary.
      expect(log).not.toContain(hub.token)
      expect(summary).not.toContain(hub.token)
    },
    TEST_MS,
  )

  it(
    'says what the runner and a newcomer would need: a misspelt input gets the runner’s warning, a loopback hub where nothing listens the command that starts the emulator',
    async () => {
      // a port on this machine where nothing listens any more
      const closed = createServer()
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
      const { port } = closed.address() as AddressInfo
      await new Promise((resolve) => closed.close(resolve))
      const cwd = folder('no-emulator')
      writeFileSync(join(cwd, '.env'), `${EXAMPLE_TEXT}\nINPUT_HUB-URL=http://127.0.0.1:${port}\nINPUT_AGNET=quick\n`)
      const run = await runScript(cwd)
      const out = run.stdout.replace(/\n {2}/g, ' ')

      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0)
      // as the runner words it for a `with:` key action.yml does not declare, before the action's log
      expect(out).toMatch(/^⚠ Warning: Unexpected input\(s\) 'agnet', valid inputs are \['command', 'hub-url', /m)
      expect(out.indexOf('Unexpected input(s)')).toBeLessThan(out.indexOf(LOG_HEADING))
      // the action said what it could (the connection was refused); the script adds what to start, last
      expect(out).toContain('ECONNREFUSED')
      expect(out.trimEnd()).toMatch(
        new RegExp(
          `Nothing listens at http://127\\.0\\.0\\.1:${port} \\(INPUT_HUB-URL in \\.env\\): start the hub emulator first, in another terminal, with \`npm run emulator -- --port ${port}\`, then run this again; or run \`npm run local\` where there is no \\.env, which starts one of its own\\.$`,
        ),
      )
    },
    TEST_MS,
  )

  it(
    'a missing or unusable file is one line on stderr naming it and the fix, with no stack trace',
    async () => {
      const cwd = folder('bad-files')
      mkdirSync(join(cwd, 'a-folder'))
      writeFileSync(join(cwd, 'action.yml'), 'inputs:\n  hub-url: {}\n')
      const keptBefore = readdirSync(tmp).filter((name) => name.startsWith('hub-action-local-')).length
      const cases: [string[], RegExp][] = [
        [
          ['missing.env'],
          /^npm run local: missing\.env does not exist: copy \.env\.example there \(cp \.env\.example missing\.env\), or run `npm run local` without a file/,
        ],
        [['a-folder'], /^npm run local: a-folder is not a file: give a dotenv file made from \.env\.example/],
        [['action.yml'], /^npm run local: action\.yml sets no INPUT_ variable \(lines NAME=value/],
        [
          ['one.env', 'two.env'],
          /^npm run local: unexpected arguments one\.env two\.env: usage: npm run local \[-- <dotenv file>\]/,
        ],
      ]
      for (const [args, message] of cases) {
        const run = await runScript(cwd, args)
        expect(run.code, run.stderr).toBe(2)
        expect(run.stderr).toMatch(message)
        expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1)
        expect(run.stdout).toBe('')
      }
      // An unusable .env is refused the same way: it is never passed over for the emulator.
      writeFileSync(join(cwd, '.env'), '# only comments\n')
      const run = await runScript(cwd)
      expect(run.code).toBe(2)
      expect(run.stderr).toMatch(/^npm run local: \.env sets no INPUT_ variable/)
      // Refused before anything was made: no runner folder left behind.
      expect(readdirSync(tmp).filter((name) => name.startsWith('hub-action-local-'))).toHaveLength(keptBefore)
    },
    TEST_MS,
  )
})
