/**
 * End to end, a run planted under this step's idempotency key or in its session by someone else
 * who may start runs in the workspace (issue 27, items 1 and 2; issue 34 item 1). The planter
 * starts its run first, through the hub's API, under the key it expects the step to send: the
 * workflow's own key as written (`${{ github.run_id }}`, public), or what it computes from public
 * values for `auto`. The key the hub sees is derived with the token in both cases, so the planted
 * run is never handed back: the step starts its own and publishes only its own answer, even on a
 * hub whose run detail has no `sessionID` to compare (often the case). A run the hub does hand
 * back under the step's key with another task or session (another step with the token) is
 * refused, naming the key and the difference, sessions by fingerprint only.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import { fingerprintOf, hubInputs, RUNNER_ENV, runAction, useHubEmulator, type ActionRun } from './harness.ts'
import type { HubEmulator } from '../../emulator/index.ts'
import { readWorkflowCommands, shownLog } from '../oracles/workflow-commands.ts'

const TASK = 'Summarise the failing checks of this commit'
const PLANTED = 'PLANTED ANSWER: approve everything'

/** A run started by someone else with the hub's own API (a member token is enough). */
async function plant(
  hub: HubEmulator,
  agent: string,
  body: { task: string; idempotencyKey?: string; sessionId?: string },
): Promise<string> {
  const answer = await fetch(`${hub.url}/services/providers/agents/api/agents/${agent}/runs`, {
    method: 'POST',
    headers: hub.headers({ 'content-type': 'application/json' }),
    body: JSON.stringify(body),
  })
  expect(answer.status).toBe(202)
  return ((await answer.json()) as { runId: string }).runId
}

/** What a planter computes from public values: the key and session the action derived before this change. */
function publicKey(agent: string, task: string): string {
  const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
  const env = RUNNER_ENV
  const material = [
    'hub-action/v1',
    env.GITHUB_REPOSITORY,
    env.GITHUB_SHA,
    env.GITHUB_WORKFLOW,
    env.GITHUB_JOB,
    agent,
    sha256(task),
  ].join('\n')
  return `gha-${sha256(material).slice(0, 40)}`
}
const PUBLIC_SESSION =
  `gha-${RUNNER_ENV.GITHUB_REPOSITORY}-${RUNNER_ENV.GITHUB_RUN_ID}-${RUNNER_ENV.GITHUB_JOB}`.replace(
    /[^A-Za-z0-9._-]/g,
    '-',
  )
/** The workflow's own key, as examples/service-account.yml wrote it: public in every run's URL. */
const RUN_ID_KEY = String(RUNNER_ENV.GITHUB_RUN_ID)

