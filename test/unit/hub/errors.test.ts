import { describe, expect, it } from 'vitest'
import {
  HubAuthError,
  HubError,
  HubNotFoundError,
  HubProtocolError,
  HubRateLimitError,
  HubRequestError,
  HubServerError,
  HubWorkspaceError,
} from '../../../src/hub/errors.js'
import { hubFailure, readHubSaying, type FailureContext } from '../../../src/hub/errors.js'
import { registerSecret } from '../../../src/redact.js'

const ORG = '11111111-2222-3333-4444-555555555555'
const WS = '66666666-7777-8888-9999-000000000000'
const JSON_TYPE = 'application/json'
const TEXT_TYPE = 'text/plain; charset=utf-8'

const context: FailureContext = {
  operation: 'start a run of agent "triage"',
  subject: 'agent "triage"',
  org: ORG,
  workspace: WS,
}
const withCluster: FailureContext = { ...context, clusterId: 'edge-7' }

function status(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', reason, message, code })
}

function expectPlain(error: HubError) {
  expect(error).toBeInstanceOf(HubError)
  expect(error).toBeInstanceOf(Error)
  expect(error.cause).toBeUndefined()
  expect(error.name).toBe(error.constructor.name)
  expect(error.message.startsWith('Could not start a run of agent "triage"')).toBe(true)
}

