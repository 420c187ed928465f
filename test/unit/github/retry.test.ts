/**
 * The GitHub retry plugin (src/github/retry.ts) through the real client, on a MockAgent: which
 * answers it sends again, how long it waits (recorded, not slept), and the writes it never repeats.
 */
import { MockAgent } from 'undici'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient, MAX_RATE_LIMIT_WAIT_SECONDS } from '../../../src/github/client.js'
import { GitHubError } from '../../../src/github/errors.js'
import { GITHUB_RETRY_STATUS } from '../../../src/github/retry.js'

const API = 'https://api.github.test'
const REPO = '/repos/acme/fleet'
const COMMENTS = `${REPO}/issues/3/comments`
const TRANSIENT =
  'Something went wrong while executing your query. Please include `A1B2:3C4D` when reporting this issue.'

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | { lost: string }

let agent: MockAgent
let sent: string[]
let waits: number[]
let logged: string[]

/** Answers, in order, for `method path`; every request is recorded in `sent`. */
function answer(method: string, path: string, ...answers: Answer[]) {
  const pool = agent.get(API)
  for (const next of answers) {
    const scope = pool.intercept({ path, method })
    if ('lost' in next) {
      scope.replyWithError(Object.assign(new Error('socket hang up'), { code: next.lost }))
      continue
    }
    scope.reply(({ method: m, path: p }) => {
      sent.push(`${m} ${p}`)
      return {
        statusCode: next.status,
        data: JSON.stringify(next.body ?? {}),
        responseOptions: { headers: { 'content-type': 'application/json; charset=utf-8', ...next.headers } },
      }
    })
  }
}

function client(retries = 2) {
  return createGitHubClient({
    token: 'ghs_retry_plugin_test_token',
    apiUrl: API,
    userAgent: 'hub-action/test',
    retries,
    retryDelayMs: 1_000,
    writeSpacingMs: 0,
    dispatcher: agent,
    sleep: (ms) => {
      waits.push(ms)
      return Promise.resolve()
    },
    log: (message) => logged.push(message),
  })
}

async function failure(promise: Promise<unknown>): Promise<GitHubError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(GitHubError)
  return error as GitHubError
}

const comment = () =>
  client().request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
    owner: 'acme',
    repo: 'fleet',
    issue_number: 3,
    body: 'x',
  })

beforeEach(() => {
  agent = new MockAgent()
  agent.disableNetConnect()
  sent = []
  waits = []
  logged = []
})

afterEach(async () => {
  await agent.close()
})

describe('the GitHub retry plugin: which answers are sent again', () => {
  it.each([500, 502, 503, 504, 408, 429])('retries a GET answered %i, waiting the jittered backoff', async (status) => {
    answer('GET', REPO, { status }, { status: 200, body: { name: 'fleet' } })
    const { data } = await client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'fleet' })
    expect(data).toMatchObject({ name: 'fleet' })
    expect(sent).toHaveLength(2)
    // attempt 1 of a 1 s base: half fixed, half random
    expect(waits).toHaveLength(1)
    expect(waits[0]).toBeGreaterThanOrEqual(500)
    expect(waits[0]).toBeLessThanOrEqual(1_000)
    expect(logged).toEqual([
      expect.stringMatching(new RegExp(`^GitHub: GET ${API}${REPO} answered ${status}; retrying in \\d+ ms\\.$`)),
    ])
  })

  it('gives up after `retries` retries with the last answer, the waits doubling', async () => {
    answer('GET', REPO, { status: 502 }, { status: 502 }, { status: 503 })
    const error = await failure(client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'fleet' }))
    expect(error.status).toBe(503)
    expect(sent).toHaveLength(3)
    expect(waits[0]).toBeLessThanOrEqual(1_000)
    expect(waits[1]).toBeGreaterThanOrEqual(1_000)
    expect(waits[1]).toBeLessThanOrEqual(2_000)
  })

  it.each([400, 401, 404, 409, 410, 422, 501])('does not retry %i', async (status) => {
    answer('GET', REPO, { status, body: { message: 'no' } })
    expect(
      (await failure(client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'fleet' }))).status,
    ).toBe(status)
    expect(sent).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it('retries only what the policy names: 408, 429, 500, 502, 503 and 504', () => {
    expect([...GITHUB_RETRY_STATUS].sort()).toEqual([408, 429, 500, 502, 503, 504])
  })

  it('retries a GET that lost its connection, and says so', async () => {
    answer('GET', REPO, { lost: 'ECONNRESET' }, { status: 200, body: { name: 'fleet' } })
    await client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'fleet' })
    expect(sent).toHaveLength(1)
    expect(logged).toEqual([expect.stringMatching(/GET .* lost its connection; retrying in \d+ ms\.$/)])
  })
})

