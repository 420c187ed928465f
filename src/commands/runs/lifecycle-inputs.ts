/**
 * Inputs of the run lifecycle: the waiting policies `run`, `wait` and `approve` share, the
 * `run-id` the later commands act on, the approval decision, and the combinations the
 * service-account route cannot serve (it has no cancel and no inbox: docs/hub-facts.md, "Agents provider").
 */
import * as z from '../../zod.js'
import { boolean, oneOf, seconds, quoteInput, TIMING_INPUTS, type InputDeclarations } from '../../settings/fields.js'
import type { StepSettings } from '../../settings/settings.js'

export type LifecycleCommand = 'wait' | 'cancel' | 'approve'

/** How a step waits for a run: the same policies whether it started the run or attached to it. */
export interface WaitSettings {
  timeoutSeconds: number
  onTimeout: 'fail' | 'warn' | 'cancel'
  onApproval: 'wait' | 'fail' | 'succeed'
  pendingTimeoutSeconds: number
  onCancel: 'detach' | 'cancel'
  /** Log each finished step within 10 s (holds of 10 s), or hold each wait up to 50 s and not. */
  liveSteps: boolean
  /** A run that Succeeded with an empty (or blank) answer passes; by default it fails the step. */
  allowEmptyOutput: boolean
}

export interface AttachSettings extends WaitSettings {
  runId: string
}

/** The settings of the `wait`, `cancel` and `approve` steps (their rows are ./index.ts). */
export type WaitStepSettings = StepSettings<'wait', { wait: Readonly<AttachSettings> }>
export type CancelStepSettings = StepSettings<'cancel', { cancel: Readonly<{ runId: string }> }>
export type ApproveStepSettings = StepSettings<
  'approve',
  { approve: Readonly<ApproveSettings>; wait: Readonly<AttachSettings> }
>

export interface ApproveSettings {
  runId: string
  decision: 'approve' | 'deny' | 'answer'
  /** Sent with the decision; required for `answer`. */
  response: string | undefined
  /** Refuse unless the pending tool call is this tool. */
  expectTool: string | undefined
  /** Refuse unless the pending approval is this one (the one a reviewer was shown). */
  approvalId: string | undefined
}

/** Run ids and inbox ids the hub hands out: no spaces, nothing a URL path would need escaped much. */
const HUB_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,252}$/
/** A response is a human's short answer, not a document. */
const MAX_RESPONSE_CHARS = 16 * 1024

export const WAITING_FIELDS = {
  'on-timeout': oneOf(['fail', 'warn', 'cancel'], 'It says what to do when `timeout-seconds` runs out.'),
  'on-approval': oneOf(['wait', 'fail', 'succeed'], 'It says what to do while a run awaits approval.'),
  'pending-timeout-seconds': seconds(
    'Use a whole number of seconds such as 300 for 5 minutes: it bounds how long a run may stay Pending.',
    1,
  ),
  'on-cancel': oneOf(['detach', 'cancel'], 'It says what happens to the run when the job is cancelled.'),
  'live-steps': boolean(),
  'allow-empty-output': boolean(),
}

/** WAITING_FIELDS, declared; `timeout-seconds` and `on-timeout` are the families' shared ones (settings/fields.ts). */
export const WAITING_INPUTS = {
  'on-timeout': TIMING_INPUTS['on-timeout'],
  'on-approval': {
    description:
      'While the run waits for a human to approve a tool call: `wait` (keep waiting, logging what needs approval), `fail`, or `succeed` (end the step there and set `approval-id`, `approval-tool` and `approval-args` for a later `approve`).',
    default: 'wait',
  },
  'pending-timeout-seconds': {
    description:
      'How long a run may stay Pending before the step fails with an explanation (budget exhausted, model credential missing, agent suspended).',
    default: '300',
  },
  'on-cancel': {
    description:
      'When the job is cancelled: `detach` (the run goes on) or `cancel` (cancel it on the hub; not with `cluster-id`).',
    default: 'detach',
  },
  'live-steps': {
    description:
      'Log each step the agent finishes within 10 s (`true`: one request per 10 s per waiting job), or not (`false`: each wait is held up to 50 s, about 1.2 requests a minute, for many jobs waiting on one hub). Either way the step sees the run settle at once.',
    default: 'true',
  },
  'allow-empty-output': {
    description:
      '`false`: a run that Succeeded with an empty (or blank) answer fails the step (the agent produced no answer). `true`: such a run passes. For `run`, `wait` and `approve`.',
    default: 'false',
  },
} as const satisfies InputDeclarations

