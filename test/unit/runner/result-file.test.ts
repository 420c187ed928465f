import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { RunResult } from '../../../src/steps/run/loop.js'
import { ALL_OUTPUTS, resultDirectory, runOutputs, writeJsonFile } from '../../../src/runner/result-file.js'
import { setSecret } from '../../../src/runner/core.js'

const detail = (): NonNullable<RunResult['detail']> => ({
  id: 'r1',
  phase: 'Succeeded',
  inputTokens: 0,
  outputTokens: 0,
  usdMicros: 0,
  steps: [],
  children: [],
})

function result(extra: Partial<RunResult> = {}): RunResult {
  return {
    agent: 'triage',
    runId: 'r1',
    reused: true,
    phase: 'Succeeded',
    settled: true,
    outcome: 'succeeded',
    detail: {
      id: 'r1',
      phase: 'Succeeded',
      inputTokens: 0,
      outputTokens: 0,
      usdMicros: 0,
      steps: [],
      children: [],
      output: 'the answer',
    },
    waitedMs: 10,
    cancel: undefined,
    idempotencyKey: undefined,
    sessionId: 's',
    ...extra,
  }
}

describe('run outputs', () => {
  it('maps a result to every output as strings', () => {
    expect(runOutputs(result(), '/tmp/x.json')).toEqual({
      'run-id': 'r1',
      phase: 'Succeeded',
      settled: 'true',
      reused: 'true',
      output: 'the answer',
      'approval-id': '',
      'approval-tool': '',
      'approval-args': '',
      'result-file': '/tmp/x.json',
    })
    expect(
      runOutputs(result({ detail: undefined, settled: false, reused: false, phase: 'Pending' }), 'f'),
    ).toMatchObject({
      phase: 'Pending',
      settled: 'false',
      reused: 'false',
      output: '',
    })
  })

  it('at the approval gate, the pending approval: id, tool, and arguments as JSON', () => {
    const gate = (args: unknown) =>
      runOutputs(
        result({
          phase: 'PendingApproval',
          detail: { ...detail(), phase: 'PendingApproval', pending: { inboxID: 'i-1', tool: 'kubectl_apply', args } },
        }),
        'f',
      )
    expect(gate('{"namespace":"prod"}')).toMatchObject({
      'approval-id': 'i-1',
      'approval-tool': 'kubectl_apply',
      'approval-args': '{"namespace":"prod"}',
    })
    // Clipped by the hub, so not JSON: still valid JSON as a string.
    expect(JSON.parse(gate('{"namespace":"pr')['approval-args'])).toBe('{"namespace":"pr')
    expect(gate(undefined)['approval-args']).toBe('{}')
    // Not at the gate (the run went on): nothing to approve.
    expect(
      runOutputs(result({ phase: 'Running', detail: { ...detail(), pending: { inboxID: 'i-1', tool: 't' } } }), 'f')[
        'approval-id'
      ],
    ).toBe('')
  })

  it('the outputs of all commands are exactly the outputs declared in action.yml', () => {
    const action = parse(readFileSync(new URL('../../../action.yml', import.meta.url), 'utf8')) as {
      outputs: Record<string, unknown>
    }
    const declared = Object.keys(action.outputs).sort()
    expect(declared).toEqual([...ALL_OUTPUTS].sort())
    // What the code writes, not only the list it keeps: the run outputs' builder, and every
    // output name the sources pass to setOutput literally.
    const sources = new URL('../../../src/', import.meta.url)
    const literal = readdirSync(sources, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(new URL(file, sources), 'utf8').matchAll(/setOutput\(\s*'([^']+)'/g)].map((m) => m[1]),
      )
    expect(literal.length).toBeGreaterThan(0)
    const written = [...new Set([...Object.keys(runOutputs(result(), 'f')), ...literal])].sort()
    expect(written.filter((name) => !declared.includes(name ?? ''))).toEqual([])
  })

  it('writes the result file as JSON, private, with a safe name', () => {
    const root = mkdtempSync(join(tmpdir(), 'hub-action-unit-'))
    try {
      const directory = resultDirectory(root)
      expect(directory).toBe(join(root, 'hub-action'))
      const path = writeJsonFile(directory, '../run r1.json', { a: 1 })
      expect(path).toBe(join(directory, '.._run_r1.json'))
      expect(readFileSync(path, 'utf8')).toBe('{\n  "a": 1\n}\n')
      expect(statSync(path).mode & 0o777).toBe(0o600)
      // A run id from the hub can be long: the name is cut, and stays distinct.
      const long = (tail: string) => writeJsonFile(directory, `run-${'x'.repeat(5000)}${tail}.json`, {})
      const [first, second] = [long('a'), long('b')]
      expect(first).not.toBe(second)
      for (const file of [first, second])
        expect(file.slice(directory.length + 1)).toMatch(/^run-x+-[0-9a-f]{12}\.json$/)
      expect(first.length - directory.length - 1).toBeLessThanOrEqual(100)
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('redacts a secret holding `"` and `\\` before JSON escapes it, in values and in keys', () => {
    const secret = 'quo"te\\back\\slash-7e1d'
    const original = process.stdout.write.bind(process.stdout)
    process.stdout.write = () => true
    try {
      setSecret(secret)
    } finally {
      process.stdout.write = original
    }
    const root = mkdtempSync(join(tmpdir(), 'hub-action-unit-'))
    try {
      const path = writeJsonFile(root, 'r.json', {
        message: `denied for ${secret}`,
        nested: [{ [secret]: 1, echo: JSON.stringify({ token: secret }) }],
      })
      const text = readFileSync(path, 'utf8')
      expect(text).not.toContain('7e1d')
      expect(JSON.parse(text)).toEqual({ message: 'denied for ***', nested: [{ '***': 1, echo: '{"token":"***"}' }] })
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
