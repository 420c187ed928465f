/** The row of `rollout` (the table is ../index.ts): its inputs, and its code, which loads only when asked for. */
import { githubTokenProblems } from '../../settings/targets.js'
import { command, outputsOf, resultFile } from '../command.js'
import { ROLLOUT_INPUTS, RolloutSchema, rolloutSettings } from './inputs.js'
import type { RolloutOutputName } from './publish.js'

export const rollout = command('rollout', {
  summary: 'wait until the deployed targets are current on every edge',
  inputs: ROLLOUT_INPUTS,
  schema: RolloutSchema,
  structured: true,
  // rollout writes no comment; on a pull request it still reads the changed manifests.
  problems: (data, { runner }) => githubTokenProblems({ ...data, comment: 'off' }, runner),
  build: (data) => ({ rollout: rolloutSettings(data) }),
  outputs: outputsOf<RolloutOutputName>()({
    'rollout-state': { description: 'For `rollout`: `current`, `failed` or `timeout`.' },
    'current-count': { description: 'For `rollout`, the edge × target cells current at the end.' },
    'in-progress-count': { description: 'For `rollout`, the cells still rolling out at the end.' },
    'failed-count': { description: 'For `rollout`, the cells failed (deadline exceeded, stalled, failed job…).' },
    // What ./observe.ts and ./poll.ts make not reporting: a watched edge that is not engaged at the last look.
    'not-reporting-count': {
      description:
        'For `rollout`, the cells on a watched edge that was not engaged at the last look (a named edge that is not engaged, or an edge that stopped reporting during the step). A target missing on an engaged edge is in progress, and one of a kind the graph does not sync is not a cell (it is listed as not checked).',
    },
    lagging: {
      description:
        'For `rollout`, a JSON list of the cells not current, as ids and states only (edge, group, kind, namespace, name, state); reasons are in `result-file`.',
    },
    'result-file': resultFile('hub-action/rollout-result', 1),
  }),
  budgetSeconds: (part) => part.rollout.timeoutSeconds,
  load: async () => {
    const { rolloutPlan, rolloutStep } = await import('./step.js')
    return { step: rolloutStep, plan: rolloutPlan }
  },
})
