/**
 * Agents provider client: start a run, long-poll it, read it, cancel it, read an agent.
 * With a cluster id every run call goes through the service-account route
 * (`/s2s/clusters/{id}/…`), which accepts service-account tokens (docs/hub-facts.md, "Agents provider").
 */
import * as z from '../zod.js'
import {
  AgentSchema,
  CreateRunResponseSchema,
  RunDetailSchema,
  WhoAmISchema,
  type AgentObject,
  type CreateRunResponse,
  type RunDetail,
  type WhoAmI,
} from './schemas.js'
import type { JsonRequest } from './request.js'
import type { HubTransport } from './transport.js'

const PREFIX = '/services/providers/agents'
const CancelAnswerSchema = z.object({ cancelling: z.optional(z.boolean()) })
/** The hub caps /wait holds at 300 s; a request must outlive the hold it asked for. @internal */
export const MAX_WAIT_SECONDS = 300
/** The longest hold we ask for: under the 60 s idle cut of common proxies. */
export const HOLD_SECONDS = 50
const WAIT_SLACK_MS = 15_000

/** What the hub answered to a cancel (`requestCancel`). */
export type CancelAnswer = 'cancelling' | 'not-cancelling' | 'already-settled'

export interface StartRun {
  agent: string
  task: string
  sessionId?: string | undefined
  idempotencyKey?: string | undefined
  signal?: AbortSignal
  /** End of the step's time budget (ms since epoch), when it has one. */
  deadline?: number | undefined
}

export class AgentsClient {
  private readonly transport: HubTransport
  private readonly clusterId: string | undefined

  constructor(transport: HubTransport, clusterId?: string) {
    this.transport = transport
    this.clusterId = clusterId
  }

  /** Start a run without waiting (wait 0), so its id is known at once. */
  async startRun(start: StartRun): Promise<CreateRunResponse> {
    const { data } = await this.transport.call(this.startRunCall(start))
    return data as CreateRunResponse
  }

  startRunCall(start: StartRun): JsonRequest<CreateRunResponse> {
    const body: Record<string, unknown> = { task: start.task, wait: 0 }
    if (start.sessionId) body.sessionId = start.sessionId
    if (start.idempotencyKey) body.idempotencyKey = start.idempotencyKey
    return {
      method: 'POST',
      path: `${this.runsRoot()}/agents/${encodeURIComponent(start.agent)}/runs`,
      body,
      schema: CreateRunResponseSchema,
      operation: `start a run of agent "${start.agent}"`,
      subject: `agent "${start.agent}"`,
      // A second POST without a key would start a second run; with one, the hub hands back the first.
      repeatable: Boolean(start.idempotencyKey),
      unsureDelivery:
        'The hub may have created the run before the answer was lost. It was not retried because no idempotency key was sent (idempotency-key: none), and a retry could start a second run; check the hub for it, and prefer idempotency-key: auto, which makes retries safe.',
      ...(start.signal ? { signal: start.signal } : {}),
      deadline: start.deadline,
    }
  }

  /**
   * Long-poll: returns when the run settles or the hold expires (check `phase`). With a
   * deadline, a short outage is waited out (retried with backoff) until the deadline, and
   * then HubDeadlineError.
   */
  async waitRun(runId: string, holdSeconds: number, signal?: AbortSignal, deadline?: number): Promise<RunDetail> {
    const { data } = await this.transport.call(this.waitRunCall(runId, holdSeconds, signal, deadline))
    return data as RunDetail
  }

  waitRunCall(runId: string, holdSeconds: number, signal?: AbortSignal, deadline?: number): JsonRequest<RunDetail> {
    const hold = Math.min(MAX_WAIT_SECONDS, Math.max(1, Math.ceil(holdSeconds)))
    return {
      method: 'GET',
      path: `${this.runPath(runId)}/wait`,
      query: { timeoutSeconds: String(hold) },
      schema: RunDetailSchema,
      operation: `wait for run ${runId}`,
      subject: `run ${runId}`,
      timeoutMs: hold * 1000 + WAIT_SLACK_MS,
      repeatable: true,
      ...(signal ? { signal } : {}),
      ...(deadline !== undefined ? { deadline, retryUntilDeadline: true } : {}),
    }
  }

  /** `afterCancel`: the read-back of a cancel sent because the budget ran out, which outlives it as the cancel does. */
  async getRun(runId: string, signal?: AbortSignal, timeoutMs?: number, afterCancel = false): Promise<RunDetail> {
    const call = this.getRunCall(runId, signal, timeoutMs)
    const { data } = await this.transport.call(afterCancel ? { ...call, outlivesBudget: true } : call)
    return data as RunDetail
  }

