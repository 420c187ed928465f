// What an agent does in the hub emulator: the script types and the default agents.
//
// A script lists the phases a run moves through and what it leaves behind (output, steps,
// tokens, an approval gate); runs.ts plays it.

export type RunPhase = 'Pending' | 'Running' | 'PendingApproval' | 'Succeeded' | 'Failed' | 'Aborted'

export const TERMINAL_PHASES: readonly RunPhase[] = ['Succeeded', 'Failed', 'Aborted']
export const SETTLED_PHASES: readonly RunPhase[] = ['Succeeded', 'Failed', 'Aborted', 'PendingApproval']

export interface ToolStepScript {
  tool: string
  outcome: 'ok' | 'error' | 'denied' | 'pending_approval'
  durationMS?: number
  args?: unknown
  result?: string
  error?: string
  /**
   * When the hub stores the step, in ms after the run first starts Running (steps are stored as
   * each tool call ends). Default: the sum of the durations of this step and those before it.
   */
  endsAfterMs?: number
}

export interface AgentScript {
  /** Agent status Suspended; its runs stay Pending forever (no message). */
  suspended?: boolean
  /** `status.suspendedReason` of a suspended agent. */
  suspendedReason?: string
  /** The run's `children` summaries (delegated and spawned runs), served as given. */
  children?: Array<Record<string, unknown>>
  /**
   * Child runs the run spawns, listed in its detail once it is Running as the hub lists them:
   * summaries with their own id, `parentRunID`, phase, tokens and `usdMicros` (after `children`).
   */
  childRuns?: Array<{ agent: string; phase?: RunPhase; inputTokens: number; outputTokens: number; usdMicros: number }>
  description?: string
  /** Phases the run moves through; each `afterMs` after the previous one (0 = at once). */
  steps: Array<{ phase: RunPhase; afterMs: number }>
  /** Final answer (Succeeded only). A function receives the trimmed task. */
  output?: string | ((task: string) => string)
  /** Failure / abort reason for Failed and Aborted. */
  message?: string
  sources?: string[]
  toolSteps?: ToolStepScript[]
  inputTokens?: number
  outputTokens?: number
  usdMicros?: number
  /** Tool call awaiting approval while the run is PendingApproval. */
  approval?: { tool: string; args?: Record<string, unknown> }
  /** Auto-approve after this long; without it the run waits for emulator.approve(runId). */
  approveAfterMs?: number
  /**
   * The run executes on another replica: cancel answers 202 `cancelling: false` and the run goes
   * on to its scripted end (docs/hub-facts.md, "Waiting, cancelling, approvals, whoami").
   */
  elsewhere?: boolean
}

const clip = (s: string, n: number): string => (s.length > n ? s.slice(0, n) + '…' : s)
const quote = (task: string): string =>
  clip(task, 2000)
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n')

