import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { getOctokit } from '@actions/github'
import {
  ACTIONS_BOT_LOGIN,
  ACTIONS_TOKEN,
  DEFAULT_TOKENS,
  READONLY_TOKEN,
  SECONDARY_RATE_LIMIT_MESSAGE,
  blobSha,
  secondaryRateLimit,
  startGitHubEmulator,
} from './github.ts'
import type { GitHubEmulator, PullRequestFileInput } from './github.ts'

const HUMAN_TOKEN = 'ghp_humantoken000000000000000000000000'
const APP_TOKEN = 'ghs_apptoken0000000000000000000000000'
const O = 'acme'
const R = 'fleet'
const PR = 7

let emu: GitHubEmulator
let gh: ReturnType<typeof getOctokit>

function octo(token: string): ReturnType<typeof getOctokit> {
  return getOctokit(token, { baseUrl: emu.url, request: { retries: 0 } })
}

async function status(p: Promise<unknown>): Promise<{ status: number; data: unknown }> {
  try {
    await p
  } catch (e) {
    const r = e as { status: number; response?: { data: unknown } }
    return { status: r.status, data: r.response?.data }
  }
  throw new Error('expected the request to fail')
}

beforeAll(async () => {
  emu = await startGitHubEmulator({
    tokens: {
      ...DEFAULT_TOKENS,
      [HUMAN_TOKEN]: { login: 'alice', type: 'User' },
      [APP_TOKEN]: { login: 'hub-bot[bot]', type: 'Bot' },
    },
  })
  gh = octo(ACTIONS_TOKEN)
})

afterAll(async () => {
  await emu.close()
})

beforeEach(() => {
  emu.reset()
  emu.addPullRequest({ owner: O, repo: R, number: PR, baseSha: 'a'.repeat(40), headSha: 'b'.repeat(40), files: [] })
})

