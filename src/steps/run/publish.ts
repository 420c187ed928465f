/**
 * The run step's outputs, result file, log lines and job summary. Untrusted text goes to the
 * log between stop-commands markers, so an agent cannot issue workflow commands.
 */
import * as core from '../../runner/core.js'
import type { RunEvents, RunResult } from './loop.js'
import { logUntrusted, writeSummary, type Verdict } from '../../runner/publish.js'
import { canonicalPhase, isSettled } from '../../hub/phases.js'
import type { RunSettings } from '../../settings/settings.js'
import { jsonTextForDisplay } from '../../markdown/json-text.js'
import {
  RESULT_FILES,
  resultDirectory,
  runOutputs,
  writeJsonFile,
  type RunResultFile,
} from '../../runner/result-file.js'
import type { RunnerContext } from '../../runner/context.js'
import { formatDuration } from '../../markdown/format.js'
import { stepLogLine } from './live-steps.js'

/** Characters of approval arguments written to the log; the result file keeps them whole. */
const APPROVAL_ARGS_LOG_CHARS = 64 * 1024

/** Log lines for the run loop; the run id becomes an output the moment it exists. */
export function runEventsToLog(
  settings: RunSettings,
  options: { attached?: boolean } = {},
): RunEvents & { finish(): void } {
  let grouped = false
  return {
    created(created, idempotencyKey = settings.idempotencyKey) {
      void loadRenderer()
      core.setOutput('run-id', created.runId)
      core.setOutput('reused', String(created.reused === true))
      const how = options.attached
        ? 'attached (given by `run-id`)'
        : created.reused
          ? 'attached to the existing run for this idempotency key'
          : 'started'
      core.info(
        `Run ${created.runId} of agent "${settings.agent}" ${how} (phase ${canonicalPhase(created.run?.phase ?? created.phase)}).`,
      )
      if (idempotencyKey) core.info(`Idempotency key: ${idempotencyKey}`)
      if (settings.timeoutSeconds > 0 && !isSettled(created.run?.phase ?? created.phase)) {
        core.startGroup(`Waiting up to ${formatDuration(settings.timeoutSeconds * 1000)} for run ${created.runId}`)
        grouped = true
      }
    },
    progress({ phase, elapsedMs, remainingMs }) {
      core.info(`Run is ${phase}: ${formatDuration(elapsedMs)} elapsed, ${formatDuration(remainingMs)} left.`)
    },
    awaitingApproval(detail) {
      const tool = detail.pending?.tool ?? 'a tool'
      core.info(
        `Run ${detail.id} awaits a human's approval to call ${tool} (inbox ${detail.pending?.inboxID ?? 'unknown'}).`,
      )
      // The hub sends the arguments as JSON text: shown parsed and indented, bounded.
      if (detail.pending?.args !== undefined)
        logUntrusted('Arguments awaiting approval:', jsonTextForDisplay(detail.pending.args, APPROVAL_ARGS_LOG_CHARS))
    },
    info(message) {
      core.info(message)
    },
    steps(found) {
      // Agent text: one clipped line a step, with workflow commands off around them.
      core.infoVerbatim(found.map(stepLogLine).join('\n'))
    },
    finish() {
      if (grouped) core.endGroup()
      grouped = false
    },
  }
}

export async function publishRun(result: RunResult, verdict: Verdict, runner: RunnerContext): Promise<void> {
  const file: RunResultFile = {
    ...RESULT_FILES.run,
    agent: result.agent,
    runId: result.runId,
    phase: result.phase,
    settled: result.settled,
    reused: result.reused,
    outcome: result.outcome,
    verdict,
    waitedMs: result.waitedMs,
    idempotencyKey: result.idempotencyKey ?? null,
    sessionId: result.sessionId,
    run: result.detail ?? null,
  }
  const path = writeJsonFile(resultDirectory(runner.tempDir), `run-${result.runId}.json`, file)
  const wholeIn = `the result file ${path} (output \`result-file\`)`
  for (const [name, value] of Object.entries(runOutputs(result, path))) core.setOutput(name, value, { wholeIn })
  if (result.detail?.output) {
    core.startGroup('Agent output')
    logUntrusted('', result.detail.output)
    core.endGroup()
  }
  const renderRunSummary = await loadRenderer()
  writeSummary(renderRunSummary(result, verdict, { resultFile: path }))
}

type RenderRunSummary = typeof import('./summary.js').renderRunSummary

let renderer: Promise<RenderRunSummary> | undefined

/**
 * The summary renderer parses the agent's markdown with marked: not loaded at start-up, and not
 * after the run settles either, where loading it and compiling marked's expressions on first use
 * was most of the time from settle to exit (bench/README.md). It is started when the run exists,
 * so it loads (and warms up) while the hub holds the wait; a run that settles at once loses nothing.
 */
function loadRenderer(): Promise<RenderRunSummary> {
  if (!renderer) {
    renderer = import('./summary.js').then(({ renderRunSummary, warmUp }) => {
      warmUp()
      return renderRunSummary
    })
    // Handled here so an early failure is not an unhandled rejection; publishRun awaits it again.
    renderer.catch(() => undefined)
  }
  return renderer
}
