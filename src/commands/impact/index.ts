/**
 * The row of `impact` (the table is ../index.ts): its inputs, and its code, which with yaml and
 * the graph loads only when asked for.
 */
import { command, outputsOf, resultFile } from '../command.js'
import { IMPACT_INPUTS, ImpactSchema, impactProblems, impactSettings } from './inputs.js'
import type { ImpactOutputName } from './publish.js'

export const impact = command('impact', {
  summary: 'what a change to Kubernetes objects would touch across the fleet',
  inputs: IMPACT_INPUTS,
  schema: ImpactSchema,
  structured: true,
  problems: (data, { raw, runner, hubUrl }) => impactProblems(data, runner, hubUrl, raw['mcp-trusted-origin']),
  build: (data) => ({ impact: impactSettings(data) }),
  outputs: outputsOf<ImpactOutputName>()({
    'targets-count': {
      description:
        'For `impact`, distinct objects named by `targets` or found in manifests and in the allowed scope (`allowed-namespaces`, `allowed-kinds`), before edge lookup.',
    },
    'upstream-count': { description: 'For `impact`, distinct upstream dependencies across all targets and edges.' },
    'downstream-count': { description: 'For `impact`, distinct downstream dependents across all targets and edges.' },
    'associated-count': { description: 'For `impact`, distinct associated objects across all targets and edges.' },
    report: {
      description: "For `impact`, the report as markdown (the comment's version, at most 65,536 characters).",
    },
    'comment-url': {
      description: 'For `impact`, the URL of the pull-request comment, when one was written or is up to date.',
    },
    'result-file': resultFile('hub-action/impact-report', 1),
  }),
  budgetSeconds: (part) => part.impact.timeoutSeconds,
  load: async () => {
    const { impactPlan, impactStep } = await import('./step.js')
    return { step: impactStep, plan: impactPlan }
  },
})
