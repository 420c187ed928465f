import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient, type GitHubClient } from '../../../src/github/client.js'
import { GitHubError } from '../../../src/github/errors.js'
import { listChangedFiles, readFileAtRef, readPullRequestEvent } from '../../../src/github/pull-request.js'
import {
  ACTIONS_TOKEN,
  startGitHubEmulator,
  type GitHubEmulator,
  type PullRequestFileInput,
} from '../../../emulator/index.ts'

const O = 'acme'
const R = 'fleet'
const BASE = 'a'.repeat(40)
const HEAD = 'b'.repeat(40)

let emu: GitHubEmulator
let gh: GitHubClient
let dir: string

beforeAll(async () => {
  emu = await startGitHubEmulator()
  gh = createGitHubClient({
    token: ACTIONS_TOKEN,
    apiUrl: emu.url,
    userAgent: 'hub-action-test',
    retries: 0,
    writeSpacingMs: 0,
    log: () => {},
  })
  dir = mkdtempSync(join(tmpdir(), 'github-pr-'))
})

afterAll(async () => {
  await emu.close()
  rmSync(dir, { recursive: true, force: true })
})

beforeEach(() => {
  emu.reset()
})

function writeEvent(name: string, payload: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof payload === 'string' ? payload : JSON.stringify(payload))
  return path
}

function pullRequestPayload(number: number, base = BASE, head = HEAD): Record<string, unknown> {
  return {
    action: 'synchronize',
    number,
    pull_request: { number, base: { sha: base, ref: 'main' }, head: { sha: head, ref: 'feature' } },
    repository: { name: 'from-payload', owner: { login: 'payload-owner' } },
  }
}

describe('readPullRequestEvent', () => {
  it('reads number, base and head from a pull_request event', () => {
    const path = writeEvent('pull_request.json', pullRequestPayload(42))
    expect(readPullRequestEvent(path, `${O}/${R}`)).toEqual({
      owner: O,
      repo: R,
      number: 42,
      baseSha: BASE,
      headSha: HEAD,
    })
  })

  it('reads a pull_request_target event the same way, and falls back to the payload repository', () => {
    const path = writeEvent('pull_request_target.json', { ...pullRequestPayload(7), action: 'opened' })
    expect(readPullRequestEvent(path, undefined)).toEqual({
      owner: 'payload-owner',
      repo: 'from-payload',
      number: 7,
      baseSha: BASE,
      headSha: HEAD,
    })
    expect(readPullRequestEvent(path, 'not a repository')?.owner).toBe('payload-owner')
  })

  it('answers undefined for other events, no event file, and malformed pull requests', () => {
    expect(
      readPullRequestEvent(writeEvent('push.json', { ref: 'refs/heads/main', after: HEAD }), `${O}/${R}`),
    ).toBeUndefined()
    expect(
      readPullRequestEvent(writeEvent('issue_comment.json', { issue: { number: 3, pull_request: {} } }), `${O}/${R}`),
    ).toBeUndefined()
    expect(readPullRequestEvent(undefined, `${O}/${R}`)).toBeUndefined()
    expect(readPullRequestEvent('', `${O}/${R}`)).toBeUndefined()
    expect(readPullRequestEvent(join(dir, 'missing.json'), `${O}/${R}`)).toBeUndefined()
    expect(readPullRequestEvent(writeEvent('bad-sha.json', pullRequestPayload(1, 'main')), `${O}/${R}`)).toBeUndefined()
    expect(readPullRequestEvent(writeEvent('bad-number.json', pullRequestPayload(0)), `${O}/${R}`)).toBeUndefined()
  })

  it('throws a GitHubError for an event file that is not JSON', () => {
    const path = writeEvent('broken.json', '{"pull_request": ')
    expect(() => readPullRequestEvent(path, `${O}/${R}`)).toThrow(GitHubError)
  })
})