  getRunCall(runId: string, signal?: AbortSignal, timeoutMs?: number): JsonRequest<RunDetail> {
    return {
      method: 'GET',
      path: this.runPath(runId),
      schema: RunDetailSchema,
      operation: `read run ${runId}`,
      subject: `run ${runId}`,
      repeatable: true,
      ...(signal ? { signal } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    }
  }

  /** Ask the hub to cancel (see `requestCancel`), within `timeoutMs`. */
  async cancelRun(runId: string, timeoutMs = 10_000): Promise<CancelAnswer> {
    return this.requestCancel(runId, { timeoutMs })
  }

  /**
   * Cancel, telling apart what the hub said. Neither answer says how the run ends
   * (docs/hub-facts.md, "Cancelling a run"): `cancelling` (cut on this replica; on a Postgres
   * store its record may stay Running), `not-cancelling` (not executing here: parked at an
   * approval, which the hub has then already written Aborted, or on another replica), and
   * `already-settled` (409: it had ended). Read the run back to know.
   */
  async requestCancel(
    runId: string,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<CancelAnswer> {
    const { status, data } = await this.transport.call(this.cancelCall(runId, options))
    if (status === 409) return 'already-settled'
    const cancelling = CancelAnswerSchema.safeParse(data).data?.cancelling
    return cancelling === false ? 'not-cancelling' : 'cancelling'
  }

  cancelCall(runId: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}): JsonRequest<unknown> {
    if (this.clusterId) throw new Error('the service-account route has no cancel (refused at input time)')
    return {
      method: 'POST',
      path: `${this.runPath(runId)}/cancel`,
      schema: z.unknown(),
      operation: `cancel run ${runId}`,
      subject: `run ${runId}`,
      acceptStatus: [409],
      timeoutMs: options.timeoutMs ?? 10_000,
      // Cancelling twice is harmless: the second answer is 409.
      repeatable: true,
      // on-timeout: cancel sends it because the time budget ran out (transport.ts)
      outlivesBudget: true,
      ...(options.signal ? { signal: options.signal } : {}),
    }
  }

  /**
   * Resolve an approval (user route only). The hub checks only workspace membership and resumes
   * the run under this token. Not repeated: the hub does not check that the item is still
   * pending, so a second resolve after a lost answer is not known to be harmless.
   */
  async resolveApproval(
    inboxId: string,
    decision: 'approve' | 'deny' | 'answer',
    response: string | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    await this.transport.call(this.resolveApprovalCall(inboxId, decision, response, signal))
  }

  resolveApprovalCall(
    inboxId: string,
    decision: 'approve' | 'deny' | 'answer',
    response: string | undefined,
    signal?: AbortSignal,
  ): JsonRequest<unknown> {
    if (this.clusterId) throw new Error('the service-account route has no inbox (refused at input time)')
    return {
      method: 'POST',
      path: `${PREFIX}/api/inbox/${encodeURIComponent(inboxId)}/resolve`,
      body: response === undefined ? { decision } : { decision, response },
      schema: z.unknown(),
      operation: `resolve approval ${inboxId}`,
      subject: `approval ${inboxId}`,
      timeoutMs: 15_000,
      repeatable: false,
      unsureDelivery:
        'The hub may have resolved the approval before the answer was lost. Check the run on the hub before resolving it again.',
      ...(signal ? { signal } : {}),
    }
  }

  /** The Agent object; only on the user route (the service-account route has no agent read). */
  async getAgent(agent: string, signal?: AbortSignal, deadline?: number): Promise<AgentObject> {
    const { data } = await this.transport.call({
      method: 'GET',
      path: `${PREFIX}/api/agents/${encodeURIComponent(agent)}`,
      schema: AgentSchema,
      operation: `read agent "${agent}"`,
      subject: `agent "${agent}"`,
      repeatable: true,
      timeoutMs: 10_000,
      ...(signal ? { signal } : {}),
      deadline,
    })
    return data as AgentObject
  }

  /** Who the hub takes the token for, and in which workspace; only on the user route. */
  async whoami(signal?: AbortSignal, deadline?: number): Promise<WhoAmI> {
    const { data } = await this.transport.call(this.whoamiCall(signal, deadline))
    return data as WhoAmI
  }

  whoamiCall(signal?: AbortSignal, deadline?: number): JsonRequest<WhoAmI> {
    return {
      method: 'GET',
      path: `${PREFIX}/api/whoami`,
      schema: WhoAmISchema,
      operation: 'read who the hub takes this token for',
      subject: 'whoami',
      repeatable: true,
      timeoutMs: 10_000,
      ...(signal ? { signal } : {}),
      deadline,
    }
  }

  get canReadAgents(): boolean {
    return !this.clusterId
  }

  private runsRoot(): string {
    return this.clusterId ? `${PREFIX}/s2s/clusters/${encodeURIComponent(this.clusterId)}` : `${PREFIX}/api`
  }

  private runPath(runId: string): string {
    return `${this.runsRoot()}/runs/${encodeURIComponent(runId)}`
  }
}
