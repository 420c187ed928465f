/**
 * release.yml keeps `vX` moving forward only (issue 27): it refuses a tag older than the release
 * `vX` points at (compared as versions, so v1.10.0 is newer than v1.9.0), publishes the release
 * before it moves `vX`, and attests the build provenance of the verified commit's dist/ and
 * action.yml in a job of its own, the only one that may mint an OIDC token, and only after the
 * gate: the protected `release` environment and the check that the commit is the tag's and on the
 * default branch (issue 34 item 4: anyone who could push a tag got an attestation for any
 * commit). The refusal is run here, as bash, against a throw-away git repository with real tags.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { Job, Step, Workflow } from './fixtures/workflows.js'

const release = parse(readFileSync(new URL('../../.github/workflows/release.yml', import.meta.url), 'utf8')) as Workflow
const jobs = Object.entries(release.jobs ?? {})
const stepsOf = (job: Job | undefined): Step[] => job?.steps ?? []
const [moverName = '', mover] =
  jobs.find(([, job]) => stepsOf(job).some((step) => /git push origin "\$MAJOR"/.test(step.run ?? ''))) ?? []
const [attestName = '', attest] =
  jobs.find(([, job]) => stepsOf(job).some((step) => step.uses?.startsWith('actions/attest-build-provenance@'))) ?? []
const forward = stepsOf(mover).find((step) => /only moves forward/.test(step.run ?? ''))
const [gateName = '', gate] =
  jobs.find(([, job]) => stepsOf(job).some((step) => /--is-ancestor/.test(step.run ?? ''))) ?? []

/** The jobs `name` needs in `workflow`, directly or through others. */
function upstream(name: string, workflow: Workflow = release): string[] {
  const needs = [workflow.jobs?.[name]?.needs ?? []].flat()
  return [...new Set(needs.flatMap((need) => [...upstream(need, workflow), need]))]
}

/** Jobs that sign an attestation without the gate (the release environment and the default-branch check) upstream. */
function attestedBeforeGate(workflow: Workflow): string[] {
  const all = Object.entries(workflow.jobs ?? {})
  const [gateJob = ''] =
    all.find(
      ([, job]) =>
        (typeof job.environment === 'string' ? job.environment : job.environment?.name) === 'release' &&
        stepsOf(job).some((step) => /--is-ancestor/.test(step.run ?? '')),
    ) ?? []
  return all
    .filter(([, job]) => stepsOf(job).some((step) => step.uses?.startsWith('actions/attest-build-provenance@')))
    .filter(([name]) => !upstream(name, workflow).includes(gateJob))
    .map(([name]) => `${name} runs before (or without) ${gateJob || 'a gate'}, the gate`)
}

// Real git and bash processes: slow on a loaded machine, so a generous limit (no waiting in the test itself).
describe('vX only moves forward', { timeout: 60_000 }, () => {
  let repo = ''
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim()
  const commit = (message: string) => {
    git('commit', '-q', '--allow-empty', '-m', message)
    return git('rev-parse', 'HEAD')
  }

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'release-forward-'))
    git('init', '-q')
    git('config', 'user.email', 'test@example.com')
    git('config', 'user.name', 'test')
    git('config', 'commit.gpgsign', 'false')
  })
  afterAll(() => rmSync(repo, { recursive: true, force: true }))

  /** The workflow's own script, run as the runner would (bash -e), with the tag pushed and vX where it is. */
  function check(tag: string): { code: number | null; stdout: string } {
    const result = spawnSync('bash', ['-e', '-c', forward?.run ?? 'exit 99'], {
      cwd: repo,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', TAG: tag, MAJOR: 'v1' },
    })
    return { code: result.status, stdout: result.stdout }
  }

  it('is a step of the job that moves the tag, before the move, for releases only', () => {
    expect(forward, `a step of ${moverName} that says vX only moves forward`).toBeDefined()
    const steps = stepsOf(mover)
    const move = steps.findIndex((step) => /git push origin "\$MAJOR"/.test(step.run ?? ''))
    expect(steps.indexOf(forward as Step)).toBeLessThan(move)
    expect(forward?.if).toBe("needs.verify.outputs.prerelease == 'false'")
  })

  it('lets the first release of a major version through, and the same or a newer version', () => {
    commit('one')
    expect(check('v1.0.0')).toMatchObject({ code: 0 })
    git('tag', 'v1.9.0')
    git('tag', '-fa', 'v1', '-m', 'Update v1 to v1.9.0')
    commit('two')
    expect(check('v1.9.0').code).toBe(0) // a re-run of the release vX already holds
    expect(check('v1.10.0').code, 'compared as versions: 1.10 is newer than 1.9').toBe(0)
  })

  it('refuses an older version, naming both and the major tag', () => {
    const result = check('v1.8.7')
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('::error::v1.8.7 is older than v1.9.0, which v1 points at: v1 only moves forward.')
    expect(check('v1.2.10').code).toBe(1)
  })
})