describe('listChangedFiles', () => {
  it('follows every page, 100 files at a time', async () => {
    const files: PullRequestFileInput[] = Array.from({ length: 257 }, (_, i) => ({
      filename: `deploy/app-${String(i).padStart(3, '0')}.yaml`,
      status: i % 4 === 0 ? 'added' : i % 4 === 1 ? 'modified' : i % 4 === 2 ? 'removed' : 'renamed',
      ...(i % 4 === 3 ? { previous_filename: `old/app-${i}.yaml` } : {}),
    }))
    emu.addPullRequest({ owner: O, repo: R, number: 9, baseSha: BASE, headSha: HEAD, files })

    const changed = await listChangedFiles(gh, { owner: O, repo: R, number: 9 })

    expect(changed).toHaveLength(257)
    expect(changed.map((f) => f.path)).toEqual(files.map((f) => f.filename))
    expect(changed[0]).toEqual({ path: 'deploy/app-000.yaml', status: 'added' })
    expect(changed[2]).toEqual({ path: 'deploy/app-002.yaml', status: 'removed' })
    expect(changed[3]).toEqual({ path: 'deploy/app-003.yaml', status: 'renamed', previousPath: 'old/app-3.yaml' })
    const pages = emu.requests.filter((r) => r.path === `/repos/${O}/${R}/pulls/9/files`)
    expect(pages.map((r) => [r.query['per_page'], r.query['page'] ?? '1'])).toEqual([
      ['100', '1'],
      ['100', '2'],
      ['100', '3'],
    ])
  })

  it('names the pull request when GitHub refuses', async () => {
    const error = await listChangedFiles(gh, { owner: O, repo: R, number: 404 }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(GitHubError)
    expect(error).toMatchObject({ status: 404 })
    expect((error as Error).message).toContain(`list the files of pull request ${O}/${R}#404`)
  })
})

describe('readFileAtRef', () => {
  beforeEach(() => {
    emu.addPullRequest({ owner: O, repo: R, number: 1, baseSha: BASE, headSha: HEAD })
  })

  it('returns the raw text of a file at a commit', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: café-☕-🚀\n'
    emu.setContent(O, R, HEAD, 'deploy/base/config map.yaml', manifest)
    emu.setContent(O, R, BASE, 'deploy/base/config map.yaml', 'old\n')

    expect(await readFileAtRef(gh, { owner: O, repo: R }, 'deploy/base/config map.yaml', HEAD)).toBe(manifest)
    expect(await readFileAtRef(gh, { owner: O, repo: R }, 'deploy/base/config map.yaml', BASE)).toBe('old\n')
    const request = emu.requests.find((r) => r.path.includes('/contents/'))
    expect(request?.path).toBe(`/repos/${O}/${R}/contents/deploy/base/config%20map.yaml`)
    expect(request?.query['ref']).toBe(HEAD)
    expect(request?.headers['accept']).toMatch(/vnd\.github\.v3\.raw/)
  })

  it('answers undefined for a file that is absent at the ref, or a directory', async () => {
    emu.setContent(O, R, HEAD, 'deploy/app.yaml', 'kind: Deployment\n')
    expect(await readFileAtRef(gh, { owner: O, repo: R }, 'deploy/app.yaml', BASE)).toBeUndefined()
    expect(await readFileAtRef(gh, { owner: O, repo: R }, 'deploy/missing.yaml', HEAD)).toBeUndefined()
    expect(await readFileAtRef(gh, { owner: O, repo: R }, 'deploy', HEAD)).toBeUndefined()
  })

  it('throws when the commit itself is missing rather than calling the file absent', async () => {
    const error = await readFileAtRef(gh, { owner: O, repo: R }, 'deploy/app.yaml', 'c'.repeat(40)).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(GitHubError)
    expect((error as GitHubError).status).toBe(404)
    expect((error as GitHubError).message).toContain(`read deploy/app.yaml at ${'c'.repeat(40)}`)
  })
})
