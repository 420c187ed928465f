/**
 * The rows of the commands of a run's life (the table is ../index.ts): their inputs and their
 * code. `run` is loaded with the action, the one command that must start fast; wait, cancel and
 * approve only when asked for.
 */
import { command, outputNames } from '../command.js'
import {
  ApproveSchema,
  approveSettings,
  CancelSchema,
  serviceAccountProblems,
  waitingRouteProblems,
  WaitSchema,
  waitSettings,
} from './lifecycle-inputs.js'
import { loadStructuredParser } from '../../settings/structured.js'
import { loadSchemaValidator } from './output-schema.js'
import type { RunOutputName } from './publish.js'
import { outputSchemaProblems, RunSchema, runSettings } from './run-inputs.js'
import { runPlan, runStep } from './step.js'

/** Every output a run's step sets (`wait` and `approve` too). */
const RUN_OUTPUTS = outputNames<RunOutputName>()([
  'run-id',
  'phase',
  'settled',
  'reused',
  'output',
  'output-markdown',
  'approval-id',
  'approval-tool',
  'approval-args',
  'structured-output',
  'cost-usd',
  'input-tokens',
  'output-tokens',
  'result-file',
])

export const run = command('run', {
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

export const wait = command('wait', {
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

export const cancel = command('cancel', {
  schema: CancelSchema,
  commonProblems: (raw) => serviceAccountProblems('cancel', raw['cluster-id']),
  build: (data) => ({ cancel: Object.freeze({ runId: data['run-id'] }) }),
  outputs: ['run-id', 'cancel-result', 'phase'],
  // One request with its own ceiling.
  budgetSeconds: () => undefined,
  load: async () => {
    const { cancelPlan, cancelStep } = await import('./lifecycle-steps.js')
    return { step: cancelStep, plan: cancelPlan }
  },
})

export const approve = command('approve', {
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
