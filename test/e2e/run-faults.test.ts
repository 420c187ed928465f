/**
 * End to end, a hub that misbehaves or refuses: 503/429 with Retry-After and connection
 * resets on the POST and on the wait, a lost POST response with and without an idempotency
 * key, and the hub's refusals (401, service-account token, the silent workspace fallback,
 * unknown agent). dist/index.js as a child process against the hub emulator over real HTTP.
 */
import { describe, expect, it } from 'vitest'
import { bodyOf, hubInputs, lines, runStep, useHubEmulator, waitRequests, type ActionRun } from './harness.ts'
import type { Fault, RecordedRequest } from '../../emulator/index.ts'

const AGENTS = '/services/providers/agents'
const START = /\/agents\/quick\/runs$/

const hub = useHubEmulator({ maxHoldMs: 300 })

const inputs = (extra: Record<string, string>): Record<string, string> =>
  hubInputs(hub, { agent: 'quick', task: 'Check payments', ...extra })
const act = (extra: Record<string, string> = {}): Promise<ActionRun> => runStep({ inputs: inputs(extra) })

const posts = (): RecordedRequest[] => hub.requests.filter((r) => r.method === 'POST' && START.test(r.path))
const waits = (): RecordedRequest[] => waitRequests(hub)

function onlyError(result: ActionRun): string {
  const errors = lines(result.stdout, '::error::')
  expect(errors).toHaveLength(1)
  return errors[0] ?? ''
}

function expectSucceededOnce(result: ActionRun): void {
  expect(lines(result.stdout, '::error::')).toEqual([])
  expect(result.code).toBe(0)
  expect(hub.runs()).toHaveLength(1)
  expect(result.outputs['run-id']).toBe(hub.runs()[0]?.id)
  expect(result.outputs.phase).toBe('Succeeded')
  expect(result.outputs.settled).toBe('true')
}

describe('transient faults are retried', () => {
  const endpoints: Array<{ name: string; method: string; path: RegExp; requests: () => RecordedRequest[] }> = [
    { name: 'the POST that starts the run', method: 'POST', path: START, requests: posts },
    { name: 'the wait', method: 'GET', path: /\/wait$/, requests: waits },
  ]
  const faults: Array<{ name: string; fault: Omit<Fault, 'method' | 'path'>; logged: string }> = [
    {
      name: '503 with Retry-After',
      fault: { status: 503, retryAfter: '1', body: 'provider not ready: agents' },
      logged: 'answered 503; retry 1/4 in 1.0 s',
    },
    {
      name: '429 with Retry-After',
      fault: { status: 429, retryAfter: '1' },
      logged: 'answered 429; retry 1/4 in 1.0 s',
    },
    { name: 'a connection reset', fault: { reset: true }, logged: 'lost its connection; retry 1/4' },
  ]
  for (const endpoint of endpoints) {
    for (const { name, fault, logged } of faults) {
      it(`${name} on ${endpoint.name}: still succeeds, with one run`, async () => {
        hub.addFault({ method: endpoint.method, path: endpoint.path, ...fault })
        const result = await act()
        expectSucceededOnce(result)
        expect(result.outputs.reused).toBe('false')
        expect(hub.pendingFaults()).toEqual([])
        const [faulted, retried] = endpoint.requests()
        expect(faulted?.fault).toBeDefined()
        expect(retried).toBeDefined()
        expect(retried?.fault).toBeUndefined()
        expect(retried?.path).toBe(faulted?.path)
        // The wait retries until the time budget runs out, so it counts no fixed number of attempts.
        const said = endpoint.method === 'GET' ? logged.replace('/4', '') : logged
        expect(result.stdout).toContain(`Hub: ${endpoint.method} ${faulted?.path} ${said}`)
        // Exactly one POST reached the provider: the faulted one never got past the hub.
        expect(posts()).toHaveLength(endpoint.method === 'POST' ? 2 : 1)
        if (endpoint.method === 'POST') expect(bodyOf(retried)).toEqual(bodyOf(faulted))
      })
    }
  }

  it('gives up after five attempts on a hub that keeps answering 503', async () => {
    hub.addFault({
      method: 'POST',
      path: START,
      status: 503,
      retryAfter: '0',
      body: 'provider not ready: agents',
      times: Infinity,
    })
    const result = await act()
    expect(result.code).toBe(1)
    expect(posts()).toHaveLength(5)
    expect(hub.runs()).toHaveLength(0)
    const error = onlyError(result)
    expect(error).toContain('Could not start a run of agent "quick"')
    expect(error).toContain('503')
    expect(error).toContain('provider not ready: agents')
    expect(result.outputs['run-id']).toBeUndefined()
  })
})

