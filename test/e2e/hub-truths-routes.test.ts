/**
 * End to end, the hub's answers as its source gives them (docs/hub-facts.md, "Agents provider"): a plain-text
 * `404 page not found` is "no such route" (a `hub-url` with a path, or a provider without the
 * runs API), never "no such agent"; the service-account route answers 403 for a bad token or an
 * unknown cluster id, or 503 `locating workspace`, never 409.
 */
import { describe, expect, it } from 'vitest'
import { runStep, useHubEmulator, type ActionRun } from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })
const shardedHub = useHubEmulator({ maxHoldMs: 300, unknownClusterStatus: 503 })

async function act(extra: Record<string, string>, target = hub): Promise<ActionRun> {
  return runStep({
    inputs: {
      'hub-url': target.url,
      token: target.token,
      org: target.org,
      workspace: target.workspace,
      agent: 'quick',
      task: 'Check payments',
      ...extra,
    },
  })
}

function onlyError(result: ActionRun): string {
  const errors = result.stdout.split('\n').filter((line) => line.startsWith('::error::'))
  expect(errors).toHaveLength(1)
  return errors[0] ?? ''
}

describe('a plain-text 404 is "no such route"', () => {
  // Was a warning ("ends in an API path") followed by requests to /services/services/…; now an input error before any request.
  for (const suffix of ['/services', '/api', '/services/providers/agents/api/agents/quick/runs']) {
    it(`hub-url ending in ${suffix}: refused before any request, naming \`hub-url\`, the value and the base URL, once`, async () => {
      const result = await act({ 'hub-url': `${hub.url}${suffix}` })
      expect(result.code).toBe(1)
      expect(hub.requests).toHaveLength(0)
      const error = onlyError(result)
      expect(error).toContain(`Input \`hub-url\`: "${hub.url}${suffix}" carries the hub's API path`)
      expect(error).toContain(`Set \`hub-url\` to ${hub.url}.`)
      expect(error).not.toContain('no such route')
      expect(result.stdout.split("carries the hub's API path")).toHaveLength(2)
      expect(result.stdout).not.toContain('::warning::')
    })
  }

  it('a path prefix is left to the hub; one the server does not route gets the no-such-route diagnosis once, though whoami and the start both met it', async () => {
    const result = await act({ 'hub-url': `${hub.url}/hub` })
    expect(result.code).toBe(1)
    expect(result.stdout).not.toContain("carries the hub's API path")
    expect(hub.requests.map((request) => request.path)).toEqual([
      '/hub/services/providers/agents/api/whoami',
      '/hub/services/providers/agents/api/agents/quick/runs',
    ])
    const error = onlyError(result)
    expect(error).toContain('no such route')
    expect(error).toContain(`\`hub-url\` (${hub.url}/hub`)
    expect(error).toContain(`POST ${hub.url}/hub/services/providers/agents/api/agents/quick/runs`)
    expect(result.stdout.split('reached a server that has no such route')).toHaveLength(2)
  })

  it('an agents provider without the runs API (text 404 on POST …/runs): no such route, not "agent not found"', async () => {
    hub.addFault({
      method: 'POST',
      path: /\/runs$/,
      status: 404,
      body: '404 page not found\n',
      contentType: 'text/plain; charset=utf-8',
    })
    const result = await act({})
    expect(result.code).toBe(1)
    const error = onlyError(result)
    expect(error).toContain('no such route')
    expect(error).toContain('v0.0.21')
    expect(error).not.toContain('check the name')
  })

  it('a JSON NotFound is still "no such agent"', async () => {
    const result = await act({ agent: 'nobody' })
    const error = onlyError(result)
    expect(error).toContain('check the name')
    expect(error).not.toContain('no such route')
  })

  it('an HTML 404 (a portal or web server) names `hub-url`', async () => {
    hub.addFault({
      method: 'POST',
      path: /\/runs$/,
      status: 404,
      body: '<!doctype html><title>Not found</title>',
      contentType: 'text/html; charset=utf-8',
    })
    const result = await act({})
    const error = onlyError(result)
    expect(error).toContain('`hub-url`')
    expect(error).toContain('HTML page')
    expect(error).not.toContain('check the name')
  })
})

describe('service-account route status codes', () => {
  it('an invalid token there is 403: names `token` and `cluster-id`', async () => {
    const result = await act({ token: 'not-a-service-account-token', 'cluster-id': hub.clusterId })
    expect(result.code).toBe(1)
    const error = onlyError(result)
    expect(error).toContain('403')
    expect(error).toContain('`token`')
    expect(error).toContain('`cluster-id`')
    expect(error).not.toContain('not mapped')
  })

  it('an unknown cluster id is 403: names `cluster-id` and what to check', async () => {
    const result = await act({ token: hub.serviceAccountToken, 'cluster-id': 'c-unknown' })
    expect(result.code).toBe(1)
    const error = onlyError(result)
    expect(error).toContain('403')
    expect(error).toContain('cluster "c-unknown"')
    expect(error).toContain("workspace's cluster id")
  })

  it('an unknown cluster id on a sharded hub is 503 `locating workspace`: names `cluster-id`', async () => {
    const result = await act({ token: shardedHub.serviceAccountToken, 'cluster-id': 'c-unknown' }, shardedHub)
    expect(result.code).toBe(1)
    const error = onlyError(result)
    expect(error).toContain('locating workspace')
    expect(error).toContain('could not locate a workspace for cluster "c-unknown"')
    expect(error).toContain('`cluster-id`')
  })
})
