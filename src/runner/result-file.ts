/**
 * Output names and the result file, in one place. The result file is the whole answer as
 * JSON with a versioned schema, for steps that want more than the outputs carry.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import type { RunResult } from '../steps/run/loop.js'
import type { ImpactReport } from '../steps/impact/model.js'
import { redact } from '../redact.js'

const RUN_OUTPUTS = [
  'run-id',
  'phase',
  'settled',
  'reused',
  'output',
  'approval-id',
  'approval-tool',
  'approval-args',
  'result-file',
] as const
/** Set by `command: cancel` (with `run-id`). */
const CANCEL_OUTPUTS = ['run-id', 'cancel-result'] as const
export type RunOutputName = (typeof RUN_OUTPUTS)[number]
const IMPACT_OUTPUTS = [
  'targets-count',
  'upstream-count',
  'downstream-count',
  'associated-count',
  'report',
  'comment-url',
  'result-file',
] as const
export type ImpactOutputName = (typeof IMPACT_OUTPUTS)[number]
const QUERY_OUTPUTS = ['count', 'result-file'] as const
const ROLLOUT_OUTPUTS = [
  'rollout-state',
  'current-count',
  'in-progress-count',
  'failed-count',
  'not-reporting-count',
  'lagging',
  'result-file',
] as const
export type RolloutOutputName = (typeof ROLLOUT_OUTPUTS)[number]
/** Every output the action declares, across commands. @internal */
export const ALL_OUTPUTS = [
  ...new Set([...RUN_OUTPUTS, ...CANCEL_OUTPUTS, ...IMPACT_OUTPUTS, ...QUERY_OUTPUTS, ...ROLLOUT_OUTPUTS]),
]

/** The schema id and version at the head of each result file; a change of shape bumps the version. */
export const RESULT_FILES = {
  run: { schema: 'hub-action/run-result', version: 1 },
  impact: { schema: 'hub-action/impact-report', version: 1 },
  query: { schema: 'hub-action/query-result', version: 1 },
  dryRun: { schema: 'hub-action/dry-run', version: 1 },
  rollout: { schema: 'hub-action/rollout-result', version: 1 },
} as const

export interface RunResultFile {
  schema: typeof RESULT_FILES.run.schema
  version: typeof RESULT_FILES.run.version
  agent: string
  runId: string
  phase: string
  settled: boolean
  reused: boolean
  outcome: RunResult['outcome']
  verdict: { status: 'pass' | 'warn' | 'fail'; message: string }
  waitedMs: number
  idempotencyKey: string | null
  sessionId: string
  /** The run detail exactly as the hub last sent it (null when none was received). */
  run: unknown
}

export function impactOutputs(
  report: ImpactReport,
  markdown: string,
  commentUrl: string | undefined,
  resultFile: string,
): Record<ImpactOutputName, string> {
  return {
    'targets-count': String(report.targets.length),
    'upstream-count': String(report.totals.upstream),
    'downstream-count': String(report.totals.downstream),
    'associated-count': String(report.totals.associated),
    report: markdown,
    'comment-url': commentUrl ?? '',
    'result-file': resultFile,
  }
}

export function runOutputs(result: RunResult, resultFile: string): Record<RunOutputName, string> {
  return {
    'run-id': result.runId,
    phase: result.phase,
    settled: String(result.settled),
    reused: String(result.reused),
    output: result.detail?.output ?? '',
    ...approvalOutputs(result),
    'result-file': resultFile,
  }
}

/**
 * The approval a run stopped at, for a later job's `approve` (empty unless the run is at the
 * gate). The arguments are JSON: the hub's JSON text as sent, or that text as a JSON string when
 * it does not parse (the hub may have clipped it).
 */
function approvalOutputs(result: RunResult): Record<'approval-id' | 'approval-tool' | 'approval-args', string> {
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

/** Where result files go: the runner's temp folder (cleaned after the job), else the OS's. */
export function resultDirectory(runnerTemp: string | undefined): string {
  const directory = join(runnerTemp || tmpdir(), 'hub-action')
  mkdirSync(directory, { recursive: true })
  return directory
}

/**
 * Write a result file. Every string is redacted before JSON escapes it (a secret holding `"` or
 * `\` would no longer match once escaped), then the text once more, for object keys.
 */
export function writeJsonFile(directory: string, name: string, content: unknown): string {
  const path = join(directory, safeFileName(name))
  const json = JSON.stringify(content, (_key, value: unknown) => (typeof value === 'string' ? redact(value) : value), 2)
  writeFileSync(path, `${redact(json)}\n`, { encoding: 'utf8', mode: 0o600 })
  return path
}

/** Names come from the hub (a run id): only safe characters, and short enough for any file system. */
const MAX_FILE_NAME = 100

function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_')
  if (safe.length <= MAX_FILE_NAME) return safe
  // Cut, with a digest of the whole name so two long names still differ.
  const extension = extname(safe).slice(0, 10)
  const digest = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 12)
  return `${safe.slice(0, MAX_FILE_NAME - extension.length - digest.length - 1)}-${digest}${extension}`
}