describe('a lost response to the POST', () => {
  it('with an idempotency key: the retry attaches to the run the lost POST created', async () => {
    hub.addFault({ method: 'POST', path: START, loseResponse: true })
    const result = await act()
    expectSucceededOnce(result)
    expect(result.outputs.reused).toBe('true')
    expect(posts()).toHaveLength(2)
    const [lost, retried] = posts()
    expect(lost?.fault).toBe('loseResponse')
    expect(bodyOf(retried).idempotencyKey).toBe(bodyOf(lost).idempotencyKey)
    expect(bodyOf(lost).idempotencyKey).toEqual(expect.any(String))
  })

  it('with `idempotency-key: none`: fails with a message and never sends a second POST', async () => {
    hub.addFault({ method: 'POST', path: START, loseResponse: true })
    const result = await act({ 'idempotency-key': 'none' })
    expect(result.code).toBe(1)
    expect(posts()).toHaveLength(1)
    // The whoami preflight and the one start.
    expect(hub.requests).toHaveLength(2)
    // The hub did create it; the action never learned its id.
    expect(hub.runs()).toHaveLength(1)
    expect(result.outputs['run-id']).toBeUndefined()
    const error = onlyError(result)
    expect(error).toContain('Could not start a run of agent "quick"')
    expect(result.stdout).not.toContain('retry 1/4')
  })
})

describe('refusals from the hub', () => {
  it('401 for a bad token: the message names `token` and `cluster-id`, with no retry', async () => {
    const result = await act({ token: 'not-the-right-token' })
    expect(result.code).toBe(1)
    expect(hub.requests).toHaveLength(1)
    expect(hub.runs()).toHaveLength(0)
    const error = onlyError(result)
    expect(error).toContain('401')
    expect(error).toContain('`token`')
    expect(error).toContain('`cluster-id`')
  })

  it("quotes the hub's plain-text 401 answer intact (redaction only hides credentials)", async () => {
    const result = await act({ token: 'not-the-right-token' })
    const error = onlyError(result)
    // The emulator answers `unauthorized: missing or invalid bearer token` (text/plain), which holds no secret.
    expect(error).toContain(
      '(hub answered 401: unauthorized: missing or invalid bearer token). The hub refused the token',
    )
  })

  it('a service-account token on the user route: 401 with the advice to set `cluster-id`', async () => {
    const result = await act({ token: hub.serviceAccountToken })
    expect(result.code).toBe(1)
    // The whoami preflight meets the refusal first: nothing is started.
    expect(hub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${AGENTS}/api/whoami`])
    expect(hub.runs()).toHaveLength(0)
    const error = onlyError(result)
    expect(error).toContain('401')
    expect(error).toContain('service-account token')
    expect(error).toContain('`cluster-id`')
  })

  it('with `cluster-id`, the service-account token works through /s2s/clusters/{id}/…', async () => {
    const result = await act({ token: hub.serviceAccountToken, 'cluster-id': hub.clusterId })
    expectSucceededOnce(result)
    const prefix = `${AGENTS}/s2s/clusters/${hub.clusterId}/`
    const id = result.outputs['run-id'] ?? ''
    expect(hub.requests[0]?.path).toBe(`${prefix}agents/quick/runs`)
    expect(waits().length).toBeGreaterThanOrEqual(1)
    for (const wait of waits()) expect(wait.path).toBe(`${prefix}runs/${id}/wait`)
    for (const request of hub.requests) {
      expect(request.path.startsWith(prefix)).toBe(true)
      expect(request.headers.authorization).toBe(`Bearer ${hub.serviceAccountToken}`)
    }
  })

  it('a workspace UUID that is not a membership: explains the silent fallback, naming org and workspace', async () => {
    const stranger = '0b5e4a3c-2d1f-4e6a-8b7c-9d0e1f2a3b4c'
    const result = await act({ workspace: stranger })
    expect(result.code).toBe(1)
    expect(hub.requests).toHaveLength(1)
    expect(hub.runs()).toHaveLength(0)
    const error = onlyError(result)
    // Found by the whoami preflight, before any start.
    expect(error).toContain('GET /api/whoami answered an empty workspaceUUID')
    expect(error).toContain('personal org')
    expect(error).toContain(hub.org)
    expect(error).toContain(stranger)
  })

  it('404 for an unknown agent: names the agent and the workspace', async () => {
    const result = await act({ agent: 'ghost' })
    expect(result.code).toBe(1)
    expect(hub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${AGENTS}/api/whoami`,
      `POST ${AGENTS}/api/agents/ghost/runs`,
    ])
    expect(hub.runs()).toHaveLength(0)
    const error = onlyError(result)
    expect(error).toContain('404')
    expect(error).toContain('agent "ghost"')
    expect(error).toContain(hub.workspace)
  })
})
