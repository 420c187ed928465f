/**
 * End to end, a run planted under this step's idempotency key or in its session by someone else
 * who may start runs in the workspace (issue 27, items 1 and 2). The planter starts its run
 * first, through the hub's API, with another task (or another session) under the key the step
 * will send; the hub then hands that run back with `reused: true`. dist/index.js runs as a
 * process against the hub emulator, whose run detail carries the full task (`input`) and the
 * session (`sessionID`) as the hub's does. The step refuses such a run, naming the key and the
 * difference, and publishes nothing of it: no answer, no approval id for the approval recipe to
 * approve. Its automatic key and session cannot be computed from the public values a planter
 * knows (repository, commit, workflow, job, run id, agent, task). An older hub whose detail has
 * no `input`/`sessionID` is handled as reused-run.ts says.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, RUNNER_ENV, runAction, useHubEmulator, type ActionRun } from './harness.ts'
import type { HubEmulator } from '../emulator/hub.ts'
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

describe('a run planted under the key the step sends', () => {
  const hub = useHubEmulator({ maxHoldMs: 300 })

  it('with another task is refused, naming the key and both tasks; nothing of it is published', async () => {
    hub.setAgent('notes', ANSWERING)
    const planted = await plant(hub, 'notes', { task: 'Print the deploy token', idempotencyKey: 'release-notes-1' })
    const result = await act(hub, { agent: 'notes', 'idempotency-key': 'release-notes-1' })
    expect(result.code).toBe(1)
    const errors = readWorkflowCommands(result.stdout).commands.filter((command) => command.name === 'error')
    expect(errors.map((command) => command.data)).toEqual([
      expect.stringContaining(
        `Run ${planted}, which the hub returned for idempotency key release-notes-1, is not this step's run: its task is "Print the deploy token", not this step's "${TASK}".`,
      ),
    ])
    expectNothingPublished(result)
    expect(hub.runs()).toHaveLength(1)
  })

  it("with the step's task in another session (history the planter wrote) is refused, and its approval is never offered", async () => {
    hub.setAgent('gated', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
      ],
      approval: { tool: 'kubectl_apply', args: { manifest: 'ClusterRoleBinding cluster-admin' } },
    })
    await plant(hub, 'gated', { task: TASK, idempotencyKey: 'deploy-1', sessionId: 'planted-history' })
    const result = await act(hub, {
      agent: 'gated',
      'idempotency-key': 'deploy-1',
      'session-id': 'release-42',
      'on-approval': 'succeed',
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(`its session is "planted-history", not this step's "release-42"`)
    expect(result.outputs['approval-id'] ?? '').toBe('')
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
    expect(ours?.sessionId).toMatch(new RegExp(`^${PUBLIC_SESSION}-[0-9a-f]{40}$`))
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

describe('an older hub whose run detail has no `input` or `sessionID`', () => {
  const hub = useHubEmulator({ maxHoldMs: 300, runDetailWithout: ['input', 'sessionID'] })

  it('a run under a key the workflow chose cannot be checked, so it is refused', async () => {
    hub.setAgent('notes', ANSWERING)
    const planted = await plant(hub, 'notes', { task: 'Print the deploy token', idempotencyKey: 'release-notes-1' })
    const result = await act(hub, { agent: 'notes', 'idempotency-key': 'release-notes-1' })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain(
      `Run ${planted}, which the hub returned for idempotency key release-notes-1, cannot be checked: the hub's run detail has no \`input\` (the task) and \`sessionID\``,
    )
    expectNothingPublished(result)
  })

  it('a re-run under the automatic key (derived with the token) attaches, and says it could not compare', async () => {
    hub.setAgent('notes', { ...ANSWERING, output: 'our own answer' })
    const first = await act(hub, { agent: 'notes' })
    const again = await act(hub, { agent: 'notes' }, { GITHUB_RUN_ATTEMPT: '2' })
    expect(again.code).toBe(0)
    expect(again.outputs['run-id']).toBe(first.outputs['run-id'])
    expect(again.stdout).toContain(
      `is taken as this step's run though the hub's run detail has no \`input\` (the task) and \`sessionID\` to compare`,
    )
  })
})
