/**
 * End to end, approval arguments that hide their tail behind whitespace (issue 34 item 7): the
 * reviewer of a pending approval sees `kubectl get pods`, and the call goes on past hundreds of
 * spaces (or Unicode spaces, or line breaks) to `&& kubectl delete ns prod`. Wherever the action
 * shows the arguments of a call awaiting approval (the log and the job summary of `run`, the log
 * of `approve`), a long run of blanks is marked `␠×N` and the tail stays on the same line, in
 * sight. The `approval-args` output stays as the agent sent it, for scripts.
 */
import { describe, expect, it } from 'vitest'
import { hubInputs, runStep, useHubEmulator, type ActionRun } from './harness.ts'
import { readWorkflowCommands, shownLog } from '../oracles/workflow-commands.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })
const HIDDEN = '&& kubectl delete ns prod'

const gated = (command: string) => ({
  steps: [
    { phase: 'Running' as const, afterMs: 0 },
    { phase: 'PendingApproval' as const, afterMs: 20 },
  ],
  approval: { tool: 'kubectl', args: { command } },
})

/** The lines of `text` that show the start of the call: each must show its tail too, with no long blank run. */
function callLines(text: string): string[] {
  return text.split('\n').filter((line) => line.includes('kubectl get pods'))
}

function expectTailInSight(text: string, where: string, blanks: number): void {
  const lines = callLines(text)
  expect(lines.length, `${where} shows the call`).toBeGreaterThan(0)
  for (const line of lines) {
    expect(line, where).toContain(`kubectl get pods␠×${blanks}${HIDDEN}`)
    expect(/\s{4,}/u.test(line.trim()), `${where}: no long blank run left`).toBe(false)
  }
}

async function gate(command: string): Promise<ActionRun> {
  hub.setAgent('gated', gated(command))
  const result = await runStep({
    inputs: { ...hubInputs(hub), agent: 'gated', task: 'list pods', 'on-approval': 'succeed' },
  })
  expect(result.code).toBe(0)
  return result
}

describe('arguments awaiting approval', () => {
  it('300 spaces before the tail: marked ␠×300 in the log and the job summary, the tail in sight', async () => {
    const command = `kubectl get pods${' '.repeat(300)}${HIDDEN}`
    const result = await gate(command)
    expectTailInSight(shownLog(readWorkflowCommands(result.stdout)), 'log', 300)
    expectTailInSight(result.summary, 'job summary', 300)
    expect(JSON.parse(result.outputs['approval-args'] ?? '{}')).toEqual({ command })
  })

  it('Unicode spaces (no-break, ideographic, em) count as blanks too', async () => {
    const result = await gate(`kubectl get pods${'\u00a0\u3000\u2003'.repeat(100)}${HIDDEN}`)
    expectTailInSight(result.summary, 'job summary', 300)
    expectTailInSight(shownLog(readWorkflowCommands(result.stdout)), 'log', 300)
  })

  it('in the log of `approve`, which shows the call it resolves', async () => {
    const first = await gate(`kubectl get pods${' '.repeat(300)}${HIDDEN}`)
    const approve = await runStep({
      inputs: {
        ...hubInputs(hub),
        command: 'approve',
        'run-id': first.outputs['run-id'] ?? '',
        'approval-id': first.outputs['approval-id'] ?? '',
        'timeout-seconds': '0',
      },
    })
    expectTailInSight(shownLog(readWorkflowCommands(approve.stdout)), 'approve log', 300)
  })
})
