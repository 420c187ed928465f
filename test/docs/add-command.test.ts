/**
 * Adding a command is a file or folder, one row, a docs section and a rebuild (CONTRIBUTING.md,
 * "Adding a command"). This adds a throwaway `status` command — a row added to a copy of the
 * table, with one input of its own, one the families share, and two outputs — regenerates the
 * surface in a copy of the generated files, and checks that action.yml, docs/reference.md and
 * .env.example gain what it declares, that the settings reader takes `command: status`, and that
 * every list the other tests hold the surface to follows without an edit.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { parse } from 'yaml'
import { envName, FILES, outputSetters, surface, surfaceInputs } from '../../scripts/surface.ts'
import { command, resultFile } from '../../src/commands/command.ts'
import { COMMANDS } from '../../src/commands/index.ts'
import { TIMING_INPUTS, type InputDeclarations } from '../../src/settings/fields.ts'
import { InputError, readSettings } from '../../src/settings/settings.ts'
import * as z from '../../src/zod.ts'

const ROOT = join(import.meta.dirname, '..', '..')

/** The throwaway command: its inputs file, and its row. */
const STATUS_INPUTS = {
  'status-depth': { description: 'For `status`, how many of the run’s last steps to show (1 to 9).', default: '3' },
  'timeout-seconds': TIMING_INPUTS['timeout-seconds'],
} as const satisfies InputDeclarations

const status = command('status', {
  summary: 'show where the run `run-id` is',
  inputs: STATUS_INPUTS,
  schema: z.object({
    'status-depth': z.string().check(z.regex(/^[1-9]$/, { error: 'is not 1 to 9: how many steps to show.' })),
    'timeout-seconds': z.string(),
  }),
  build: (data) => ({ status: { depth: Number(data['status-depth']) } }),
  outputs: {
    'found-count': { description: 'For `status`, the steps shown.' },
    'result-file': resultFile('hub-action/status-result', 1),
  },
  budgetSeconds: () => undefined,
  load: () => Promise.reject(new Error('the throwaway command does not run')),
})

const TABLE = { ...COMMANDS, status }

let root: string
let before: Record<string, string>
let after: Record<string, string>

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'add-command-'))
  mkdirSync(join(root, 'docs'))
  for (const path of Object.values(FILES)) copyFileSync(join(ROOT, path), join(root, path))
  before = Object.fromEntries(Object.values(FILES).map((path) => [path, readFileSync(join(root, path), 'utf8')]))
  // the rebuild: `npm run docs` with the row added
  for (const [path, [, generated]] of Object.entries(surface(TABLE, root))) writeFileSync(join(root, path), generated)
  after = Object.fromEntries(Object.values(FILES).map((path) => [path, readFileSync(join(root, path), 'utf8')]))
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

type ActionYaml = {
  name: string
  description: string
  runs: unknown
  inputs: Record<string, { description: string; required: boolean; default: string }>
  outputs: Record<string, { description: string }>
}

