/**
 * End to end, summaries GitHub would reject: a job summary over 1 MiB is dropped and the
 * step's report lost. dist/index.js as a process against the hub emulator, with an agent
 * answer of escapes, 3,000 steps, 500 KB of approval arguments, and a query whose objects have
 * 60 KB names. Each summary stays under 1 MiB and says where the whole thing is: the result
 * file, whose path is the `result-file` output.
 */
import { expect, it } from 'vitest'
import { describe } from 'vitest'
import { hubInputs, runStep, useHubEmulator, type ActionRun } from './harness.ts'
import { createLargeFleet } from '../../emulator/index.ts'

const MiB = 1024 * 1024

/** 20 ConfigMaps whose names are 60 KB each. */
function fleetWithHugeNames() {
  const fleet = createLargeFleet({ objects: 400 })
  const configMaps = fleet.objects.filter((object) => object.kind === 'ConfigMap').slice(0, 20)
  configMaps.forEach((object, index) => (object.metadata.name = `cm-${index}-${'n'.repeat(60_000)}`))
  fleet.objects = fleet.objects.filter((object) => object.kind !== 'ConfigMap' || configMaps.includes(object))
  fleet.version++
  return fleet
}

const hub = useHubEmulator({ maxHoldMs: 300, fleet: fleetWithHugeNames() })

const STEPS = Array.from({ length: 3_000 }, (_, i) => ({
  tool: `kubectl_get_${i}`,
  outcome: 'error' as const,
  durationMS: 5,
  error: `denied <b>${'x'.repeat(200)}</b>`,
}))

async function act(inputs: Record<string, string>): Promise<ActionRun> {
  return runStep({ inputs: hubInputs(hub, inputs) })
}

function expectFitsAndPoints(result: ActionRun): void {
  const path = result.outputs['result-file'] ?? ''
  expect(path).not.toBe('')
  expect(Object.keys(result.files)).toContain(path)
  expect(Buffer.byteLength(result.summary, 'utf8')).toBeLessThanOrEqual(MiB)
  expect(result.summary).toContain(path)
  expect(result.summary).toContain('`result-file`')
}

describe('job summaries stay under 1 MiB and point at the result file', () => {
  it('a run with a 256 KB answer of escapes and 3,000 steps', async () => {
    hub.setAgent('verbose', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 20 },
      ],
      output: '&'.repeat(256 * 1024),
      toolSteps: STEPS,
    })
    const result = await act({ agent: 'verbose', task: 'report' })
    expect(result.code).toBe(0)
    expectFitsAndPoints(result)
    expect(result.summary).toContain('### Output')
    expect(result.summary).toContain('<details><summary>Steps (3000)</summary>')
    expect(result.summary.trimEnd().endsWith('</details>')).toBe(true)
  })

  it('a run awaiting approval of 500 KB of arguments, after 3,000 steps', async () => {
    hub.setAgent('gated', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
      ],
      approval: { tool: 'kubectl_apply', args: { manifest: '"<y>"'.repeat(100_000) } },
      toolSteps: STEPS,
    })
    const result = await act({ agent: 'gated', task: 'apply', 'on-approval': 'succeed' })
    expect(result.code).toBe(0)
    expectFitsAndPoints(result)
    expect(result.summary).toContain('### Waiting for approval')
  })

  it('a query whose objects have 60 KB names', async () => {
    const result = await act({
      command: 'query',
      query: ['filter:', '  objects:', '    - groupKind: {kind: ConfigMap}', 'limit: 5'].join('\n'),
    })
    expect(result.code).toBe(0)
    expect(result.outputs.count).toBe('20')
    expectFitsAndPoints(result)
    expect(result.summary).toContain('First 20 of 20:')
  })
})
