import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { outputSetters } from '../../../scripts/surface.ts'
import type { RunResult } from '../../../src/commands/runs/loop.js'
import { runOutputs } from '../../../src/commands/runs/publish.js'
import { commandCode } from '../../../src/commands/index.js'
import { COMMANDS, type CommandName, type SettingsFor } from '../../../src/commands/index.js'

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
    budget: 'timeout-seconds (600 s)',
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
      'output-markdown': '',
      'approval-id': '',
      'approval-tool': '',
      'approval-args': '',
      'structured-output': '',
      'cost-usd': '0',
      'input-tokens': '0',
      'output-tokens': '0',
      'result-file': '/tmp/x.json',
    })
    expect(
      runOutputs(result({ detail: undefined, settled: false, reused: false, phase: 'Pending' }), 'f'),
    ).toMatchObject({
      phase: 'Pending',
      settled: 'false',
      reused: 'false',
      output: '',
      // No detail read: no cost to report, rather than a made-up zero.
      'cost-usd': '',
      'input-tokens': '',
      'output-tokens': '',
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

  it('every output the code writes is one a row declares (action.yml is written from the rows)', () => {
    const declared = [...outputSetters(COMMANDS).keys()]
    // What the code writes, not only what the rows declare: the run outputs' builder, and every
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
})

describe('the command table', () => {
  it('has a row for every command the settings know, whose step and plan load', async () => {
    for (const command of Object.keys(COMMANDS) as CommandName[]) {
      const code = await commandCode({ command } as SettingsFor<typeof command>)
      expect([command, typeof code.step, typeof code.plan]).toEqual([command, 'function', 'function'])
    }
  })
})
