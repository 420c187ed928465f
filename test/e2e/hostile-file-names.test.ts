/**
 * End to end, pull-request file names that forge log lines (issue 34 item 9): git allows a line
 * break in a file name, so a pull request can change `deploy/x.yaml` + newline + "Impact: nothing
 * downstream, approved", and a log line that names the file would print the second half as a
 * line of its own. Wherever the action shows such a name (the log, the job summary, the result
 * file), its line breaks and other control characters are shown escaped (`\n`): one line, never
 * two. dist/index.js against the hub and GitHub emulators, with a checkout holding such files.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import {
  BASE_SHA,
  HEAD_SHA,
  hubInputs,
  makeWorkspace,
  OWNER,
  pullRequestEnv,
  pullRequestEvent,
  REPO,
  runStep,
  useGitHubEmulator,
  useHubEmulator,
} from './harness.ts'
import { ACTIONS_TOKEN } from '../../emulator/index.ts'
import { readWorkflowCommands, shownLog } from '../oracles/workflow-commands.ts'

const PR = 9
const FORGED = 'Impact: nothing downstream, approved by the platform team'
/** In the pull request and in the checkout, not YAML: skipped, and named in the log. */
const BROKEN = `deploy/shop/a.yaml\n${FORGED}\r\n.yaml`
/** In the pull request, not in the checkout: skipped, and named in the log. */
const MISSING = `deploy/shop/b.yaml\n${FORGED} (2)\n.yaml`

const hub = useHubEmulator()
const github = useGitHubEmulator()
let workspace: { dir: string; cleanup: () => void }

beforeAll(() => {
  workspace = makeWorkspace({ [BROKEN]: 'kind: [unclosed\n' })
})
afterAll(() => workspace.cleanup())
beforeEach(() => {
  github.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: PR,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    files: [
      { filename: BROKEN, status: 'added' },
      { filename: MISSING, status: 'added' },
    ],
  })
})

it('line breaks in changed file names are shown escaped: no forged line in the log, the summary or the result file', async () => {
  const result = await runStep({
    inputs: {
      command: 'impact',
      ...hubInputs(hub),
      'github-token': ACTIONS_TOKEN,
      manifests: 'deploy/**',
      targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]',
      comment: 'off',
    },
    env: pullRequestEnv(github.url, workspace.dir, '7001'),
    event: pullRequestEvent(PR, BASE_SHA, HEAD_SHA),
  })
  const log = shownLog(readWorkflowCommands(result.stdout)).split('\n')
  // each name is on one line, its breaks escaped
  expect(log.filter((line) => line.includes('deploy/shop/a.yaml'))).not.toEqual([])
  for (const line of log.filter((line) => line.includes('deploy/shop/'))) expect(line).toContain(`\\n${FORGED}`)
  expect(log.filter((line) => line.startsWith(FORGED))).toEqual([])
  for (const text of [result.summary, ...Object.values(result.files)])
    expect(text.split('\n').filter((line) => line.trim().startsWith(FORGED))).toEqual([])
})
