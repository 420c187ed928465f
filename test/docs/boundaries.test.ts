/**
 * The boundaries `npm run lint` enforces (eslint.boundaries.js): the rule is run on small sources
 * placed at real paths, so a family importing another, a package loaded outside its one folder, or a
 * test reaching into the emulator is an error there and in CI; the last test checks that the real
 * config applies the rule to those paths.
 */
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'
import { boundariesConfig } from '../../eslint.boundaries.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const eslint = new ESLint({
  cwd: root,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, boundariesConfig],
})

async function crossings(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${root}${path}` })
  return (result?.messages ?? []).map((message) => message.message)
}

describe('folder boundaries', () => {
  it('a command family importing another is an error that says where shared code goes', async () => {
    expect(await crossings('src/commands/query/x.ts', "import { groupOf } from '../rollout/live-object.js'\n")).toEqual(
      [
        'src/commands/query may not import src/commands/rollout: a command family never imports another: move what two families share below the commands (src/sources/, src/model/, src/settings/).',
      ],
    )
    expect(
      await crossings('src/commands/runs/x.ts', "import type { Plan } from '../dry-run/dry-run.js'\n"),
    ).toHaveLength(1)
    expect(await crossings('src/commands/rollout/x.ts', "export { a } from '../impact/model.js'\n")).toHaveLength(1)
    expect(await crossings('src/commands/rollout/x.ts', "const m = await import('../impact/index.js')\n")).toHaveLength(
      1,
    )
  })

  it('type-only imports count: the runner side may not name a step’s types', async () => {
    expect(await crossings('src/runner/x.ts', "import type { RunResult } from '../commands/runs/loop.js'\n")).toEqual([
      'src/runner may not import src/commands/runs: only main.ts and the command table (src/commands/index.ts) load the commands.',
    ])
  })

  it('the layers below: settings load no step, GitHub and the hub share only the HTTP layer, which knows neither', async () => {
    expect(await crossings('src/settings/x.ts', "import '../commands/impact/inputs.js'\n")).toHaveLength(1)
    expect(await crossings('src/github/x.ts', "import { send } from '../hub/http.js'\n")).toHaveLength(1)
    expect(await crossings('src/http/x.ts', "import { HubError } from '../hub/errors.js'\n")).toHaveLength(1)
    expect(await crossings('src/hub/mcp/x.ts', "import '../../github/client.js'\n")).toHaveLength(1)
  })

  it('what is allowed stays quiet: a command’s own files, the layers below it, and main.ts loading a step', async () => {
    expect(await crossings('src/commands/impact/x.ts', "import './model.js'\nimport '../../hub/graph.js'\n")).toEqual(
      [],
    )
    expect(await crossings('src/main.ts', "const s = await import('./commands/runs/index.js')\n")).toEqual([])
    expect(await crossings('src/hub/mcp/x.ts', "import '../errors.js'\nimport '../../http/retry.js'\n")).toEqual([])
    expect(await crossings('src/commands/query/x.ts', "import type { Plan } from '../command.js'\n")).toEqual([])
  })

  it('a command may use what a row declares (commands/command.ts) but not the table itself', async () => {
    expect(await crossings('src/commands/query/x.ts', "import { COMMANDS } from '../index.js'\n")).toHaveLength(1)
    expect(await crossings('src/runner/x.ts', "import type { Plan } from '../commands/command.js'\n")).toHaveLength(1)
  })

  it('@actions/core is imported inside src/runner/ alone, so that nothing bypasses redaction', async () => {
    const why =
      'the runner side alone talks to @actions/core, so that nothing reaches the log, an output or the summary without redaction: use src/runner/workflow.ts.'
    expect(await crossings('src/commands/runs/x.ts', "import { info } from '@actions/core'\n")).toEqual([
      `src/commands/runs may not import @actions/core: ${why}`,
    ])
    expect(await crossings('src/settings/x.ts', "import type { InputOptions } from '@actions/core'\n")).toHaveLength(1)
    expect(await crossings('src/hub/x.ts', "const core = await import('@actions/core/lib/summary.js')\n")).toEqual([
      `src/hub may not import @actions/core: ${why}`,
    ])
    expect(await crossings('src/main.ts', "export { setFailed } from '@actions/core'\n")).toHaveLength(1)
    expect(await crossings('src/runner/x.ts', "import * as core from '@actions/core'\n")).toEqual([])
  })

  it('undici is imported inside src/http/ alone; the clients take its Dispatcher type from http/wire.ts', async () => {
    expect(await crossings('src/hub/x.ts', "import type { Dispatcher } from 'undici'\n")).toEqual([
      'src/hub may not import undici: the HTTP layer alone loads undici: use what src/http/wire.ts exports (dispatchers, sending, the Dispatcher type).',
    ])
    expect(await crossings('src/github/x.ts', "import { request } from 'undici'\n")).toHaveLength(1)
    expect(await crossings('src/github/x.ts', "type D = typeof import('undici')\n")).toHaveLength(1)
    expect(await crossings('src/http/x.ts', "import { EnvHttpProxyAgent } from 'undici'\n")).toEqual([])
    expect(await crossings('src/hub/x.ts', "import type { Dispatcher } from '../http/wire.js'\n")).toEqual([])
    // Tests mock HTTP with undici's MockAgent: the package rule is the action's, not theirs.
    expect(await crossings('test/unit/hub/x.test.ts', "import { MockAgent } from 'undici'\n")).toEqual([])
  })

  it('test/, bench/ and scripts/ use the emulator through its entry only', async () => {
    const why =
      'test/, bench/ and scripts/ use the emulator through its entry (emulator/index.ts): export what you need there rather than reaching into its files.'
    expect(await crossings('test/e2e/x.test.ts', "import { startHubEmulator } from '../../emulator/hub.ts'\n")).toEqual(
      [`test may not import emulator: ${why}`],
    )
    expect(await crossings('test/unit/hub/mcp/x.test.ts', "import '../../../../emulator/graph/mcp.ts'\n")).toHaveLength(
      1,
    )
    expect(await crossings('bench/x.ts', "import type { Fleet } from '../emulator/graph/fleet.ts'\n")).toHaveLength(1)
    expect(await crossings('scripts/x.ts', "const e = await import('../emulator/github.ts')\n")).toHaveLength(1)
    expect(
      await crossings('test/e2e/x.test.ts', "import { startHubEmulator } from '../../emulator/index.ts'\n"),
    ).toEqual([])
    expect(await crossings('scripts/x.ts', "import { createDemoFleet } from '../emulator/index.ts'\n")).toEqual([])
  })

  it('the emulator stands alone, and the action never loads it', async () => {
    expect(await crossings('emulator/graph/x.ts', "import { HubError } from '../../src/hub/errors.ts'\n")).toEqual([
      'emulator may not import src/hub: the emulator stands alone (its own files and packages only): it models the hub and GitHub from docs/hub-facts.md, and borrowing the action’s code or a test’s would make it agree with the action by construction.',
    ])
    expect(await crossings('emulator/x.ts', "import { ROOT } from '../test/e2e/action-process.ts'\n")).toHaveLength(1)
    expect(
      await crossings('emulator/x.ts', "import { PULL_REQUEST } from '../scripts/demo/fixtures.ts'\n"),
    ).toHaveLength(1)
    expect(await crossings('emulator/graph/x.ts', "import '../hub.ts'\nimport './fleet.ts'\n")).toEqual([])
    expect(await crossings('emulator/index.ts', "export { startHubEmulator } from './hub.ts'\n")).toEqual([])
    expect(await crossings('src/hub/x.ts', "import { createFleet } from '../../emulator/index.ts'\n")).toEqual([
      'src/hub may not import emulator/index: src/ is the action and imports nothing beside it: the emulator, the tests, the benchmarks and the scripts depend on it, never the reverse.',
    ])
    expect(await crossings('src/main.ts', "import '../test/e2e/harness.ts'\n")).toHaveLength(1)
  })

  it('npm run lint applies the rule to every folder it governs', async () => {
    const lint = new ESLint({ cwd: root })
    for (const path of [
      'src/commands/runs/step.ts',
      'emulator/hub.ts',
      'emulator/graph/fleet.ts',
      'test/e2e/run-basics.test.ts',
      'bench/rollout.ts',
      'scripts/demo.ts',
    ]) {
      const config = (await lint.calculateConfigForFile(`${root}${path}`)) as { rules?: Record<string, unknown> }
      expect(config.rules?.['house/boundaries'], path).toEqual([2])
    }
  })
})