describe('hubFailure', () => {
  it('JSON Status 404 names the agent and the workspace', () => {
    const error = hubFailure(
      { status: 404, contentType: JSON_TYPE, body: status(404, 'NotFound', 'agent triage not found') },
      context,
    )
    expectPlain(error)
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.status).toBe(404)
    expect(error.reason).toBe('NotFound')
    expect(error.hubMessage).toBe('agent triage not found')
    expect(error.message).toContain('(hub answered 404 NotFound: agent triage not found)')
    expect(error.message).toContain(`Agent "triage" was not found in workspace ${WS} (org ${ORG})`)
    expect(error.message).toContain('`org`')
    expect(error.message).toContain('`workspace`')
  })

  it('a 404 without a subject speaks of "the resource"', () => {
    const error = hubFailure(
      { status: 404, contentType: JSON_TYPE, body: status(404, 'NotFound', 'gone') },
      { ...context, subject: undefined },
    )
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.message).toContain(`The resource was not found in workspace ${WS}`)
  })

  it('plain-text "provider not found" points at hub-url', () => {
    const error = hubFailure({ status: 404, contentType: TEXT_TYPE, body: 'provider not found: agents\n' }, context)
    expectPlain(error)
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.status).toBe(404)
    expect(error.reason).toBeUndefined()
    expect(error.hubMessage).toBe('provider not found: agents')
    expect(error.message).toContain('(hub answered 404: provider not found: agents)')
    expect(error.message).toContain('`hub-url`')
    expect(error.message).toContain('provider is enabled')
    expect(error.message).not.toContain('Agent "triage" was not found')
  })

  it('401 without cluster id suggests setting `cluster-id`', () => {
    const error = hubFailure(
      { status: 401, contentType: JSON_TYPE, body: status(401, 'Unauthorized', 'invalid bearer token') },
      context,
    )
    expectPlain(error)
    expect(error).toBeInstanceOf(HubAuthError)
    expect(error.status).toBe(401)
    expect(error.reason).toBe('Unauthorized')
    expect(error.message).toContain('`token`')
    expect(error.message).toContain('`cluster-id`')
    expect(error.message).toContain('service-account token')
  })

  it('401 with a cluster id names the cluster and the workspace, not `cluster-id`', () => {
    const error = hubFailure({ status: 401, contentType: TEXT_TYPE, body: 'unauthorized' }, withCluster)
    expect(error).toBeInstanceOf(HubAuthError)
    expect(error.status).toBe(401)
    expect(error.message).toContain('cluster "edge-7"')
    expect(error.message).toContain(`workspace ${WS} (org ${ORG})`)
    expect(error.message).not.toContain('`cluster-id`')
  })

  // A stock hub answers a GitHub Actions ID token like any unverifiable one: agents 401 JSON, graph 401 text.
  it.each([
    [
      'the agents provider',
      JSON_TYPE,
      status(401, 'Unauthorized', 'tenant context missing: the request was not authenticated'),
    ],
    ['the graph provider', TEXT_TYPE, 'Unauthorized'],
  ])(
    '401 from %s to a GitHub OIDC token says a hub must be made to trust GitHub, not to set `cluster-id`',
    (_from, contentType, body) => {
      const error = hubFailure({ status: 401, contentType, body }, { ...context, oidcAudience: 'hub.example.com' })
      expect(error).toBeInstanceOf(HubAuthError)
      expect(error.message).toContain('The hub refused the GitHub OIDC token (audience "hub.example.com"')
      expect(error.message).toContain(
        "its operator made it trust GitHub's issuer (https://token.actions.githubusercontent.com)",
      )
      expect(error.message).toContain('created the user the token maps to')
      expect(error.message).toContain('pass a hub token in `token`')
      expect(error.message).not.toContain('`cluster-id`')
    },
  )

  it('400 "a workspace is required" is the silent fallback: mentions org and workspace', () => {
    const error = hubFailure(
      { status: 400, contentType: JSON_TYPE, body: status(400, 'BadRequest', 'a workspace is required') },
      context,
    )
    expectPlain(error)
    expect(error).toBeInstanceOf(HubWorkspaceError)
    expect(error.status).toBe(400)
    expect(error.reason).toBe('BadRequest')
    expect(error.message).toContain('`org`/`workspace`')
    expect(error.message).toContain(`org ${ORG} / workspace ${WS}`)
    expect(error.message).toContain('UUIDs (not display names)')
  })

  it('another 400 is a request error quoting the hub', () => {
    const error = hubFailure(
      { status: 400, contentType: JSON_TYPE, body: status(400, 'BadRequest', 'task is required') },
      context,
    )
    expect(error).toBeInstanceOf(HubRequestError)
    expect(error).not.toBeInstanceOf(HubWorkspaceError)
    expect(error.status).toBe(400)
    expect(error.message).toContain('(hub answered 400 BadRequest: task is required)')
  })

  it('403 is an auth error naming the operation and workspace', () => {
    const error = hubFailure({ status: 403, contentType: JSON_TYPE, body: status(403, 'Forbidden', 'denied') }, context)
    expectPlain(error)
    expect(error).toBeInstanceOf(HubAuthError)
    expect(error.status).toBe(403)
    expect(error.message).toContain(`may not start a run of agent "triage" in workspace ${WS} (org ${ORG})`)
  })

  it('409 with a cluster id and another message is a plain request error', () => {
    const error = hubFailure({ status: 409, contentType: TEXT_TYPE, body: 'conflict' }, withCluster)
    expect(error).toBeInstanceOf(HubRequestError)
    expect(error.message).not.toContain('not mapped')
  })

  it('409 "not mapped yet" on the service-account route names both causes (docs/hub-facts.md, "Service-account route")', () => {
    const body = status(
      409,
      'Conflict',
      'workspace edge-7 is not mapped yet — open the agents UI in it once, then retry',
    )
    const error = hubFailure({ status: 409, contentType: JSON_TYPE, body }, withCluster)
    expect(error).toBeInstanceOf(HubWorkspaceError)
    expect(error.message).toContain('Either `cluster-id` is mistyped')
    expect(error.message).toContain('or nobody has used a user route that acts on runs in that workspace yet')
    expect(error.message).toContain('whoami does not write it')
  })

  it('401 on a graph route says graph commands need a user token, not `cluster-id`', () => {
    const error = hubFailure(
      { status: 401, contentType: TEXT_TYPE, body: 'unauthorized' },
      { ...context, request: 'POST https://hub.example/services/providers/graph/api/query' },
    )
    expect(error).toBeInstanceOf(HubAuthError)
    expect(error.message).toContain('`impact`, `query` and `rollout` each read the fleet graph')
    expect(error.message).toContain('`cluster-id` does not help there')
  })

  it('a graph 500 "query failed" names the 30 s limit and a malformed link annotation', () => {
    const error = hubFailure(
      { status: 500, contentType: TEXT_TYPE, body: 'query failed: internal error' },
      { ...context, request: 'POST https://hub.example/services/providers/graph/api/query' },
    )
    expect(error.message).toContain('a malformed `kuery.io/relates-to` annotation')
  })

  it('403 on the service-account route names `token` and `cluster-id`', () => {
    const error = hubFailure(
      { status: 403, contentType: JSON_TYPE, body: status(403, 'Forbidden', 'forbidden') },
      withCluster,
    )
    expect(error).toBeInstanceOf(HubAuthError)
    expect(error.message).toContain('service-account route for cluster "edge-7"')
    expect(error.message).toContain('`token`')
    expect(error.message).toContain('`cluster-id`')
  })

  it('503 locating workspace on the service-account route names `cluster-id`', () => {
    const error = hubFailure(
      { status: 503, contentType: TEXT_TYPE, body: 'locating workspace: no shard\n' },
      withCluster,
    )
    expect(error).toBeInstanceOf(HubServerError)
    expect(error.message).toContain('could not locate a workspace for cluster "edge-7"')
    expect(error.message).toContain('`cluster-id`')
  })

  it('a plain-text router 404 is "no such route": names `hub-url`, the URL tried and both causes, not the agent', () => {
    const error = hubFailure(
      { status: 404, contentType: TEXT_TYPE, body: '404 page not found\n' },
      {
        ...context,
        hubUrl: 'https://hub.example/services',
        request: 'POST https://hub.example/services/services/providers/agents/api/agents/triage/runs',
      },
    )
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.message).toContain('no such route')
    expect(error.message).toContain('`hub-url` (https://hub.example/services)')
    expect(error.message).toContain(
      'POST https://hub.example/services/services/providers/agents/api/agents/triage/runs',
    )
    expect(error.message).toContain('v0.0.21')
    expect(error.message).not.toContain('check the name')
  })

  it("a router 404 on a graph route speaks of the query, not of agents, runs or the agents provider's versions", () => {
    const error = hubFailure(
      { status: 404, contentType: TEXT_TYPE, body: '404 page not found\n' },
      {
        ...context,
        operation: 'query the fleet graph',
        subject: 'the query',
        hubUrl: 'https://hub.example/hub',
        request: 'POST https://hub.example/hub/services/providers/graph/api/query',
      },
    )
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.message).toContain('no such route')
    expect(error.message).toContain('says nothing about the query or the objects')
    expect(error.message).toContain('`hub-url` (https://hub.example/hub)')
    for (const word of ['agent', 'run names', 'v0.0.21']) expect(error.message).not.toContain(word)
  })

  it('an HTML 404 names `hub-url`', () => {
    const error = hubFailure(
      { status: 404, contentType: 'text/html; charset=utf-8', body: '<html>Not Found</html>' },
      context,
    )
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.message).toContain('`hub-url`')
    expect(error.message).not.toContain('check the name')
  })

  it('409 without a cluster id is a plain request error', () => {
    const error = hubFailure(
      { status: 409, contentType: JSON_TYPE, body: status(409, 'Conflict', 'conflict') },
      context,
    )
    expect(error).toBeInstanceOf(HubRequestError)
    expect(error.message).not.toContain('cluster')
    expect(error.message).toContain('refused the request as sent')
  })

  it('429 is a server error after retries', () => {
    const error = hubFailure({ status: 429, contentType: TEXT_TYPE, body: 'slow down' }, context)
    expectPlain(error)
    expect(error).toBeInstanceOf(HubServerError)
    expect(error.status).toBe(429)
    expect(error.message).toContain('too many requests')
  })

  it('429 has its own kind, HubRateLimitError, with the same words', () => {
    const error = hubFailure({ status: 429, contentType: TEXT_TYPE, body: 'slow down' }, context)
    expect(error).toBeInstanceOf(HubRateLimitError)
    expect(error.name).toBe('HubRateLimitError')
    expect(error.message).toBe(
      'Could not start a run of agent "triage" (hub answered 429: slow down). The hub kept answering "too many requests" after several retries: try again later, or lower the number of parallel jobs calling it.',
    )
    expect(hubFailure({ status: 503, contentType: TEXT_TYPE, body: 'busy' }, context)).not.toBeInstanceOf(
      HubRateLimitError,
    )
  })

  it('502: the hub could not reach the provider', () => {
    const error = hubFailure({ status: 502, contentType: TEXT_TYPE, body: 'provider upstream error' }, context)
    expect(error).toBeInstanceOf(HubServerError)
    expect(error.status).toBe(502)
    expect(error.message).toContain('(hub answered 502: provider upstream error)')
    expect(error.message).toContain('could not reach the provider')
  })

  it('503: provider not ready, with and without cluster', () => {
    const plain = hubFailure({ status: 503, contentType: TEXT_TYPE, body: 'provider not ready: agents' }, context)
    expect(plain).toBeInstanceOf(HubServerError)
    expect(plain.status).toBe(503)
    expect(plain.message).toContain('provider is not ready: try again')
    const cluster = hubFailure(
      { status: 503, contentType: JSON_TYPE, body: status(503, 'ServiceUnavailable', 'not connected') },
      withCluster,
    )
    expect(cluster).toBeInstanceOf(HubServerError)
    expect(cluster.message).toContain('not ready or not connected for this cluster')
  })

  it('500 is a server error', () => {
    const error = hubFailure(
      { status: 500, contentType: JSON_TYPE, body: status(500, 'InternalError', 'boom') },
      context,
    )
    expectPlain(error)
    expect(error).toBeInstanceOf(HubServerError)
    expect(error.status).toBe(500)
    expect(error.reason).toBe('InternalError')
    expect(error.message).toContain('(hub answered 500 InternalError: boom)')
  })

  it('an HTML page on a 4xx is a protocol error pointing at hub-url', () => {
    const error = hubFailure(
      { status: 405, contentType: 'text/html; charset=utf-8', body: '<!doctype html><html><body>portal</body></html>' },
      context,
    )
    expectPlain(error)
    expect(error).toBeInstanceOf(HubProtocolError)
    expect(error.status).toBe(405)
    expect(error.hubMessage).toBe('an HTML page (the portal, not the API)')
    expect(error.message).not.toContain('<html')
    expect(error.message).toContain('`hub-url`')
  })

  it('an HTML 404 is still not-found, without quoting the page', () => {
    const error = hubFailure({ status: 404, contentType: 'text/html', body: '<html>404</html>' }, context)
    expect(error).toBeInstanceOf(HubNotFoundError)
    expect(error.message).not.toContain('<html')
  })
})

