/**
 * Issue 7, classes 8, 9, 10 and 13, end to end: dist/index.js as a process reading manifests a
 * hostile pull request planted in the checkout. A megabyte of `{{` finishes at once; a SIGTERM
 * during a long parse ends the step; links to files outside the workspace or to /dev/zero are
 * skipped without their contents reaching any output or the PR comment; an alias bomb skips
 * one file, not the step; a 50 MB manifest is skipped by the cap with memory bounded.
 *
 * Every run is bounded in time (killAfterMs) and in memory: a watchdog kills the process past
 * WATCHDOG_BYTES, so an old build that reads /dev/zero cannot take the machine with it. The
 * peak is the kernel's own high-water mark (getrusage), recorded at exit by a preload that only
 * observes.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import {
  BASE_SHA,
  expectSecretsNowhere,
  HEAD_SHA,
  hubInputs,
  makeWorkspace,
  memoryProbe,
  OWNER,
  pullRequestEnv,
  pullRequestEvent,
  readResultFile,
  REPO,
  runAction,
  useHubEmulator,
  type ActionOptions,
  type ActionRun,
  type ImpactReportFile,
} from './harness.ts'
import { ACTIONS_TOKEN, startGitHubEmulator, type GitHubEmulator } from '../../emulator/index.ts'
import { BILLION_LAUGHS } from '../fixtures/hostile-yaml.ts'

const hub = useHubEmulator()
const MiB = 1024 * 1024
/** The acceptance bound for the action's memory, whatever the pull request holds. */
const MEMORY_BOUND = 300 * MiB
/** Past this the run is killed: the test must not take the machine down with an old build. */
const WATCHDOG_BYTES = 700 * MiB

const CHECKOUT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: checkout\n  namespace: shop\n'
const SECRET_NAME = 'prod-db-root-password-9c1e'
const OUTSIDE_REASON = 'a symlink to a file outside the workspace: only files inside the checkout are read'

let scratch: string
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'hostile-manifests-'))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

interface BoundedRun extends ActionRun {
  /** Peak resident memory in bytes, as the kernel counted it; NaN when the process did not exit on its own. */
  peakRss: number
  killedByWatchdog: boolean
}

/** runAction, with the memory watchdog and the peak recorded at exit. */
async function runBounded(options: ActionOptions): Promise<BoundedRun> {
  const probe = memoryProbe()
  let stopWatching = () => false
  const result = await runAction({
    killAfterMs: 30_000,
    ...options,
    env: { ...options.env, ...probe.env },
    onSpawn: (child) => {
      if (child.pid !== undefined) stopWatching = probe.watch(child.pid, WATCHDOG_BYTES)
      options.onSpawn?.(child)
    },
  })
  const killedByWatchdog = stopWatching()
  const peakRss = probe.peakBytes() ?? NaN
  probe.cleanup()
  onTestFinished(() => result.cleanup())
  return Object.assign(result, { peakRss, killedByWatchdog })
}

function onPush(workspace: string, extra: Partial<ActionOptions> = {}): Promise<BoundedRun> {
  return runBounded({
    inputs: {
      command: 'impact',
      ...hubInputs(hub),
      manifests: 'deploy/**/*.yaml',
      namespace: 'shop',
    },
    env: { GITHUB_WORKSPACE: workspace, GITHUB_EVENT_NAME: 'push', GITHUB_API_URL: 'http://127.0.0.1:9' },
    ...extra,
  })
}

function useWorkspace(files: Record<string, string>): string {
  const workspace = makeWorkspace(files)
  onTestFinished(() => workspace.cleanup())
  return workspace.dir
}

const reasonOf = (file: ImpactReportFile, path: string) => file.skippedFiles.find((s) => s.path === path)?.reason

