/**
 * `dry-run: true` sends nothing and shows the exact requests; `oidc-audience` fetches a
 * GitHub OIDC token from the runner's token endpoint (a local server here) and uses it as the
 * hub bearer. The bundled action runs as a process against the emulator.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runStep } from './harness.ts'
import { startHubEmulator, type HubEmulator } from '../../emulator/index.ts'

const OIDC_JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodWIuZXhhbXBsZS5jb20ifQ.c2lnbmF0dXJlLW9mLXRoZS1vaWRjLXRva2Vu'
const REQUEST_TOKEN = 'runner-request-token-7f8e9d'

let hub: HubEmulator
let oidc: http.Server
let oidcUrl: string
const oidcRequests: Array<{ url: string; authorization: string | undefined }> = []

beforeAll(async () => {
  hub = await startHubEmulator({ token: OIDC_JWT })
  oidc = http.createServer((req, res) => {
    oidcRequests.push({ url: req.url ?? '', authorization: req.headers.authorization })
    if (req.headers.authorization !== `Bearer ${REQUEST_TOKEN}`) {
      res.writeHead(401).end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ value: OIDC_JWT }))
  })
  await new Promise<void>((resolve) => oidc.listen(0, '127.0.0.1', resolve))
  oidcUrl = `http://127.0.0.1:${(oidc.address() as AddressInfo).port}/token?api-version=2.0`
})

afterAll(async () => {
  await hub.close()
  await new Promise<void>((resolve) => oidc.close(() => resolve()))
})

beforeEach(() => {
  hub.reset()
  oidcRequests.length = 0
})

const hubInputs = () => ({ 'hub-url': hub.url, org: hub.org, workspace: hub.workspace })

describe('dry-run', () => {
  it('prints the run requests with the token redacted, derives the key and session, and sends nothing', async () => {
    const result = await runStep({
      inputs: {
        ...hubInputs(),
        token: 'secret-token-that-must-not-show-1234',
        agent: 'quick',
        task: 'Plan the release',
        'dry-run': 'true',
      },
    })
    expect(result.code).toBe(0)
    expect(hub.requests).toEqual([])
    expect(result.stdout).toContain(`POST ${hub.url}/services/providers/agents/api/agents/quick/runs`)
    expect(result.stdout).toContain('"authorization": "Bearer ***"')
    // Fingerprints only: a key or session printed before its run exists could be started under first
    expect(result.stdout).toMatch(/Idempotency key \(fingerprint\): sha256:[0-9a-f]{12}/)
    expect(result.stdout).not.toMatch(/gha-[0-9a-f]{40}/)
    const file = JSON.parse(readFileSync(result.outputs['result-file'] ?? '', 'utf8')) as {
      schema: string
      requests: Array<{ method: string; body?: { task?: string; wait?: number; sessionId?: string } }>
      sessionId: string
    }
    expect(file.schema).toBe('hub-action/dry-run')
    // The whoami preflight, the start, the long-poll.
    expect(file.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET'])
    expect(file.requests[1]?.body).toMatchObject({
      task: 'Plan the release',
      wait: 0,
      sessionId: `*** (${file.sessionId})`,
    })
    expect(file.sessionId).toMatch(/^sha256:[0-9a-f]{12}$/)
    expect(result.summary).toContain('Dry run: `run`')
    const everywhere = [result.summary, ...Object.values(result.outputs), ...Object.values(result.files)].join('\n')
    expect(everywhere).not.toContain('secret-token-that-must-not-show-1234')
    expect(result.stdout.split('\n').filter((line) => line.includes('secret-token-that-must-not-show-1234'))).toEqual([
      '::add-mask::secret-token-that-must-not-show-1234',
    ])
  })

  it('shows the impact query for each target and sends nothing', async () => {
    const result = await runStep({
      inputs: {
        ...hubInputs(),
        token: hub.token,
        command: 'impact',
        targets:
          '[{kind: Deployment, group: apps, name: checkout, namespace: shop}, {kind: ConfigMap, name: checkout-config, namespace: shop}]',
        'dry-run': 'true',
      },
    })
    expect(result.code).toBe(0)
    expect(hub.requests).toEqual([])
    expect(result.outputs['targets-count']).toBe('2')
    const file = JSON.parse(readFileSync(result.outputs['result-file'] ?? '', 'utf8')) as {
      requests: Array<{ url: string; body: { filter: unknown } }>
    }
    // whoami first: the graph answers a wrong org or workspace with an empty fleet
    expect(file.requests.map((r) => r.url)).toEqual([
      `${hub.url}/services/providers/agents/api/whoami`,
      `${hub.url}/services/providers/graph/api/query`,
      `${hub.url}/services/providers/graph/api/query`,
    ])
    expect(file.requests[1]?.body.filter).toEqual({
      objects: [{ groupKind: { apiGroup: 'apps', kind: 'Deployment' }, name: 'checkout', namespace: 'shop' }],
    })
  })

  it('for impact from manifests alone, shows only the requests it can know and says what follows, with no pseudo-request', async () => {
    const result = await runStep({
      inputs: { ...hubInputs(), token: hub.token, command: 'impact', manifests: 'deploy/**/*.yaml', 'dry-run': 'true' },
    })
    expect(result.code).toBe(0)
    expect(hub.requests).toEqual([])
    const file = JSON.parse(readFileSync(result.outputs['result-file'] ?? '', 'utf8')) as {
      requests: Array<{ method: string; url: string }>
      then: string[]
    }
    // Only the whoami preflight is a request it can show: no "(none)" row, no query "like the ones above" of none.
    expect(file.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${hub.url}/services/providers/agents/api/whoami`,
    ])
    const then =
      'read the workspace files matching deploy/**/*.yaml, and for each object they hold send one graph query (built as for a target named in `targets`)'
    expect(file.then).toEqual([expect.stringContaining(then)])
    expect(result.stdout).toContain('Dry run: 1 request(s) would be sent, then more that depend on what they find')
    expect(result.stdout).toContain(`Then: ${then}`)
    expect(result.stdout).not.toContain('(none)')
    expect(result.stdout).not.toContain('like the ones above')
    expect(result.summary).toContain('**Then** read the workspace files matching')
    expect(result.outputs['targets-count']).toBeUndefined()
  })

  it('still refuses bad inputs before anything else', async () => {
    const result = await runStep({
      inputs: { ...hubInputs(), token: hub.token, agent: 'Bad_Name', task: 'x', 'dry-run': 'true' },
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('Input `agent`')
    expect(hub.requests).toEqual([])
  })
})

describe('oidc-audience', () => {
  it('uses the runner OIDC token for the audience as the hub bearer', async () => {
    const result = await runStep({
      inputs: { ...hubInputs(), 'oidc-audience': 'hub.example.com', agent: 'quick', task: 'Check the fleet' },
      env: { ACTIONS_ID_TOKEN_REQUEST_URL: oidcUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN },
    })
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    expect(oidcRequests).toHaveLength(1)
    expect(new URL(oidcRequests[0]?.url ?? '', 'http://x').searchParams.get('audience')).toBe('hub.example.com')
    expect(hub.requests.every((r) => r.headers.authorization === `Bearer ${OIDC_JWT}`)).toBe(true)
    expect(result.stdout).toContain(`::add-mask::${OIDC_JWT}`)
    const everywhere = [result.summary, ...Object.values(result.outputs), ...Object.values(result.files)].join('\n')
    expect(everywhere).not.toContain(OIDC_JWT)
  })

  it('a hub that refuses the GitHub token (as a stock hub does): one error saying the hub must trust GitHub, after one fresh token', async () => {
    const stock = await startHubEmulator({ token: 'hub-static-token-9c1d7e5a' })
    try {
      const result = await runStep({
        inputs: {
          'hub-url': stock.url,
          org: stock.org,
          workspace: stock.workspace,
          'oidc-audience': 'hub.example.com',
          agent: 'quick',
          task: 'x',
        },
        env: { ACTIONS_ID_TOKEN_REQUEST_URL: oidcUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN },
      })
      expect(result.code).toBe(1)
      expect(oidcRequests).toHaveLength(2)
      const errors = result.stdout.split('\n').filter((line) => line.startsWith('::error::'))
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain('The hub refused the GitHub OIDC token (audience "hub.example.com"')
      expect(errors[0]).toContain("trust GitHub's issuer")
      expect(errors[0]).not.toContain('`cluster-id`')
      expect(
        result.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::') && line.includes(OIDC_JWT)),
      ).toEqual([])
    } finally {
      await stock.close()
    }
  })

  it('explains the missing id-token permission and sends nothing to the hub', async () => {
    const result = await runStep({
      inputs: { ...hubInputs(), 'oidc-audience': 'hub.example.com', agent: 'quick', task: 'x' },
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('permissions: id-token: write')
    expect(hub.requests).toEqual([])
  })

  it('requires token or oidc-audience', async () => {
    const result = await runStep({ inputs: { ...hubInputs(), agent: 'quick', task: 'x' } })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('Input `token` is required')
    expect(result.stdout).toContain('oidc-audience')
    expect(hub.requests).toEqual([])
  })
})
