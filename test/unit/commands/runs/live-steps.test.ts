import { describe, expect, it, vi } from 'vitest'
import { runAgent } from '../../../../src/commands/runs/step.js'
import type { RunEvents } from '../../../../src/commands/runs/loop.js'
import { runVerdict } from '../../../../src/commands/runs/verdict.js'
import type { AgentsClient } from '../../../../src/hub/agents.js'
import { HubNotFoundError } from '../../../../src/hub/errors.js'
import type { AgentObject, CreateRunResponse, RunDetail, AgentStep, WhoAmI } from '../../../../src/hub/schemas.js'
import { detail, settings, T0 } from '../../fixtures/run.js'
import { StepTracker, stepLogLine } from '../../../../src/commands/runs/live-steps.js'
import { renderRunSummary } from '../../../../src/commands/runs/summary.js'

function step(id: string, tool: string, extra: Partial<AgentStep> = {}): AgentStep {
  return { id, tool, outcome: 'ok', ...extra }
}

interface Fake {
  created?: CreateRunResponse[]
  waits?: RunDetail[]
  whoami?: WhoAmI | Error
  agent?: AgentObject
}

function harness(fake: Fake = {}) {
  let clock = T0
  const order: string[] = []
  const creates = [...(fake.created ?? [{ runId: 'r1', phase: 'Pending' }])]
  const waits = [...(fake.waits ?? [])]
  const client = {
    canReadAgents: true,
    whoami: vi.fn(async () => {
      order.push('whoami')
      if (fake.whoami instanceof Error) throw fake.whoami
      return fake.whoami ?? { workspaceUUID: 'ws-1', clusterID: 'c-1' }
    }),
    startRun: vi.fn(async (_start: { idempotencyKey?: string }) => {
      order.push('start')
      const next = creates.shift()
      if (!next) throw new Error('unexpected startRun')
      return next
    }),
    waitRun: vi.fn(async (_id: string, hold: number) => {
      order.push('wait')
      const next = waits.shift()
      if (!next) throw new Error('unexpected waitRun')
      if (!['Succeeded', 'Failed', 'Aborted', 'PendingApproval'].includes(next.phase)) clock += hold * 1000
      return next
    }),
    getRun: vi.fn(),
    cancelRun: vi.fn(async () => 'cancelling' as const),
    getAgent: vi.fn(async () => fake.agent ?? { status: { phase: 'Ready' } }),
  }
  const events = {
    created: vi.fn<RunEvents['created']>(),
    progress: vi.fn<RunEvents['progress']>(),
    awaitingApproval: vi.fn<RunEvents['awaitingApproval']>(),
    info: vi.fn<RunEvents['info']>(),
    steps: vi.fn<NonNullable<RunEvents['steps']>>(),
  }
  const sleep = vi.fn(async (ms: number) => {
    clock += ms
  })
  const deps = {
    client: client as unknown as AgentsClient,
    events,
    clock: { now: () => clock, sleep },
    scope: { org: 'org-1', workspace: 'ws-1' },
  }
  return { client, events, deps, order }
}

