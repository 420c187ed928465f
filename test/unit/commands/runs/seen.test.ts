// A run shown as read, without a wait (commands/runs/seen.ts): the summary and the outputs need
// only RunSeen, so a command that shows a run (a future `status`) does not fake a wait.
import { describe, expect, it } from 'vitest'
import type { RunDetail } from '../../../../src/hub/schemas.js'
import { detail as runDetail } from '../../fixtures/run.js'
import type { RunSeen } from '../../../../src/commands/runs/seen.js'
import { renderRunSummary } from '../../../../src/commands/runs/summary.js'
import { runOutputs } from '../../../../src/commands/runs/publish.js'

const detail = (extra: Partial<RunDetail> = {}): RunDetail => runDetail('Running', { id: 'r-9', ...extra })

function seen(extra: Partial<RunSeen> = {}): RunSeen {
  return {
    agent: 'triage',
    runId: 'r-9',
    reused: false,
    phase: 'Running',
    settled: false,
    detail: detail(),
    idempotencyKey: undefined,
    sessionId: 's',
    ...extra,
  }
}

describe('a run shown without waiting for it', () => {
  it('has no "Waited" fact, since nothing waited', () => {
    const markdown = renderRunSummary(seen(), { status: 'pass', message: 'Run r-9 of agent "triage" is Running.' })
    expect(markdown).toContain('| Run |')
    expect(markdown).not.toContain('Waited')
    expect(markdown).toContain('Run r-9 of agent "triage" is Running.')
  })

  it('an ended run read as it stands: the hub message of a failure in its own section, a success verdict not repeated', () => {
    const failed = renderRunSummary(
      seen({
        phase: 'Failed',
        settled: true,
        detail: detail({ phase: 'Failed', message: 'model credential missing' }),
      }),
      { status: 'fail', message: 'Run r-9 of agent "triage" failed: model credential missing' },
    )
    expect(failed).toContain('### Message from the hub')
    expect(failed.match(/model credential missing/g)).toHaveLength(1)
    const succeeded = renderRunSummary(
      seen({ phase: 'Succeeded', settled: true, detail: detail({ phase: 'Succeeded', output: 'done' }) }),
      { status: 'pass', message: 'Run r-9 of agent "triage" succeeded.' },
    )
    expect(succeeded).not.toContain('succeeded.')
  })

  it('sets every output from what was read', () => {
    const outputs = runOutputs(seen({ detail: detail({ output: 'so far' }) }), '/tmp/r.json')
    expect(outputs).toMatchObject({ 'run-id': 'r-9', phase: 'Running', settled: 'false', output: 'so far' })
  })
})
