import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { getOctokit } from '@actions/github'
import { ACTIONS_TOKEN, READONLY_TOKEN, deploymentsForbidden, startGitHubEmulator } from './github.ts'
import type { GitHubEmulator } from './github.ts'

const O = 'acme'
const R = 'shop'
const SHA = 'c'.repeat(40)

let emu: GitHubEmulator
const octo = (token: string) => getOctokit(token, { baseUrl: emu.url, request: { retries: 0 } })

async function failure(p: Promise<unknown>): Promise<{ status: number; message: unknown }> {
  try {
    await p
  } catch (e) {
    const r = e as { status: number; response?: { data: { message?: unknown } } }
    return { status: r.status, message: r.response?.data.message }
  }
  throw new Error('expected the request to fail')
}

beforeAll(async () => {
  emu = await startGitHubEmulator()
})
afterAll(async () => {
  await emu.close()
})
beforeEach(() => {
  emu.reset()
  emu.addRepo(O, R)
})

const deployment = {
  owner: O,
  repo: R,
  ref: SHA,
  environment: 'production/prod-eu',
  auto_merge: false,
  required_contexts: [],
  description: 'rollout',
  payload: { edge: 'prod-eu', targets: 1 },
}

describe('GitHub emulator: deployments', () => {
  it('records deployments and their statuses in order, and lists both newest first', async () => {
    const gh = octo(ACTIONS_TOKEN)
    const { data: d } = await gh.rest.repos.createDeployment(deployment)
    expect(typeof d === 'object' && 'id' in d).toBe(true)
    const id = (d as { id: number }).id
    for (const state of ['in_progress', 'success'] as const)
      await gh.rest.repos.createDeploymentStatus({
        owner: O,
        repo: R,
        deployment_id: id,
        state,
        log_url: 'https://x/run',
      })
    expect(emu.deployments(O, R)).toEqual([
      expect.objectContaining({
        ref: SHA,
        environment: 'production/prod-eu',
        payload: { edge: 'prod-eu', targets: 1 },
        statuses: [
          { state: 'in_progress', description: '', log_url: 'https://x/run' },
          { state: 'success', description: '', log_url: 'https://x/run' },
        ],
      }),
    ])
    const listed = await gh.rest.repos.listDeployments({
      owner: O,
      repo: R,
      sha: SHA,
      environment: 'production/prod-eu',
    })
    expect(listed.data.map((x) => x.id)).toEqual([id])
    expect((await gh.rest.repos.listDeployments({ owner: O, repo: R, environment: 'other' })).data).toEqual([])
    const statuses = await gh.rest.repos.listDeploymentStatuses({ owner: O, repo: R, deployment_id: id })
    expect(statuses.data.map((s) => s.state)).toEqual(['success', 'in_progress'])
  })

  it('marks the earlier deployment of an environment inactive on a success (auto_inactive)', async () => {
    const gh = octo(ACTIONS_TOKEN)
    const first = (await gh.rest.repos.createDeployment(deployment)).data as { id: number }
    const second = (await gh.rest.repos.createDeployment(deployment)).data as { id: number }
    await gh.rest.repos.createDeploymentStatus({ owner: O, repo: R, deployment_id: first.id, state: 'in_progress' })
    await gh.rest.repos.createDeploymentStatus({ owner: O, repo: R, deployment_id: second.id, state: 'success' })
    expect(emu.deployments(O, R).map((d) => d.statuses.map((s) => s.state))).toEqual([
      ['in_progress', 'inactive'],
      ['success'],
    ])
  })

  it('refuses a description over 140 characters, an unknown state, and a read-only token', async () => {
    const gh = octo(ACTIONS_TOKEN)
    expect(
      await failure(gh.rest.repos.createDeployment({ ...deployment, description: 'x'.repeat(141) })),
    ).toMatchObject({
      status: 422,
    })
    const d = (await gh.rest.repos.createDeployment(deployment)).data as { id: number }
    expect(
      await failure(
        gh.rest.repos.createDeploymentStatus({ owner: O, repo: R, deployment_id: d.id, state: 'done' as 'success' }),
      ),
    ).toMatchObject({ status: 422 })
    expect(await failure(octo(READONLY_TOKEN).rest.repos.createDeployment(deployment))).toEqual({
      status: 403,
      message: 'Resource not accessible by integration',
    })
  })

  it('answers 403 on every deployments route with the deploymentsForbidden fault', async () => {
    emu.addFault(deploymentsForbidden())
    const gh = octo(ACTIONS_TOKEN)
    expect(await failure(gh.rest.repos.createDeployment(deployment))).toEqual({
      status: 403,
      message: 'Resource not accessible by integration',
    })
    expect(await failure(gh.rest.repos.listDeployments({ owner: O, repo: R }))).toMatchObject({ status: 403 })
    expect(emu.deployments(O, R)).toEqual([])
    // other routes are untouched
    expect((await gh.rest.repos.get({ owner: O, repo: R })).status).toBe(200)
  })
})
