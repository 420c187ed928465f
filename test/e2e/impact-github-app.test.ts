/**
 * End to end, the GitHub side of `command: impact` beyond the Actions token: a GitHub App
 * installation token (its own bot login; GET /user refused, as GitHub does) finds and updates
 * its own sticky comment, and a secondary rate limit on the comment write is waited out as
 * GitHub's `retry-after` asks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  BASE_SHA,
  expectSecretsNowhere,
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
  type ActionRun,
} from './harness.ts'
import { ACTIONS_TOKEN, DEFAULT_TOKENS, secondaryRateLimit } from '../../emulator/index.ts'

const PR = 11
const APP_TOKEN = 'ghs_hubbotinstallation00000000000000'
const APP_BOT_LOGIN = 'hub-bot[bot]'
const CHECKOUT_EU = '[{kind: Deployment, group: apps, name: checkout, namespace: shop, edge: prod-eu}]'

const hub = useHubEmulator()
const github = useGitHubEmulator({ tokens: { ...DEFAULT_TOKENS, [APP_TOKEN]: { login: APP_BOT_LOGIN, type: 'Bot' } } })
let workspace: { dir: string; cleanup: () => void }

beforeAll(() => {
  workspace = makeWorkspace({})
})
afterAll(() => {
  workspace.cleanup()
})
beforeEach(() => {
  github.addPullRequest({ owner: OWNER, repo: REPO, number: PR, baseSha: BASE_SHA, headSha: HEAD_SHA, files: [] })
})

async function onPullRequest(githubToken: string, runId: string, headSha = HEAD_SHA): Promise<ActionRun> {
  return runStep({
    inputs: {
      command: 'impact',
      ...hubInputs(hub),
      'github-token': githubToken,
      targets: CHECKOUT_EU,
    },
    env: pullRequestEnv(github.url, workspace.dir, runId),
    event: pullRequestEvent(PR, BASE_SHA, headSha),
  })
}

const commentPosts = () => github.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/comments'))

describe('impact with a GitHub App installation token', () => {
  it("updates its first run's comment on the second run instead of posting another", async () => {
    const first = await onPullRequest(APP_TOKEN, '9001')
    expect(first.code).toBe(0)
    const [original, ...others] = github.comments(OWNER, REPO, PR)
    expect(others).toEqual([])
    expect(original?.user.login).toBe(APP_BOT_LOGIN)

    const second = await onPullRequest(APP_TOKEN, '9002', '5555555555555555555555555555555555555555')
    expect(second.code).toBe(0)
    const comments = github.comments(OWNER, REPO, PR)
    expect(comments.map((c) => [c.id, c.user.login])).toEqual([[original!.id, APP_BOT_LOGIN]])
    expect(comments[0]!.body).toContain('run=9002')
    expect(commentPosts()).toHaveLength(1)
    expect(github.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1)
    expect(second.outputs['comment-url']).toBe(original!.html_url)
    expectSecretsNowhere(second, [hub.token, APP_TOKEN], { 'comment body': comments[0]!.body })
  })
})

describe('a secondary rate limit on the comment write', () => {
  it('is waited out as retry-after asks, and the comment is written once', async () => {
    const limit = github.addFault(secondaryRateLimit({ method: 'POST', path: /\/issues\/\d+\/comments$/, times: 1 }, 1))
    const result = await onPullRequest(ACTIONS_TOKEN, '9101')
    expect(result.code).toBe(0)
    expect(limit.hits).toBe(1)
    const posts = commentPosts()
    expect(posts).toHaveLength(2)
    // the wait GitHub asked for (1 s) was made before the second attempt
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(1000)
    const comments = github.comments(OWNER, REPO, PR)
    expect(comments).toHaveLength(1)
    expect(result.outputs['comment-url']).toBe(comments[0]!.html_url)
    expect(result.stdout).toMatch(/secondary rate limit on POST .*waiting 1 s as GitHub asks/)
    expect(result.stdout).not.toMatch(/::warning::Could not comment/)
  })
})
