/** The row of `query` (the table is ../index.ts): its inputs, and its code, which loads only when asked for. */
import { command } from '../command.js'
import { QuerySchema, querySettings } from './inputs.js'

export const query = command('query', {
  schema: QuerySchema,
  structured: true,
  build: (data) => ({ query: querySettings(data) }),
  outputs: ['count', 'result-file'],
  budgetSeconds: (part) => part.query.timeoutSeconds,
  load: async () => {
    const { queryPlan, queryStep } = await import('./step.js')
    return { step: queryStep, plan: queryPlan }
  },
})
