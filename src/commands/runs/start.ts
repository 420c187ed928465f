/**
 * The start of `command: run`: the whoami preflight (user route only), the start itself, and the
 * re-run rule (below) that may start a fresh run in place of a failed one. A run the hub hands
 * back for the key is taken only when it runs this step's task in this step's session
 * (reused-run.ts). Hands the wait loop the run it is to follow (loop.ts).
 */
import type { AgentsClient, StartRun } from '../../hub/agents.js'
import { canonicalPhase, type CreateRunResponse, type RunDetail } from '../../hub/schemas.js'
import type { RunSettings } from './run-inputs.js'
import type { Budget } from '../../http/budget.js'
import { checkWorkspace, type HubScope } from '../../hub/workspace-check.js'
import { FollowedRun } from './followed-run.js'
import type { RunEvents, RunInHand } from './loop.js'
import { checkReusedRun } from './reused-run.js'

export interface StartDeps {
  client: Pick<AgentsClient, 'startRun' | 'waitRun' | 'getRun' | 'whoami' | 'canReadAgents'>
  events: RunEvents
  /** The org and workspace asked for; when given on the user route, whoami is checked first. */
  scope?: HubScope | undefined
}

/** The run in hand, and the session it was started in (a re-run's fresh run has its own). */
export type StartedRun = RunInHand & { sessionId: string }

/** Start the run (or find the one its idempotency key already started), within the step's budget. */
export async function startOrAttach(
  settings: RunSettings,
  deps: StartDeps,
  signal: AbortSignal,
  budget: Budget,
): Promise<StartedRun> {
  // `timeout-seconds: 0` is no budget: the start keeps its own per-request ceiling.
  const deadline = budget.deadline
  // One whoami before anything is created: it costs a request only on the user route.
  if (deps.scope && deps.client.canReadAgents)
    await checkWorkspace(deps.client, deps.scope, 'run', {
      signal,
      deadline,
      log: (line) => deps.events.info(line),
    })
  const first = {
    agent: settings.agent,
    task: settings.task,
    sessionId: settings.sessionId,
    idempotencyKey: settings.idempotencyKey,
    signal,
    deadline,
  }
  /**
   * `created` when it is a new run or this step's own (checked before anything of it is
   * published): a detail that came with it is compared whether or not the hub says `reused`.
   */
  const verified = async (start: StartRun, created: CreateRunResponse): Promise<CreateRunResponse> => {
    const reused = created.reused === true
    if (!reused && !created.run) return created
    const detail = created.run ?? (await deps.client.getRun(created.runId, signal))
    const sent = {
      task: start.task,
      sessionId: start.sessionId,
      idempotencyKey: start.idempotencyKey,
      keyIsSecret: settings.idempotencyKeyIsSecret ?? settings.idempotencyKeySource !== 'none',
      keyLabel: settings.idempotencyKeyGiven,
    }
    const note = checkReusedRun(sent, created.runId, detail, reused)
    if (note) deps.events.info(note)
    return { ...created, run: detail }
  }
  const inHand = (start: StartRun, created: CreateRunResponse): StartedRun => {
    deps.events.created(created, start.idempotencyKey)
    // Every detail the loop reads is compared too: one that carries the task and session later
    // (a start answer without them) must still show this step's.
    const sent = {
      task: start.task,
      sessionId: start.sessionId,
      idempotencyKey: start.idempotencyKey,
      keyIsSecret: true,
      keyLabel: settings.idempotencyKeyGiven,
    }
    const watched = comparingDetails(deps.client, (detail) => checkReusedRun(sent, detail.id, detail, false))
    return {
      sessionId: start.sessionId ?? settings.sessionId,
      // Follows the hub's stored run when this one lost the same-key race (followed-run.ts).
      followed: FollowedRun.started(watched, start, created, (line) => deps.events.info(line), verified),
      detail: created.run,
      phase: canonicalPhase(created.run?.phase ?? created.phase),
      idempotencyKey: start.idempotencyKey,
      budget,
    }
  }
  const firstCreated = await verified(first, await deps.client.startRun(first))
  const oldKey = settings.idempotencyKey
  const freshKey = oldKey ? freshKeyForRerun(settings, firstCreated) : undefined
  if (!oldKey || !freshKey) return inHand(first, firstCreated)
  // A new key, a new session: nothing of the failed run's conversation is replayed into the fresh one.
  const fresh = { ...first, idempotencyKey: freshKey, sessionId: settings.rerunSessionId ?? settings.sessionId }
  const freshCreated = await verified(fresh, await deps.client.startRun(fresh))
  // Said once the fresh run holds the key: a key printed before could be started under first.
  deps.events.info(rerunNotice(firstCreated, oldKey, freshKey, settings.runAttempt ?? 1))
  return inHand(fresh, freshCreated)
}

/** The client with every run detail it reads handed to `check` first (which throws to refuse it). */
function comparingDetails(
  client: StartDeps['client'],
  check: (detail: RunDetail) => void,
): Pick<AgentsClient, 'startRun' | 'waitRun' | 'getRun'> {
  const checked = (detail: RunDetail): RunDetail => {
    check(detail)
    return detail
  }
  return {
    startRun: (start) => client.startRun(start),
    waitRun: async (runId, holdSeconds, signal, deadline) =>
      checked(await client.waitRun(runId, holdSeconds, signal, deadline)),
    getRun: async (runId, signal) => checked(await client.getRun(runId, signal)),
  }
}

/**
 * The re-run rule of `idempotency-key: auto`. The derived key leaves the run attempt out, so a
 * re-run of a job attaches to the run its first attempt started: no duplicate work while that
 * run is going or after it succeeded. But a re-run is how people retry a failure, and attaching
 * to a run that ended Failed or Aborted would only repeat the failure: then a re-run attempt
 * (GITHUB_RUN_ATTEMPT > 1) starts a fresh run under the key of that attempt, derived with the token
 * like the first (commands/runs/run-inputs.ts): the first key is in a public log, so a key made from it alone
 * could be planted before the re-run.
 */
/** The key to start a fresh run under, when `created` calls for one; else undefined. */
function freshKeyForRerun(settings: RunSettings, created: CreateRunResponse): string | undefined {
  const attempt = settings.runAttempt ?? 1
  if (settings.idempotencyKeySource !== 'auto' || !settings.idempotencyKey || attempt <= 1 || created.reused !== true)
    return undefined
  const phase = canonicalPhase(created.run?.phase ?? created.phase)
  if (phase !== 'Failed' && phase !== 'Aborted') return undefined
  return settings.rerunIdempotencyKey
}

function rerunNotice(created: CreateRunResponse, oldKey: string, freshKey: string, attempt: number): string {
  const phase = canonicalPhase(created.run?.phase ?? created.phase)
  return `Idempotency key ${oldKey} returned run ${created.runId}, which ended ${phase}; this is re-run attempt ${attempt}, so a fresh run started under key ${freshKey}, in a session of its own, instead of attaching to it.`
}
