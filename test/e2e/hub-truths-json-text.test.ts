/**
 * End to end, the run detail as the hub sends it (docs/hub-facts.md, "Agents provider"): `pending.args`,
 * `steps[].args` and `steps[].result` are JSON text inside a string. The summary and the log
 * show them as JSON (parsed, the approval arguments indented), not as one doubly-escaped line,
 * and keep the raw text when it does not parse (the hub may have clipped it).
 */
import { describe, expect, it } from 'vitest'
import { runStep, useHubEmulator, type ActionRun } from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })

async function act(agent: string): Promise<ActionRun> {
  return runStep({
    inputs: {
      'hub-url': hub.url,
      token: hub.token,
      org: hub.org,
      workspace: hub.workspace,
      agent,
      task: 'add a PDB',
      'on-approval': 'fail',
    },
  })
}

describe('JSON text from the hub', () => {
  it('approval arguments and step args/results show parsed, not doubly escaped; unparsable text stays raw', async () => {
    hub.setAgent('gated', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
      ],
      toolSteps: [
        {
          tool: 'graph_query',
          outcome: 'ok',
          durationMS: 5,
          args: { kind: 'Deployment', namespace: 'payments' },
          result: '{"count":3}',
        },
        // Clipped by the hub: not JSON any more, shown as it came.
        {
          tool: 'kubectl_get',
          outcome: 'ok',
          durationMS: 5,
          args: '{"resource":"pods","namesp',
          result: 'plain words',
        },
      ],
      approval: { tool: 'kubectl_apply', args: { file: 'pdb.yaml', replicas: 2 } },
    })
    const result = await act('gated')
    expect(result.code).toBe(1)
    const detail = hub.runDetail(hub.runs()[0]?.id ?? '') as { pending: { args: unknown } }
    expect(typeof detail.pending.args).toBe('string')

    // Approval arguments: indented JSON in the summary and the log, no escaped quotes.
    expect(result.summary).toContain('"file": "pdb.yaml",\n  "replicas": 2')
    expect(result.stdout).toContain('"file": "pdb.yaml",\n  "replicas": 2')
    expect(result.summary).not.toContain('\\"file\\"')
    expect(result.stdout).not.toContain('\\"file\\"')

    // Step calls: compact JSON when it parses, the raw text when it does not.
    expect(result.summary).toContain('{"kind":"Deployment","namespace":"payments"}')
    expect(result.summary).toContain('{"count":3}')
    expect(result.summary).toContain('{"resource":"pods","namesp')
    expect(result.summary).toContain('plain words')
    expect(result.summary).not.toContain('\\"kind\\"')
  })
})