describe('adding a command: one row, then `npm run docs`', () => {
  it('the rebuild makes every generated file fresh again (a second rebuild changes nothing)', () => {
    for (const [path, [current, generated]] of Object.entries(surface(TABLE, root)))
      expect(generated, path).toBe(current)
    // and the files as committed are stale for the new table: the freshness test would fail without the rebuild
    for (const path of Object.values(FILES)) expect(after[path], path).not.toBe(before[path])
  })

  it('action.yml gains its input, its outputs and its name in `command`, and nothing else changes', () => {
    const old = parse(before['action.yml'] ?? '') as ActionYaml
    const now = parse(after['action.yml'] ?? '') as ActionYaml
    expect(now.inputs['status-depth']).toEqual({
      description: STATUS_INPUTS['status-depth'].description,
      required: false,
      default: '3',
    })
    expect(now.outputs['found-count']).toEqual({ description: 'For `status`, the steps shown.' })
    expect(now.inputs.command?.description).toMatch(/ or `status` \(show where the run `run-id` is\)\.$/)
    expect(now.outputs['result-file']?.description).toContain('`hub-action/status-result` version 1 (`status`)')
    // the hand-written head and `runs:` as they were; every other input and output as it was
    expect([now.name, now.description, now.runs]).toEqual([old.name, old.description, old.runs])
    const others = (record: Record<string, unknown>, skip: string[]) =>
      Object.fromEntries(Object.entries(record).filter(([name]) => !skip.includes(name)))
    expect(others(now.inputs, ['command', 'status-depth'])).toEqual(others(old.inputs, ['command']))
    expect(others(now.outputs, ['result-file', 'found-count'])).toEqual(others(old.outputs, ['result-file']))
  })

  it('docs/reference.md lists them, with the commands that read and set them', () => {
    const reference = after['docs/reference.md'] ?? ''
    expect(reference).toContain(
      `| \`status-depth\` | no | \`3\` | \`status\` | ${STATUS_INPUTS['status-depth'].description} |`,
    )
    expect(reference).toContain('| `found-count` | `status` | For `status`, the steps shown. |')
    expect(reference).toMatch(/^\| `timeout-seconds` \| no \| `1800` \| [^|]*`rollout`, `status` \|/m)
  })

  it('.env.example lists the command and gains a section with its input, at its default', () => {
    const example = after['.env.example'] ?? ''
    expect(example).toMatch(/^# {3}status {3}show where the run `run-id` is$/m)
    expect(example).toMatch(/^# ── command: status ─+\n\n(#.*\n)+INPUT_STATUS-DEPTH=3$/m)
  })

  it('the lists the other tests hold the surface to follow without an edit', () => {
    const action = parse(after['action.yml'] ?? '') as ActionYaml
    const example = after['.env.example'] ?? ''
    // test/e2e/local-action.test.ts: .env.example sets every input action.yml declares…
    const given = [...example.matchAll(/^(INPUT_[A-Z0-9_-]+)=/gm)].map((match) => match[1])
    expect(given.sort()).toEqual(Object.keys(action.inputs).map(envName).sort())
    // …and names every command above INPUT_COMMAND and in a section of its own
    const comment = /((?:^#.*\n)+)INPUT_COMMAND=/m.exec(example)?.[1] ?? ''
    for (const name of Object.keys(TABLE)) {
      expect(comment).toMatch(new RegExp(`\\b${name}\\b`))
      expect(example).toMatch(new RegExp(`^# ── command: .*\\b${name}\\b`, 'm'))
    }
    // test/docs/reference.test.ts: the reference names every input and output
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)])
      expect(after['docs/reference.md']).toContain(`| \`${name}\` |`)
    // test/unit/commands/table.test.ts: the row's outputs are among those the action declares
    expect([...outputSetters(TABLE).keys()].sort()).toEqual(Object.keys(action.outputs).sort())
    expect(surfaceInputs(TABLE).map(({ name }) => name)).toEqual(Object.keys(action.inputs))
  })
})

describe('the settings reader, handed the table with the row', () => {
  const HUB = {
    'INPUT_HUB-URL': 'https://hub.example.com',
    INPUT_TOKEN: 'hubtok_Zq8xVv3Kp0',
    INPUT_ORG: '11111111-2222-3333-4444-555555555555',
    INPUT_WORKSPACE: '66666666-7777-8888-9999-000000000000',
  }
  let stdout: string[]
  beforeEach(() => {
    stdout = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout.push(String(chunk))
      return true
    })
  })
  afterEach(() => vi.restoreAllMocks())

  it('accepts `command: status`, its input at its default or as given', () => {
    const read = (env: NodeJS.ProcessEnv) => readSettings({ ...HUB, INPUT_COMMAND: 'status', ...env }, TABLE)
    expect(read({})).toMatchObject({ command: 'status', status: { depth: 3 } })
    expect(read({ 'INPUT_STATUS-DEPTH': '7' })).toMatchObject({ command: 'status', status: { depth: 7 } })
    expect(() => read({ 'INPUT_STATUS-DEPTH': '12' })).toThrow(InputError)
  })

  it('names it among the commands, and says it reads its input when another command is given it', () => {
    expect(() => readSettings({ ...HUB, INPUT_COMMAND: 'stats' }, TABLE)).toThrow(
      /approve, impact, query, rollout, status/,
    )
    readSettings({ ...HUB, INPUT_COMMAND: 'wait', 'INPUT_RUN-ID': 'r-1', 'INPUT_STATUS-DEPTH': '7' }, TABLE)
    expect(stdout.join('')).toContain(
      'Input `status-depth` is set but `command: wait` does not read it; it is read by `status`.',
    )
  })
})

describe("CONTRIBUTING.md's recipe", () => {
  const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8')
  const recipe = /^## Adding a command\n([\s\S]*?)^## /m.exec(contributing)?.[1] ?? ''

  it('says it is a file or folder, one row, a docs section and a rebuild, and names this test', () => {
    expect(recipe).toContain('A command is a file or folder, one row, a docs section and a rebuild.')
    for (const step of ['A file or folder.', 'One row', 'A docs section', 'A rebuild'])
      expect(recipe).toContain(`**${step}**`)
    expect(recipe).toContain('`npm run docs`')
    expect(recipe).toContain('test/docs/add-command.test.ts')
  })

  it('names only files and folders that exist, but the example command’s own', () => {
    const paths = [...recipe.matchAll(/`((?:src|scripts|test|docs)\/[\w./-]*)`/g)]
      .map((match) => match[1] ?? '')
      .filter((path) => !/\bscan\b/.test(path))
    expect(paths.length).toBeGreaterThan(2)
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([])
  })
})
