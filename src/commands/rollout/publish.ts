/** The rollout step's outputs, result file, job summary and annotations. */
import { resultDirectory, writeJsonFile } from '../../runner/result-file.js'
import type { RunnerContext } from '../../runner/context.js'
import * as workflow from '../../runner/workflow.js'
import type { Quorum } from './inputs.js'
import type { RolloutOutcome } from './poll.js'
import { countCells, renderRolloutSummary } from './summary.js'
import type { RolloutTargets } from './targets.js'
import { notCheckedReason } from './unchecked.js'
import { targetLabel } from '../../model/target.js'

/** The schema id and version at the head of the result file; a change of shape bumps the version. */
const RESULT_FILE = { schema: 'hub-action/rollout-result', version: 1 } as const

/** GitHub shows 10 error annotations per step; the failed verdict is one of them. */
const MAX_ERROR_ANNOTATIONS = 9

export function publishRollout(
  outcome: RolloutOutcome,
  collected: RolloutTargets,
  context: { quorum: Quorum; runner: RunnerContext },
): void {
  for (const skipped of collected.skippedFiles) workflow.info(`Skipped ${skipped.path}: ${skipped.reason}`)
  for (const warning of [...collected.warnings, ...outcome.warnings]) workflow.warning(warning)
  const path = writeJsonFile(
    resultDirectory(context.runner.tempDir),
    'rollout-result.json',
    resultFile(outcome, collected, context.quorum),
  )
  const shown = runnerPath(path, context.runner.tempDir)
  const wholeIn = `the result file ${shown} (output \`result-file\`)`
  for (const [name, value] of Object.entries(rolloutOutputs(outcome, collected, path)))
    workflow.setOutput(name, value, { wholeIn })
  workflow.writeSummary(
    renderRolloutSummary(outcome, collected.targets, {
      quorum: context.quorum,
      resultFile: shown,
      unchecked: collected.unchecked,
      outOfScope: collected.outOfScope,
    }),
  )
  annotateFailures(outcome, collected)
}

/** `$RUNNER_TEMP/hub-action/…` rather than the runner's absolute temp path, as the other steps' reports say it. */
function runnerPath(path: string, tempDir: string | undefined): string {
  return tempDir && path.startsWith(`${tempDir}/`) ? `$RUNNER_TEMP${path.slice(tempDir.length)}` : path
}

/** The names are the row's (./index.ts), which the compiler holds to exactly these. */
export type RolloutOutputName = keyof ReturnType<typeof rolloutOutputs>

function rolloutOutputs(outcome: RolloutOutcome, collected: RolloutTargets, resultFile: string) {
  const counts = countCells(outcome.edges)
  return {
    'rollout-state': outcome.state,
    'current-count': String(counts.current),
    'in-progress-count': String(counts['in-progress']),
    'failed-count': String(counts.failed),
    'not-reporting-count': String(counts['not-reporting']),
    lagging: JSON.stringify(lagging(outcome, collected)),
    'result-file': resultFile,
  }
}

/** A name an agent may read as data: Kubernetes' name charset, nothing that can form a sentence. */
const SAFE_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/

/**
 * Ids and states only, no reasons: this output is meant for a triage agent's task, and text
 * from the graph handed to an agent is instructions (README, Security). A name outside the
 * charset (an edge name is the hub's text) is withheld; reasons are in the result file.
 */
function lagging(outcome: RolloutOutcome, collected: RolloutTargets) {
  const safe = (name: string | undefined) =>
    name === undefined || name === '' ? (name ?? null) : SAFE_NAME.test(name) ? name : null
  const rows: Array<Record<string, string | null>> = []
  for (const track of outcome.edges) {
    track.cells.forEach((cell, i) => {
      const target = collected.targets[i]?.target
      if (!cell || !target || cell.state === 'current') return
      rows.push({
        edge: safe(track.edge),
        group: safe(target.group),
        kind: safe(target.kind),
        namespace: safe(target.namespace),
        name: safe(target.name),
        state: cell.state,
      })
    })
  }
  return rows
}

function resultFile(outcome: RolloutOutcome, collected: RolloutTargets, quorum: Quorum) {
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString())
  return {
    ...RESULT_FILE,
    state: outcome.state,
    message: outcome.message,
    require: quorum,
    tolerated: outcome.tolerated,
    complete: outcome.complete,
    polls: outcome.polls,
    requests: outcome.requests,
    startedAt: iso(outcome.startedAt),
    endedAt: iso(outcome.endedAt),
    counts: countCells(outcome.edges),
    targets: collected.targets.map(({ target, label, place }) => ({
      label,
      ...target,
      origin: undefined,
      file: place?.file ?? null,
      line: place?.line ?? null,
    })),
    notChecked: collected.unchecked.map(({ target, label, notChecked }) => ({
      label,
      ...target,
      origin: undefined,
      reason: notCheckedReason({ notChecked }),
    })),
    outOfScope: collected.outOfScope.map(({ target, reason }) => ({
      label: targetLabel(target),
      ...target,
      origin: undefined,
      reason,
    })),
    edges: outcome.edges.map((track) => ({
      edge: track.edge,
      state: track.state,
      lastChangeAt: iso(track.changedAt),
      latchedAt: iso(track.latchedAt),
      cells: track.cells.map((cell, i) =>
        cell
          ? {
              target: collected.targets[i]?.label,
              state: cell.state,
              reason: cell.reason,
              notReportingSince: iso(cell.since),
              // set only when there is something to say: 50,000 cells make every field count
              proof: cell.proof,
              latchedAt: cell.latchedAt === undefined ? undefined : iso(cell.latchedAt),
              dips: cell.dips,
              lastDip: cell.lastDip,
            }
          : null,
      ),
    })),
    observations: outcome.observations.map((o) => ({ ...o, at: iso(o.at) })),
    observationsDropped: outcome.observationsDropped,
    warnings: [...collected.warnings, ...outcome.warnings],
  }
}

/** On the manifest line of each failed target: on which edges, and why. */
function annotateFailures(outcome: RolloutOutcome, collected: RolloutTargets): void {
  const failures = collected.targets
    .map((target, i) => ({
      target,
      edges: outcome.edges
        .filter((t) => t.cells[i]?.state === 'failed')
        .map((t) => `${t.edge}: ${t.cells[i]?.reason ?? ''}`),
    }))
    .filter((f) => f.edges.length > 0 && f.target.place)
  for (const { target, edges } of failures.slice(0, MAX_ERROR_ANNOTATIONS)) {
    const place = target.place as { file: string; line: number }
    workflow.error(
      `Failed to roll out on ${edges.length} edge(s): ${edges.slice(0, 5).join('; ')}${edges.length > 5 ? '; …' : ''}`,
      {
        file: place.file,
        startLine: place.line,
        title: `hub-action rollout: ${target.label}`,
      },
    )
  }
  if (failures.length > MAX_ERROR_ANNOTATIONS)
    workflow.info(
      `${failures.length - MAX_ERROR_ANNOTATIONS} more failed target(s) are not annotated (GitHub's limit per step): see the job summary.`,
    )
}
