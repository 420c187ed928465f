import { createServer, request as httpRequest, type Server } from 'node:http'
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  createGitHubClient,
  MAX_RATE_LIMIT_WAIT_SECONDS,
  type GitHubClientOptions,
} from '../../../src/github/client.js'
import { GitHubError } from '../../../src/github/errors.js'
import { Budget } from '../../../src/http/budget.js'
import { ACTIONS_TOKEN, secondaryRateLimit, startGitHubEmulator, type GitHubEmulator } from '../../../emulator/index.ts'

const O = 'acme'
const R = 'fleet'
const PR = 3
const FILES = `/repos/${O}/${R}/pulls/${PR}/files`

/** A primary rate limit resetting in an hour: longer than any wait the client makes. */
const HOUR_AHEAD_S = Math.ceil(Date.now() / 1000) + 3600

let emu: GitHubEmulator
let logged: string[]

function client(overrides: Partial<GitHubClientOptions> = {}) {
  return createGitHubClient({
    token: ACTIONS_TOKEN,
    apiUrl: emu.url,
    userAgent: 'hub-action/1.2.3',
    retryDelayMs: 1,
    writeSpacingMs: 0,
    log: (m) => logged.push(m),
    ...overrides,
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

beforeAll(async () => {
  emu = await startGitHubEmulator()
})

afterAll(async () => {
  await emu.close()
})

beforeEach(() => {
  emu.reset()
  logged = []
  emu.addPullRequest({
    owner: O,
    repo: R,
    number: PR,
    baseSha: 'a'.repeat(40),
    headSha: 'b'.repeat(40),
    files: [{ filename: 'x.yaml', status: 'added' }],
  })
})

describe('createGitHubClient', () => {
  it('sends the token, the user agent and the API version to GITHUB_API_URL (trailing slash tolerated)', async () => {
    const gh = client({ apiUrl: `${emu.url}/` })
    const { data } = await gh.request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
      owner: O,
      repo: R,
      pull_number: PR,
    })
    expect(data.map((f) => f.filename)).toEqual(['x.yaml'])
    const [sent] = emu.requests
    expect(sent?.path).toBe(FILES)
    expect(sent?.headers['authorization']).toBe(`token ${ACTIONS_TOKEN}`)
    expect(sent?.headers['user-agent']).toMatch(/^hub-action\/1\.2\.3 /)
  })

  it('retries a GET twice on 5xx, then succeeds', async () => {
    const fault = emu.addFault({ method: 'GET', path: FILES, status: 502, times: 2 })
    const { data } = await client().request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
      owner: O,
      repo: R,
      pull_number: PR,
    })
    expect(data).toHaveLength(1)
    expect(fault.hits).toBe(2)
    expect(logged).toHaveLength(2)
    expect(logged[0]).toMatch(/502.*retrying/)
  })

  it('gives up after the retries with a GitHubError that carries the status and a hint', async () => {
    emu.addFault({ method: 'GET', path: FILES, status: 503 })
    const error = await failure(
      client({ retries: 1 }).request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
        owner: O,
        repo: R,
        pull_number: PR,
      }),
    )
    expect(error.status).toBe(503)
    expect(error.hint).toMatch(/re-run/)
    expect(emu.requests).toHaveLength(2)
  })

  it('does not send a POST twice: the first attempt may have created the comment', async () => {
    emu.addFault({ method: 'POST', status: 502, times: 1 })
    const error = await failure(
      client().request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
        owner: O,
        repo: R,
        issue_number: PR,
        body: 'x',
      }),
    )
    expect(error.status).toBe(502)
    expect(emu.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })

  it('does not retry 4xx, and maps 401, 403 and 404 to hints', async () => {
    const gh = client()
    const unauthorized = await failure(
      createGitHubClient({ token: 'ghs_wrong_token_value', apiUrl: emu.url, userAgent: 't', log: () => {} }).request(
        'GET /repos/{owner}/{repo}',
        {
          owner: O,
          repo: R,
        },
      ),
    )
    expect(unauthorized).toMatchObject({ status: 401, githubMessage: 'Bad credentials' })
    expect(unauthorized.hint).toMatch(/expired or revoked/)
    expect(unauthorized.message).not.toContain('ghs_wrong_token_value')

    emu.addFault({ path: FILES, status: 403, body: { message: 'Resource not accessible by integration' }, times: 1 })
    expect((await failure(gh.request(`GET ${FILES}`))).hint).toMatch(/pull-requests: write/)

    emu.addFault({
      path: FILES,
      status: 403,
      body: { message: 'API rate limit exceeded' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(HOUR_AHEAD_S) },
      times: 1,
    })
    expect((await failure(gh.request(`GET ${FILES}`))).hint).toMatch(
      new RegExp(`rate limit.*${new Date(HOUR_AHEAD_S * 1000).toISOString().slice(0, 19)}`),
    )

    const missing = await failure(gh.request('GET /repos/{owner}/{repo}', { owner: O, repo: 'nope' }))
    expect(missing.status).toBe(404)
    expect(missing.message).toMatch(
      /^Could not call GET \/repos\/\{owner\}\/\{repo\} \(GitHub answered 404: Not Found\)\. /,
    )
    expect(emu.requests.filter((r) => r.path === FILES)).toHaveLength(2)
  })

  it('never puts the token in a message, even when GitHub echoes it', async () => {
    emu.addFault({
      path: FILES,
      status: 422,
      body: { message: `Validation Failed for token ${ACTIONS_TOKEN}`, errors: [{ message: `bad ${ACTIONS_TOKEN}` }] },
    })
    const error = await failure(client().request(`GET ${FILES}`))
    expect(error.message).not.toContain(ACTIONS_TOKEN)
    expect(error.message).toContain('Validation Failed for token ***: bad ***')
    expect(String(error.stack)).not.toContain(ACTIONS_TOKEN)
    expect(String((error.cause as Error).message)).not.toContain(ACTIONS_TOKEN)
  })

  it("follows GitHub's redirects for a renamed repository", async () => {
    emu.addFault({
      method: 'GET',
      path: `/repos/${O}/old-name/pulls/${PR}/files`,
      status: 301,
      headers: { location: `${emu.url}${FILES}` },
      body: { message: 'Moved Permanently' },
    })
    const { data } = await client().request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
      owner: O,
      repo: 'old-name',
      pull_number: PR,
    })
    expect(data).toHaveLength(1)
    expect(emu.requests.map((r) => r.path)).toEqual([`/repos/${O}/old-name/pulls/${PR}/files`, FILES])
    expect(emu.requests[1]?.headers['authorization']).toBe(`token ${ACTIONS_TOKEN}`)
  })
})

