import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient, type GitHubClient } from '../../../src/github/client.js'
import { GitHubError } from '../../../src/github/errors.js'
import { registerSecret } from '../../../src/redact.js'
import {
  MAX_COMMENT_CHARS,
  commentMarker,
  composeCommentBody,
  parseMarker,
  upsertStickyComment,
  type StickyCommentOptions,
} from '../../../src/github/sticky-comment.js'
import {
  ACTIONS_BOT_LOGIN,
  ACTIONS_TOKEN,
  DEFAULT_TOKENS,
  READONLY_TOKEN,
  startGitHubEmulator,
  type GitHubEmulator,
} from '../../../emulator/index.ts'

const HUMAN_TOKEN = 'ghp_humantoken000000000000000000000000'
const APP_TOKEN = 'ghs_apptoken0000000000000000000000000'
const APP_BOT_LOGIN = 'hub-bot[bot]'
const O = 'acme'
const R = 'fleet'
const PR = 7
const SHA1 = '1'.repeat(40)
const SHA2 = '2'.repeat(40)

let emu: GitHubEmulator
let gh: GitHubClient

function client(token: string): GitHubClient {
  return createGitHubClient({
    token,
    apiUrl: emu.url,
    userAgent: 'hub-action-test',
    retries: 0,
    writeSpacingMs: 0,
    log: () => {},
  })
}

function options(overrides: Partial<StickyCommentOptions> = {}): StickyCommentOptions {
  return {
    owner: O,
    repo: R,
    number: PR,
    key: 'impact',
    body: '## Impact\n\n3 objects downstream.',
    runId: 1000,
    runAttempt: 1,
    sha: SHA1,
    mode: 'update',
    ...overrides,
  }
}

function writes(): string[] {
  return emu.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)
}

beforeAll(async () => {
  emu = await startGitHubEmulator({
    tokens: {
      ...DEFAULT_TOKENS,
      [HUMAN_TOKEN]: { login: 'alice', type: 'User' },
      [APP_TOKEN]: { login: APP_BOT_LOGIN, type: 'Bot' },
    },
  })
  gh = client(ACTIONS_TOKEN)
})

afterAll(async () => {
  await emu.close()
})

beforeEach(() => {
  emu.reset()
  emu.addPullRequest({ owner: O, repo: R, number: PR, baseSha: 'a'.repeat(40), headSha: SHA2 })
})

describe('commentMarker / parseMarker', () => {
  it('round-trips and sanitises values to [A-Za-z0-9._-]', () => {
    const marker = commentMarker({ key: 'prod impact --> <b>', runId: '123', runAttempt: 2, sha: SHA1 })
    expect(marker).toBe(`<!-- hub-action:impact v1 key=prod_impact_--_b_ run=123 attempt=2 sha=${SHA1} -->`)
    expect(parseMarker(`${marker}\nbody`)).toEqual({
      version: 1,
      key: 'prod_impact_--_b_',
      runId: '123',
      runAttempt: '2',
      sha: SHA1,
    })
    expect(parseMarker(`${marker}\r\nbody`)?.key).toBe('prod_impact_--_b_')
    expect(commentMarker({ key: '', runId: undefined, runAttempt: undefined, sha: undefined })).toBe(
      '<!-- hub-action:impact v1 key=default run=unknown attempt=unknown sha=unknown -->',
    )
  })

  it('only reads the first line', () => {
    const marker = commentMarker({ key: 'k', runId: 1, runAttempt: 1, sha: SHA1 })
    expect(parseMarker(`> ${marker}`)).toBeUndefined()
    expect(parseMarker(`hello\n${marker}`)).toBeUndefined()
    expect(parseMarker('')).toBeUndefined()
    expect(parseMarker(undefined)).toBeUndefined()
  })
})