describe('live steps', () => {
  it('reports each finished step once, in order, as the waits bring them; a pending approval only once it is decided', async () => {
    const a = step('s1', 'graph_query')
    const b = step('s2', 'kubectl_apply', { outcome: 'pending_approval' })
    const h = harness({
      waits: [
        detail('Running', { steps: [a] }),
        detail('Running', { steps: [a] }),
        detail('Running', { steps: [a, b] }),
        detail('Succeeded', { steps: [a, { ...b, outcome: 'ok' }, step('s3', 'web_fetch')] }),
      ],
    })
    const result = await runAgent(settings(), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    expect(
      h.events.steps.mock.calls.map(([found]) =>
        found.map(({ step: s, number }) => `${number}:${s.tool}:${s.outcome}`),
      ),
    ).toEqual([['1:graph_query:ok'], ['2:kubectl_apply:ok', '3:web_fetch:ok']])
    // Each hold is at most 10 s, so a step stored during one is logged within 10 s.
    expect(h.client.waitRun.mock.calls.every((call) => call[1] <= 10)).toBe(true)
  })

  it('the tracker keys steps without an id by position', () => {
    const tracker = new StepTracker()
    expect(
      tracker.takeUnreported(detail('Running', { steps: [{ tool: 'a', outcome: 'ok' }] })).map((s) => s.number),
    ).toEqual([1])
    expect(
      tracker
        .takeUnreported(
          detail('Running', {
            steps: [
              { tool: 'a', outcome: 'ok' },
              { tool: 'b', outcome: 'error' },
            ],
          }),
        )
        .map((s) => s.number),
    ).toEqual([2])
    expect(tracker.takeUnreported(undefined)).toEqual([])
  })

  it('a step line holds tool, outcome, duration, error and short arguments, on one line', () => {
    const line = stepLogLine({
      step: step('s', 'graph\nquery', { durationMS: 1500, error: 'boom\n::error::x', args: '{"kind": "Pod"}' }),
      number: 4,
    })
    expect(line).toBe('Step 4: graph query ok in 1.5 s — error: boom ::error::x — args {"kind":"Pod"}')
    const long = stepLogLine({ step: step('s', 't', { args: JSON.stringify({ text: 'x'.repeat(500) }) }), number: 1 })
    expect(long).toBe('Step 1: t ok')
  })
})

describe('live-steps: the pacing of the waits', () => {
  /** Ten minutes waited on in holds of `holdSeconds`: the run settles on the wait that covers its end. */
  function tenMinuteRun(holdSeconds: number) {
    const waits = Array.from({ length: Math.ceil(600 / holdSeconds) - 1 }, () =>
      detail('Running', { steps: [step('s1', 'graph_query')] }),
    )
    return harness({
      waits: [...waits, detail('Succeeded', { steps: [step('s1', 'graph_query'), step('s2', 'web_fetch')] })],
    })
  }

  it('on (the default): holds of 10 s, 6 requests a minute, each step logged as the waits bring it', async () => {
    const h = tenMinuteRun(10)
    const result = await runAgent(settings(), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    expect(h.client.waitRun.mock.calls.map((call) => call[1])).toEqual(Array.from({ length: 60 }, () => 10))
    expect(h.events.steps).toHaveBeenCalledTimes(2)
  })

  it('off: holds of 50 s, 12 waits for 10 minutes, no step lines, and the settled answer ends the loop at once', async () => {
    const h = tenMinuteRun(50)
    const result = await runAgent(settings({ liveSteps: false }), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    expect(h.client.waitRun.mock.calls.map((call) => call[1])).toEqual(Array.from({ length: 12 }, () => 50))
    expect(h.events.steps).not.toHaveBeenCalled()
    // The summary still lists every step: the result keeps the last detail.
    expect(result.detail?.steps).toHaveLength(2)
  })

  it('off: the last hold is still cut to what is left of the budget', async () => {
    const h = harness({ waits: [detail('Running'), detail('Running')] })
    const result = await runAgent(
      settings({ liveSteps: false, timeoutSeconds: 70 }),
      h.deps,
      new AbortController().signal,
    )
    expect(result.outcome).toBe('timed-out')
    expect(h.client.waitRun.mock.calls.map((call) => call[1])).toEqual([50, 20])
  })
})

describe('preflight', () => {
  it('an empty workspace in whoami stops before any run is created', async () => {
    const h = harness({ whoami: { workspaceUUID: '' } })
    await expect(runAgent(settings(), h.deps, new AbortController().signal)).rejects.toThrow(
      /personal org.*No run was created/,
    )
    expect(h.client.startRun).not.toHaveBeenCalled()
  })

  it('whoami comes first and costs one request; a hub without it does not stop the run', async () => {
    const h = harness({ waits: [detail('Succeeded')] })
    await runAgent(settings(), h.deps, new AbortController().signal)
    expect(h.order).toEqual(['whoami', 'start', 'wait'])
    const old = harness({
      whoami: new HubNotFoundError({ operation: 'whoami', hint: 'h', status: 404 }),
      waits: [detail('Succeeded')],
    })
    expect((await runAgent(settings(), old.deps, new AbortController().signal)).outcome).toBe('succeeded')
  })

  it("a Suspended agent's reason goes into the Pending diagnosis", async () => {
    const h = harness({
      waits: [detail('Pending')],
      agent: { status: { phase: 'Suspended', suspendedReason: 'budget exhausted' } },
    })
    const result = await runAgent(settings({ pendingTimeoutSeconds: 10 }), h.deps, new AbortController().signal)
    expect(result.pendingDiagnosis).toBe('agent "triage" is Suspended (budget exhausted)')
  })
})

describe('re-runs', () => {
  // The run this step's first attempt started: its task and session are the step's (test/unit/fixtures/run.ts).
  const ours = { input: 'Check the rollout', sessionID: 'gha-session' }
  const failed: CreateRunResponse = {
    runId: 'old',
    phase: 'Failed',
    reused: true,
    run: detail('Failed', { id: 'old', message: 'x', ...ours }),
  }

  it("a re-run attempt whose key returns a failed run starts fresh under the attempt's own key, and says so", async () => {
    const h = harness({ created: [failed, { runId: 'r1', phase: 'Pending' }], waits: [detail('Succeeded')] })
    const result = await runAgent(
      settings({ runAttempt: 2, rerunIdempotencyKey: 'gha-rerun-2' }),
      h.deps,
      new AbortController().signal,
    )
    expect(h.client.startRun.mock.calls.map(([s]) => s.idempotencyKey)).toEqual(['gha-key', 'gha-rerun-2'])
    expect(result.runId).toBe('r1')
    expect(result.idempotencyKey).toBe('gha-rerun-2')
    expect(h.events.info).toHaveBeenCalledWith(
      expect.stringContaining('ended Failed; this is re-run attempt 2, so a fresh run started under key gha-rerun-2'),
    )
    expect(h.events.created).toHaveBeenCalledTimes(1)
  })

  it('attaches on a first attempt, after success, and with an explicit key', async () => {
    for (const [created, extra] of [
      [failed, { runAttempt: 1 }],
      [{ ...failed, phase: 'Succeeded', run: detail('Succeeded', { id: 'old', ...ours }) }, { runAttempt: 3 }],
      [
        { ...failed, phase: 'Running', run: detail('Running', { id: 'old', ...ours }) },
        { runAttempt: 3, timeoutSeconds: 0 },
      ],
      [failed, { runAttempt: 2, idempotencyKeySource: 'explicit' as const }],
    ] as const) {
      const h = harness({ created: [created] })
      const result = await runAgent(settings(extra), h.deps, new AbortController().signal)
      expect(h.client.startRun).toHaveBeenCalledTimes(1)
      expect(result.runId).toBe('old')
    }
  })
})

describe('messages that agree with the outputs', () => {
  it('out of time at the approval gate: settled, and a human must decide', () => {
    const result = {
      agent: 'triage',
      runId: 'r1',
      reused: false,
      phase: 'PendingApproval',
      settled: true,
      outcome: 'timed-out' as const,
      detail: detail('PendingApproval', { pending: { inboxID: 'in-1', tool: 'kubectl_apply' } }),
      waitedMs: 1,
      budget: 'timeout-seconds (60 s)',
      cancel: undefined,
      idempotencyKey: undefined,
      sessionId: 's',
    }
    const verdict = runVerdict(result, settings({ timeoutSeconds: 60 }))
    expect(verdict.status).toBe('fail')
    expect(verdict.message).not.toContain('did not settle')
    expect(verdict.message).not.toContain('Raise timeout-seconds')
    expect(verdict.message).toContain("waiting for a human's approval to call kubectl_apply (inbox item in-1)")
    expect(verdict.message).toContain('A human must approve or deny it on the hub (or with command: approve).')
    expect(runVerdict(result, settings({ onTimeout: 'warn' })).status).toBe('warn')
  })

  it("the summary shows the hub's message once, sources the answer lists not again, and children with their phase", () => {
    const failedResult = {
      agent: 'triage',
      runId: 'r1',
      reused: false,
      phase: 'Failed',
      settled: true,
      outcome: 'failed' as const,
      detail: detail('Failed', {
        message: 'model credential missing',
        children: [
          { id: 'c1', agent: 'helper', phase: 'Succeeded', class: 'delegated' },
          { id: 'c2', agent: 'spawned-one', phase: 'Running' },
          'junk',
        ],
      }),
      waitedMs: 1,
      budget: 'timeout-seconds (60 s)',
      cancel: undefined,
      idempotencyKey: undefined,
      sessionId: 's',
    }
    const markdown = renderRunSummary(failedResult, runVerdict(failedResult, settings()))
    expect(markdown.split('model credential missing')).toHaveLength(2)
    // The heading says Failed and the hub's section says why: no verdict line repeats either.
    expect(markdown).toContain('### Message from the hub')
    expect(markdown).not.toContain('failed: model credential missing')
    expect(markdown).toContain('### Children runs (2)')
    expect(markdown).toMatch(/`c1`.*helper.*Succeeded.*delegated/)
    expect(markdown).toMatch(/`c2`.*spawned-one.*Running/)

    const ok = {
      ...failedResult,
      phase: 'Succeeded',
      outcome: 'succeeded' as const,
      detail: detail('Succeeded', {
        output: 'Answer. Sources: https://a.example/x',
        sources: ['https://a.example/x', 'https://b.example/y'],
      }),
    }
    const summary = renderRunSummary(ok, runVerdict(ok, settings()))
    const sources = summary.slice(summary.indexOf('### Sources'))
    expect(sources).not.toContain('a.example')
    expect(sources).toContain('<https://b.example/y>')
    expect(summary.slice(0, summary.indexOf('### Sources'))).toContain('a.example/x')
  })
})

describe('every detail is compared with what the step sent (issue 34 item 1)', () => {
  it('a run whose start answer had no detail, but whose wait shows another task or session, is refused: nothing is published', async () => {
    for (const other of [{ input: 'Print the token' }, { input: 'Check the rollout', sessionID: 'planted' }]) {
      const h = harness({ waits: [detail('Succeeded', { output: 'PLANTED', ...other })] })
      await expect(runAgent(settings(), h.deps, new AbortController().signal)).rejects.toThrow(
        "which the hub returned for idempotency key gha-key, is not this step's run",
      )
    }
  })

  it("a wait that shows this step's task and session, or neither, goes on", async () => {
    for (const same of [{}, { input: '  Check the rollout ', sessionID: 'gha-session' }]) {
      const h = harness({ waits: [detail('Succeeded', same)] })
      const result = await runAgent(settings(), h.deps, new AbortController().signal)
      expect(result.outcome).toBe('succeeded')
    }
  })
})
