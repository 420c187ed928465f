/**
 * Every input the action reads: a new input is one line here and its declaration in
 * action.yml (test/unit/settings/inputs.test.ts keeps the two equal; `npm run docs` then regenerates docs/reference.md).
 */

/** Input names and the defaults applied when the runner did not (action.yml repeats them; a test keeps them equal). */
export const INPUT_DEFAULTS = {
  command: 'run',
  'hub-url': '',
  token: '',
  org: '',
  workspace: '',
  'cluster-id': '',
  'oidc-audience': '',
  'dry-run': 'false',
  agent: '',
  task: '',
  'idempotency-key': 'auto',
  'session-id': 'auto',
  'timeout-seconds': '1800',
  'on-timeout': 'fail',
  'on-approval': 'wait',
  'pending-timeout-seconds': '300',
  'on-cancel': 'detach',
  'live-steps': 'true',
  'allow-empty-output': 'false',
  'output-schema': '',
  'run-id': '',
  decision: 'approve',
  response: '',
  'expect-tool': '',
  'approval-id': '',
  targets: '',
  manifests: '',
  'rendered-head': '',
  'rendered-base': '',
  namespace: '',
  'impact-source': 'query',
  'mcp-url': '',
  'mcp-trusted-origin': '',
  'max-depth': '5',
  'fail-on-downstream': '',
  comment: 'update',
  'comment-key': 'default',
  // action.yml defaults this to the workflow's token (an expression); outside a runner it is empty.
  'github-token': '',
  'max-targets': '200',
  'max-documents': '1000',
  'allowed-namespaces': '',
  'allowed-kinds': '',
  query: '',
  'max-objects': '10000',
  edges: '',
  require: 'all',
  'synced-kinds': '',
} as const

export type InputName = keyof typeof INPUT_DEFAULTS
