/**
 * The rows of the commands of a run's life (the table is ../index.ts): their inputs and their
 * code. `run` is loaded with the action, the one command that must start fast; wait, cancel and
 * approve only when asked for.
 */
import { command, outputsOf, resultFile } from '../command.js'
import {
  APPROVE_INPUTS,
  ApproveSchema,
  approveSettings,
  CANCEL_INPUTS,
  CancelSchema,
  serviceAccountProblems,
  WAIT_INPUTS,
  waitingRouteProblems,
  WaitSchema,
  waitSettings,
} from './lifecycle-inputs.js'
import { loadStructuredParser } from '../../settings/structured.js'
import { loadSchemaValidator } from './output-schema.js'
import type { RunOutputName } from './publish.js'
import { outputSchemaProblems, RUN_INPUTS, RunSchema, runSettings } from './run-inputs.js'
import { runPlan, runStep } from './step.js'

/** Every output a run's step sets (`wait` and `approve` too; `cancel` two of them), declared. */
const RUN_OUTPUTS = outputsOf<RunOutputName>()({
  'run-id': {
    description: "The run's id, set as soon as the run exists (before waiting), so `if: cancelled()` steps can use it.",
  },
  phase: {
    description:
      "The run's last phase, in canonical spelling: Pending, Running, PendingApproval, Succeeded, Failed or Aborted. For `cancel`, the phase read back after the cancel.",
  },
  settled: {
    description:
      '`true` when the run reached a settled phase (Succeeded, Failed, Aborted or PendingApproval), else `false`.',
  },
  reused: { description: '`true` when the hub returned an existing run for the idempotency key.' },
  output: {
    description:
      "The agent's final answer (present when the run Succeeded), raw (secrets redacted). Pass it to scripts through `env:`.",
  },
  'output-markdown': {
    description:
      "The agent's final answer as the job summary shows it, for publishing it (release notes, a page): no raw HTML, no @mention that notifies, no image that loads, links only to http(s) and mailto, invisible characters shown as `<U+XXXX>`.",
  },
  'approval-id': {
    description:
      'When the run ended the step at the approval gate (`on-approval: succeed` or `fail`): the id of the pending approval, for `approve`.',
  },
  'approval-tool': {
    description:
      'When the run ended the step at the approval gate: the tool the agent asks to call (text from the hub: pass it through `env`, never inline it in a script).',
  },
  'approval-args': {
    description:
      "When the run ended the step at the approval gate: the call's arguments as JSON (text from the hub: pass it through `env`, never inline it in a script).",
  },
  'structured-output': {
    description:
      'With `output-schema`: the last fenced `json` block of the answer, validated against the schema, as compact JSON (text from the agent: pass it through `env`). Empty otherwise.',
  },
  'cost-usd': {
    description:
      "What the step's runs cost in US dollars, as a decimal string (`0.004215`): each run's `usdMicros` plus those of the child runs its detail lists (at most 50), divided by 1,000,000. For `run`, `wait` and `approve`; empty when no run detail was read.",
  },
  'input-tokens': {
    description: "Input tokens of the step's runs and their listed child runs, summed like `cost-usd`.",
  },
  'output-tokens': {
    description: "Output tokens of the step's runs and their listed child runs, summed like `cost-usd`.",
  },
  'result-file': resultFile('hub-action/run-result', 2),
})

const run = command('run', {
  summary: 'start an agent run and wait for it',
  inputs: RUN_INPUTS,
  schema: RunSchema,
  // `output-schema` is JSON Schema: the parser and the validator load only when it is given.
  prepare: async (input) => {
    if (input('output-schema').trim() === '') return
    await loadStructuredParser()
    await loadSchemaValidator()
  },
  problems: (data, { raw }) => [
    ...waitingRouteProblems(raw['cluster-id'], data),
    ...outputSchemaProblems(data['output-schema']),
  ],
  build: (data, { runner, raw }) => ({ run: runSettings(data, runner, raw.token) }),
  outputs: RUN_OUTPUTS,
  budgetSeconds: (part) => part.run.timeoutSeconds,
  load: () => Promise.resolve({ step: runStep, plan: runPlan }),
})

const wait = command('wait', {
  summary: 'wait for the run `run-id` like `run` does',
  inputs: WAIT_INPUTS,
  schema: WaitSchema,
  problems: (data, { raw }) => waitingRouteProblems(raw['cluster-id'], data),
  build: (data) => ({ wait: waitSettings(data) }),
  outputs: RUN_OUTPUTS,
  budgetSeconds: (part) => part.wait.timeoutSeconds,
  load: async () => {
    const { waitPlan, waitStep } = await import('./lifecycle-steps.js')
    return { step: waitStep, plan: waitPlan }
  },
})

const cancel = command('cancel', {
  summary: 'cancel the run `run-id`',
  inputs: CANCEL_INPUTS,
  schema: CancelSchema,
  commonProblems: (raw) => serviceAccountProblems('cancel', raw['cluster-id']),
  build: (data) => ({ cancel: Object.freeze({ runId: data['run-id'] }) }),
  outputs: {
    'run-id': RUN_OUTPUTS['run-id'],
    'cancel-result': {
      description:
        'For `cancel`: what the hub answered: `cancelling` (cut on the replica that took it), `not-cancelling` (not executing there: parked at an approval, then Aborted at once, or on another replica), or `already-ended`. How the run ended is `phase`, read back after the cancel.',
    },
    phase: RUN_OUTPUTS.phase,
  },
  // One request with its own ceiling.
  budgetSeconds: () => undefined,
  load: async () => {
    const { cancelPlan, cancelStep } = await import('./lifecycle-steps.js')
    return { step: cancelStep, plan: cancelPlan }
  },
})

const approve = command('approve', {
  summary: 'resolve the approval the run `run-id` waits for, then wait for it',
  inputs: APPROVE_INPUTS,
  schema: ApproveSchema,
  commonProblems: (raw) => serviceAccountProblems('approve', raw['cluster-id']),
  build: (data) => ({ approve: approveSettings(data), wait: waitSettings(data) }),
  outputs: RUN_OUTPUTS,
  budgetSeconds: (part) => part.wait.timeoutSeconds,
  load: async () => {
    const { waitPlan, approveStep } = await import('./lifecycle-steps.js')
    return { step: approveStep, plan: waitPlan }
  },
})

/** The family's rows, in the order the table lists them: the commands that start, follow or decide an agent's run. */
export const RUNS = { run, wait, cancel, approve }