describe('GitHub emulator', () => {
  it('binds to 127.0.0.1 on an ephemeral port', () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(emu.port).toBeGreaterThan(0)
  })

  it('paginates PR files with Link headers, followed by octokit paginate', async () => {
    const files: PullRequestFileInput[] = Array.from({ length: 205 }, (_, i) => ({
      filename: `src/f${String(i).padStart(3, '0')}.ts`,
      status: i % 3 === 0 ? 'added' : i % 3 === 1 ? 'modified' : 'renamed',
      ...(i % 3 === 2 ? { previous_filename: `old/f${i}.ts` } : {}),
      additions: i,
      deletions: 1,
      patch: `@@ -1 +1 @@\n-a\n+b${i}`,
    }))
    emu.addPullRequest({ owner: O, repo: R, number: 8, baseSha: 'c'.repeat(40), headSha: 'd'.repeat(40), files })

    const first = await gh.rest.pulls.listFiles({ owner: O, repo: R, pull_number: 8, per_page: 100 })
    expect(first.data).toHaveLength(100)
    const link = first.headers.link ?? ''
    expect(link).toContain(`<${emu.url}/repos/${O}/${R}/pulls/8/files?per_page=100&page=2>; rel="next"`)
    expect(link).toContain(`<${emu.url}/repos/${O}/${R}/pulls/8/files?per_page=100&page=3>; rel="last"`)
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(first.headers['x-ratelimit-limit']).toBe('5000')

    emu.requests.length = 0
    const all = await gh.paginate(gh.rest.pulls.listFiles, { owner: O, repo: R, pull_number: 8, per_page: 100 })
    expect(all).toHaveLength(205)
    expect(all.map((f) => f.filename)).toEqual(files.map((f) => f.filename))
    expect(emu.requests.map((r) => r.query['page'] ?? '1')).toEqual(['1', '2', '3'])
    expect(all[2]).toMatchObject({ status: 'renamed', previous_filename: 'old/f2.ts', additions: 2, changes: 3 })

    // default per_page is 30; max is 100
    const def = await gh.rest.pulls.listFiles({ owner: O, repo: R, pull_number: 8 })
    expect(def.data).toHaveLength(30)
    expect(def.headers.link).toContain('page=7>; rel="last"')
    const big = await gh.rest.pulls.listFiles({ owner: O, repo: R, pull_number: 8, per_page: 500 })
    expect(big.data).toHaveLength(100)
    const mid = await gh.rest.pulls.listFiles({ owner: O, repo: R, pull_number: 8, per_page: 100, page: 2 })
    expect(mid.headers.link).toMatch(
      /page=1>; rel="prev", .*page=3>; rel="next", .*page=3>; rel="last", .*page=1>; rel="first"/,
    )
  })

  it('paginates issue comments and creates comments as the token identity', async () => {
    for (let i = 0; i < 4; i++) emu.addComment(O, R, PR, { body: `human ${i}`, login: 'alice' })
    const created = await gh.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: 'hello' })
    expect(created.status).toBe(201)
    expect(created.data).toMatchObject({
      body: 'hello',
      user: { login: ACTIONS_BOT_LOGIN, type: 'Bot', id: 41898282 },
      author_association: 'NONE',
    })
    expect(created.data.html_url).toBe(`https://github.com/${O}/${R}/pull/${PR}#issuecomment-${created.data.id}`)
    expect(typeof created.data.node_id).toBe('string')
    expect(created.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)

    const all = await gh.paginate(gh.rest.issues.listComments, { owner: O, repo: R, issue_number: PR, per_page: 2 })
    expect(all.map((c) => c.body)).toEqual(['human 0', 'human 1', 'human 2', 'human 3', 'hello'])
    expect(emu.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/comments'))).toHaveLength(3)

    const state = emu.comments(O, R, PR)
    expect(state).toHaveLength(5)
    expect(state[4]).toMatchObject({ body: 'hello', user: { login: ACTIONS_BOT_LOGIN } })

    const post = emu.requests.find((r) => r.method === 'POST')
    expect(post?.body).toEqual({ body: 'hello' })
    expect(post?.headers['authorization']).toBe(`token ${ACTIONS_TOKEN}`)

    // PR that does not exist
    expect(
      (await status(gh.rest.issues.createComment({ owner: O, repo: R, issue_number: 999, body: 'x' }))).status,
    ).toBe(404)
  })

  it("updates own comments, refuses to update or delete another author's", async () => {
    const human = emu.addComment(O, R, PR, { body: 'mine', login: 'alice' })
    const own = await gh.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: 'v1' })

    const upd = await gh.rest.issues.updateComment({ owner: O, repo: R, comment_id: own.data.id, body: 'v2' })
    expect(upd.data.body).toBe('v2')
    const got = await gh.rest.issues.getComment({ owner: O, repo: R, comment_id: own.data.id })
    expect(got.data.body).toBe('v2')

    const denied = await status(
      gh.rest.issues.updateComment({ owner: O, repo: R, comment_id: human.id, body: 'hijack' }),
    )
    expect(denied.status).toBe(403)
    expect(await status(gh.rest.issues.deleteComment({ owner: O, repo: R, comment_id: human.id }))).toMatchObject({
      status: 403,
    })
    expect(emu.comments(O, R, PR).map((c) => c.body)).toEqual(['mine', 'v2'])

    // the human can edit their own comment
    const alice = octo(HUMAN_TOKEN)
    await alice.rest.issues.updateComment({ owner: O, repo: R, comment_id: human.id, body: 'edited' })

    const del = await gh.rest.issues.deleteComment({ owner: O, repo: R, comment_id: own.data.id })
    expect(del.status).toBe(204)
    expect(emu.comments(O, R, PR).map((c) => c.body)).toEqual(['edited'])
    expect((await status(gh.rest.issues.getComment({ owner: O, repo: R, comment_id: own.data.id }))).status).toBe(404)
  })

  it('refuses every write with a read-only token', async () => {
    const ro = octo(READONLY_TOKEN)
    const c = emu.addComment(O, R, PR, { body: 'bot', login: ACTIONS_BOT_LOGIN, type: 'Bot' })
    const expected = { status: 403, data: { message: 'Resource not accessible by integration' } }
    expect(
      await status(ro.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: 'x' })),
    ).toMatchObject(expected)
    expect(
      await status(ro.rest.issues.updateComment({ owner: O, repo: R, comment_id: c.id, body: 'x' })),
    ).toMatchObject(expected)
    expect(await status(ro.rest.issues.deleteComment({ owner: O, repo: R, comment_id: c.id }))).toMatchObject(expected)
    const e = await status(ro.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: 'x' }))
    expect((e.data as { documentation_url: string }).documentation_url).toMatch(/^https:\/\/docs\.github\.com\//)
    // reads still work
    const list = await ro.rest.issues.listComments({ owner: O, repo: R, issue_number: PR })
    expect(list.data).toHaveLength(1)
    expect(emu.comments(O, R, PR).map((x) => x.body)).toEqual(['bot'])
  })

  it('enforces the 65,536-character body limit (in characters, not UTF-16 units)', async () => {
    const ok = await gh.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: 'x'.repeat(65536) })
    expect(ok.status).toBe(201)
    // 65,536 astral characters = 131,072 UTF-16 code units: still accepted
    const astral = await gh.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: '😀'.repeat(65536) })
    expect(astral.status).toBe(201)

    const tooLong = await status(
      gh.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: 'x'.repeat(65537) }),
    )
    expect(tooLong.status).toBe(422)
    expect(tooLong.data).toMatchObject({
      message: 'Validation Failed',
      errors: [
        {
          resource: 'IssueComment',
          code: 'custom',
          field: 'body',
          message: 'body is too long (maximum is 65536 characters)',
        },
      ],
    })
    const upd = await status(
      gh.rest.issues.updateComment({ owner: O, repo: R, comment_id: ok.data.id, body: 'y'.repeat(65537) }),
    )
    expect(upd.status).toBe(422)
    expect(emu.comments(O, R, PR)).toHaveLength(2)
  })

  it('serves contents as base64 JSON and raw, 404 when absent', async () => {
    const sha = 'b'.repeat(40)
    const text = 'name: hub\nagents:\n  - id: ü-agent\n' + 'x'.repeat(200) + '\n'
    emu.setContent(O, R, sha, '.hub/config.yml', text)
    emu.setContent(O, R, 'main', 'README.md', '# main\n')

    const json = await gh.rest.repos.getContent({ owner: O, repo: R, path: '.hub/config.yml', ref: sha })
    const data = json.data as {
      type: string
      encoding: string
      content: string
      sha: string
      size: number
      name: string
      path: string
    }
    expect(data).toMatchObject({ type: 'file', encoding: 'base64', name: 'config.yml', path: '.hub/config.yml' })
    expect(data.size).toBe(Buffer.byteLength(text))
    expect(data.sha).toBe(blobSha(text))
    expect(Buffer.from(data.content, 'base64').toString('utf8')).toBe(text)

    const raw = await gh.rest.repos.getContent({
      owner: O,
      repo: R,
      path: '.hub/config.yml',
      ref: sha,
      mediaType: { format: 'raw' },
    })
    expect(raw.data).toBe(text)

    const res = await fetch(`${emu.url}/repos/${O}/${R}/contents/.hub/config.yml?ref=${sha}`, {
      headers: { authorization: `Bearer ${ACTIONS_TOKEN}`, accept: 'application/vnd.github.raw+json' },
    })
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(text)

    // default ref is the default branch
    const readme = await gh.rest.repos.getContent({ owner: O, repo: R, path: 'README.md' })
    expect((readme.data as { path: string }).path).toBe('README.md')

    // directory listing
    const dir = await gh.rest.repos.getContent({ owner: O, repo: R, path: '.hub', ref: sha })
    expect((dir.data as Array<{ name: string; type: string }>).map((e) => [e.name, e.type])).toEqual([
      ['config.yml', 'file'],
    ])

    const missing = await status(gh.rest.repos.getContent({ owner: O, repo: R, path: 'nope.yml', ref: sha }))
    expect(missing.status).toBe(404)
    expect(missing.data).toMatchObject({ message: 'Not Found' })
    expect(
      (await status(gh.rest.repos.getContent({ owner: O, repo: R, path: 'README.md', ref: 'nobranch' }))).status,
    ).toBe(404)
  })

  it('rejects missing and unknown tokens with 401 Bad credentials', async () => {
    const bad = await status(octo('ghs_nottoken').rest.pulls.get({ owner: O, repo: R, pull_number: PR }))
    expect(bad).toMatchObject({ status: 401, data: { message: 'Bad credentials' } })
    const res = await fetch(`${emu.url}/repos/${O}/${R}/pulls/${PR}`)
    expect(res.status).toBe(401)
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(await res.json()).toMatchObject({ message: 'Bad credentials' })
  })

  it('serves the PR, /user semantics, unknown routes and faults', async () => {
    const pr = await gh.rest.pulls.get({ owner: O, repo: R, pull_number: PR })
    expect(pr.data).toMatchObject({
      number: PR,
      state: 'open',
      head: { sha: 'b'.repeat(40) },
      base: { sha: 'a'.repeat(40) },
    })

    expect(await status(gh.rest.users.getAuthenticated())).toMatchObject({
      status: 403,
      data: { message: 'Resource not accessible by integration' },
    })
    const me = await octo(HUMAN_TOKEN).rest.users.getAuthenticated()
    expect(me.data).toMatchObject({ login: 'alice', type: 'User' })

    const res = await fetch(`${emu.url}/nope/nothing`, { headers: { authorization: `token ${ACTIONS_TOKEN}` } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' })

    const fault = emu.addFault({ method: 'POST', path: /\/issues\/\d+\/comments$/, status: 502, times: 1 })
    expect(
      (await status(gh.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: 'a' }))).status,
    ).toBe(502)
    const ok = await gh.rest.issues.createComment({ owner: O, repo: R, issue_number: PR, body: 'a' })
    expect(ok.status).toBe(201)
    expect(fault.hits).toBe(1)
    expect(fault.remaining).toBe(0)

    const rl = emu.addFault({
      path: `/repos/${O}/${R}/pulls/${PR}`,
      status: 403,
      body: { message: 'API rate limit exceeded' },
      headers: { 'x-ratelimit-remaining': '0' },
    })
    const limited = await status(gh.rest.pulls.get({ owner: O, repo: R, pull_number: PR }))
    expect(limited).toMatchObject({ status: 403, data: { message: 'API rate limit exceeded' } })
    rl.remove()
    expect((await gh.rest.pulls.get({ owner: O, repo: R, pull_number: PR })).status).toBe(200)
  })

  it('answers GraphQL viewer { login } for every token, while GET /user refuses an installation token', async () => {
    const app = octo(APP_TOKEN)
    expect(await app.graphql<{ viewer: { login: string } }>('query { viewer { login } }')).toEqual({
      viewer: { login: 'hub-bot[bot]' },
    })
    expect(await gh.graphql('{ viewer { login } }')).toEqual({ viewer: { login: ACTIONS_BOT_LOGIN } })
    expect(await octo(READONLY_TOKEN).graphql('{ viewer { login } }')).toEqual({ viewer: { login: ACTIONS_BOT_LOGIN } })
    expect((await status(app.rest.users.getAuthenticated())).status).toBe(403)
    await expect(app.graphql('{ repository(owner: "a", name: "b") { id } }')).rejects.toThrow(/emulator answers only/)
  })

  it('answers a secondary rate limit as GitHub does: 403, retry-after and the documented message', async () => {
    const fault = emu.addFault(secondaryRateLimit({ method: 'POST', path: /\/comments$/, times: 1 }, 7))
    const res = await fetch(`${emu.url}/repos/${O}/${R}/issues/${PR}/comments`, {
      method: 'POST',
      headers: { authorization: `token ${ACTIONS_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: 'a' }),
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('retry-after')).toBe('7')
    expect(((await res.json()) as { message: string }).message).toBe(SECONDARY_RATE_LIMIT_MESSAGE)
    expect(fault.hits).toBe(1)
    expect(emu.comments(O, R, PR)).toHaveLength(0)
  })
})