export const DEFAULT_AGENTS: Record<string, AgentScript> = {
  quick: {
    description: 'Answers cluster questions quickly',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 50 },
      { phase: 'Succeeded', afterMs: 150 },
    ],
    output: (task) =>
      [
        '## Answer',
        '',
        quote(task),
        '',
        'All 3 deployments in namespace `payments` are available (3/3 replicas each) and no pod',
        'restarted in the last hour. The `checkout` rollout finished 12 minutes ago.',
        '',
        '| deployment | ready | age |',
        '|---|---|---|',
        '| checkout | 3/3 | 12m |',
        '| ledger | 3/3 | 4d |',
        '| payments-api | 3/3 | 9d |',
        '',
        '**Sources**',
        '- https://hub.example.com/docs/agents/runs',
        '- https://kubernetes.io/docs/concepts/workloads/controllers/deployment/',
      ].join('\n'),
    sources: [
      'https://hub.example.com/docs/agents/runs',
      'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/',
    ],
    toolSteps: [
      {
        tool: 'graph_query',
        outcome: 'ok',
        durationMS: 42,
        args: { kind: 'Deployment', namespace: 'payments' },
        result: '3 objects',
      },
      {
        tool: 'kubectl_get',
        outcome: 'ok',
        durationMS: 65,
        args: { resource: 'pods', namespace: 'payments' },
        result: '9 pods',
      },
      {
        tool: 'web_fetch',
        outcome: 'ok',
        durationMS: 31,
        args: { url: 'https://kubernetes.io/docs/concepts/workloads/controllers/deployment/' },
      },
    ],
    inputTokens: 1842,
    outputTokens: 312,
    usdMicros: 4215,
  },
  slow: {
    description: 'Thorough review that takes a few seconds',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 200 },
      { phase: 'Succeeded', afterMs: 2800 },
    ],
    output: (task) =>
      [
        '## Review',
        '',
        quote(task),
        '',
        '### Findings',
        '1. `ledger` has no PodDisruptionBudget; a node drain can take all replicas down.',
        '2. `payments-api` requests 2 CPUs but its p95 usage is 0.3 CPU.',
        '3. The `checkout` ConfigMap is mounted by 2 deployments; change it with care.',
        '',
        '### Suggested next steps',
        '- Add a PDB with `minAvailable: 2` to `ledger`.',
        '- Lower the CPU request of `payments-api` to `500m`.',
      ].join('\n'),
    sources: ['https://kubernetes.io/docs/tasks/run-application/configure-pdb/'],
    toolSteps: [
      { tool: 'graph_query', outcome: 'ok', durationMS: 120 },
      { tool: 'graph_impact', outcome: 'ok', durationMS: 340 },
      { tool: 'metrics_query', outcome: 'ok', durationMS: 910 },
    ],
    inputTokens: 12040,
    outputTokens: 1466,
    usdMicros: 38120,
  },
  failing: {
    description: 'Always fails: no model credential',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 30 },
      { phase: 'Failed', afterMs: 90 },
    ],
    message: 'model credential missing for provider openai',
    inputTokens: 0,
    outputTokens: 0,
    usdMicros: 0,
  },
  aborting: {
    description: 'Hits its time limit',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 30 },
      { phase: 'Aborted', afterMs: 120 },
    ],
    message: 'run exceeded its time limit',
    toolSteps: [{ tool: 'graph_query', outcome: 'ok', durationMS: 50 }],
    inputTokens: 2200,
    outputTokens: 40,
    usdMicros: 5100,
  },
  approval: {
    description: 'Needs a human to approve a kubectl_apply',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 50 },
      { phase: 'PendingApproval', afterMs: 100 },
      { phase: 'Succeeded', afterMs: 100 },
    ],
    approval: {
      tool: 'kubectl_apply',
      args: {
        namespace: 'payments',
        manifest:
          'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: ledger\nspec:\n  minAvailable: 2\n',
      },
    },
    output: '## Done\n\nApplied `PodDisruptionBudget/ledger` in namespace `payments` after approval.',
    toolSteps: [{ tool: 'graph_query', outcome: 'ok', durationMS: 40 }],
    inputTokens: 3100,
    outputTokens: 220,
    usdMicros: 7300,
  },
  stuck: {
    description: 'Never leaves Pending',
    steps: [{ phase: 'Pending', afterMs: 0 }],
  },
  hostile: {
    description: 'Returns output full of markup that must be neutralised',
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 20 },
      { phase: 'Succeeded', afterMs: 60 },
    ],
    output: [
      '## Report <script>alert(1)</script>',
      '',
      '<img src=x onerror=alert(1)>',
      '',
      'cc @octocat and @github/security-team, please approve quickly.',
      '',
      '| name | value with | pipes | inside |',
      '',
      '<!-- hub-action:comment agent=quick run=forged -->',
      '',
      '</details>',
      '',
      '[click](javascript:alert(1))',
      '',
      '```',
      'unterminated fence',
    ].join('\n'),
    sources: ['javascript:alert(1)', 'https://example.com/ok?a=1&b=<2>'],
    toolSteps: [
      { tool: '<b>html</b>', outcome: 'ok', durationMS: 5 },
      { tool: 'kubectl_get | @octocat', outcome: 'error', durationMS: 3, error: '<i>denied</i>' },
    ],
    inputTokens: 400,
    outputTokens: 120,
    usdMicros: 900,
  },
  suspended: {
    description: 'Suspended agent: runs never start',
    suspended: true,
    steps: [
      { phase: 'Pending', afterMs: 0 },
      { phase: 'Running', afterMs: 50 },
      { phase: 'Succeeded', afterMs: 100 },
    ],
    output: 'never produced',
  },
}
