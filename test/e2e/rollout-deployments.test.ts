/**
 * End to end, `deployment-environment`: dist/index.js as a process against the scripted rollout
 * fleet and the GitHub emulator, which records each deployment and its statuses. One deployment
 * per watched edge in `production/<edge>`, statuses in_progress → success / failure / error, the
 * run's URL as `log_url`; no call without the input; a token without `deployments: write` gets
 * a message naming the permission while the gate's outputs stand.
 */
import { describe, expect, it } from 'vitest'
import { ACTIONS_TOKEN, deploymentsForbidden } from '../../emulator/index.ts'
import { useGitHubEmulator } from './harness.ts'
import { fleetAt, rollout } from './rollout-harness.ts'

const github = useGitHubEmulator()
const SHA = '4c5e1f0b9a7d3e2c1b0a9f8e7d6c5b4a39281706'
const RUN_URL = 'https://github.com/acme/shop/actions/runs/7001/attempts/1'

const withGitHub = (extra: Record<string, string>) => ({ 'github-token': ACTIONS_TOKEN, ...extra })
const env = () => ({ GITHUB_API_URL: github.url })
const deploymentCalls = () => github.requests.filter((r) => r.path.includes('/deployments'))

describe('rollout: one GitHub deployment per edge', () => {
  it('writes a deployment per watched edge, in_progress then success, with the run as log_url', async () => {
    github.addRepo('acme', 'shop')
    const emulator = await fleetAt('converging', [0, 30_000, 200_000])
    const result = await rollout(
      emulator,
      withGitHub({ edges: 'prod-eu, prod-us', 'deployment-environment': 'production' }),
      env(),
    )
    expect(result.code, result.stdout).toBe(0)
    expect(result.outputs['rollout-state']).toBe('current')
    const deployments = github.deployments('acme', 'shop')
    expect(deployments.map((d) => d.environment).sort()).toEqual(['production/prod-eu', 'production/prod-us'])
    for (const d of deployments) {
      const edge = d.environment.slice('production/'.length)
      expect(d.ref).toBe(SHA)
      expect(d.payload).toEqual({ edge, targets: 1, run_id: '7001', run_attempt: 1 })
      expect(d.description.length).toBeLessThanOrEqual(140)
      expect(d.transient_environment).toBe(false)
      expect(d.statuses.map((s) => [s.state, s.log_url])).toEqual([
        ['in_progress', RUN_URL],
        ['success', RUN_URL],
      ])
    }
    const created = deploymentCalls().filter((r) => r.method === 'POST' && r.path.endsWith('/deployments'))
    expect(created.map((r) => r.body)).toEqual(
      deployments.map(() => expect.objectContaining({ auto_merge: false, required_contexts: [] })),
    )
    // nothing but the deployments calls reaches GitHub
    expect(github.requests.every((r) => r.path.startsWith('/repos/acme/shop/deployments'))).toBe(true)
  })

  it('marks the edge where a target failed `failure` and fails the step; no edge is left in progress', async () => {
    github.addRepo('acme', 'shop')
    const emulator = await fleetAt('deadline', [0, 200_000])
    const result = await rollout(emulator, withGitHub({ 'deployment-environment': 'production' }), env())
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('failed')
    const byEdge = new Map(
      github.deployments('acme', 'shop').map((d) => [d.environment, d.statuses.map((s) => s.state)]),
    )
    expect(byEdge.get('production/prod-us')).toEqual(['in_progress', 'failure'])
    expect([...byEdge.keys()].sort()).toEqual(['production/prod-eu', 'production/prod-us', 'production/staging'])
    for (const states of byEdge.values()) {
      expect(states[0]).toBe('in_progress')
      expect(states).toHaveLength(2)
      expect(['success', 'failure', 'error']).toContain(states[1])
    }
  })

  it('makes no deployments call without the input', async () => {
    github.addRepo('acme', 'shop')
    const emulator = await fleetAt('converging', [0, 30_000, 200_000])
    const result = await rollout(emulator, withGitHub({ edges: 'prod-eu' }), env())
    expect(result.code, result.stdout).toBe(0)
    expect(github.requests).toEqual([])
  })

  it('names the permission when GitHub answers 403, and still publishes the verdict and outputs', async () => {
    github.addRepo('acme', 'shop')
    github.addFault(deploymentsForbidden())
    const emulator = await fleetAt('converging', [0, 30_000, 200_000])
    const result = await rollout(
      emulator,
      withGitHub({ edges: 'prod-eu, prod-us', 'deployment-environment': 'production' }),
      env(),
    )
    expect(result.outputs['rollout-state']).toBe('current')
    expect(result.outputs['current-count']).toBe('2')
    // a gate that passed but could not record its deployments warns
    expect(result.code).toBe(0)
    const warning = result.stdout.split('\n').find((l) => l.startsWith('::warning::Rolled out'))
    expect(warning).toContain('Could not record GitHub deployments (deployment-environment: production)')
    expect(warning).toContain('`permissions: deployments: write`')
    expect(warning).toContain('Resource not accessible by integration')
    // the first refusal stops the writes: one call, not one per edge and state
    expect(deploymentCalls()).toHaveLength(1)
    expect(github.deployments('acme', 'shop')).toEqual([])
  })

  it('shows the deployments calls in a dry run, and sends nothing', async () => {
    const emulator = await fleetAt('converging', [0])
    const result = await rollout(
      emulator,
      withGitHub({ 'dry-run': 'true', edges: 'prod-eu', 'deployment-environment': 'production' }),
      env(),
    )
    expect(result.code, result.stdout).toBe(0)
    expect(emulator.requests).toHaveLength(0)
    expect(github.requests).toHaveLength(0)
    expect(result.stdout).toContain(
      `POST ${github.url}/repos/acme/shop/deployments — create the deployment of environment production/prod-eu`,
    )
    expect(result.stdout).toContain(
      `POST ${github.url}/repos/acme/shop/deployments/{deployment_id}/statuses — mark it in_progress`,
    )
    expect(result.stdout).toContain('"environment": "production/prod-eu"')
    expect(result.stdout).toContain('"auto_merge": false')
  })
})