describe('upsertStickyComment', () => {
  it('redacts what it posts itself: a registered secret in the body never reaches GitHub', async () => {
    const secret = 'hub_sticky_comment_secret_0123456789'
    registerSecret(secret)
    const body = `## Impact\n\nAn agent echoed ${secret} and ${Buffer.from(secret).toString('base64')}.`
    await upsertStickyComment(gh, options({ body }))
    await upsertStickyComment(gh, options({ body: `${body}\n\nSecond run.`, runId: 1001 }))
    const posted = emu.requests
      .filter((r) => r.path.includes('/comments') && r.method !== 'GET')
      .map((r) => JSON.stringify(r.body))
    expect(posted).toHaveLength(2)
    for (const sent of posted) {
      expect(sent).not.toContain(secret)
      expect(sent).toContain('An agent echoed *** and ***.')
    }
  })

  it('creates, then updates, then leaves an identical report alone', async () => {
    const created = await upsertStickyComment(gh, options())
    expect(created.action).toBe('created')
    const [first] = emu.comments(O, R, PR)
    expect(created).toEqual({ action: 'created', id: first?.id, url: first?.html_url })
    expect(first?.body).toBe(
      `<!-- hub-action:impact v1 key=impact run=1000 attempt=1 sha=${SHA1} -->\n## Impact\n\n3 objects downstream.`,
    )
    expect(first?.user.login).toBe(ACTIONS_BOT_LOGIN)

    const updated = await upsertStickyComment(
      gh,
      options({ runId: 1001, sha: SHA2, body: '## Impact\n\n5 objects downstream.' }),
    )
    expect(updated).toEqual({ action: 'updated', id: first?.id, url: first?.html_url })
    expect(emu.comments(O, R, PR)).toHaveLength(1)
    expect(parseMarker(emu.comments(O, R, PR)[0]?.body)).toMatchObject({ runId: '1001', sha: SHA2 })

    emu.requests.length = 0
    const again = await upsertStickyComment(
      gh,
      options({ runId: 1002, sha: SHA2, body: '## Impact\n\n5 objects downstream.\n' }),
    )
    expect(again).toEqual({ action: 'unchanged', id: first?.id, url: first?.html_url })
    expect(writes()).toEqual([])
    expect(emu.comments(O, R, PR)[0]?.body).toContain('run=1001')
  })

  it('never touches a human comment that quotes the marker, and posts its own', async () => {
    const marker = commentMarker({ key: 'impact', runId: 999, runAttempt: 1, sha: SHA1 })
    const human = emu.addComment(O, R, PR, { body: `${marker}\nI copied this from the bot`, login: 'alice' })

    const result = await upsertStickyComment(gh, options())

    expect(result.action).toBe('created')
    const all = emu.comments(O, R, PR)
    expect(all).toHaveLength(2)
    expect(all[0]).toMatchObject({ id: human.id, body: human.body, updated_at: human.updated_at })
    expect(all[1]?.user.login).toBe(ACTIONS_BOT_LOGIN)
    expect(writes()).toEqual([`POST /repos/${O}/${R}/issues/${PR}/comments`])
  })

  it('ignores our comments for another key', async () => {
    await upsertStickyComment(gh, options({ key: 'staging' }))
    const result = await upsertStickyComment(gh, options({ key: 'production' }))
    expect(result.action).toBe('created')
    const keys = emu.comments(O, R, PR).map((c) => parseMarker(c.body)?.key)
    expect(keys).toEqual(['staging', 'production'])
  })

  it('finds our comment on page 3 of 4 and updates it instead of posting a duplicate', async () => {
    for (let i = 0; i < 230; i++) emu.addComment(O, R, PR, { body: `chatter ${i}`, login: i % 2 ? 'alice' : 'bob' })
    const marker = commentMarker({ key: 'impact', runId: 900, runAttempt: 1, sha: SHA1 })
    const ours = emu.addComment(O, R, PR, { body: `${marker}\nold report`, login: ACTIONS_BOT_LOGIN })
    for (let i = 0; i < 80; i++) emu.addComment(O, R, PR, { body: `more chatter ${i}`, login: 'alice' })
    emu.requests.length = 0

    const result = await upsertStickyComment(gh, options())

    expect(result).toMatchObject({ action: 'updated', id: ours.id })
    const listed = emu.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/issues/${PR}/comments`))
    expect(listed.map((r) => r.query['page'] ?? '1')).toEqual(['1', '2', '3', '4'])
    expect(writes()).toEqual([`PATCH /repos/${O}/${R}/issues/comments/${ours.id}`])
    expect(emu.comments(O, R, PR)).toHaveLength(311)
  })

  it('updates the newest of several matching comments and leaves the others', async () => {
    const marker = commentMarker({ key: 'impact', runId: 900, runAttempt: 1, sha: SHA1 })
    const older = emu.addComment(O, R, PR, {
      body: `${marker}\nolder`,
      login: ACTIONS_BOT_LOGIN,
      created_at: '2024-01-01T00:00:00Z',
    })
    const newer = emu.addComment(O, R, PR, {
      body: `${marker}\nnewer`,
      login: ACTIONS_BOT_LOGIN,
      created_at: '2024-02-01T00:00:00Z',
    })

    const result = await upsertStickyComment(gh, options())

    expect(result).toMatchObject({ action: 'updated', id: newer.id })
    expect(emu.comments(O, R, PR).find((c) => c.id === older.id)?.body).toBe(older.body)
  })

  it('does not overwrite the report of a newer run (or a later attempt of the same run)', async () => {
    await upsertStickyComment(gh, options({ runId: 2000, runAttempt: 1, sha: SHA2, body: 'newer report' }))
    emu.requests.length = 0

    const stale = await upsertStickyComment(
      gh,
      options({ runId: 1999, runAttempt: 3, sha: SHA1, body: 'older report' }),
    )
    expect(stale.action).toBe('skipped-newer')
    expect(stale.url).toBe(emu.comments(O, R, PR)[0]?.html_url)
    expect(writes()).toEqual([])

    await upsertStickyComment(gh, options({ runId: 2000, runAttempt: 2, sha: SHA2, body: 'attempt 2' }))
    expect(
      (await upsertStickyComment(gh, options({ runId: 2000, runAttempt: 1, sha: SHA2, body: 'attempt 1' }))).action,
    ).toBe('skipped-newer')
    expect(emu.comments(O, R, PR).map((c) => c.body.split('\n')[1])).toEqual(['attempt 2'])
  })

  it('answers forbidden for a read-only token (fork pull requests), on create and on update', async () => {
    const readOnly = client(READONLY_TOKEN)
    expect(await upsertStickyComment(readOnly, options())).toEqual({ action: 'forbidden' })

    await upsertStickyComment(gh, options())
    expect(await upsertStickyComment(readOnly, options({ runId: 1001, body: 'new content' }))).toEqual({
      action: 'forbidden',
    })
    expect(emu.comments(O, R, PR)).toHaveLength(1)
  })

  it('throws a GitHubError for other failures', async () => {
    emu.addFault({ method: 'POST', path: `/repos/${O}/${R}/issues/${PR}/comments`, status: 500 })
    const error = await upsertStickyComment(gh, options()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GitHubError)
    expect((error as GitHubError).status).toBe(500)
    expect((error as GitHubError).message).toContain(`comment on ${O}/${R}#${PR}`)
  })

  it("finds a GitHub App token's own comment by its GraphQL viewer login and updates it", async () => {
    const app = client(APP_TOKEN)
    expect((await upsertStickyComment(app, options())).action).toBe('created')
    expect((await upsertStickyComment(client(APP_TOKEN), options({ runId: 1001, body: 'app v2' }))).action).toBe(
      'updated',
    )
    expect(emu.comments(O, R, PR).map((c) => [c.user.login, c.body.split('\n')[1]])).toEqual([
      [APP_BOT_LOGIN, 'app v2'],
    ])
    expect(emu.requests.filter((r) => r.path === '/user')).toHaveLength(0)
  })

  it('falls back to GET /user, then to github-actions[bot], where GraphQL is unavailable', async () => {
    emu.addFault({ method: 'POST', path: '/graphql', status: 404 })
    const created = await upsertStickyComment(client(ACTIONS_TOKEN), options())
    expect(created.action).toBe('created')
    expect(emu.requests.filter((r) => r.path === '/user')).toHaveLength(1)
    expect((await upsertStickyComment(client(ACTIONS_TOKEN), options({ runId: 1001, body: 'v2' }))).action).toBe(
      'updated',
    )
    expect(emu.comments(O, R, PR).map((c) => c.user.login)).toEqual([ACTIONS_BOT_LOGIN])
  })

  it("finds a personal token's login the same way", async () => {
    const alice = client(HUMAN_TOKEN)
    const created = await upsertStickyComment(alice, options())
    expect(created.action).toBe('created')
    // a bot comment with the same key is someone else's to alice
    await upsertStickyComment(gh, options())
    expect((await upsertStickyComment(alice, options({ runId: 1001, body: 'alice v2' }))).action).toBe('updated')
    expect(emu.comments(O, R, PR).map((c) => [c.user.login, c.body.split('\n')[1]])).toEqual([
      ['alice', 'alice v2'],
      [ACTIONS_BOT_LOGIN, '## Impact'],
    ])
  })

  it('trims an over-size report at a line boundary, counting an emoji as one character', async () => {
    const line = '🚀'.repeat(99) // 99 code points, 198 UTF-16 units; 100 with the newline
    const content = Array.from({ length: 700 }, () => line).join('\n')

    const result = await upsertStickyComment(gh, options({ body: content }))

    expect(result.action).toBe('created')
    const body = emu.comments(O, R, PR)[0]?.body ?? ''
    const chars = [...body].length
    expect(chars).toBeLessThanOrEqual(MAX_COMMENT_CHARS)
    expect(chars).toBeGreaterThan(MAX_COMMENT_CHARS - 200)
    expect(body.length).toBeGreaterThan(MAX_COMMENT_CHARS) // UTF-16 length: emoji are two units each
    const lines = body.split('\n')
    expect(lines.at(-1)).toMatch(/trimmed/)
    expect(lines.slice(1, -1).every((l) => l === line)).toBe(true)
    expect(body).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/) // no lone high surrogate
  })

  it('does not trim a report that fits when emoji count as one character', () => {
    const marker = commentMarker({ key: 'k', runId: 1, runAttempt: 1, sha: SHA1 })
    const content = '🚀'.repeat(MAX_COMMENT_CHARS - [...marker].length - 1)
    const body = composeCommentBody(marker, content)
    expect(body).toBe(`${marker}\n${content}`)
    expect([...body].length).toBe(MAX_COMMENT_CHARS)

    const trimmed = composeCommentBody(marker, `${content}🚀`)
    expect([...trimmed].length).toBeLessThanOrEqual(MAX_COMMENT_CHARS)
    expect(trimmed).toMatch(/trimmed/)
    expect(trimmed).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/)
  })

  it('closes a code fence that the cut leaves open', () => {
    const marker = commentMarker({ key: 'k', runId: 1, runAttempt: 1, sha: SHA1 })
    const content = `intro\n\`\`\`\n${'x'.repeat(80)}\n`.repeat(1) + `${'y'.repeat(80)}\n`.repeat(1000)
    const body = composeCommentBody(marker, content)
    expect([...body].length).toBeLessThanOrEqual(MAX_COMMENT_CHARS)
    expect(body.split('\n').slice(-2)).toEqual(['```', expect.stringMatching(/trimmed/)])
  })

  it('posts a second comment in mode "new"', async () => {
    const first = await upsertStickyComment(gh, options())
    const second = await upsertStickyComment(gh, options({ mode: 'new' }))
    expect(second.action).toBe('created')
    expect(second.id).not.toBe(first.id)
    expect(emu.comments(O, R, PR)).toHaveLength(2)
  })
})
