/**
 * End to end, honest agent verdicts and what a run cost (issue 35): dist/index.js as a process
 * against the hub emulator. An empty answer fails unless allowed; `output-schema` checks the
 * answer's last fenced `json` block and asks once more, in the same session, on a miss; the
 * cost and tokens of a run and its child runs are summed into outputs and one summary line.
 */
import { describe, expect, it } from 'vitest'
import { hubInputs, lines, runStep, useHubEmulator, type ActionRun } from './harness.ts'
import type { AgentScript } from '../../emulator/index.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })
const AGENTS = '/services/providers/agents/api'

const act = (extra: Record<string, string>): Promise<ActionRun> => runStep({ inputs: hubInputs(hub, extra) })
const answering = (output: NonNullable<AgentScript['output']>, more: Partial<AgentScript> = {}): AgentScript => ({
  steps: [
    { phase: 'Running', afterMs: 0 },
    { phase: 'Succeeded', afterMs: 20 },
  ],
  output,
  inputTokens: 1_000,
  outputTokens: 100,
  usdMicros: 10_000,
  ...more,
})
const starts = () => hub.requests.filter((r) => r.method === 'POST' && r.path.startsWith(`${AGENTS}/agents/`))

const SCHEMA = `
type: object
properties:
  verdict: { type: string, enum: [pass, fail] }
  findings: { type: array, items: { type: string } }
required: [verdict, findings]
`
const block = (json: string) =>
  `Looked at it.\n\n\`\`\`json\n{"verdict": "maybe"}\n\`\`\`\n\nFinal:\n\n\`\`\`json\n${json}\n\`\`\``

describe('an empty answer', () => {
  it('fails the step, saying the agent produced no answer, and passes with allow-empty-output: true', async () => {
    hub.setAgent('mute', answering('  \n '))
    const result = await act({ agent: 'mute', task: 'Review it' })
    expect(result.code).toBe(1)
    expect(result.outputs.phase).toBe('Succeeded')
    const error = lines(result.stdout, '::error::').join('\n')
    expect(error).toContain('the agent produced no answer')
    expect(error).toContain('allow-empty-output: true')
    expect(result.summary).toContain('## ❌ Agent run: mute — Succeeded')

    // The same run allowed to answer nothing passes.
    hub.setAgent('mute', answering(''))
    const allowed = await act({ agent: 'mute', task: 'Review it', 'allow-empty-output': 'true' })
    expect(allowed.code).toBe(0)
    expect(lines(allowed.stdout, '::error::')).toEqual([])
  })
})

