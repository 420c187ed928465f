/**
 * The run step's outputs, result file, log lines and job summary. Untrusted text goes to the
 * log between stop-commands markers, so an agent cannot issue workflow commands.
 */
import * as workflow from '../../runner/workflow.js'
import type { RunEvents } from './loop.js'
import type { RunOutcome, RunSeen, ShownRun } from './seen.js'
import type { Verdict } from '../../runner/workflow.js'
import { canonicalPhase, isSettled, type RunDetail } from '../../hub/schemas.js'
import type { RunSettings } from './run-inputs.js'
import type { Budget } from '../../http/budget.js'
import { jsonTextForDisplay } from '../../markdown/json-text.js'
import { resultDirectory, writeJsonFile } from '../../runner/result-file.js'
import { fingerprint, type RunnerContext } from '../../runner/context.js'
import { formatDuration } from '../../units.js'
import { stepLogLine } from './live-steps.js'
import { costOutputs, runCost, stepDetails } from './cost.js'

/** The schema id and version at the head of the result file; a change of shape bumps the version. */
const RESULT_FILE = { schema: 'hub-action/run-result', version: 2 } as const

interface RunResultFile {
  schema: typeof RESULT_FILE.schema
  version: typeof RESULT_FILE.version
  agent: string
  runId: string
  phase: string
  settled: boolean
  reused: boolean
  /** How the wait ended; absent when the step showed a run without waiting for it. */
  outcome?: RunOutcome | undefined
  verdict: { status: 'pass' | 'warn' | 'fail'; message: string }
  waitedMs?: number | undefined
  idempotencyKey: string | null
  /**
   * The session's fingerprint (version 2; version 1 stored the id): anyone who knows a session id
   * can write into the history the hub replays into its next run, and result files are uploaded.
   */
  session: string | null
  /** The run detail exactly as the hub last sent it, its `sessionID` as a fingerprint (null when none was received). */
  run: unknown
}

/** Characters of approval arguments written to the log; the result file keeps them whole. */
const APPROVAL_ARGS_LOG_CHARS = 64 * 1024

/** Log lines for the run loop, which waits within `budget`; the run id becomes an output the moment it exists. */
export function runEventsToLog(
  settings: RunSettings,
  budget: Budget,
  options: { attached?: boolean } = {},
): RunEvents & { finish(): void } {
  let grouped = false
  return {
    created(created, idempotencyKey = settings.idempotencyKey) {
      void loadRenderer()
      workflow.setOutput('run-id', created.runId)
      workflow.setOutput('reused', String(created.reused === true))
      const how = options.attached
        ? 'attached (given by `run-id`)'
        : created.reused
          ? 'attached to the existing run for this idempotency key'
          : 'started'
      workflow.info(
        `Run ${created.runId} of agent "${settings.agent}" ${how} (phase ${canonicalPhase(created.run?.phase ?? created.phase)}).`,
      )
      if (idempotencyKey)
        workflow.info(
          settings.idempotencyKeyGiven !== undefined && settings.idempotencyKeyGiven !== idempotencyKey
            ? `Idempotency key: ${settings.idempotencyKeyGiven} (the hub sees ${idempotencyKey}, derived from it with the token).`
            : `Idempotency key: ${idempotencyKey}`,
        )
      if (budget.deadline !== undefined && !isSettled(created.run?.phase ?? created.phase)) {
        // An output-schema follow-up is a second run: its wait gets a group of its own.
        if (grouped) workflow.endGroup()
        workflow.startGroup(`Waiting up to ${formatDuration(budget.seconds * 1000)} for run ${created.runId}`)
        grouped = true
      }
    },
    progress({ phase, elapsedMs, remainingMs }) {
      workflow.info(`Run is ${phase}: ${formatDuration(elapsedMs)} elapsed, ${formatDuration(remainingMs)} left.`)
    },
    awaitingApproval(detail) {
      const tool = detail.pending?.tool ?? 'a tool'
      workflow.info(
        `Run ${detail.id} awaits a human's approval to call ${tool} (inbox ${detail.pending?.inboxID ?? 'unknown'}).`,
      )
      // The hub sends the arguments as JSON text: shown parsed and indented, bounded.
      if (detail.pending?.args !== undefined)
        workflow.logUntrusted(
          'Arguments awaiting approval:',
          jsonTextForDisplay(detail.pending.args, APPROVAL_ARGS_LOG_CHARS),
        )
    },
    info(message) {
      workflow.info(message)
    },
    steps(found) {
      // Agent text: one clipped line a step, with workflow commands off around them.
      workflow.infoVerbatim(found.map(stepLogLine).join('\n'))
    },
    finish() {
      if (grouped) workflow.endGroup()
      grouped = false
    },
  }
}

