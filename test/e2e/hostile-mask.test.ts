/**
 * End to end, the mask bypass: a hub plants `stop-commands` in text the action logs (the run id),
 * then answers 401 so the action renews its GitHub OIDC token. The renewed token is announced
 * with `add-mask`; were commands stopped, that line would print the token in clear. A port of
 * the runner's parser (test/oracles/workflow-commands.ts) says whether a mask was in force
 * wherever the token appears. dist/index.js runs as a process against the hub emulator (its
 * agents provider replaced by a hostile one) and a local OIDC token endpoint.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runAction } from './harness.ts'
import { startHubEmulator, type EmulatorRequest, type HubEmulator } from '../../emulator/index.ts'
import { secretTraces } from '../oracles/secret-traces.ts'
import { exposedLines, readWorkflowCommands, shownLog } from '../oracles/workflow-commands.ts'

// base64url, as OIDC tokens are: `_` and `-` are what markdown escapes (see hostile-secrets.test.ts for other shapes).
const FIRST_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJuIjoxfQ.Zmlyc3Qt_b2lkYy1-0b2tlbi1zaWduYXR1cmU'
const RENEWED_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJuIjoyfQ.cmVuZXdl_ZC1vaWRj-LXRva2VuLXNpZ25hdHVyZQ'
const REQUEST_TOKEN = 'runner-request-token-31c2'
const RUN_ID = 'run-9\n::stop-commands::attackerstop'

let hub: HubEmulator
let oidc: http.Server
let oidcUrl: string
let issued = 0

/** The hub accepts the first token once (to start the run), then only the renewed one. */
function hostileAgents(request: EmulatorRequest, res: http.ServerResponse): void {
  const reply = (status: number, body: unknown) => {
    const text = JSON.stringify(body)
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text)
  }
  const renewed = request.headers.authorization === `Bearer ${RENEWED_TOKEN}`
  if (request.method === 'POST' && request.path.endsWith('/runs'))
    return reply(201, { runId: RUN_ID, phase: 'Running', reused: false })
  if (!renewed) return reply(401, { kind: 'Status', reason: 'Unauthorized', message: 'token expired', code: 401 })
  if (request.method === 'GET' && request.path.endsWith('/wait'))
    return reply(200, {
      id: RUN_ID,
      phase: 'Succeeded',
      output: `used ${RENEWED_TOKEN} to call the API, not **${FIRST_TOKEN}**`,
      steps: [],
      children: [],
    })
  reply(404, { kind: 'Status', reason: 'NotFound', message: 'not scripted', code: 404 })
}

beforeAll(async () => {
  // The hub emulator authenticates both tokens (the second as its service-account token); the provider decides.
  hub = await startHubEmulator({
    token: FIRST_TOKEN,
    serviceAccountToken: RENEWED_TOKEN,
    providers: { agents: hostileAgents },
  })
  oidc = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${REQUEST_TOKEN}`) return void res.writeHead(401).end()
    issued++
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ value: issued === 1 ? FIRST_TOKEN : RENEWED_TOKEN }))
  })
  await new Promise<void>((resolve) => oidc.listen(0, '127.0.0.1', resolve))
  oidcUrl = `http://127.0.0.1:${(oidc.address() as AddressInfo).port}/token?api-version=2.0`
})

afterAll(async () => {
  await hub.close()
  await new Promise<void>((resolve) => oidc.close(() => resolve()))
})

it('a planted stop-commands cannot switch off the add-mask of a renewed OIDC token', async () => {
  const result = await runAction({
    inputs: {
      'hub-url': hub.url,
      org: hub.org,
      workspace: hub.workspace,
      'oidc-audience': 'hub.example.com',
      agent: 'quick',
      task: 'Check the fleet',
    },
    env: { ACTIONS_ID_TOKEN_REQUEST_URL: oidcUrl, ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN },
    killAfterMs: 30_000,
  })
  try {
    expect(issued, 'the token was renewed after the 401').toBe(2)
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    expect(result.stdout).toContain(RENEWED_TOKEN) // announced to the runner: the oracle decides whether it was masked
    for (const collation of ['ordinal', 'icu'] as const) {
      const view = readWorkflowCommands(result.stdout, { collation })
      expect(
        exposedLines(view, RENEWED_TOKEN).map((line) => line.text),
        `lines that show the renewed token in clear (${collation})`,
      ).toEqual([])
      expect(exposedLines(view, FIRST_TOKEN).map((line) => line.text)).toEqual([])
      expect(view.commands.filter((c) => c.data.startsWith('attackerstop'))).toEqual([])
      expect(view.masks).toEqual(expect.arrayContaining([FIRST_TOKEN, RENEWED_TOKEN]))
    }
    // In any encoded or clipped form too (the summary escapes `_` and `-`), in what the runner shows and what was written.
    const written = [
      shownLog(readWorkflowCommands(result.stdout)),
      ...Object.values(result.outputs),
      ...Object.values(result.files),
    ].join('\n')
    for (const token of [FIRST_TOKEN, RENEWED_TOKEN]) expect(secretTraces(written, token)).toEqual([])
  } finally {
    result.cleanup()
  }
})
