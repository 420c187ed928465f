/** The row of `impact` (the table is ../index.ts): its code, with yaml and the graph, loads only when asked for. */
import { outputNames, type Command } from '../command.js'
import type { ImpactOutputName } from './publish.js'

export const impact: Command<'impact'> = {
  outputs: outputNames<ImpactOutputName>()([
    'targets-count',
    'upstream-count',
    'downstream-count',
    'associated-count',
    'report',
    'comment-url',
    'result-file',
  ]),
  load: async () => {
    const { impactPlan, impactStep } = await import('./step.js')
    return { step: impactStep, plan: impactPlan }
  },
}