describe('readHubSaying', () => {
  it('reads the message from a JSON Status', () => {
    expect(readHubSaying({ status: 404, contentType: 'application/json', body: status(404, 'NotFound', 'x') })).toEqual(
      {
        reason: 'NotFound',
        message: 'x',
      },
    )
  })

  it('falls back to text when a JSON content type carries no JSON', () => {
    expect(readHubSaying({ status: 502, contentType: 'application/json', body: 'bad gateway' })).toEqual({
      message: 'bad gateway',
    })
  })

  it('keeps only the first line of a text body and clips to 500 characters', () => {
    expect(readHubSaying({ status: 500, contentType: 'text/plain', body: 'first line\nsecond line' }).message).toBe(
      'first line',
    )
    const long = 'x'.repeat(600)
    expect(readHubSaying({ status: 500, contentType: 'text/plain', body: long }).message).toBe(`${'x'.repeat(500)}…`)
  })

  it('an empty body says nothing', () => {
    expect(readHubSaying({ status: 500, contentType: '', body: '  ' })).toEqual({ message: undefined })
    const error = hubFailure({ status: 500, contentType: '', body: '' }, context)
    expect(error.message).toContain('(hub answered 500).')
  })
})

describe('redaction before the clip', () => {
  it('the redactor sees the whole message before it is clipped to 500 characters', () => {
    const token = 'tok_abcdefghijklmnopqrstuvwxyz0123'
    registerSecret(token)
    const body = `${'a'.repeat(480)}${token}`
    const json = readHubSaying({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ message: body, reason: token }),
    })
    expect(json.message).toBe(`${'a'.repeat(480)}***`)
    expect(json.reason).toBe('***')
    const text = readHubSaying({ status: 400, contentType: 'text/plain', body })
    expect(text.message).not.toContain('tok_abc')
  })
})