describe('the release is published before vX moves', () => {
  it('creates the GitHub release in an earlier step than the one that pushes vX', () => {
    const steps = stepsOf(mover)
    const create = steps.findIndex((step) => /gh release create/.test(step.run ?? ''))
    const move = steps.findIndex((step) => /git push origin "\$MAJOR"/.test(step.run ?? ''))
    expect(create).toBeGreaterThanOrEqual(0)
    expect(create).toBeLessThan(move)
  })
})

describe('build provenance of dist/', () => {
  it('is attested by a pinned actions/attest-build-provenance, for the files the runner loads', () => {
    const step = stepsOf(attest).find((s) => s.uses?.startsWith('actions/attest-build-provenance@'))
    expect(step?.uses).toMatch(/^actions\/attest-build-provenance@[0-9a-f]{40}$/)
    expect(String(step?.with?.['subject-path']).split('\n').filter(Boolean)).toEqual([
      'dist/*.js',
      'dist/package.json',
      'action.yml',
    ])
  })

  it('only after the gate: the release environment, the tag still on the verified commit, that commit on the default branch', () => {
    const environment = gate?.environment
    expect(typeof environment === 'string' ? environment : environment?.name, `job ${gateName}`).toBe('release')
    expect(upstream(attestName), `${attestName} runs only once ${gateName} passed`).toContain(gateName)
    const check = stepsOf(gate).find((step) => /--is-ancestor/.test(step.run ?? ''))
    expect(check?.run).toMatch(/\$TAG\^\{commit\}[\s\S]*!= "\$COMMIT"[\s\S]*exit 1/)
    expect(check?.run).toMatch(/git merge-base --is-ancestor "\$COMMIT" [^\n]*\n\s*echo "::error::[^\n]*\n\s*exit 1/)
    // nothing before the gate may sign or write
    for (const name of upstream(gateName)) {
      const permissions = release.jobs?.[name]?.permissions
      expect(permissions, `job ${name} runs before the gate`).toEqual({ contents: 'read' })
    }
    expect(gate?.permissions).toEqual({ contents: 'read' })
    expect(upstream(moverName)).toEqual(expect.arrayContaining([gateName, attestName]))
  })

  it('the rule fails for the old order, which attested before the gate', () => {
    const old = parse(`
jobs:
  verify: { permissions: { contents: read } }
  attest: { needs: verify, steps: [{ uses: actions/attest-build-provenance@${'a'.repeat(40)} }] }
  release:
    needs: [verify, attest]
    environment: release
    steps: [{ run: git merge-base --is-ancestor "$COMMIT" main }]
`) as Workflow
    expect(attestedBeforeGate(old)).toEqual(['attest runs before (or without) release, the gate'])
    expect(attestedBeforeGate(release)).toEqual([])
  })

  it('in a job of its own that checks out the verified commit, runs no script, and alone may sign', () => {
    expect(attest?.permissions).toEqual({ contents: 'read', 'id-token': 'write', attestations: 'write' })
    expect(stepsOf(attest).filter((step) => step.run !== undefined)).toEqual([])
    const checkout = stepsOf(attest).find((step) => step.uses?.startsWith('actions/checkout@'))
    expect(checkout?.with).toEqual({ ref: '${{ needs.verify.outputs.commit }}', 'persist-credentials': false })
    expect([mover?.needs].flat(), `${moverName} waits for ${attestName}`).toContain(attestName)
    for (const [name, job] of jobs.filter(([name]) => name !== attestName)) {
      const permissions = typeof job.permissions === 'object' ? job.permissions : {}
      expect(permissions['id-token'], `job ${name}`).toBeUndefined()
      expect(permissions.attestations, `job ${name}`).toBeUndefined()
    }
  })
})

describe("docs/security.md's recipe to verify what you pin", () => {
  const security = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8')
  const recipe = /## Verify what you pin[\s\S]*?```sh\n([\s\S]*?)```/.exec(security)?.[1] ?? ''

  it('checks every file the release attests, bound to the pinned commit and the release workflow', () => {
    const step = stepsOf(attest).find((s) => s.uses?.startsWith('actions/attest-build-provenance@'))
    const subjects = String(step?.with?.['subject-path']).split('\n').filter(Boolean)
    const loop = /for file in ([^;]+);/.exec(recipe)?.[1]?.trim().split(/\s+/) ?? []
    expect([...loop].sort()).toEqual([...subjects].sort())
    expect(recipe).toMatch(/--signer-workflow acme\/hub-action\/\.github\/workflows\/release\.yml/)
    expect(recipe).toMatch(/--source-digest "\$COMMIT"/)
    expect(recipe).toMatch(/git checkout --quiet "\$COMMIT"/)
  })
})
