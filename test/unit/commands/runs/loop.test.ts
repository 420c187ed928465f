import { describe, expect, it, vi } from 'vitest'
import { runAgent } from '../../../../src/commands/runs/step.js'
import type { RunEvents, RunResult } from '../../../../src/commands/runs/loop.js'
import type { RunOutcome } from '../../../../src/commands/runs/seen.js'
import { runVerdict } from '../../../../src/commands/runs/verdict.js'
import type { AgentsClient } from '../../../../src/hub/agents.js'
import { HubDeadlineError, HubNotFoundError, HubServerError } from '../../../../src/hub/errors.js'
import type { AgentObject, CreateRunResponse, RunDetail } from '../../../../src/hub/schemas.js'
import { detail, settings, T0 } from '../../fixtures/run.js'

type WaitAnswer = RunDetail | ((hold: number, signal: AbortSignal) => RunDetail | Promise<RunDetail>)

interface FakeOptions {
  created?: CreateRunResponse
  waits?: WaitAnswer[]
  /** Does the hub hold the wait for the whole hold when the run does not settle? */
  holds?: boolean
  agent?: AgentObject | Error
  canReadAgents?: boolean
  cancel?: 'cancelling' | 'not-cancelling' | 'already-settled' | Error
  /** What each read after a cancel answers (default: Aborted at once). */
  afterCancel?: string[]
  /** The hold while running (default 10 s: the live-steps delay). */
  stepsWithinSeconds?: number
}

function harness(options: FakeOptions = {}) {
  let clock = T0
  const now = () => clock
  const waits = [...(options.waits ?? [])]
  const afterCancel = [...(options.afterCancel ?? ['Aborted'])]
  const startRun = vi.fn(async () => options.created ?? { runId: 'r1', phase: 'Pending' })
  const waitRun = vi.fn(async (runId: string, hold: number, signal?: AbortSignal, _deadline?: number) => {
    expect(runId).toBe('r1')
    const next = waits.shift()
    if (!next) throw new Error('unexpected waitRun call')
    const answer = typeof next === 'function' ? await next(hold, signal ?? new AbortController().signal) : next
    const settled = ['succeeded', 'failed', 'aborted', 'pendingapproval'].includes(answer.phase.toLowerCase())
    if (options.holds !== false && !settled) clock += hold * 1000
    return answer
  })
  const cancelRun = vi.fn(async (_runId: string, _timeoutMs?: number) => {
    if (options.cancel instanceof Error) throw options.cancel
    return options.cancel ?? 'cancelling'
  })
  const getAgent = vi.fn(async (_agent: string): Promise<AgentObject> => {
    if (options.agent instanceof Error) throw options.agent
    return options.agent ?? { status: { phase: 'Ready' } }
  })
  const client = {
    startRun,
    waitRun,
    cancelRun,
    getAgent,
    getRun: vi.fn(async (): Promise<RunDetail> =>
      detail(afterCancel.length > 1 ? (afterCancel.shift() as string) : (afterCancel[0] ?? 'Aborted')),
    ),
    canReadAgents: options.canReadAgents ?? true,
  }
  const sleep = vi.fn(async (ms: number, _signal?: AbortSignal) => {
    clock += ms
  })
  const events = {
    created: vi.fn<RunEvents['created']>(),
    progress: vi.fn<RunEvents['progress']>(),
    awaitingApproval: vi.fn<RunEvents['awaitingApproval']>(),
    info: vi.fn<RunEvents['info']>(),
  }
  const advance = (ms: number) => {
    clock += ms
  }
  return {
    client,
    events,
    sleep,
    advance,
    deps: {
      client: client as unknown as AgentsClient,
      events,
      clock: { now, sleep },
      ...(options.stepsWithinSeconds !== undefined ? { stepsWithinSeconds: options.stepsWithinSeconds } : {}),
    },
  }
}

