/**
 * End to end, an impact step that collected no target: a `manifests` glob that matches no file
 * fails a `fail-on-downstream` gate (a gate that checked nothing must not pass green), is a
 * warning naming the glob and the folder without one, and "changes no manifest" is said only on
 * a pull request, where it is true and the gate passes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  BASE_SHA,
  errorLines,
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

const hub = useHubEmulator()
const github = useGitHubEmulator()
const GLOB = 'deploy/**/*.yaml'
let workspace: { dir: string; cleanup: () => void }

beforeAll(() => {
  // the manifests live under k8s/, not where the glob looks
  workspace = makeWorkspace({
    'k8s/checkout.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: shop}\n',
    'conf/values.yaml': 'replicas: 3\n',
  })
})
afterAll(() => workspace.cleanup())

const onPush = (inputs: Record<string, string>) =>
  runStep({
    inputs: { command: 'impact', ...hubInputs(hub), ...inputs },
    env: { GITHUB_WORKSPACE: workspace.dir, GITHUB_EVENT_NAME: 'push', GITHUB_API_URL: 'http://127.0.0.1:9' },
  })

const warnings = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::warning'))

it('fails a fail-on-downstream gate when `manifests` matches no file, naming the glob and the folder searched', async () => {
  const result = await onPush({ manifests: GLOB, 'fail-on-downstream': '0' })
  expect(result.code).toBe(1)
  const [error, ...more] = errorLines(result)
  expect(more).toEqual([])
  expect(error).toContain('Impact: nothing was checked')
  expect(error).toContain(GLOB)
  expect(error).toContain(workspace.dir)
  expect(error).toContain('fail-on-downstream (0)')
  expect(result.stdout).not.toContain('none of the 0 target')
  // the hint's example is not the user's own glob echoed back
  const [warning] = warnings(result.stdout)
  expect(warning).toContain(GLOB)
  expect(warning).not.toContain(`e.g. ${GLOB}`)
  // not a pull request: nothing "changed" was looked for
  expect(result.summary).not.toContain('changed manifest')
  expect(result.summary).toContain('matched no file in the workspace')
})

it('passes without a gate, with a warning naming the glob and the folder searched', async () => {
  const result = await onPush({ manifests: GLOB })
  expect(result.code).toBe(0)
  const found = warnings(result.stdout)
  expect(found).toHaveLength(1)
  expect(found[0]).toContain(GLOB)
  expect(found[0]).toContain(workspace.dir)
  expect(result.summary).not.toContain('changed manifest')
})

it('fails the gate when the matched files declare no Kubernetes object', async () => {
  const result = await onPush({ manifests: 'conf/*.yaml', 'fail-on-downstream': '0' })
  expect(result.code).toBe(1)
  expect(errorLines(result).join('\n')).toContain(
    'Impact: nothing was checked: the 1 file(s) that `manifests` (`conf/*.yaml`) matched',
  )
})

it('passes the gate on a pull request that changes no matching manifest, and says so', async () => {
  github.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: 9,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    files: [{ filename: 'README.md', status: 'modified' }],
  })
  const result = await runStep({
    inputs: {
      command: 'impact',
      ...hubInputs(hub),
      'github-token': ACTIONS_TOKEN,
      manifests: 'k8s/**/*.yaml',
      'fail-on-downstream': '0',
      comment: 'off',
    },
    env: pullRequestEnv(github.url, workspace.dir),
    event: pullRequestEvent(9),
  })
  expect(result.code).toBe(0)
  expect(errorLines(result)).toEqual([])
  expect(warnings(result.stdout)).toEqual([])
  expect(result.summary).toContain('this pull request changes no object')
})

it('fails a rollout gate whose `manifests` matches no file, naming the glob and the folder searched', async () => {
  const result = await onPush({ command: 'rollout', manifests: GLOB, 'timeout-seconds': '5' })
  expect(result.code).toBe(1)
  const [error] = errorLines(result)
  expect(error).toContain('No rollout target was found')
  expect(error).toContain(GLOB)
  const [warning] = warnings(result.stdout)
  expect(warning).toContain(GLOB)
  expect(warning).toContain(workspace.dir)
})