describe('createGitHubClient and the waits GitHub asks for', () => {
  const COMMENTS = `/repos/${O}/${R}/issues/${PR}/comments`
  const post = (gh = client()) =>
    gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
      owner: O,
      repo: R,
      issue_number: PR,
      body: 'x',
    })

  it('retries a 429 after the retry-after GitHub sends, not its own backoff', async () => {
    const fault = emu.addFault({
      method: 'GET',
      path: FILES,
      status: 429,
      headers: { 'retry-after': '0' },
      body: { message: 'Too many requests' },
      times: 1,
    })
    const { data } = await client({ retryDelayMs: 60_000 }).request(`GET ${FILES}`)
    expect(data).toHaveLength(1)
    expect(fault.hits).toBe(1)
    expect(logged).toEqual([`GitHub: GET ${emu.url}${FILES} answered 429; retrying in 0 ms.`])
  })

  it('retries a 5xx after its retry-after too', async () => {
    emu.addFault({ method: 'GET', path: FILES, status: 503, headers: { 'retry-after': '0' }, times: 2 })
    await client({ retryDelayMs: 60_000 }).request(`GET ${FILES}`)
    expect(emu.requests.filter((r) => r.path === FILES)).toHaveLength(3)
    expect(logged.every((line) => line.endsWith('retrying in 0 ms.'))).toBe(true)
  })

  it(`does not wait longer than ${MAX_RATE_LIMIT_WAIT_SECONDS} s: a longer retry-after fails the call at once`, async () => {
    emu.addFault({
      method: 'GET',
      path: FILES,
      status: 429,
      headers: { 'retry-after': String(MAX_RATE_LIMIT_WAIT_SECONDS + 1) },
      times: 1,
    })
    const error = await failure(client().request(`GET ${FILES}`))
    expect(error.status).toBe(429)
    expect(error.hint).toMatch(new RegExp(`secondary rate limit.*wait ${MAX_RATE_LIMIT_WAIT_SECONDS + 1} s`))
    expect(emu.requests).toHaveLength(1)
  })

  it('waits out a secondary rate limit on a write and sends it again', async () => {
    const fault = emu.addFault(secondaryRateLimit({ method: 'POST', path: COMMENTS, times: 1 }, 1))
    const { status } = await post()
    expect(status).toBe(201)
    expect(fault.hits).toBe(1)
    expect(emu.comments(O, R, PR)).toHaveLength(1)
    expect(logged).toEqual([
      expect.stringMatching(/^GitHub: secondary rate limit on POST .*comments; waiting 1 s as GitHub asks\.$/),
    ])
  })

  it('gives up on a secondary rate limit that asks for more than the ceiling, or persists', async () => {
    emu.addFault(secondaryRateLimit({ method: 'POST', path: COMMENTS, times: 1 }, 3600))
    const refused = await failure(post())
    expect(refused.status).toBe(403)
    expect(refused.hint).toMatch(/secondary rate limit.*wait 3600 s.*re-run the job in a few minutes/)
    expect(emu.requests).toHaveLength(1)
    expect(logged).toEqual([expect.stringMatching(/not waiting 3600 s/)])

    emu.reset()
    emu.addPullRequest({ owner: O, repo: R, number: PR, baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40) })
    emu.addFault(secondaryRateLimit({ method: 'POST', path: COMMENTS }, 1))
    expect((await failure(post())).status).toBe(403)
    expect(emu.requests).toHaveLength(3)
  })

  it('does not retry a plain 403 or a 404', async () => {
    emu.addFault({
      method: 'POST',
      path: COMMENTS,
      status: 403,
      body: { message: 'Resource not accessible by integration' },
      times: 1,
    })
    expect((await failure(post())).status).toBe(403)
    emu.addFault({ method: 'GET', path: FILES, status: 404, times: 1 })
    expect((await failure(client().request(`GET ${FILES}`))).status).toBe(404)
    expect(emu.requests).toHaveLength(2)
    expect(logged).toEqual([])
  })
})

