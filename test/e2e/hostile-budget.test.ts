/**
 * End to end, one time budget for every command (issue 34 item 8, issue 32 item 4): a graph that
 * hangs or drips bytes holds no step past its `timeout-seconds`, whatever the command, and the
 * step says what it waited on. Before, `impact` and `query` had no budget at all, and each graph
 * request had its own 45 s ceiling and retries (one query was held 228 s). dist/index.js as a
 * process against the hub emulator whose graph provider is replaced by a hostile one
 * (emulator/hostile.ts). The harness kills a step still running after 25 s: a step that
 * ended on its own, with the message, ended at its budget.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, runStep, useHubEmulator, type ActionRun } from './harness.ts'
import { drippingGraph, hangingGraph, type Hostility } from '../../emulator/index.ts'

const hub = useHubEmulator()

function hostile(hostility: Hostility): Hostility {
  onTestFinished(() => hostility.restore())
  return hostility
}

const act = (extra: Record<string, string>): Promise<ActionRun> =>
  runStep({ inputs: { ...hubInputs(hub), 'timeout-seconds': '3', ...extra }, killAfterMs: 25_000 })

const errors = (result: ActionRun) => result.stdout.split('\n').filter((line) => line.startsWith('::error::'))

const WEB = '[{kind: Deployment, group: apps, namespace: shop, name: web}]'
const WAITED_ON_GRAPH = 'The graph did not answer within timeout-seconds (3 s)'

describe('a graph that hangs', () => {
  it('ends `rollout` at timeout-seconds, saying the graph did not answer', async () => {
    hostile(hangingGraph(hub))
    const result = await act({ command: 'rollout', targets: WEB })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    expect(errors(result).join('\n')).toContain(WAITED_ON_GRAPH)
  })

  it('ends `impact` at timeout-seconds, saying the graph did not answer', async () => {
    hostile(hangingGraph(hub))
    const result = await act({ command: 'impact', targets: WEB })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    expect(errors(result).join('\n')).toContain(WAITED_ON_GRAPH)
  })

  it('ends `query` at timeout-seconds, saying the graph did not answer', async () => {
    hostile(hangingGraph(hub))
    const result = await act({ command: 'query', query: '{"filter":{"objects":[{"name":"web"}]}}' })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    expect(errors(result).join('\n')).toContain(WAITED_ON_GRAPH)
  })
})

describe('a graph that drips bytes', () => {
  it('ends `query` at timeout-seconds: the drip is cut, not read for minutes', async () => {
    hostile(drippingGraph(hub))
    const result = await act({ command: 'query', query: '{"filter":{"objects":[{"name":"web"}]}}' })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    expect(errors(result).join('\n')).toContain(WAITED_ON_GRAPH)
  })

  it('ends `impact` at timeout-seconds too', async () => {
    hostile(drippingGraph(hub))
    const result = await act({ command: 'impact', targets: WEB })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    expect(errors(result).join('\n')).toContain(WAITED_ON_GRAPH)
  })
})

describe('timeout-seconds for impact and query', () => {
  it('is read by both, and a bad value is one input error naming it, before any request', async () => {
    for (const command of ['impact', 'query'] as const) {
      const extra = command === 'impact' ? { targets: WEB } : { query: '{"filter":{"objects":[{"name":"web"}]}}' }
      const result = await act({ command, ...extra, 'timeout-seconds': 'soon' })
      expect(result.code).toBe(1)
      expect(errors(result).join('\n')).toContain('timeout-seconds')
      expect(errors(result).join('\n')).toContain('"soon"')
    }
    expect(hub.requests).toEqual([])
  })
})