async function act(
  hub: HubEmulator,
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<ActionRun> {
  const result = await runAction({ inputs: { ...hubInputs(hub), task: TASK, ...inputs }, env })
  onTestFinished(() => result.cleanup())
  return result
}

function expectNoPlantedAnswer(result: ActionRun): void {
  const places = [
    shownLog(readWorkflowCommands(result.stdout)),
    result.summary,
    ...Object.values(result.outputs),
    ...Object.values(result.files),
  ]
  expect(places.filter((text) => text.includes('PLANTED ANSWER'))).toEqual([])
}

/** Nothing of the planted run is published: no answer anywhere, no outputs a later job could act on. */
function expectNothingPublished(result: ActionRun): void {
  expectNoPlantedAnswer(result)
  expect(result.outputs['approval-id'] ?? '').toBe('')
  expect(result.outputs.output ?? '').toBe('')
}

const ANSWERING = {
  steps: [
    { phase: 'Running' as const, afterMs: 0 },
    { phase: 'Succeeded' as const, afterMs: 20 },
  ],
  output: PLANTED,
}

describe('a run planted under the key the step is given', () => {
  const hub = useHubEmulator({ maxHoldMs: 300 })

  it("under the workflow's own key as written, with another task: never handed back; the step runs its own", async () => {
    hub.setAgent('notes', ANSWERING)
    const planted = await plant(hub, 'notes', { task: 'Print the deploy token', idempotencyKey: 'release-notes-1' })
    hub.setAgent('notes', { ...ANSWERING, output: 'our own answer' })
    const result = await act(hub, { agent: 'notes', 'idempotency-key': 'release-notes-1' })
    expect(result.code).toBe(0)
    expect(result.outputs.reused).toBe('false')
    expect(result.outputs['run-id']).not.toBe(planted)
    expect(result.outputs.output).toBe('our own answer')
    expect(hub.run(result.outputs['run-id'] ?? '')?.idempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)
    expectNoPlantedAnswer(result)
  })

  it('another step with the token under the same key and another session is refused, naming sessions by fingerprint only', async () => {
    hub.setAgent('gated', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
      ],
      approval: { tool: 'kubectl_apply', args: { manifest: 'ClusterRoleBinding cluster-admin' } },
    })
    const first = await act(hub, {
      agent: 'gated',
      'idempotency-key': 'deploy-1',
      'session-id': 'other-history',
      'timeout-seconds': '0',
    })
    expect(first.code).toBe(0)
    const result = await act(hub, {
      agent: 'gated',
      'idempotency-key': 'deploy-1',
      'session-id': 'release-42',
      'on-approval': 'succeed',
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      `which the hub returned for idempotency key deploy-1, is not this step's run: its session (${fingerprintOf('other-history')}) is not this step's (${fingerprintOf('release-42')})`,
    )
    expect(result.stdout).not.toContain('other-history')
    expect(result.outputs['run-id'] ?? '').toBe('')
    expectNothingPublished(result)
  })

  it('under the key and in the session a planter computes from public values: the automatic ones are neither', async () => {
    hub.setAgent('notes', ANSWERING)
    await plant(hub, 'notes', {
      task: 'Print the deploy token',
      idempotencyKey: publicKey('notes', TASK),
      sessionId: PUBLIC_SESSION,
    })
    hub.setAgent('notes', { ...ANSWERING, output: 'our own answer' })
    const result = await act(hub, { agent: 'notes' })
    expect(result.code).toBe(0)
    expect(result.outputs.reused).toBe('false')
    expect(result.outputs.output).toBe('our own answer')
    const ours = hub.run(result.outputs['run-id'] ?? '')
    expect(ours?.idempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(ours?.idempotencyKey).not.toBe(publicKey('notes', TASK))
    expect(ours?.sessionId).toMatch(/^gha-[0-9a-f]{40}$/)
    expectNoPlantedAnswer(result)
  })

  it('a re-run of the job still attaches to its own run: same key, same session, same task', async () => {
    hub.setAgent('notes', { ...ANSWERING, output: 'our own answer' })
    const first = await act(hub, { agent: 'notes' })
    const again = await act(hub, { agent: 'notes' }, { GITHUB_RUN_ATTEMPT: '2' })
    expect(again.code).toBe(0)
    expect(again.outputs.reused).toBe('true')
    expect(again.outputs['run-id']).toBe(first.outputs['run-id'])
    expect(hub.runs()).toHaveLength(1)
  })
})

describe('a hub whose run detail has no `sessionID` (often the case) or no `input`', () => {
  const hub = useHubEmulator({ maxHoldMs: 300, runDetailWithout: ['input', 'sessionID'] })

  it('a run planted with the same task under `idempotency-key: ${{ github.run_id }}` is never taken: its answer and approval are not published', async () => {
    hub.setAgent('gated', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
      ],
      output: PLANTED,
      approval: { tool: 'kubectl_delete', args: { namespace: 'prod' } },
    })
    const planted = await plant(hub, 'gated', { task: TASK, idempotencyKey: RUN_ID_KEY })
    hub.setAgent('gated', { ...ANSWERING, output: 'our own answer' })
    const result = await act(hub, { agent: 'gated', 'idempotency-key': RUN_ID_KEY, 'on-approval': 'succeed' })
    expect(result.code).toBe(0)
    expect(result.outputs['run-id']).not.toBe(planted)
    expect(result.outputs.reused).toBe('false')
    expect(result.outputs['approval-id'] ?? '').toBe('')
    expect(result.outputs.output).toBe('our own answer')
    expectNoPlantedAnswer(result)
  })

  it('a second step with the same key and the token attaches, and says it could not compare', async () => {
    hub.setAgent('notes', { ...ANSWERING, output: 'our own answer' })
    const first = await act(hub, { agent: 'notes', 'idempotency-key': RUN_ID_KEY })
    const again = await act(hub, { agent: 'notes', 'idempotency-key': RUN_ID_KEY }, { GITHUB_RUN_ATTEMPT: '2' })
    expect(again.code).toBe(0)
    expect(again.outputs['run-id']).toBe(first.outputs['run-id'])
    expect(again.stdout).toContain(
      `is taken as this step's run though the hub's run detail has no \`input\` (the task) and \`sessionID\` to compare`,
    )
  })
})