describe('output-schema', () => {
  it('asks for one fenced json block and sets structured-output from the last one', async () => {
    hub.setAgent('judge', answering(block('{ "verdict": "pass", "findings": ["ok"] }')))
    const result = await act({ agent: 'judge', task: 'Review it', 'output-schema': SCHEMA })
    expect(result.code).toBe(0)
    expect(result.outputs['structured-output']).toBe('{"verdict":"pass","findings":["ok"]}')
    expect(hub.runs()).toHaveLength(1)
    const task = hub.runs()[0]!.task
    expect(task.startsWith('Review it\n\n')).toBe(true)
    expect(task).toContain('single fenced `json` block')
    expect(task).toContain('"required":["verdict","findings"]')
    expect(result.summary).toContain('### Structured output')
    expect(result.summary).toContain('"verdict": "pass"')
  })

  it('a miss, then a match: a second start in the first run’s session, under a key of its own', async () => {
    hub.setAgent(
      'judge',
      answering((task) =>
        task.startsWith('Your previous answer')
          ? block('{"verdict":"fail","findings":["no PDB"]}')
          : block('{"verdict":"fail"}'),
      ),
    )
    const result = await act({ agent: 'judge', task: 'Review it', 'output-schema': SCHEMA })
    expect(result.code).toBe(0)
    expect(result.outputs['structured-output']).toBe('{"verdict":"fail","findings":["no PDB"]}')
    const [first, second] = hub.runs()
    expect(hub.runs()).toHaveLength(2)
    expect(starts()).toHaveLength(2)
    expect(second!.sessionId).toBe(first!.sessionId)
    expect(second!.task).toContain('findings')
    expect(second!.idempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(second!.idempotencyKey).not.toBe(first!.idempotencyKey)
    expect(result.outputs['run-id']).toBe(second!.id)
    // Both runs' costs count.
    expect(result.outputs['cost-usd']).toBe('0.02')
    expect(result.outputs['input-tokens']).toBe('2000')
  })

  it('a second workflow run on the commit attaches to both runs instead of starting two more', async () => {
    hub.setAgent(
      'judge',
      answering((task) =>
        task.startsWith('Your previous answer')
          ? block('{"verdict":"pass","findings":[]}')
          : block('{"verdict":"fail"}'),
      ),
    )
    const first = await act({ agent: 'judge', task: 'Review it again', 'output-schema': SCHEMA })
    const again = await act({ agent: 'judge', task: 'Review it again', 'output-schema': SCHEMA })
    expect([first.code, again.code]).toEqual([0, 0])
    expect(hub.runs()).toHaveLength(2)
    expect(again.outputs['run-id']).toBe(first.outputs['run-id'])
    expect(again.outputs.reused).toBe('true')
    expect(again.outputs['structured-output']).toBe('{"verdict":"pass","findings":[]}')
  })

  it('two misses fail the step naming the first error’s field', async () => {
    hub.setAgent('judge', answering(block('{"verdict":"fail","findings":[3]}')))
    const result = await act({ agent: 'judge', task: 'Review it', 'output-schema': SCHEMA })
    expect(result.code).toBe(1)
    expect(hub.runs()).toHaveLength(2)
    expect(result.outputs['structured-output']).toBe('')
    const error = lines(result.stdout, '::error::').join('\n')
    expect(error).toContain('did not give an answer that matches output-schema')
    expect(error).toContain('`/findings/0`')
    expect(result.summary).toContain('The offending block')
    expect(result.outputs['cost-usd']).toBe('0.02')
  })

  it('a schema that is not one is an input error naming the input, and nothing is sent', async () => {
    const result = await act({ agent: 'judge', task: 'Review it', 'output-schema': 'type: strng' })
    expect(result.code).toBe(1)
    expect(lines(result.stdout, '::error::').join('\n')).toContain('Input `output-schema` is not a usable JSON Schema')
    expect(hub.requests).toHaveLength(0)
  })
})

describe('what it cost', () => {
  it('sums the run and its two child runs into cost-usd, input-tokens, output-tokens and one summary line', async () => {
    hub.setAgent(
      'lead',
      answering('Delegated and done.', {
        inputTokens: 1_842,
        outputTokens: 312,
        usdMicros: 4_215,
        childRuns: [
          { agent: 'reader', inputTokens: 1_000, outputTokens: 100, usdMicros: 1_000_000 },
          { agent: 'writer', inputTokens: 158, outputTokens: 88, usdMicros: 785 },
        ],
      }),
    )
    const result = await act({ agent: 'lead', task: 'Delegate it' })
    expect(result.code).toBe(0)
    expect(result.outputs['cost-usd']).toBe('1.005')
    expect(result.outputs['input-tokens']).toBe('3000')
    expect(result.outputs['output-tokens']).toBe('500')
    const line = result.summary.split('\n').find((l) => l.startsWith('Cost '))
    expect(line).toContain('`cost-usd` 1.005')
    expect(line).toContain('tokens in 3,000 / out 500')
    expect(line).toContain('2 child runs')
  })

  it('`wait` reports the same sums for a run it did not start', async () => {
    hub.setAgent(
      'lead',
      answering('Delegated and done.', {
        usdMicros: 500,
        inputTokens: 5,
        outputTokens: 6,
        childRuns: [{ agent: 'reader', inputTokens: 10, outputTokens: 20, usdMicros: 1_500 }],
      }),
    )
    const started = await act({ agent: 'lead', task: 'Delegate it', 'timeout-seconds': '0' })
    expect(started.code).toBe(0)
    const waited = await act({ command: 'wait', 'run-id': started.outputs['run-id'] ?? '' })
    expect(waited.code).toBe(0)
    expect(waited.outputs['cost-usd']).toBe('0.002')
    expect(waited.outputs['input-tokens']).toBe('15')
    expect(waited.outputs['output-tokens']).toBe('26')
  })
})
