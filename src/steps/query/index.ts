/** The row of `query` (the table is ../index.ts): its code loads only when asked for. */
import type { Command } from '../command.js'

export const query: Command<'query'> = {
  outputs: ['count', 'result-file'],
  load: async () => {
    const { queryPlan, queryStep } = await import('./step.js')
    return { step: queryStep, plan: queryPlan }
  },
}