describe('the GitHub retry plugin and GraphQL', () => {
  it('retries "Something went wrong while executing your query" (a 200) as a 500', async () => {
    answer(
      'POST',
      '/graphql',
      { status: 200, body: { data: null, errors: [{ message: TRANSIENT }] } },
      { status: 200, body: { data: { viewer: { login: 'octocat' } } } },
    )
    const data = await client().graphql<{ viewer: { login: string } }>('query { viewer { login } }')
    expect(data.viewer.login).toBe('octocat')
    expect(sent).toEqual(['POST /graphql', 'POST /graphql'])
    expect(logged).toEqual([expect.stringMatching(/^GitHub: POST .*\/graphql answered 500; retrying in \d+ ms\.$/)])
  })

  it('fails as a server error once the retries are spent', async () => {
    const transient = { status: 200, body: { data: null, errors: [{ message: TRANSIENT }] } }
    answer('POST', '/graphql', transient, transient, transient)
    const error = await failure(client().graphql('query { viewer { login } }'))
    expect(error.status).toBe(500)
    expect(error.githubMessage).toContain('Something went wrong')
    expect(error.hint).toMatch(/re-run the job later/)
    expect(sent).toHaveLength(3)
  })

  it('does not retry a GraphQL answer with any other error', async () => {
    answer('POST', '/graphql', { status: 200, body: { data: null, errors: [{ message: 'Field "x" does not exist' }] } })
    await expect(client().graphql('query { x }')).rejects.toThrow(/does not exist/)
    expect(sent).toHaveLength(1)
  })

  it('sends a GraphQL query again after a 502: a query creates nothing', async () => {
    answer('POST', '/graphql', { status: 502 }, { status: 200, body: { data: { viewer: { login: 'octocat' } } } })
    await client().graphql('query { viewer { login } }')
    expect(sent).toHaveLength(2)
  })
})

describe('the GitHub retry plugin and Retry-After', () => {
  it.each([
    ['7', 7_000],
    [String(MAX_RATE_LIMIT_WAIT_SECONDS), MAX_RATE_LIMIT_WAIT_SECONDS * 1000],
    ['0', 0],
  ])('waits the %s s GitHub asks, not the backoff', async (retryAfter, waited) => {
    answer('GET', REPO, { status: 503, headers: { 'retry-after': retryAfter } }, { status: 200, body: {} })
    await client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'fleet' })
    expect(waits).toEqual([waited])
  })

  it(`gives up at once when GitHub asks for more than ${MAX_RATE_LIMIT_WAIT_SECONDS} s`, async () => {
    answer('GET', REPO, {
      status: 429,
      headers: { 'retry-after': String(MAX_RATE_LIMIT_WAIT_SECONDS + 1) },
      body: { message: 'Too many requests' },
    })
    const error = await failure(client().request('GET /repos/{owner}/{repo}', { owner: 'acme', repo: 'fleet' }))
    expect(error.status).toBe(429)
    expect(sent).toHaveLength(1)
    expect(waits).toEqual([])
  })
})

describe('the GitHub retry plugin and writes', () => {
  it('never sends a POST twice after a 5xx: the comment may have been made', async () => {
    answer('POST', COMMENTS, { status: 502 }, { status: 201, body: { id: 1 } })
    expect((await failure(comment())).status).toBe(502)
    expect(sent).toHaveLength(1)
    expect(logged).toEqual([])
  })

  it('never sends a POST twice after its answer was lost', async () => {
    answer('POST', COMMENTS, { lost: 'ECONNRESET' }, { status: 201, body: { id: 1 } })
    const error = await failure(comment())
    expect(error.status).toBeUndefined()
    expect(agent.pendingInterceptors()).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it('sends a POST again after a 429: GitHub refused it before doing anything', async () => {
    answer(
      'POST',
      COMMENTS,
      { status: 429, headers: { 'retry-after': '2' }, body: { message: 'Too many requests' } },
      { status: 201, body: { id: 1, html_url: 'https://github.test/c/1' } },
    )
    expect((await comment()).status).toBe(201)
    expect(sent).toHaveLength(2)
    expect(waits).toEqual([2_000])
  })

  it('sends a PATCH (an edit, the same each time) again after a 5xx', async () => {
    answer('PATCH', `${REPO}/issues/comments/1`, { status: 502 }, { status: 200, body: { id: 1 } })
    await client().request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
      owner: 'acme',
      repo: 'fleet',
      comment_id: 1,
      body: 'x',
    })
    expect(sent).toHaveLength(2)
  })
})
