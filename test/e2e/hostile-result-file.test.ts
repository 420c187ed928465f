/**
 * End to end, redaction in the result file: a token holding `"` and `\` is escaped by JSON, so
 * redacting the encoded text missed it. The hub echoes the token in the agent's answer, in a
 * failed run's message, and inside a JSON document the agent wrote; no form of it may reach the
 * result file, the outputs or the summary. dist/index.js runs as a process against the hub emulator.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runStep, useHubEmulator, type ActionRun } from './harness.ts'

const TOKEN = 'hub"tok\\en-with"quotes\\and-backslashes-5f4e3d2c'
const hub = useHubEmulator({ token: TOKEN, maxHoldMs: 300 })

async function act(agent: string): Promise<ActionRun> {
  return runStep({
    inputs: { 'hub-url': hub.url, token: TOKEN, org: hub.org, workspace: hub.workspace, agent, task: 'Check payments' },
  })
}

/** Every string in a parsed JSON value, keys included. */
function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsIn)
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => [key, ...stringsIn(inner)])
  return []
}

function expectTokenInNoForm(result: ActionRun): void {
  const path = result.outputs['result-file'] ?? ''
  const text = readFileSync(path, 'utf8')
  const escaped = JSON.stringify(TOKEN).slice(1, -1)
  expect(text).not.toContain(escaped)
  expect(text).not.toContain(TOKEN)
  expect(stringsIn(JSON.parse(text)).filter((s) => s.includes(TOKEN) || s.includes(escaped))).toEqual([])
  expect(text).toContain('***')
  const elsewhere = [result.summary, ...Object.values(result.outputs)].join('\n')
  expect(elsewhere).not.toContain(TOKEN)
  expect(elsewhere).not.toContain(escaped)
}

describe('a token with `"` and `\\` echoed by the hub', () => {
  it('is redacted in the result file of a succeeded run (answer and a JSON document in it)', async () => {
    hub.setAgent('leaky', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 20 },
      ],
      output: `I called the API with ${TOKEN}. Request: ${JSON.stringify({ headers: { authorization: `Bearer ${TOKEN}` } })}`,
    })
    const result = await act('leaky')
    expect(result.code).toBe(0)
    expectTokenInNoForm(result)
  })

  it('is redacted in the result file of a failed run', async () => {
    hub.setAgent('leaky', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Failed', afterMs: 20 },
      ],
      message: `provider rejected credential ${TOKEN}`,
    })
    const result = await act('leaky')
    expect(result.code).toBe(1)
    expect(result.outputs.phase).toBe('Failed')
    expectTokenInNoForm(result)
  })
})