describe('regular expressions and parsing: linear and interruptible', () => {
  it('reads past a megabyte of `{{` at once and still reports the other file', async () => {
    const dir = useWorkspace({ 'deploy/braces.yaml': '{{'.repeat(512 * 1024), 'deploy/checkout.yaml': CHECKOUT })
    // the old quadratic regex needed minutes here; the bound only keeps a regression from hanging the suite
    const result = await onPush(dir, { killAfterMs: 20_000 })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.targets.map((t) => `${t.kind} ${t.name}`)).toEqual(['Deployment checkout'])
    expect(reasonOf(file, 'deploy/braces.yaml')).toBe(
      'its YAML nests more than 200 levels of [ ] or { }: no Kubernetes object needs that',
    )
  }, 40_000)

  it('ends the step promptly on SIGTERM while a long run of large manifests is being parsed', async () => {
    // one 3 MiB manifest of many objects, linked 40 times inside the workspace: minutes of parsing in all
    const object =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: shop}\ndata: {a: "1", b: "2", c: "3"}\n---\n'
    const files: Record<string, string> = {
      'deploy/a-braces.yaml': '{{'.repeat(512 * 1024),
      'deploy/bundle/big.yaml': object.repeat(Math.ceil((3 * MiB) / object.length)),
    }
    const dir = useWorkspace(files)
    for (let i = 0; i < 40; i++)
      symlinkSync('big.yaml', join(dir, 'deploy', 'bundle', `copy-${String(i).padStart(2, '0')}.yaml`))

    let signalledAt = 0
    const terminate = (child: { kill(signal: NodeJS.Signals): boolean }) => {
      if (signalledAt) return
      signalledAt = Date.now()
      child.kill('SIGTERM')
    }
    let fallback: NodeJS.Timeout | undefined
    const result = await onPush(dir, {
      // past the default `max-documents` the step would stop at the first file: let it parse on
      inputs: {
        command: 'impact',
        ...hubInputs(hub),
        manifests: 'deploy/**/*.yaml',
        namespace: 'shop',
        'max-documents': '100000',
      },
      killAfterMs: 30_000,
      // once reading has begun (an old build never says so: then after 3 s, well inside its regex)
      onStdout: (_text, child) => {
        if (/Reading \d+ manifest file\(s\)\./.test(_text)) setTimeout(() => terminate(child), 300)
      },
      onSpawn: (child) => (fallback = setTimeout(() => terminate(child), 3_000)),
    })
    clearTimeout(fallback)
    expect(signalledAt).toBeGreaterThan(0)
    expect(result.signal, 'the process ended itself rather than being killed').toBeNull()
    // one slice of parsing at most (tens of milliseconds), then the cancel; 5 s allows for a loaded machine
    expect(result.exitedAt - signalledAt).toBeLessThan(5_000)
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('Received SIGTERM: stopping.')
    expect(result.stdout).toContain('::error::The job was cancelled before the step finished; nothing was published.')
    // it stopped while reading: the collection never completed
    expect(result.stdout).not.toMatch(/Impact of \d+ target/)
  }, 40_000)
})

