/**
 * End to end, `live-steps: false`: for many jobs waiting on one hub, each wait asks the hub to
 * hold it 50 s instead of 10 s, no step is logged as it comes, and the hold still ends the moment
 * the run settles (the emulator, like the hub, answers a held wait as soon as the run settles).
 * The summary lists the steps either way.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, useHubEmulator } from './fixtures/hub-session.ts'
import { runAction } from './action-process.ts'

const hub = useHubEmulator()

function worker(): void {
  hub.setAgent('worker', {
    steps: [
      { phase: 'Running', afterMs: 50 },
      { phase: 'Succeeded', afterMs: 1_500 },
    ],
    toolSteps: [
      { tool: 'graph_query', outcome: 'ok', durationMS: 40, endsAfterMs: 300 },
      { tool: 'kubectl_get', outcome: 'ok', durationMS: 70, endsAfterMs: 900 },
    ],
    output: 'done',
  })
}

const waits = () => hub.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/wait'))

describe('live-steps', () => {
  it('false: the wait asks for the 50 s hold, is answered when the run settles, and no step is logged', async () => {
    worker()
    const result = await runAction({
      inputs: {
        ...hubInputs(hub),
        agent: 'worker',
        task: 'Look around',
        'idempotency-key': 'none',
        'live-steps': 'false',
      },
    })
    onTestFinished(() => result.cleanup())
    expect(result.code).toBe(0)
    expect(waits().map((wait) => wait.query.timeoutSeconds)).toEqual(['50'])
    expect(hub.runs()[0]?.phase).toBe('Succeeded')
    expect(result.stdout.split('\n').filter((line) => line.startsWith('Step '))).toEqual([])
    expect(result.summary).toContain('graph_query')
    expect(result.summary).toContain('kubectl_get')
  })

  it('true (the default): the same run is waited on in holds of 10 s and its steps are logged', async () => {
    worker()
    const result = await runAction({
      inputs: { ...hubInputs(hub), agent: 'worker', task: 'Look around', 'idempotency-key': 'none' },
    })
    onTestFinished(() => result.cleanup())
    expect(result.code).toBe(0)
    expect(waits().map((wait) => wait.query.timeoutSeconds)).toEqual(['10'])
    expect(
      result.stdout
        .split('\n')
        .filter((line) => line.startsWith('Step '))
        .map((line) => line.split(':')[0]),
    ).toEqual(['Step 1', 'Step 2'])
  })
})
