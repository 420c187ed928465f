/** The row of `rollout` (the table is ../index.ts): its inputs, and its code, which loads only when asked for. */
import { githubTokenProblems } from '../../settings/targets.js'
import { command, outputNames } from '../command.js'
import { RolloutSchema, rolloutSettings } from './inputs.js'
import type { RolloutOutputName } from './publish.js'

export const rollout = command('rollout', {
  schema: RolloutSchema,
  structured: true,
  // rollout writes no comment; on a pull request it still reads the changed manifests.
  problems: (data, { runner }) => githubTokenProblems({ ...data, comment: 'off' }, runner),
  build: (data) => ({ rollout: rolloutSettings(data) }),
  outputs: outputNames<RolloutOutputName>()([
    'rollout-state',
    'current-count',
    'in-progress-count',
    'failed-count',
    'not-reporting-count',
    'lagging',
    'result-file',
  ]),
  budgetSeconds: (part) => part.rollout.timeoutSeconds,
  load: async () => {
    const { rolloutPlan, rolloutStep } = await import('./step.js')
    return { step: rolloutStep, plan: rolloutPlan }
  },
})