describe('runAgent: waiting until the run settles', () => {
  it('succeeds after several waits, holding at most 10 s each so finished steps show within 10 s', async () => {
    const h = harness({ waits: [detail('Running'), detail('Running'), detail('Succeeded', { output: 'done' })] })
    const result = await runAgent(settings(), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    expect(result.phase).toBe('Succeeded')
    expect(result.settled).toBe(true)
    expect(result.runId).toBe('r1')
    expect(result.reused).toBe(false)
    expect(result.detail?.output).toBe('done')
    expect(result.cancel).toBeUndefined()
    expect(result.idempotencyKey).toBe('gha-key')
    expect(result.sessionId).toBe('gha-session')
    expect(h.client.waitRun.mock.calls.map((call) => call[1])).toEqual([10, 10, 10])
    expect(result.waitedMs).toBe(20_000)
    expect(h.sleep).not.toHaveBeenCalled()
    expect(h.events.created).toHaveBeenCalledTimes(1)
    expect(h.client.startRun).toHaveBeenCalledWith(
      expect.objectContaining({
        agent: 'triage',
        task: 'Check the rollout',
        sessionId: 'gha-session',
        idempotencyKey: 'gha-key',
      }),
    )
  })

  it('a reused run that is already terminal makes no wait call', async () => {
    const h = harness({
      created: { runId: 'r1', phase: 'Succeeded', reused: true, run: detail('Succeeded', { output: 'earlier' }) },
    })
    const result = await runAgent(settings(), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    expect(result.reused).toBe(true)
    expect(result.detail?.output).toBe('earlier')
    expect(h.client.waitRun).not.toHaveBeenCalled()
  })

  it('the detail phase wins over the constant phase of the create answer', async () => {
    const h = harness({
      created: { runId: 'r1', phase: 'Running', reused: true, run: detail('Failed', { message: 'x' }) },
    })
    const result = await runAgent(settings(), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('failed')
    expect(h.client.waitRun).not.toHaveBeenCalled()
  })

  it('understands lowercase phases and reports the canonical spelling', async () => {
    const h = harness({ created: { runId: 'r1', phase: 'pending' }, waits: [detail('running'), detail('succeeded')] })
    const result = await runAgent(settings(), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    expect(result.phase).toBe('Succeeded')
    expect(h.client.waitRun).toHaveBeenCalledTimes(2)
  })

  it.each([
    ['Failed', 'failed'],
    ['failed', 'failed'],
    ['Aborted', 'aborted'],
    ['ABORTED', 'aborted'],
  ])('phase %s ends with outcome %s', async (phase, outcome) => {
    const h = harness({ waits: [detail('Running'), detail(phase, { message: 'why' })] })
    const result = await runAgent(settings(), h.deps, new AbortController().signal)
    expect(result.outcome).toBe(outcome)
    expect(result.settled).toBe(true)
    expect(result.detail?.message).toBe('why')
  })

  it('an error from the hub that is not an abort propagates', async () => {
    const failure = new HubServerError({ operation: 'wait for run r1', hint: 'h', status: 500 })
    const h = harness({
      waits: [
        () => {
          throw failure
        },
      ],
    })
    await expect(runAgent(settings(), h.deps, new AbortController().signal)).rejects.toBe(failure)
  })
})

describe('runAgent: approval gate', () => {
  const pending = { inboxID: 'in-1', tool: 'kubectl_apply', args: { file: 'x.yaml' } }

  it('on-approval wait sleeps with growing backoff between waits (no busy loop)', async () => {
    const gate = detail('PendingApproval', { pending })
    const h = harness({ waits: [gate, gate, gate, gate, gate, detail('Running'), detail('Succeeded')] })
    const result = await runAgent(settings(), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    expect(h.sleep.mock.calls.map((call) => call[0])).toEqual([2_000, 4_000, 8_000, 10_000, 10_000])
    expect(h.client.waitRun).toHaveBeenCalledTimes(7)
    // announced once per approval request, not once per poll
    expect(h.events.awaitingApproval).toHaveBeenCalledTimes(1)
    expect(h.events.awaitingApproval.mock.calls[0]?.[0].pending?.tool).toBe('kubectl_apply')
  })

  it('the backoff starts again after the run leaves the gate', async () => {
    const h = harness({
      waits: [
        detail('PendingApproval', { pending }),
        detail('PendingApproval', { pending }),
        detail('Running'),
        detail('PendingApproval', { pending: { ...pending, inboxID: 'in-2' } }),
        detail('Succeeded'),
      ],
    })
    await runAgent(settings(), h.deps, new AbortController().signal)
    expect(h.sleep.mock.calls.map((call) => call[0])).toEqual([2_000, 4_000, 2_000])
    expect(h.events.awaitingApproval).toHaveBeenCalledTimes(2)
  })

  it('the approval pause never runs past the deadline', async () => {
    const gate = detail('PendingApproval', { pending })
    const h = harness({ waits: [gate, gate, gate] })
    const result = await runAgent(settings({ timeoutSeconds: 5 }), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('timed-out')
    expect(result.phase).toBe('PendingApproval')
    expect(h.sleep.mock.calls.map((call) => call[0])).toEqual([2_000, 3_000])
  })

  it.each(['fail', 'succeed'] as const)('on-approval %s stops at once with awaiting-approval', async (onApproval) => {
    const h = harness({ waits: [detail('PendingApproval', { pending })] })
    const result = await runAgent(settings({ onApproval }), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('awaiting-approval')
    expect(result.phase).toBe('PendingApproval')
    expect(result.settled).toBe(true)
    expect(h.client.waitRun).toHaveBeenCalledTimes(1)
    expect(h.sleep).not.toHaveBeenCalled()
    expect(h.events.awaitingApproval).toHaveBeenCalledTimes(1)
    expect(runVerdict(result, settings({ onApproval })).status).toBe(onApproval === 'fail' ? 'fail' : 'pass')
  })
})

describe('runAgent: limits', () => {
  it('a run Pending past pending-timeout-seconds ends pending-too-long with the agent diagnosis', async () => {
    const h = harness({
      stepsWithinSeconds: 50,
      waits: [detail('Pending'), detail('Pending'), detail('Pending')],
      agent: { status: { phase: 'Suspended' } },
    })
    const result = await runAgent(settings({ pendingTimeoutSeconds: 120 }), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('pending-too-long')
    expect(result.phase).toBe('Pending')
    expect(result.settled).toBe(false)
    expect(result.pendingDiagnosis).toBe('agent "triage" is Suspended')
    expect(h.client.waitRun.mock.calls.map((call) => call[1])).toEqual([50, 50, 20])
    expect(h.client.getAgent).toHaveBeenCalledWith('triage', expect.any(AbortSignal), T0 + 1800 * 1000)
    expect(h.client.cancelRun).not.toHaveBeenCalled()
    const verdict = runVerdict(result, settings({ pendingTimeoutSeconds: 120 }))
    expect(verdict.status).toBe('fail')
    expect(verdict.message).toContain('The hub says agent "triage" is Suspended: resume the agent on the hub.')
  })

  it('no diagnosis on the service-account route, and none when the agent read fails', async () => {
    const s2s = harness({ stepsWithinSeconds: 50, waits: [detail('Pending')], canReadAgents: false })
    const first = await runAgent(settings({ pendingTimeoutSeconds: 30 }), s2s.deps, new AbortController().signal)
    expect(first.outcome).toBe('pending-too-long')
    expect(first.pendingDiagnosis).toBeUndefined()
    expect(s2s.client.getAgent).not.toHaveBeenCalled()

    const failing = harness({
      stepsWithinSeconds: 50,
      waits: [detail('Pending')],
      agent: new HubNotFoundError({ operation: 'read agent "triage"', hint: 'h', status: 404 }),
    })
    const second = await runAgent(settings({ pendingTimeoutSeconds: 30 }), failing.deps, new AbortController().signal)
    expect(second.outcome).toBe('pending-too-long')
    expect(second.pendingDiagnosis).toBeUndefined()
  })

  it('the Pending ceiling does not apply once the run is Running', async () => {
    const h = harness({
      stepsWithinSeconds: 50,
      waits: [detail('Running'), detail('Running'), detail('Running'), detail('Succeeded')],
    })
    const result = await runAgent(settings({ pendingTimeoutSeconds: 60 }), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    expect(h.client.getAgent).not.toHaveBeenCalled()
  })

  it('the deadline ends the wait with timed-out and no cancel by default', async () => {
    const h = harness({ stepsWithinSeconds: 50, waits: [detail('Running'), detail('Running')] })
    const result = await runAgent(settings({ timeoutSeconds: 100 }), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('timed-out')
    expect(result.phase).toBe('Running')
    expect(result.cancel).toBeUndefined()
    expect(result.waitedMs).toBe(100_000)
    expect(h.client.waitRun.mock.calls.map((call) => call[1])).toEqual([50, 50])
    expect(h.client.cancelRun).not.toHaveBeenCalled()
  })

  it('the last hold is cut to what is left of the budget', async () => {
    const h = harness({ stepsWithinSeconds: 50, waits: [detail('Running'), detail('Running')] })
    await runAgent(settings({ timeoutSeconds: 70 }), h.deps, new AbortController().signal)
    expect(h.client.waitRun.mock.calls.map((call) => call[1])).toEqual([50, 20])
  })

  it('on-timeout cancel calls cancelRun exactly once', async () => {
    const h = harness({ stepsWithinSeconds: 50, waits: [detail('Running'), detail('Running')] })
    const result = await runAgent(
      settings({ timeoutSeconds: 100, onTimeout: 'cancel' }),
      h.deps,
      new AbortController().signal,
    )
    expect(result.outcome).toBe('timed-out')
    expect(result.cancel).toBe('cancelling')
    expect(result.afterCancel).toBe('Aborted')
    expect(h.client.cancelRun).toHaveBeenCalledTimes(1)
    expect(h.client.cancelRun.mock.calls[0]?.[0]).toBe('r1')
    expect(h.client.getRun).toHaveBeenCalledTimes(1)
  })

  it('on-timeout cancel reads the run back until it ends, and reports the last phase read', async () => {
    const h = harness({
      stepsWithinSeconds: 50,
      waits: [detail('Running'), detail('Running')],
      afterCancel: ['Running', 'Running', 'Aborted'],
    })
    const result = await runAgent(
      settings({ timeoutSeconds: 100, onTimeout: 'cancel' }),
      h.deps,
      new AbortController().signal,
    )
    expect(result.afterCancel).toBe('Aborted')
    expect(h.client.getRun).toHaveBeenCalledTimes(3)
  })

  it('a run that still reads Running after the read-back is reported so (a Postgres-backed hub)', async () => {
    const h = harness({
      stepsWithinSeconds: 50,
      waits: [detail('Running'), detail('Running')],
      afterCancel: ['Running'],
    })
    const result = await runAgent(
      settings({ timeoutSeconds: 100, onTimeout: 'cancel' }),
      h.deps,
      new AbortController().signal,
    )
    expect(result.afterCancel).toBe('Running')
    // The first read, then one after each pause: bounded.
    expect(h.client.getRun).toHaveBeenCalledTimes(5)
  })

  it('a failing cancel is reported, not thrown', async () => {
    const h = harness({ stepsWithinSeconds: 50, waits: [detail('Running')], cancel: new Error('network down') })
    const result = await runAgent(
      settings({ timeoutSeconds: 50, onTimeout: 'cancel' }),
      h.deps,
      new AbortController().signal,
    )
    expect(result.outcome).toBe('timed-out')
    expect(result.cancel).toBe('failed')
    expect(h.events.info).toHaveBeenCalledWith(expect.stringContaining('network down'))
  })

  it('timeout-seconds 0 returns started without any wait call', async () => {
    const h = harness()
    const result = await runAgent(settings({ timeoutSeconds: 0 }), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('started')
    expect(result.phase).toBe('Pending')
    expect(result.settled).toBe(false)
    expect(h.client.waitRun).not.toHaveBeenCalled()
    expect(h.client.cancelRun).not.toHaveBeenCalled()
  })

  it('timeout-seconds 0 on a reused terminal run reports its outcome', async () => {
    const h = harness({
      stepsWithinSeconds: 50,
      created: { runId: 'r1', phase: 'Failed', reused: true, run: detail('Failed') },
    })
    const result = await runAgent(settings({ timeoutSeconds: 0 }), h.deps, new AbortController().signal)
    expect(result.outcome).toBe('failed')
  })
})

describe('runAgent: the job is cancelled', () => {
  function abortingWait(controller: AbortController) {
    return (_hold: number, signal: AbortSignal): RunDetail => {
      controller.abort(new Error('received SIGTERM'))
      throw signal.reason
    }
  }

  it('on-cancel cancel: interrupted and cancelRun called once', async () => {
    const controller = new AbortController()
    const h = harness({ waits: [detail('Running'), abortingWait(controller)] })
    const result = await runAgent(settings({ onCancel: 'cancel' }), h.deps, controller.signal)
    expect(result.outcome).toBe('interrupted')
    expect(result.cancel).toBe('cancelling')
    expect(result.phase).toBe('Running')
    expect(h.client.cancelRun).toHaveBeenCalledTimes(1)
    expect(h.client.cancelRun.mock.calls[0]?.[0]).toBe('r1')
  })

  it('on-cancel detach: interrupted and no cancelRun', async () => {
    const controller = new AbortController()
    const h = harness({ waits: [abortingWait(controller)] })
    const result = await runAgent(settings({ onCancel: 'detach' }), h.deps, controller.signal)
    expect(result.outcome).toBe('interrupted')
    expect(result.cancel).toBeUndefined()
    expect(h.client.cancelRun).not.toHaveBeenCalled()
  })

  it('abort during the approval pause interrupts too', async () => {
    const controller = new AbortController()
    const h = harness({ waits: [detail('PendingApproval', { pending: { tool: 't' } })] })
    h.sleep.mockImplementation(async () => {
      controller.abort(new Error('received SIGINT'))
    })
    const result = await runAgent(settings({ onCancel: 'cancel' }), h.deps, controller.signal)
    expect(result.outcome).toBe('interrupted')
    expect(h.client.waitRun).toHaveBeenCalledTimes(1)
    expect(h.client.cancelRun).toHaveBeenCalledTimes(1)
  })
})

describe('runVerdict', () => {
  function result(outcome: RunOutcome, extra: Partial<RunResult> = {}): RunResult {
    return {
      agent: 'triage',
      runId: 'r1',
      reused: false,
      phase: 'Running',
      settled: false,
      outcome,
      detail: undefined,
      waitedMs: 0,
      budget: 'timeout-seconds (600 s)',
      cancel: undefined,
      idempotencyKey: undefined,
      sessionId: 's',
      ...extra,
    }
  }
  const RUN = 'Run r1 of agent "triage"'
  const ON_HUB = 'It continues on the hub; find it by this run id.'

  it('succeeded with an answer passes', () => {
    const answered = result('succeeded', { detail: detail('Succeeded', { output: 'All good.' }) })
    expect(runVerdict(answered, settings())).toEqual({ status: 'pass', message: `${RUN} succeeded.` })
  })

  it('succeeded with no answer fails, unless allow-empty-output (issue 35)', () => {
    for (const output of [undefined, '', ' \n\t']) {
      const empty = result('succeeded', { detail: detail('Succeeded', output === undefined ? {} : { output }) })
      expect(runVerdict(empty, settings())).toMatchObject({
        status: 'fail',
        message: expect.stringContaining('the agent produced no answer') as unknown,
      })
      expect(runVerdict(empty, settings({ allowEmptyOutput: true }))).toEqual({
        status: 'pass',
        message: `${RUN} succeeded.`,
      })
    }
  })

  it("failed quotes the hub's message, or says there was none", () => {
    expect(
      runVerdict(result('failed', { detail: detail('Failed', { message: 'model quota exceeded' }) }), settings()),
    ).toEqual({
      status: 'fail',
      message: `${RUN} failed: model quota exceeded`,
    })
    expect(runVerdict(result('failed', { detail: detail('Failed') }), settings()).message).toBe(
      `${RUN} failed (the hub gave no message)`,
    )
  })

  it('aborted fails, with the message or the likely causes', () => {
    expect(
      runVerdict(result('aborted', { detail: detail('Aborted', { message: 'cancelled by alice' }) }), settings()),
    ).toEqual({
      status: 'fail',
      message: `${RUN} was aborted: cancelled by alice`,
    })
    expect(runVerdict(result('aborted'), settings()).message).toBe(
      `${RUN} was aborted (time limit reached or cancelled)`,
    )
  })

  it('awaiting-approval names the tool; fail and succeed differ', () => {
    const waiting = result('awaiting-approval', {
      detail: detail('PendingApproval', { pending: { tool: 'kubectl_apply' } }),
    })
    const failing = runVerdict(waiting, settings({ onApproval: 'fail' }))
    expect(failing.status).toBe('fail')
    expect(failing.message).toContain('waiting for approval to call kubectl_apply')
    expect(failing.message).toContain('on-approval is fail')
    expect(failing.message).toContain(ON_HUB)
    const passing = runVerdict(waiting, settings({ onApproval: 'succeed' }))
    expect(passing.status).toBe('pass')
    expect(passing.message).toContain('passing because on-approval is succeed')
    expect(passing.message).toContain(ON_HUB)
  })

  it('timed-out: warn, fail and cancel', () => {
    const timedOut = result('timed-out', { phase: 'Running' })
    const warn = runVerdict(timedOut, settings({ timeoutSeconds: 600, onTimeout: 'warn' }))
    expect(warn.status).toBe('warn')
    expect(warn.message).toBe(`${RUN} did not settle within timeout-seconds (600 s); last phase Running. ${ON_HUB}`)
    const fail = runVerdict(timedOut, settings({ timeoutSeconds: 600, onTimeout: 'fail' }))
    expect(fail.status).toBe('fail')
    expect(fail.message).toContain(ON_HUB)
    expect(fail.message).toContain('Raise timeout-seconds, or set on-timeout: warn.')
    const cancelSettings = settings({ onTimeout: 'cancel' })
    expect(
      runVerdict(result('timed-out', { cancel: 'cancelling', afterCancel: 'Aborted' }), cancelSettings),
    ).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('It was cancelled on the hub (on-timeout: cancel): read back Aborted.'),
    })
    const stillRunning = runVerdict(
      result('timed-out', { cancel: 'cancelling', afterCancel: 'Running' }),
      cancelSettings,
    )
    expect(stillRunning.message).toContain('but the run still reads Running 4 s later')
    expect(stillRunning.message).toContain('resumes it from its last checkpoint')
    expect(runVerdict(result('timed-out', { cancel: 'cancelling' }), cancelSettings).message).toContain(
      'could not be read back',
    )
    expect(runVerdict(result('timed-out', { cancel: 'already-settled' }), cancelSettings).message).toContain(
      'It had already ended when the cancel arrived.',
    )
    expect(runVerdict(result('timed-out', { cancel: 'failed' }), cancelSettings).message).toContain(
      'may continue on the hub',
    )
  })

  it('pending-too-long lists the likely causes and continues on the hub', () => {
    const verdict = runVerdict(
      result('pending-too-long', { phase: 'Pending' }),
      settings({ pendingTimeoutSeconds: 300 }),
    )
    expect(verdict.status).toBe('fail')
    expect(verdict.message).toContain('stayed Pending for more than pending-timeout-seconds (300 s)')
    expect(verdict.message).toContain('budget is exhausted')
    expect(verdict.message).toContain('model credential is missing')
    expect(verdict.message).toContain('agent is suspended')
    expect(verdict.message).toContain(ON_HUB)
    expect(verdict.message).not.toContain('The hub says')
  })

  it('pending-too-long does not call a Ready agent possibly suspended, and names a suspended one as the cause', () => {
    const ready = runVerdict(
      result('pending-too-long', { phase: 'Pending', pendingDiagnosis: 'agent "triage" is Ready' }),
      settings(),
    )
    expect(ready.message).toContain(
      'The hub says agent "triage" is Ready, so it is not suspended. Likely causes: the workspace',
    )
    expect(ready.message).not.toContain('agent is suspended')
    const suspended = runVerdict(
      result('pending-too-long', {
        phase: 'Pending',
        pendingDiagnosis: 'agent "triage" is Suspended (budget exhausted)',
      }),
      settings(),
    )
    expect(suspended.message).toContain(
      'The hub says agent "triage" is Suspended (budget exhausted): resume the agent on the hub.',
    )
    expect(suspended.message).not.toContain('Likely causes')
  })

  it.each([
    ['cancelling', 'Aborted', '. The run was cancelled on the hub (on-cancel: cancel): read back Aborted.'],
    ['not-cancelling', 'Aborted', '. The run was cancelled on the hub (on-cancel: cancel): read back Aborted.'],
    ['already-settled', undefined, '. The run had already ended when the cancel arrived.'],
    ['failed', undefined, '; cancelling the run failed, so it continues on the hub.'],
    [undefined, undefined, '; the run continues on the hub (on-cancel: detach).'],
  ] as const)('interrupted with cancel %s', (cancel, afterCancel, fate) => {
    expect(runVerdict(result('interrupted', { cancel, afterCancel }), settings())).toEqual({
      status: 'fail',
      message: `The job was cancelled while waiting for ${RUN}${fate}`,
    })
  })

  it('started passes, and says when the run already existed', () => {
    expect(runVerdict(result('started'), settings({ timeoutSeconds: 0 }))).toEqual({
      status: 'pass',
      message: `${RUN} started; not waiting because timeout-seconds is 0.`,
    })
    expect(runVerdict(result('started', { reused: true }), settings({ timeoutSeconds: 0 })).message).toContain(
      'already existed (idempotency key matched)',
    )
  })
})

describe('runAgent: a hub that does not hold its waits (busy loop)', () => {
  it('waits that come back at once without settling are paced, growing towards 8 s, whatever the phase', async () => {
    const answers = Array.from({ length: 12 }, (_, i) => detail(i % 2 ? 'Pending' : 'Running'))
    const h = harness({ waits: [...answers, detail('Succeeded')], holds: false })
    const result = await runAgent(settings(), { ...h.deps, random: () => 0.5 }, new AbortController().signal)
    expect(result.outcome).toBe('succeeded')
    const pauses = h.sleep.mock.calls.map((call) => call[0])
    // No pause before the first early answer is known; then 3/4 of 250 ms × 2^(n-1), capped at 8 s.
    expect(pauses).toEqual([188, 375, 750, 1_500, 3_000, 6_000, 6_000, 6_000, 6_000, 6_000, 6_000, 6_000])
  })

  it('a hub that held the wait is asked again at once, and the pacing starts over', async () => {
    let advance = (_ms: number) => {}
    const held = (hold: number) => {
      advance(hold * 1000)
      return detail('Running')
    }
    const h = harness({
      waits: [detail('Running'), detail('Running'), held, detail('Running'), detail('Succeeded')],
      holds: false,
    })
    advance = h.advance
    await runAgent(settings(), { ...h.deps, random: () => 0.5 }, new AbortController().signal)
    // Early, early (paced), held (not paced after), early (paced from the start again).
    expect(h.sleep.mock.calls.map((call) => call[0])).toEqual([188, 375, 188])
  })
})

describe('runAgent: the budget runs out inside a request', () => {
  it('a HubDeadlineError from a wait (a drip, an outage) ends timed-out, and on-timeout applies', async () => {
    const h = harness({
      waits: [
        detail('Running', { steps: [{ tool: 'kubectl', outcome: 'ok' }] }),
        () => {
          throw new HubDeadlineError({
            operation: 'wait for run r1',
            hint: 'The time budget ran out before the hub answered.',
          })
        },
      ],
    })
    const result = await runAgent(
      settings({ timeoutSeconds: 120, onTimeout: 'warn' }),
      h.deps,
      new AbortController().signal,
    )
    expect(result.outcome).toBe('timed-out')
    expect(result.phase).toBe('Running')
    expect(result.detail?.steps).toHaveLength(1)
    expect(h.client.waitRun.mock.calls[0]?.[3]).toBe(T0 + 120_000)
    expect(runVerdict(result, settings({ timeoutSeconds: 120, onTimeout: 'warn' })).status).toBe('warn')
  })

  it('the start of the run shares the budget, except with timeout-seconds 0', async () => {
    const h = harness({ waits: [detail('Succeeded')] })
    await runAgent(settings({ timeoutSeconds: 60 }), h.deps, new AbortController().signal)
    expect(h.client.startRun).toHaveBeenCalledWith(expect.objectContaining({ deadline: T0 + 60_000 }))
    const zero = harness()
    await runAgent(settings({ timeoutSeconds: 0 }), zero.deps, new AbortController().signal)
    expect(zero.client.startRun).toHaveBeenCalledWith(expect.objectContaining({ deadline: undefined }))
  })
})
