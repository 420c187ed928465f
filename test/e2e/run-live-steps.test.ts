/**
 * End to end, live steps: while the action waits, each step the agent finishes shows in the log
 * as the hub stores it (the emulator stores each step as its tool call ends), once, in order,
 * inside the wait's group; children runs are listed in the summary with their phase.
 * The emulator caps holds at 1 s so a short run has waits that expire while it works.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, useHubEmulator } from './fixtures/hub-session.ts'
import { runAction } from './action-process.ts'

const hub = useHubEmulator({ maxHoldMs: 1_000 })

describe('live steps', () => {
  it('logs each finished step once, in order, inside the group, while the run is still going', async () => {
    hub.setAgent('worker', {
      steps: [
        { phase: 'Running', afterMs: 50 },
        { phase: 'Succeeded', afterMs: 5_000 },
      ],
      toolSteps: [
        { tool: 'graph_query', outcome: 'ok', durationMS: 40, endsAfterMs: 300, args: { kind: 'Deployment' } },
        {
          tool: 'kubectl_get',
          outcome: 'error',
          durationMS: 70,
          endsAfterMs: 1_300,
          error: 'forbidden\n::error::forged',
        },
        { tool: 'web_fetch', outcome: 'ok', durationMS: 90, endsAfterMs: 4_600, args: { url: 'x'.repeat(400) } },
      ],
      children: [
        { id: 'child-1', agent: 'helper', phase: 'Succeeded', class: 'delegated' },
        { id: 'child-2', agent: 'scout', phase: 'Running', class: 'spawned' },
      ],
      output: 'done',
    })
    // The run's phase at the moment each step line reached the log.
    const phaseWhenLogged: string[] = []
    let seen = ''
    const result = await runAction({
      inputs: { ...hubInputs(hub), agent: 'worker', task: 'Look around', 'idempotency-key': 'none' },
      onStdout: (chunk) => {
        seen += chunk
        const count = seen.split('\n').filter((line) => line.startsWith('Step ')).length
        while (phaseWhenLogged.length < count) phaseWhenLogged.push(hub.runs()[0]?.phase ?? 'none')
      },
    })
    onTestFinished(() => result.cleanup())
    expect(result.code).toBe(0)

    const lines = result.stdout.split('\n')
    const stepLines = lines.filter((line) => line.startsWith('Step '))
    expect(stepLines).toEqual([
      'Step 1: graph_query ok in 40 ms — args {"kind":"Deployment"}',
      // The error's line break is folded, so it cannot start a workflow command.
      'Step 2: kubectl_get error in 70 ms — error: forbidden ::error::forged',
      // Long arguments are left to the summary and the result file.
      'Step 3: web_fetch ok in 90 ms',
    ])
    // Live: the first two were logged before the run ended.
    expect(phaseWhenLogged.slice(0, 2)).toEqual(['Running', 'Running'])
    const groupStart = lines.findIndex((line) => line.startsWith('::group::Waiting'))
    const groupEnd = lines.indexOf('::endgroup::')
    const first = lines.indexOf(stepLines[0] ?? '')
    const last = lines.indexOf(stepLines[2] ?? '')
    expect(groupStart).toBeGreaterThanOrEqual(0)
    expect(groupStart < first && last < groupEnd).toBe(true)

    expect(result.summary).toContain('### Children runs (2)')
    expect(result.summary).toMatch(/`child-1` \| helper \| Succeeded \| delegated/)
    expect(result.summary).toMatch(/`child-2` \| scout \| Running \| spawned/)
  })

  it('a run that settles before any wait still logs its steps, each once', async () => {
    const result = await runAction({
      inputs: { ...hubInputs(hub), agent: 'quick', task: 'Quick one', 'idempotency-key': 'none' },
    })
    onTestFinished(() => result.cleanup())
    expect(result.code).toBe(0)
    const steps = result.stdout.split('\n').filter((line) => line.startsWith('Step '))
    expect(steps.map((line) => line.split(':')[0])).toEqual(['Step 1', 'Step 2', 'Step 3'])
  })
})