/** Publishes a run as read (`RunSeen`), with the waiting facts when the step waited for it (./seen.ts). */
export async function publishRun(result: ShownRun, verdict: Verdict, runner: RunnerContext): Promise<void> {
  const file: RunResultFile = {
    ...RESULT_FILE,
    agent: result.agent,
    runId: result.runId,
    phase: result.phase,
    settled: result.settled,
    reused: result.reused,
    outcome: result.outcome,
    verdict,
    waitedMs: result.waitedMs,
    idempotencyKey: result.idempotencyKey ?? null,
    session: result.sessionId ? fingerprint(result.sessionId) : null,
    run: result.detail ? withoutSessionId(result.detail) : null,
  }
  const path = writeJsonFile(resultDirectory(runner.tempDir), `run-${result.runId}.json`, file)
  const wholeIn = `the result file ${path} (output \`result-file\`)`
  const { renderRunSummary, cleanOutput } = await loadRenderer()
  const cleaned = result.detail?.output ? cleanOutput(result.detail.output) : ''
  for (const [name, value] of Object.entries(runOutputs(result, path, cleaned)))
    workflow.setOutput(name, value, { wholeIn })
  if (result.detail?.output) {
    workflow.startGroup('Agent output')
    workflow.logUntrusted('', result.detail.output)
    workflow.endGroup()
  }
  workflow.writeSummary(renderRunSummary(result, verdict, { resultFile: path }))
}

/** The detail with its session id as a fingerprint: the one place a hub's detail is stored whole. */
function withoutSessionId(detail: RunDetail): RunDetail {
  return detail.sessionID === undefined ? detail : { ...detail, sessionID: fingerprint(detail.sessionID) }
}

type Renderer = Pick<typeof import('./summary.js'), 'renderRunSummary' | 'cleanOutput'>

let renderer: Promise<Renderer> | undefined

/**
 * The summary renderer parses the agent's markdown with marked: not loaded at start-up, and not
 * after the run settles either, where loading it and compiling marked's expressions on first use
 * was most of the time from settle to exit (bench/README.md). It is started when the run exists,
 * so it loads (and warms up) while the hub holds the wait; a run that settles at once loses nothing.
 */
function loadRenderer(): Promise<Renderer> {
  if (!renderer) {
    renderer = import('./summary.js').then(({ renderRunSummary, cleanOutput, warmUp }) => {
      warmUp()
      return { renderRunSummary, cleanOutput }
    })
    // Handled here so an early failure is not an unhandled rejection; publishRun awaits it again.
    renderer.catch(() => undefined)
  }
  return renderer
}

/** The names are the rows' (./index.ts), which the compiler holds to exactly these. */
export type RunOutputName = keyof ReturnType<typeof runOutputs>

/** `cleanedOutput`: the answer as the job summary shows it (summary.ts `cleanOutput`). @internal */
export function runOutputs(result: RunSeen, resultFile: string, cleanedOutput = '') {
  return {
    'run-id': result.runId,
    phase: result.phase,
    settled: String(result.settled),
    reused: String(result.reused),
    output: result.detail?.output ?? '',
    'output-markdown': cleanedOutput,
    ...approvalOutputs(result),
    'structured-output': result.structured?.value ?? '',
    ...costOutputs(runCost(stepDetails(result))),
    'result-file': resultFile,
  }
}

/**
 * The approval a run stopped at, for a later job's `approve` (empty unless the run is at the
 * gate). The arguments are JSON: the hub's JSON text as sent, or that text as a JSON string when
 * it does not parse (the hub may have clipped it).
 */
function approvalOutputs(result: RunSeen): Record<'approval-id' | 'approval-tool' | 'approval-args', string> {
  const pending = result.phase === 'PendingApproval' ? result.detail?.pending : undefined
  return {
    'approval-id': pending?.inboxID ?? '',
    'approval-tool': pending?.tool ?? '',
    'approval-args': pending ? jsonOutput(pending.args) : '',
  }
}

function jsonOutput(args: unknown): string {
  if (args === undefined) return '{}'
  if (typeof args !== 'string') return JSON.stringify(args)
  try {
    JSON.parse(args)
    return args
  } catch {
    return JSON.stringify(args)
  }
}
