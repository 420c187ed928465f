/**
 * Collecting targets from manifest files: one hostile file is skipped with its reason while the
 * others are still read; removed files read at the base commit are capped like workspace files,
 * and sized before they are downloaded; a cancel stops collection between files.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createGitHubClient, type GitHubClient } from '../../../src/github/client.js'
import { readBoundedFileAtRef } from '../../../src/github/pull-request.js'
import { collectTargets, type PullRequestFiles } from '../../../src/sources/targets.js'
import { InputError } from '../../../src/settings/settings.js'
import { ACTIONS_TOKEN, startGitHubEmulator, type GitHubEmulator } from '../../../emulator/index.ts'

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flags, namespace: shop}\n'
const BOMB =
  'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n'

const BIG = `${CONFIG_MAP}# ${'x'.repeat(4000)}\n`

let dir: string
let outside: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'collect-'))
  outside = mkdtempSync(join(tmpdir(), 'collect-outside-'))
  writeFileSync(join(outside, 'secret.yaml'), 'apiVersion: v1\nkind: Secret\nmetadata: {name: outside}\n')
  writeFileSync(join(dir, 'a-bomb.yaml'), BOMB)
  writeFileSync(join(dir, 'b-app.yaml'), CONFIG_MAP)
  writeFileSync(join(dir, 'c-big.yaml'), BIG)
  symlinkSync(join(outside, 'secret.yaml'), join(dir, 'd-leak.yaml'))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

const collect = (pullRequest?: PullRequestFiles, signal?: AbortSignal) =>
  collectTargets({
    given: [],
    globs: ['*.yaml'],
    defaultNamespace: undefined,
    workspace: dir,
    pullRequest,
    signal,
    maxFileBytes: 1000,
  })

describe('collectTargets', () => {
  it('skips each hostile file with its reason and still reads the others', async () => {
    const { targets, skippedFiles, files } = await collect()
    expect(files).toEqual(['a-bomb.yaml', 'b-app.yaml', 'c-big.yaml', 'd-leak.yaml'])
    expect(targets.map((t) => `${t.kind} ${t.name} ← ${t.origin.kind === 'manifest' ? t.origin.path : ''}`)).toEqual([
      'ConfigMap flags ← b-app.yaml',
    ])
    expect(skippedFiles.map((s) => `${s.path}: ${s.reason.split(' (')[0]?.split(':')[0]}`)).toEqual([
      'a-bomb.yaml: its YAML aliases cannot be expanded safely',
      `c-big.yaml: ${BIG.length.toLocaleString('en-US')} bytes, larger than the 1,000 bytes read for a manifest file`,
      'd-leak.yaml: a symlink to a file outside the workspace',
    ])
  })

  it('reads a removed file at the base commit with the same cap, and skips it when GitHub says it is larger', async () => {
    const asked: Array<[string, number]> = []
    const pullRequest: PullRequestFiles = {
      changedFiles: async () => [
        { path: 'removed-small.yaml', status: 'removed' },
        { path: 'removed-large.yaml', status: 'removed' },
        { path: 'removed-gone.yaml', status: 'removed' },
      ],
      readAtBase: async (path, maxBytes) => {
        asked.push([path, maxBytes])
        if (path === 'removed-small.yaml') return { text: CONFIG_MAP }
        if (path === 'removed-large.yaml') return { tooLarge: 50 * 1024 * 1024 }
        return undefined
      },
    }
    const { targets, skippedFiles } = await collect(pullRequest)
    expect(asked).toEqual([
      ['removed-small.yaml', 1000],
      ['removed-large.yaml', 1000],
      ['removed-gone.yaml', 1000],
    ])
    expect(targets.map((t) => `${t.name} ${t.origin.kind === 'manifest' ? t.origin.change : ''}`)).toEqual([
      'flags removed',
    ])
    expect(skippedFiles).toEqual([
      {
        path: 'removed-large.yaml',
        reason:
          '50 MiB, larger than the 1,000 bytes read for a manifest file: split it, or name its objects in `targets`',
      },
      { path: 'removed-gone.yaml', reason: 'removed, and not readable at the base commit' },
    ])
  })

  it('stops between files when cancelled', async () => {
    const controller = new AbortController()
    controller.abort(new Error('received SIGTERM'))
    await expect(collect(undefined, controller.signal)).rejects.toThrow('received SIGTERM')
  })
})

describe('readBoundedFileAtRef', () => {
  const O = 'acme'
  const R = 'shop'
  const BASE = 'a'.repeat(40)
  let emu: GitHubEmulator
  let gh: GitHubClient
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
  })
  afterAll(() => emu.close())
  beforeEach(() => {
    emu.reset()
    emu.addPullRequest({ owner: O, repo: R, number: 1, baseSha: BASE, headSha: 'b'.repeat(40) })
  })
  const contentRequests = () => emu.requests.filter((r) => r.path.includes('/contents/'))

  it('reads a small file in one request, from the size-bearing object form', async () => {
    emu.setContent(O, R, BASE, 'deploy/café.yaml', CONFIG_MAP)
    expect(await readBoundedFileAtRef(gh, { owner: O, repo: R }, 'deploy/café.yaml', BASE, 1000)).toEqual({
      text: CONFIG_MAP,
    })
    expect(contentRequests()).toHaveLength(1)
    expect(contentRequests()[0]?.headers['accept']).toMatch(/vnd\.github\.v3\.object/)
  })

  it('answers tooLarge from the size GitHub gives, without asking for the raw bytes', async () => {
    emu.setContent(O, R, BASE, 'deploy/big.yaml', 'x'.repeat(5000))
    expect(await readBoundedFileAtRef(gh, { owner: O, repo: R }, 'deploy/big.yaml', BASE, 1000)).toEqual({
      tooLarge: 5000,
    })
    expect(contentRequests()).toHaveLength(1)
    expect(contentRequests().some((r) => /raw/.test(r.headers['accept'] ?? ''))).toBe(false)
  })

  it('answers undefined for a missing file or a folder', async () => {
    emu.setContent(O, R, BASE, 'deploy/app.yaml', CONFIG_MAP)
    expect(await readBoundedFileAtRef(gh, { owner: O, repo: R }, 'deploy/missing.yaml', BASE, 1000)).toBeUndefined()
    expect(await readBoundedFileAtRef(gh, { owner: O, repo: R }, 'deploy', BASE, 1000)).toBeUndefined()
  })
})

describe('collectTargets: globs and folders', () => {
  let workspace: string
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'collect-globs-'))
    mkdirSync(join(workspace, 'deploy'))
    writeFileSync(join(workspace, 'deploy', 'app.yaml'), CONFIG_MAP)
    return () => rmSync(workspace, { recursive: true, force: true })
  })
  const collectGlobs = (globs: string[], log: string[] = [], renderedHead?: string[]) =>
    collectTargets({
      given: [],
      globs,
      renderedHead,
      defaultNamespace: undefined,
      workspace,
      pullRequest: undefined,
      log: (message) => log.push(message),
    })

  it('warns only when every glob of `manifests` matches nothing: a spelling the repository does not use is logged', async () => {
    const log: string[] = []
    const some = await collectGlobs(['deploy/**/*.yaml', 'deploy/**/*.yml'], log)
    expect(some.warnings).toEqual([])
    expect(some.targets).toHaveLength(1)
    expect(log).toContain(
      '`manifests`: `deploy/**/*.yml` matched no file in the workspace ' + workspace + '; the other globs did.',
    )
    const none = await collectGlobs(['k8s/**/*.yaml', 'k8s/**/*.yml'])
    expect(none.warnings).toHaveLength(1)
    expect(none.warnings[0]).toMatch(
      /^`manifests`: the globs `k8s\/\*\*\/\*\.yaml`, `k8s\/\*\*\/\*\.yml` matched no file/,
    )
  })

  it('refuses a folder given as a glob, naming the input, the folder and the glob to write, before reading anything', async () => {
    for (const [globs, renderedHead, input] of [
      [['deploy'], undefined, 'manifests'],
      [['deploy/'], undefined, 'manifests'],
      [[], ['deploy'], 'rendered-head'],
    ] as const) {
      const log: string[] = []
      const failure = await collectGlobs([...globs], log, renderedHead && [...renderedHead]).catch(
        (error: unknown) => error,
      )
      expect(failure).toBeInstanceOf(InputError)
      const folder = globs[0] ?? renderedHead?.[0] ?? ''
      expect((failure as InputError).problems).toEqual([
        `\`${input}\`: \`${folder}\` is a folder, and \`${input}\` takes globs of files: write \`deploy/**/*.yaml\` (add \`deploy/**/*.yml\` if some files end so).`,
      ])
      expect(log).toEqual([])
    }
  })
})