describe('symlinks out of the workspace, on a pull request', () => {
  let github: GitHubEmulator
  const PR = 12
  beforeAll(async () => {
    github = await startGitHubEmulator()
  })
  afterAll(() => github.close())
  beforeEach(() => github.reset())

  it('skips a link to a secret outside the checkout and a link to /dev/zero; the secret appears nowhere', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'outside-checkout-'))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    const secretFile = join(outside, 'runner-secret.yaml')
    writeFileSync(secretFile, `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${SECRET_NAME}\n  namespace: shop\n`)
    const dir = useWorkspace({ 'deploy/checkout.yaml': CHECKOUT })
    symlinkSync(secretFile, join(dir, 'deploy', 'leak.yaml'))
    mkdirSync(join(dir, 'deploy', 'more'))
    symlinkSync('/dev/zero', join(dir, 'deploy', 'more', 'zero.yaml'))
    github.addPullRequest({
      owner: OWNER,
      repo: REPO,
      number: PR,
      baseSha: BASE_SHA,
      headSha: HEAD_SHA,
      files: [
        { filename: 'deploy/checkout.yaml', status: 'modified' },
        { filename: 'deploy/leak.yaml', status: 'added' },
        { filename: 'deploy/more/zero.yaml', status: 'added' },
      ],
    })

    const result = await runBounded({
      inputs: {
        command: 'impact',
        ...hubInputs(hub),
        'github-token': ACTIONS_TOKEN,
        manifests: 'deploy/**',
      },
      env: pullRequestEnv(github.url, dir),
      event: pullRequestEvent(PR),
    })
    expect(result.killedByWatchdog, 'memory stayed bounded').toBe(false)
    expect(result.code).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.targets.map((t) => `${t.kind} ${t.namespace}/${t.name}`)).toEqual(['Deployment shop/checkout'])
    expect(file.skippedFiles).toEqual([
      { path: 'deploy/leak.yaml', reason: OUTSIDE_REASON },
      { path: 'deploy/more/zero.yaml', reason: OUTSIDE_REASON },
    ])
    const comments = github.comments(OWNER, REPO, PR)
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toContain('deploy/leak.yaml')
    expectSecretsNowhere(result, [SECRET_NAME, secretFile], { 'comment body': comments[0]!.body })
    expect(result.peakRss).toBeLessThan(MEMORY_BOUND)
  }, 40_000)
})

describe('bombs and oversized files: one file skipped, the step goes on', () => {
  it('skips an alias bomb with its reason and still reports the other file', async () => {
    const result = await onPush(useWorkspace({ 'deploy/bomb.yaml': BILLION_LAUGHS, 'deploy/checkout.yaml': CHECKOUT }))
    expect(result.stdout).not.toContain('Unexpected error')
    expect(result.code).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.targets.map((t) => `${t.kind} ${t.name}`)).toEqual(['Deployment checkout'])
    expect(reasonOf(file, 'deploy/bomb.yaml')).toBe(
      'its YAML aliases cannot be expanded safely (Excessive alias count indicates a resource exhaustion attack)',
    )
    expect(result.summary).toContain('deploy/bomb.yaml')
    expect(result.outputs['targets-count']).toBe('1')
  })

  it('skips a rendered manifest whose alias stands inside its own anchor, and reports the rest', async () => {
    // Every rendered object is fingerprinted to compare sets: a value that contains itself overflowed the stack.
    const loop = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: loop, namespace: shop}\ndata: &d {a: {b: *d}}\n'
    const result = await onPush(useWorkspace({ 'rendered/loop.yaml': loop, 'rendered/checkout.yaml': CHECKOUT }), {
      inputs: { command: 'impact', ...hubInputs(hub), 'rendered-head': 'rendered/*.yaml', namespace: 'shop' },
    })
    expect(result.code, result.stdout).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.targets.map((t) => `${t.kind} ${t.name}`)).toEqual(['Deployment checkout'])
    expect(reasonOf(file, 'rendered/loop.yaml')).toContain('an alias (*name) stands inside the anchor (&name) it names')
  })

  it('skips a 50 MB manifest by the size cap, with peak memory under 300 MB', async () => {
    const object = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: filler, namespace: shop}\ndata: {a: "1"}\n---\n'
    const dir = useWorkspace({ 'deploy/checkout.yaml': CHECKOUT })
    writeFileSync(join(dir, 'deploy', 'huge.yaml'), object.repeat(Math.ceil((50 * MiB) / object.length)))
    const result = await onPush(dir)
    expect(result.killedByWatchdog, 'memory stayed under the watchdog').toBe(false)
    expect(result.code).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.targets.map((t) => `${t.kind} ${t.name}`)).toEqual(['Deployment checkout'])
    expect(reasonOf(file, 'deploy/huge.yaml')).toBe(
      '50 MiB, larger than the 4 MiB read for a manifest file: split it, or name its objects in `targets`',
    )
    expect(result.peakRss).toBeGreaterThan(0)
    expect(result.peakRss).toBeLessThan(MEMORY_BOUND)
  }, 40_000)
})
