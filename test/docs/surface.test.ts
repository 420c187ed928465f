/**
 * action.yml's inputs and outputs, docs/reference.md's tables and .env.example's list of commands
 * are what scripts/surface.ts writes from the command table and the common inputs (`npm run
 * docs`), so none of them is a hand list; and what they say is what the code does.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { envName, surface, surfaceOutputs } from '../../scripts/surface.ts'
import { COMMANDS } from '../../src/commands/index.ts'
import { DRY_RUN_RESULT } from '../../src/commands/command.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  description: string
  inputs: Record<string, { description: string; default?: unknown; required?: boolean }>
  outputs: Record<string, { description: string }>
}

describe('the generated surface', () => {
  it.each(Object.entries(surface()))('%s is what `npm run docs` writes from the command table', (_path, files) => {
    const [current, generated] = files
    expect(current).toBe(generated)
  })

  it('action.yml is valid YAML the runner can load, every default a string', () => {
    for (const [name, input] of Object.entries(action.inputs))
      expect([name, typeof input.default, typeof input.required]).toEqual([name, 'string', 'boolean'])
  })

  it('a reworded declaration makes action.yml and docs/reference.md stale until regenerated', () => {
    const table = {
      ...COMMANDS,
      query: { ...COMMANDS.query, summary: 'a fleet graph query, each page' },
    }
    const stale = Object.entries(surface(table)).filter(([, [current, generated]]) => current !== generated)
    expect(stale.map(([path]) => path).sort()).toEqual(['.env.example', 'action.yml', 'docs/reference.md'])
  })

  it('.env.example sets every input action.yml declares, as the runner names it', () => {
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8')
    for (const name of Object.keys(action.inputs)) expect(example).toMatch(new RegExp(`^${envName(name)}=`, 'm'))
  })
})

describe("action.yml's descriptions", () => {
  it('the action’s own says all it does, within the 125 characters GitHub Marketplace shows', () => {
    expect(action.description.length).toBeLessThanOrEqual(125)
    // one word for each family of commands: runs (and their lifecycle), impact, query, rollout
    for (const word of [/\brun\b/i, /\bcancel\b/, /\bapprove\b/, /\bimpact\b/, /\bquery\b/, /\brollouts?\b/])
      expect(action.description).toMatch(word)
  })

  it('`result-file` names the schema and version each command writes, as its publisher writes it', () => {
    const description = action.outputs['result-file']?.description ?? ''
    const rows = Object.entries(COMMANDS).flatMap(([name, row]) => {
      const result = (row.outputs as Record<string, { result?: { schema: string; version: number } }>)['result-file']
        ?.result
      return result ? [{ name, folder: folderOf(name), ...result }] : []
    })
    expect(rows.map((row) => row.schema)).toContain('hub-action/rollout-result')
    for (const { schema, version, folder } of [
      ...rows,
      { ...(DRY_RUN_RESULT.result as { schema: string; version: number }), folder: 'dry-run' },
    ]) {
      expect(description).toContain(`\`${schema}\` version ${version}`)
      // the publisher in the command's folder heads the file with exactly this
      const written = readdirSync(join(ROOT, 'src/commands', folder)).some((file) =>
        readFileSync(join(ROOT, 'src/commands', folder, file), 'utf8').includes(
          `{ schema: '${schema}', version: ${version} }`,
        ),
      )
      expect(written, `${schema} ${version} in src/commands/${folder}/`).toBe(true)
    }
  })

  it("docs/reference.md's Result files section describes each of those schemas at the version written", () => {
    const reference = readFileSync(join(ROOT, 'docs/reference.md'), 'utf8')
    const section = /^## Result files\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(reference)?.[1] ?? ''
    const described = [...section.matchAll(/^- \*\*`([^`]+)`, version (\d+)\*\*/gm)].map((m) => `${m[1]} ${m[2]}`)
    const written = [
      ...Object.values(COMMANDS).flatMap((row) => {
        const result = (row.outputs as Record<string, { result?: { schema: string; version: number } }>)['result-file']
          ?.result
        return result ? [result] : []
      }),
      DRY_RUN_RESULT.result as { schema: string; version: number },
    ].map((result) => `${result.schema} ${result.version}`)
    expect(described.sort()).toEqual([...new Set(written)].sort())
  })

  it('`not-reporting-count` counts what the gate makes not reporting: cells of an edge not engaged, not absent objects or unsynced kinds', () => {
    const description = action.outputs['not-reporting-count']?.description ?? ''
    expect(description).toMatch(/not engaged/)
    expect(description).not.toMatch(/object absent|kind not synced by the graph\)/)
    expect(description).toMatch(/missing on an engaged edge is in progress/)
  })

  it('an output several commands set is described once (the same declaration)', () => {
    expect(surfaceOutputs(COMMANDS).map((output) => output.name)).toEqual(Object.keys(action.outputs))
  })
})

/** The family folder whose index.ts holds the row of `command`. */
function folderOf(command: string): string {
  const folders = readdirSync(join(ROOT, 'src/commands'), { withFileTypes: true }).filter((entry) =>
    entry.isDirectory(),
  )
  const found = folders.find((folder) => {
    try {
      return readFileSync(join(ROOT, 'src/commands', folder.name, 'index.ts'), 'utf8').includes(`command('${command}',`)
    } catch {
      return false
    }
  })
  return found?.name ?? `(no folder has the row of ${command})`
}
