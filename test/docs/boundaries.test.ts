/**
 * The folder boundaries `npm run lint` enforces (eslint.boundaries.js): the rule is run on small
 * sources placed at real paths, so a step importing another step is an error there and in CI.
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
  it('a command importing another command is an error that says where shared code goes', async () => {
    expect(await crossings('src/commands/query/x.ts', "import { groupOf } from '../rollout/live-object.js'\n")).toEqual(
      [
        'src/commands/query may not import src/commands/rollout: commands never import each other: move what two commands share below the commands (src/sources/, src/model/, src/settings/).',
      ],
    )
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
})
