/**
 * The rows of the commands of a run's life (the table is ../index.ts). `run` is loaded with the
 * action, the one command that must start fast; wait, cancel and approve only when asked for.
 */
import { outputNames, type Command } from '../command.js'
import type { RunOutputName } from './publish.js'
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

export const run: Command<'run'> = {
  outputs: RUN_OUTPUTS,
  load: () => Promise.resolve({ step: runStep, plan: runPlan }),
}

export const wait: Command<'wait'> = {
  outputs: RUN_OUTPUTS,
  load: async () => {
    const { waitPlan, waitStep } = await import('./lifecycle-steps.js')
    return { step: waitStep, plan: waitPlan }
  },
}

export const cancel: Command<'cancel'> = {
  outputs: ['run-id', 'cancel-result', 'phase'],
  load: async () => {
    const { cancelPlan, cancelStep } = await import('./lifecycle-steps.js')
    return { step: cancelStep, plan: cancelPlan }
  },
}

export const approve: Command<'approve'> = {
  outputs: RUN_OUTPUTS,
  load: async () => {
    const { waitPlan, approveStep } = await import('./lifecycle-steps.js')
    return { step: approveStep, plan: waitPlan }
  },
}
