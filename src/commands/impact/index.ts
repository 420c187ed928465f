/**
 * The row of `impact` (the table is ../index.ts): its inputs, and its code, which with yaml and
 * the graph loads only when asked for.
 */
import { command, outputNames } from '../command.js'
import { ImpactSchema, impactProblems, impactSettings } from './inputs.js'
import type { ImpactOutputName } from './publish.js'

export const impact = command('impact', {
  schema: ImpactSchema,
  reads: ['mcp-trusted-origin'],
  structured: true,
  problems: (data, { raw, runner, hubUrl }) => impactProblems(data, runner, hubUrl, raw['mcp-trusted-origin']),
  build: (data) => ({ impact: impactSettings(data) }),
  outputs: outputNames<ImpactOutputName>()([
    'targets-count',
    'upstream-count',
    'downstream-count',
    'associated-count',
    'report',
    'comment-url',
    'result-file',
  ]),
  budgetSeconds: (part) => part.impact.timeoutSeconds,
  load: async () => {
    const { impactPlan, impactStep } = await import('./step.js')
    return { step: impactStep, plan: impactPlan }
  },
})
