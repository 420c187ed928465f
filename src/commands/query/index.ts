/** The row of `query` (the table is ../index.ts): its inputs, and its code, which loads only when asked for. */
import { command, resultFile } from '../command.js'
import { QUERY_INPUTS, QuerySchema, querySettings } from './inputs.js'

export const query = command('query', {
  summary: 'a fleet graph query, every page',
  inputs: QUERY_INPUTS,
  schema: QuerySchema,
  structured: true,
  build: (data) => ({ query: querySettings(data) }),
  outputs: {
    count: { description: 'For `query`, the number of objects collected.' },
    'result-file': resultFile('hub-action/query-result', 1),
  },
  budgetSeconds: (part) => part.query.timeoutSeconds,
  load: async () => {
    const { queryPlan, queryStep } = await import('./step.js')
    return { step: queryStep, plan: queryPlan }
  },
})