const RUN_ID_INPUT = {
  'run-id': {
    description:
      'For `wait`, `cancel` and `approve`: the id of the run, e.g. `${{ steps.start.outputs.run-id }}` or a `needs.<job>.outputs` value.',
    default: '',
  },
} as const satisfies InputDeclarations

export const WAIT_INPUTS = {
  ...RUN_ID_INPUT,
  'timeout-seconds': TIMING_INPUTS['timeout-seconds'],
  ...WAITING_INPUTS,
} as const satisfies InputDeclarations

export const CANCEL_INPUTS = RUN_ID_INPUT

export const APPROVE_INPUTS = {
  ...RUN_ID_INPUT,
  decision: {
    description:
      'For `approve`: `approve` (let the agent make the call) or `deny` (with `response` as the reason). `answer` is refused at an approval: the hub marks the approval answered and the run stays at the gate; deny with your words as `response` instead.',
    default: 'approve',
  },
  response: {
    description: 'For `approve`: text sent with the decision; required with `decision: answer`.',
    default: '',
  },
  'expect-tool': {
    description: 'For `approve`: refuse, resolving nothing, unless the pending tool call is to this tool.',
    default: '',
  },
  'approval-id': {
    description:
      'For `approve`: refuse, resolving nothing, unless the run waits for this approval (pass the `approval-id` output of the step that stopped at the gate, so only what the reviewer was shown is approved).',
    default: '',
  },
  'timeout-seconds': TIMING_INPUTS['timeout-seconds'],
  ...WAITING_INPUTS,
} as const satisfies InputDeclarations

const runId = (command: LifecycleCommand) =>
  z.string().check(
    z.trim(),
    z.minLength(1, {
      error: `is required for \`command: ${command}\`: the id of the run, e.g. \`\${{ steps.start.outputs.run-id }}\`.`,
      abort: true,
    }),
    z.regex(HUB_ID, {
      error: (issue) =>
        `${quoteInput(issue.input)} is not a run id (letters, digits, '.', '_', ':' and '-'). Pass the \`run-id\` output of the step that started it.`,
    }),
  )

const optionalId = z.string().check(
  z.trim(),
  z.refine((v) => v === '' || HUB_ID.test(v), {
    error: (issue) =>
      `${quoteInput(issue.input)} is not an approval id (letters, digits, '.', '_', ':' and '-'). Pass the \`approval-id\` output of the step that stopped at the gate, or leave it empty.`,
  }),
)

export const WaitSchema = z.object({
  'run-id': runId('wait'),
  'timeout-seconds': seconds(
    'Use a whole number of seconds such as 1800 for 30 minutes: it bounds how long the step waits for the run.',
    1,
  ),
  ...WAITING_FIELDS,
})

export const CancelSchema = z.object({ 'run-id': runId('cancel') })

export const ApproveSchema = z
  .object({
    'run-id': runId('approve'),
    decision: oneOf(['approve', 'deny', 'answer'], 'It says how the pending tool call is resolved.'),
    response: z.string().check(
      z.maxLength(MAX_RESPONSE_CHARS, {
        error: `is longer than ${MAX_RESPONSE_CHARS} characters: keep the answer short.`,
      }),
    ),
    'expect-tool': z.string().check(z.trim()),
    'approval-id': optionalId,
    'timeout-seconds': seconds(
      'Use a whole number of seconds such as 1800 for 30 minutes, or 0 to resolve the approval and return without waiting for the run.',
      0,
    ),
    ...WAITING_FIELDS,
  })
  .check(
    z.refine((v) => v.decision !== 'answer' || v.response.trim() !== '', {
      path: ['response'],
      error: 'is required with `decision: answer`: the text the agent receives as the answer.',
    }),
  )