describe('createGitHubClient without an answer', () => {
  let silent: TcpServer
  let sockets: Socket[]
  let silentUrl: string

  beforeAll(async () => {
    sockets = []
    // accepts connections and never answers
    silent = createTcpServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => silent.close(() => resolve()))
  })

  it('times out each attempt, retries, then names the network and proxy settings', async () => {
    const error = await failure(client({ apiUrl: silentUrl, timeoutMs: 100, retries: 1 }).request('GET /rate_limit'))
    expect(error.status).toBeUndefined()
    expect(error.hint).toMatch(/HTTPS_PROXY/)
    expect(error.message).toMatch(/no answer from GitHub/)
    expect(sockets.length).toBe(2)
    expect(logged).toHaveLength(1)
  })

  /** A budget of 1 s on the real clock, `spentMs` of it already gone. */
  const budgetSpent = (spentMs: number) => new Budget(1, { now: () => Date.now() - spentMs, sleep: async () => {} })

  it("ends at the step's one budget (timeout-seconds): the attempt is cut there, no retry follows, and the error says so", async () => {
    const error = await failure(
      client({ apiUrl: silentUrl, timeoutMs: 60_000, retries: 3, budget: budgetSpent(800) }).request('GET /rate_limit'),
    )
    expect(error.message).toContain("GitHub did not answer within timeout-seconds (1 s), the step's one time budget")
    expect(logged.filter((line) => /retrying/.test(line))).toEqual([])
  })

  it('sends nothing once the budget is spent', async () => {
    const error = await failure(
      client({ apiUrl: silentUrl, retries: 3, budget: budgetSpent(5_000) }).request('GET /rate_limit'),
    )
    expect(error.message).toContain('GitHub did not answer within timeout-seconds')
    expect(logged.filter((line) => /retrying/.test(line))).toEqual([])
  })

  it('reports a refused connection the same way', async () => {
    const closed = createTcpServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const error = await failure(client({ apiUrl: `http://127.0.0.1:${port}`, retries: 0 }).request('GET /rate_limit'))
    expect(error.status).toBeUndefined()
    expect(error.message).toMatch(/ECONNREFUSED/)
    expect(error.message).not.toContain(ACTIONS_TOKEN)
  })
})

describe('createGitHubClient behind a proxy', () => {
  let proxy: Server
  let proxied: string[]
  const saved: Record<string, string | undefined> = {}

  beforeAll(async () => {
    proxied = []
    // a plain forward proxy: absolute-form request line in, same request out
    proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`)
      const target = new URL(req.url ?? '/')
      const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      req.pipe(upstream)
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  })

  afterAll(async () => {
    proxy.closeAllConnections()
    await new Promise<void>((resolve) => proxy.close(() => resolve()))
  })

  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
    }
  })

  it('sends requests through HTTP_PROXY, as the hub transport does', async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']) saved[name] = process.env[name]
    for (const name of ['http_proxy', 'NO_PROXY', 'no_proxy']) delete process.env[name]
    process.env['HTTP_PROXY'] = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`

    const { data } = await client().request('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
      owner: O,
      repo: R,
      pull_number: PR,
    })

    expect(data).toHaveLength(1)
    expect(proxied).toEqual([`GET ${emu.url}${FILES}`])
  })
})
