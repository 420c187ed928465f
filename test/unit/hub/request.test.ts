/**
 * A request's type says how its answer can be read: a JSON `call` cannot ask for a stream's
 * readings (returnStatus, pick, refusal), a `stream` cannot ask for a schema. The type checks
 * here are enforced by `npm run typecheck` (this file is in its project); the calls run too.
 */
import { MockAgent } from 'undici'
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { HubNotFoundError } from '../../../src/hub/errors.js'
import type { HubRequest, JsonRequest, StreamRequest } from '../../../src/hub/request.js'
import { HubTransport } from '../../../src/hub/transport.js'

const ORIGIN = 'https://hub.example.com'
const PATH = '/services/providers/agents/api/runs/r1'

let agent: MockAgent | undefined
afterEach(async () => {
  await agent?.close()
  agent = undefined
})

function transport(): { hub: HubTransport; mock: MockAgent } {
  const mock = new MockAgent()
  mock.disableNetConnect()
  agent = mock
  const hub = new HubTransport({
    baseUrl: new URL(ORIGIN),
    token: 'tok_request_types_0123456789',
    org: 'o',
    workspace: 'w',
    dispatcher: mock,
    sleep: () => Promise.resolve(),
  })
  return { hub, mock }
}

describe('a JSON request (call)', () => {
  it('has no stream readings: returnStatus, pick and refusal are type errors', () => {
    expectTypeOf<JsonRequest<unknown>>().not.toHaveProperty('returnStatus')
    expectTypeOf<JsonRequest<unknown>>().not.toHaveProperty('pick')
    expectTypeOf<JsonRequest<unknown>>().not.toHaveProperty('refusal')
    expectTypeOf<JsonRequest<unknown>>().toHaveProperty('acceptStatus')
  })

  it('fails a refusal with the hub error, whatever is forced past the type (it once threw "unreachable")', async () => {
    const { hub, mock } = transport()
    mock.get(ORIGIN).intercept({ path: PATH, method: 'GET' }).reply(404, 'no such run')
    const answer = hub.call({
      method: 'GET',
      path: PATH,
      schema: z.object({ id: z.string() }),
      operation: 'read run r1',
      subject: 'run "r1"',
      repeatable: true,
      // @ts-expect-error: a JSON call has no refusals to return; only `stream` takes returnStatus
      returnStatus: [404],
    })
    await expect(answer).rejects.toBeInstanceOf(HubNotFoundError)
  })
})

describe('a stream request (stream)', () => {
  it('has no schema or acceptStatus, and needs its limits', () => {
    expectTypeOf<StreamRequest<unknown>>().not.toHaveProperty('schema')
    expectTypeOf<StreamRequest<unknown>>().not.toHaveProperty('acceptStatus')
    expectTypeOf<StreamRequest<unknown>['limits']>().not.toBeUndefined()
    expectTypeOf<StreamRequest<unknown>>().toHaveProperty('returnStatus')
  })

  it('returns a refusal the caller named as its answer', async () => {
    const { hub, mock } = transport()
    mock.get(ORIGIN).intercept({ path: '/mcp', method: 'DELETE' }).reply(405, 'not allowed')
    const answer = await hub.stream({
      method: 'DELETE',
      url: new URL(`${ORIGIN}/mcp`),
      operation: 'end the MCP session',
      repeatable: false,
      limits: { name: 'an MCP answer', maxBytes: 1024, hint: 'report it' },
      returnStatus: [405],
    })
    expect(answer).toMatchObject({ kind: 'refused', status: 405, body: 'not allowed' })
  })
})

describe('HubRequest', () => {
  it('is what both have in common: what dry-run prints', () => {
    expectTypeOf<JsonRequest<{ id: string }>>().toExtend<HubRequest>()
    expectTypeOf<StreamRequest<{ id: string }>>().toExtend<HubRequest>()
    expectTypeOf<HubRequest>().not.toHaveProperty('schema')
    expectTypeOf<HubRequest>().not.toHaveProperty('returnStatus')
  })
})
