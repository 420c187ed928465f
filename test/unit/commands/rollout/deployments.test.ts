/**
 * The deployments recorder against the GitHub emulator: what it writes when the gate stops
 * undecided, how a re-run closes its earlier attempt's deployment, and an edge name that cannot
 * be an environment name. (The common paths run end to end: test/e2e/rollout-deployments.test.ts.)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { getOctokit } from '@actions/github'
import { ACTIONS_TOKEN, startGitHubEmulator, type GitHubEmulator } from '../../../../emulator/index.ts'
import { environmentOf, openDeployments } from '../../../../src/commands/rollout/deployments.ts'
import type { EdgeTrack, RolloutOutcome } from '../../../../src/commands/rollout/poll.ts'
import type { CellState } from '../../../../src/commands/rollout/cell.ts'

const SHA = 'd'.repeat(40)
let github: GitHubEmulator
beforeAll(async () => {
  github = await startGitHubEmulator()
})
afterAll(async () => {
  await github.close()
})
beforeEach(() => {
  github.reset()
  github.addRepo('acme', 'shop')
})

const track = (edge: string, state: CellState): EdgeTrack => ({
  edge,
  cells: [{ state, reason: 'r' }],
  state,
  changedAt: 0,
  engagedOnce: true,
  ...(state === 'current' ? { latchedAt: 0 } : {}),
})

const outcome = (state: RolloutOutcome['state'], edges: EdgeTrack[]): RolloutOutcome => ({
  state,
  message: '',
  tolerated: [],
  edges,
  complete: true,
  polls: 1,
  requests: 1,
  startedAt: 0,
  endedAt: 0,
  warnings: [],
  observations: [],
  observationsDropped: 0,
})

async function recorder(attempt = '1') {
  const warnings: string[] = []
  const opened = await openDeployments(
    {
      environment: 'production',
      githubToken: ACTIONS_TOKEN,
      writeSpacingMs: 0,
      runner: {
        repository: 'acme/shop',
        sha: SHA,
        runId: '7001',
        runAttempt: attempt,
        serverUrl: 'https://github.com',
        apiUrl: github.url,
      },
    },
    undefined,
    { info: () => {}, warning: (w) => warnings.push(w) },
  )
  if (!opened) throw new Error('no recorder')
  return { opened, warnings }
}

const states = () => github.deployments('acme', 'shop').map((d) => [d.environment, d.statuses.map((s) => s.state)])

describe('deployments recorder', () => {
  it('writes one status per change, and error for an edge still rolling out or not reporting at the timeout', async () => {
    const { opened } = await recorder()
    await opened.observe([track('eu', 'in-progress'), track('us', 'current'), track('ap', 'not-reporting')])
    await opened.observe([track('eu', 'in-progress'), track('us', 'current'), track('ap', 'not-reporting')])
    await opened.finish(
      outcome('timeout', [track('eu', 'in-progress'), track('us', 'current'), track('ap', 'not-reporting')]),
    )
    expect(opened.problem).toBeUndefined()
    expect(states()).toEqual([
      ['production/eu', ['in_progress', 'error']],
      ['production/us', ['in_progress', 'success']],
      ['production/ap', ['in_progress', 'error']],
    ])
    const descriptions = github.deployments('acme', 'shop').map((d) => d.statuses.at(-1)?.description)
    expect(descriptions[0]).toBe('Still rolling out when the gate stopped (timeout-seconds).')
    expect(descriptions[2]).toBe('Not reporting when the gate stopped (timeout-seconds).')
  })

  it("closes the earlier attempt's deployment still in progress on a re-run, and leaves a settled one alone", async () => {
    const first = await recorder('1')
    await first.opened.observe([track('eu', 'in-progress'), track('us', 'current')])
    const second = await recorder('2')
    await second.opened.observe([track('eu', 'current'), track('us', 'current')])
    expect(states()).toEqual([
      ['production/eu', ['in_progress', 'error', 'inactive']],
      ['production/us', ['in_progress', 'success', 'inactive']],
      ['production/eu', ['in_progress', 'success']],
      ['production/us', ['in_progress', 'success']],
    ])
    expect(github.deployments('acme', 'shop')[0]?.statuses[1]?.description).toBe(
      'Superseded by attempt 2 of this workflow run.',
    )
  })

  it('skips an edge whose name cannot be part of an environment name, with a warning, and sends nothing for it', async () => {
    const { opened, warnings } = await recorder()
    await opened.observe([track('eu west/../x', 'current')])
    expect(github.requests).toEqual([])
    expect(warnings).toEqual([expect.stringContaining('No GitHub deployment for an edge whose name cannot be part')])
    expect(environmentOf('production', 'a'.repeat(250))).toBeUndefined()
    expect(environmentOf('production', 'prod-eu')).toBe('production/prod-eu')
  })

  it('keeps a refusal as its problem and writes nothing after it', async () => {
    github.addFault({
      method: 'POST',
      path: /\/deployments$/,
      status: 403,
      times: 1,
      body: { message: 'Resource not accessible by integration' },
    })
    const { opened } = await recorder()
    await opened.observe([track('eu', 'current'), track('us', 'current')])
    expect(opened.problem).toContain('`permissions: deployments: write`')
    expect(github.requests).toHaveLength(1)
    // a direct call shows the fault is spent: the recorder, not the emulator, stopped the writes
    const gh = getOctokit(ACTIONS_TOKEN, { baseUrl: github.url, request: { retries: 0 } })
    expect((await gh.rest.repos.listDeployments({ owner: 'acme', repo: 'shop' })).status).toBe(200)
  })
})
