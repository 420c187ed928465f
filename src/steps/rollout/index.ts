/** The row of `rollout` (the table is ../index.ts): its code loads only when asked for. */
import { outputNames, type Command } from '../command.js'
import type { RolloutOutputName } from './publish.js'

export const rollout: Command<'rollout'> = {
  outputs: outputNames<RolloutOutputName>()([
    'rollout-state',
    'current-count',
    'in-progress-count',
    'failed-count',
    'not-reporting-count',
    'lagging',
    'result-file',
  ]),
  load: async () => {
    const { rolloutPlan, rolloutStep } = await import('./step.js')
    return { step: rolloutStep, plan: rolloutPlan }
  },
}
