/**
 * An input set to something other than its default that the step's command does not read gets
 * one warning naming it and the commands that do read it (issue 27): a typo'd `command` or a
 * misplaced input is otherwise silently ignored. The runner passes every input that has a
 * default in action.yml, so values equal to those defaults are not reported.
 */
import { readFileSync } from 'node:fs'
import { afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest'
import { parse } from 'yaml'
import { readSettings } from '../../../src/settings/settings.js'
import { COMMANDS } from '../../../src/commands/index.js'
import { loadStructuredParser } from '../../../src/settings/structured.js'

const COMMON = {
  'hub-url': 'https://hub.example.com',
  token: 'hubtok_Zq8xVv3Kp0',
  org: '11111111-2222-3333-4444-555555555555',
  workspace: '66666666-7777-8888-9999-000000000000',
}
const GITHUB: NodeJS.ProcessEnv = {
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_SHA: 'a'.repeat(40),
  GITHUB_RUN_ID: '1001',
  GITHUB_RUN_ATTEMPT: '1',
}

/** What the runner passes besides the step's `with:`: every action.yml default, the workflow token for github-token. */
const RUNNER_DEFAULTS = Object.fromEntries(
  Object.entries(
    (
      parse(readFileSync(new URL('../../../action.yml', import.meta.url), 'utf8')) as {
        inputs: Record<string, { default?: string }>
      }
    ).inputs,
  )
    .filter(([, input]) => input.default !== undefined)
    .map(([name, input]) => [
      name,
      name === 'github-token' ? 'ghs_workflowToken000000000000000000000' : String(input.default),
    ]),
)

let stdout: string[]
beforeAll(() => loadStructuredParser())
beforeEach(() => {
  stdout = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk))
    return true
  })
})
afterEach(() => vi.restoreAllMocks())

function warningsFor(inputs: Record<string, string>): string[] {
  const variables = Object.entries({ ...RUNNER_DEFAULTS, ...COMMON, ...inputs }).map(([name, value]) => [
    `INPUT_${name.toUpperCase()}`,
    value,
  ])
  readSettings({ ...GITHUB, ...Object.fromEntries(variables) }, COMMANDS)
  return stdout
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('::warning::'))
}

it('warns once per input the command does not read, naming the commands that do', () => {
  expect(
    warningsFor({ command: 'query', query: 'root: objects', agent: 'triage', task: 'Check web', 'max-depth': '7' }),
  ).toEqual([
    "::warning::Input `agent` is set but `command: query` does not read it; it is read by `run`. Remove it, or check the step's command.",
    "::warning::Input `task` is set but `command: query` does not read it; it is read by `run`. Remove it, or check the step's command.",
    "::warning::Input `max-depth` is set but `command: query` does not read it; it is read by `impact`. Remove it, or check the step's command.",
  ])
})

it('names every command that reads it', () => {
  expect(
    warningsFor({ command: 'cancel', 'run-id': '3b1f0c4e-1111-4222-8333-444455556666', 'timeout-seconds': '60' }),
  ).toEqual([
    expect.stringMatching(
      /^::warning::Input `timeout-seconds` is set but `command: cancel` does not read it; it is read by `run`, `wait`, `approve`[,.]/,
    ),
  ])
})

it('says nothing for the defaults the runner passes for every input, the workflow token included', () => {
  expect(warningsFor({ agent: 'triage', task: 'Check web' })).toEqual([])
  expect(warningsFor({ command: 'query', query: 'root: objects' })).toEqual([])
})

it('says nothing for inputs every command reads, nor for an input set to its default', () => {
  expect(
    warningsFor({
      command: 'query',
      query: 'root: objects',
      'cluster-id': 'edge-7',
      'dry-run': 'true',
      'max-depth': '5',
      comment: 'update',
    }),
  ).toEqual([])
})