/** The waiting inputs of a command that waits: WAITING_FIELDS and its own `timeout-seconds`. */
type WaitingInputs = z.output<z.ZodMiniObject<typeof WAITING_FIELDS>> & { 'timeout-seconds': number }

/** The waiting policies, read the same way for `run`, `wait` and `approve`. */
export function waitPolicy(raw: WaitingInputs): WaitSettings {
  return {
    timeoutSeconds: raw['timeout-seconds'],
    onTimeout: raw['on-timeout'],
    onApproval: raw['on-approval'],
    pendingTimeoutSeconds: raw['pending-timeout-seconds'],
    onCancel: raw['on-cancel'],
    liveSteps: raw['live-steps'],
    allowEmptyOutput: raw['allow-empty-output'],
  }
}

export function waitSettings(raw: WaitingInputs & { 'run-id': string }): Readonly<AttachSettings> {
  return Object.freeze({ runId: raw['run-id'], ...waitPolicy(raw) })
}

export function approveSettings(raw: z.infer<typeof ApproveSchema>): Readonly<ApproveSettings> {
  return Object.freeze({
    runId: raw['run-id'],
    decision: raw.decision,
    response: raw.response.trim() === '' ? undefined : raw.response,
    expectTool: raw['expect-tool'] || undefined,
    approvalId: raw['approval-id'] || undefined,
  })
}

const SERVICE_ACCOUNT_ROUTE = 'the service-account route (`cluster-id`) has no'

/**
 * What the service-account route cannot do, refused before any request: a cancel sent there
 * is a plain-text 404 and the run keeps spending; the inbox exists on the user route only.
 */
export function serviceAccountProblems(command: string, clusterId: string): string[] {
  if (!clusterId.trim()) return []
  if (command === 'cancel') {
    return [
      `Input \`cluster-id\`: \`command: cancel\` cannot work there: ${SERVICE_ACCOUNT_ROUTE} cancel, so the run is not cancellable with a service-account token. Cancel it with a user token (leave \`cluster-id\` empty), or in the hub.`,
    ]
  }
  if (command === 'approve') {
    return [
      `Input \`cluster-id\`: \`command: approve\` cannot work there: ${SERVICE_ACCOUNT_ROUTE} inbox, approvals exist on the user route only. Approve with a user token of the workspace (leave \`cluster-id\` empty).`,
    ]
  }
  return []
}

/** The waiting policies that would need a cancel, which the service-account route has not (`run`, `wait`). */
export function waitingRouteProblems(
  clusterId: string,
  waiting: Pick<WaitingInputs, 'on-timeout' | 'on-cancel'>,
): string[] {
  if (!clusterId.trim()) return []
  const problems: string[] = []
  if (waiting['on-timeout'] === 'cancel') {
    problems.push(
      `Input \`on-timeout\`: "cancel" cannot work with \`cluster-id\`: ${SERVICE_ACCOUNT_ROUTE} cancel, so the run would keep running (and spending) on the hub. Use \`fail\` or \`warn\`, or a user token without \`cluster-id\`.`,
    )
  }
  if (waiting['on-cancel'] === 'cancel') {
    problems.push(
      `Input \`on-cancel\`: "cancel" cannot work with \`cluster-id\`: ${SERVICE_ACCOUNT_ROUTE} cancel, so the run would keep running (and spending) on the hub after the job is cancelled. Use \`detach\`, or a user token without \`cluster-id\`.`,
    )
  }
  return problems
}
