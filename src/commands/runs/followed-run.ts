/**
 * The run a step follows, and the one recovery from the hub's same-key race
 * (docs/hub-facts.md, "Agents provider"): first starts with one idempotency key sent at the same moment — matrix
 * legs on one commit — can all start work, and the hub stores only one of them; the others get a
 * run id that 404s. So when a run this step has just created with a key is unknown to the hub on
 * its first wait or read, the step asks once more with the same key (no inline wait) and follows
 * the run the hub hands back. A run id from anywhere else (a user's `run-id`) is never re-created.
 */
import type { AgentsClient, StartRun } from '../../hub/agents.js'
import { HubNotFoundError } from '../../hub/errors.js'
import type { CreateRunResponse, RunDetail } from '../../hub/schemas.js'

type Client = Pick<AgentsClient, 'startRun' | 'waitRun' | 'getRun'>
/** Checks a run the hub handed back for the key before it is followed (start.ts, reused-run.ts). */
type Verify = (start: StartRun, created: CreateRunResponse) => Promise<CreateRunResponse>

export class FollowedRun {
  private readonly client: Client
  private readonly log: (line: string) => void
  private readonly verify: Verify
  private current: CreateRunResponse
  /** The start to send once more; set only until the hub has shown it knows the run. */
  private unconfirmedStart: StartRun | undefined

  private constructor(
    client: Client,
    current: CreateRunResponse,
    unconfirmedStart: StartRun | undefined,
    log: (line: string) => void,
    verify: Verify,
  ) {
    this.client = client
    this.current = current
    this.unconfirmedStart = unconfirmedStart
    this.log = log
    this.verify = verify
  }

  /** A run this step just started with `start`: recoverable only when it was keyed and new. */
  static started(
    client: Client,
    start: StartRun,
    created: CreateRunResponse,
    log: (line: string) => void,
    verify: Verify = unchecked,
  ): FollowedRun {
    const recoverable = Boolean(start.idempotencyKey) && created.reused !== true
    return new FollowedRun(client, created, recoverable ? start : undefined, log, verify)
  }

  /** A run id given by the user: followed as is; a 404 is final, never a new run. */
  static given(client: Client, runId: string): FollowedRun {
    return new FollowedRun(client, { runId, phase: 'Unknown' }, undefined, () => undefined, unchecked)
  }

  get runId(): string {
    return this.current.runId
  }

  /** True when the hub handed back an existing run for the key (also after the recovery). */
  get reused(): boolean {
    return this.current.reused === true
  }

  /** Long-poll the run (see AgentsClient.waitRun); the first answer may come from the recovery. */
  wait(holdSeconds: number, signal?: AbortSignal, deadline?: number): Promise<RunDetail> {
    return this.confirmed((runId) => this.client.waitRun(runId, holdSeconds, signal, deadline), signal)
  }

  read(signal?: AbortSignal): Promise<RunDetail> {
    return this.confirmed((runId) => this.client.getRun(runId, signal), signal)
  }

  private async confirmed(
    ask: (runId: string) => Promise<RunDetail>,
    signal: AbortSignal | undefined,
  ): Promise<RunDetail> {
    const unconfirmedStart = this.unconfirmedStart
    if (!unconfirmedStart) return ask(this.runId)
    let detail: RunDetail
    try {
      detail = await ask(this.runId)
    } catch (error) {
      // Anything but "no such run" (an outage, a timeout) proves nothing: keep the recovery for later.
      if (!isUnknownRun(error)) throw error
      return this.recover(unconfirmedStart, ask, signal)
    }
    this.unconfirmedStart = undefined
    return detail
  }

  private async recover(
    unconfirmedStart: StartRun,
    ask: (runId: string) => Promise<RunDetail>,
    signal: AbortSignal | undefined,
  ): Promise<RunDetail> {
    this.unconfirmedStart = undefined
    const lost = this.runId
    // startRun never waits inline (wait 0): the hub answers a matched key at once, with the detail.
    const again = { ...unconfirmedStart, ...(signal ? { signal } : {}) }
    // The run the hub kept for the key is checked like any run handed back for it.
    this.current = await this.verify(again, await this.client.startRun(again))
    const kept = this.reused
      ? `another job started the same task with the same idempotency key at the same moment, and the hub kept that job's run ${this.runId}`
      : `asked again with the same idempotency key, the hub started run ${this.runId}`
    this.log(`Run ${lost} is unknown to the hub: ${kept}; following it instead.`)
    // A second "unknown" from here on is the ordinary not-found error.
    return this.current.run ?? ask(this.runId)
  }
}

/** No check: for a run id the user gave (nothing was sent to compare with). */
function unchecked(_start: StartRun, created: CreateRunResponse): Promise<CreateRunResponse> {
  return Promise.resolve(created)
}

/** The agents provider's own JSON NotFound; a plain-text 404 is a missing route, not a run. */
function isUnknownRun(error: unknown): boolean {
  return error instanceof HubNotFoundError && error.reason === 'NotFound'
}
