/**
 * End to end, GitHub's size limits: a 2 MB agent answer became a 2 MB `output`, and the runner
 * accepts at most 1 MB per output; a step summary over 1 MiB is refused whole. Every output must
 * fit with a note that says where the whole value is (the result file), and the summary must stay
 * under 1 MiB. dist/index.js runs as a process against the hub emulator, whose agents provider is
 * replaced by one that answers 2 MB (the stock one caps answers at 256 KiB).
 */
import type http from 'node:http'
import { readFileSync, statSync } from 'node:fs'
import { expect, it } from 'vitest'
import { hubInputs, runAction, useHubEmulator } from './harness.ts'
import type { EmulatorRequest } from '../../emulator/index.ts'
import { readWorkflowCommands } from '../oracles/workflow-commands.ts'

const OUTPUT_LIMIT = 1_000_000
const SUMMARY_LIMIT = 1024 * 1024
/** 2 MB of answer, multi-byte characters included so a cut can land inside one. */
const ANSWER = Array.from(
  { length: 40_000 },
  (_, i) => `Line ${String(i).padStart(5, '0')}: état du déploiement — ok 😀 ${'x'.repeat(10)}\n`,
).join('')

function bigAnswers(request: EmulatorRequest, res: http.ServerResponse): void {
  const body =
    request.method === 'POST' && request.path.endsWith('/runs')
      ? { runId: 'run-big', phase: 'Running', reused: false }
      : { id: 'run-big', phase: 'Succeeded', output: ANSWER, sources: [], steps: [], children: [] }
  const text = JSON.stringify(body)
  res
    .writeHead(request.method === 'POST' ? 201 : 200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    })
    .end(text)
}

const hub = useHubEmulator({ providers: { agents: bigAnswers } })

it('a 2 MB agent answer: every output fits 1 MB, the cut output says where the whole answer is, the summary stays under 1 MiB', async () => {
  expect(Buffer.byteLength(ANSWER, 'utf8')).toBeGreaterThan(2_000_000)
  const result = await runAction({
    inputs: { ...hubInputs(hub), agent: 'quick', task: 'Write the report' },
    killAfterMs: 45_000,
  })
  try {
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    for (const [name, value] of Object.entries(result.outputs))
      expect(Buffer.byteLength(value, 'utf8'), `output ${name}`).toBeLessThanOrEqual(OUTPUT_LIMIT)

    const path = result.outputs['result-file'] ?? ''
    const output = result.outputs.output ?? ''
    const note = output.slice(output.lastIndexOf('\n\n[hub-action:'))
    expect(note).toContain('cut to')
    expect(note).toContain(path)
    // What is kept is the answer's beginning, cut on a character boundary.
    expect(ANSWER.startsWith(output.slice(0, output.length - note.length))).toBe(true)
    expect(Buffer.byteLength(output.slice(0, output.length - note.length), 'utf8')).toBeGreaterThan(990_000)
    // The whole answer is where the note says.
    expect((JSON.parse(readFileSync(path, 'utf8')) as { run: { output: string } }).run.output).toBe(ANSWER)
    // The log says so too, as a warning annotation.
    const warnings = readWorkflowCommands(result.stdout).commands.filter((c) => c.name === 'warning')
    expect(warnings.some((w) => w.data.includes('Output `output`') && w.data.includes(path))).toBe(true)

    const summaryPath = Object.keys(result.files).find((file) => file.endsWith('step_summary')) ?? ''
    expect(statSync(summaryPath).size).toBeLessThanOrEqual(SUMMARY_LIMIT)
  } finally {
    result.cleanup()
  }
})
