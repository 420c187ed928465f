/**
 * `command: impact` with `impact-source: mcp` against the hub emulator's MCP endpoint as the hub
 * really behaves (docs/hub-facts.md, "MCP"): the cluster-id URL form that finds nothing, a server
 * with the specification's session lifecycle (priming events, a transient unknown tool, a
 * session that ends mid-run), and a hostile endpoint that streams without end.
 */
import type http from 'node:http'
import { describe, expect, it } from 'vitest'
import {
  expectSecretsNowhere,
  hubInputs,
  readResultFile,
  runStep,
  until,
  useHubEmulator,
  type ActionRun,
  type ImpactReportFile,
} from './harness.ts'
import {
  createDemoFleet,
  mcpRoute,
  type McpOptions,
  DEFAULT_WORKSPACE,
  type ExtraRoute,
  type Tenant,
} from '../../emulator/index.ts'

const CHECKOUT = '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]'
const COUNT_OUTPUTS = ['targets-count', 'upstream-count', 'downstream-count', 'associated-count'] as const
const MCP_TAIL = '/apis/hub.sh/v1alpha1/mcpservers/default/mcp'

// The MCP endpoint is swapped per test (stateless like the hub, or with sessions) over one fleet.
const fleet = createDemoFleet({ workspace: DEFAULT_WORKSPACE })
let endpoint = mcpRoute(fleet, { workspace: DEFAULT_WORKSPACE })
/** Answered tool calls after which the endpoint ends every session, as a server restart does. */
let expireAfterCalls = Infinity
let answeredCalls = 0
const useEndpoint = (options: McpOptions, expireAfter = Infinity) => {
  endpoint = mcpRoute(fleet, { workspace: DEFAULT_WORKSPACE, ...options })
  expireAfterCalls = expireAfter
  answeredCalls = 0
}

function mcpEndpoint(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tenant?: Tenant): void {
  endpoint.handler(req, res, body, tenant)
  if (body.toString('utf8').includes('"tools/call"') && res.statusCode === 200 && ++answeredCalls === expireAfterCalls)
    endpoint.mcp.expireSessions()
}

/** Answers 200 text/event-stream and then writes comments without end (bounded here at 256 MiB and 60 s). */
/** Bytes each endless stream had written when its connection closed. */
const streamed: number[] = []

function endlessStream(_req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  const chunk = Buffer.from(`: ${'x'.repeat(64 * 1024 - 4)}\n\n`)
  const stopAt = Date.now() + 60_000
  let sent = 0
  res.on('close', () => streamed.push(sent))
  const pump = () => {
    while (!res.destroyed && sent < 256 * 1024 * 1024 && Date.now() < stopAt) {
      sent += chunk.length
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    res.end()
  }
  pump()
}

const routes: ExtraRoute[] = [
  { prefix: '/services/mcpserver/', handler: mcpEndpoint },
  { prefix: '/hostile/', handler: endlessStream },
]
const hub = useHubEmulator({ fleet, extraRoutes: routes })

async function impact(extra: Record<string, string>): Promise<ActionRun> {
  return runStep({
    inputs: { command: 'impact', ...hubInputs(hub), targets: CHECKOUT, comment: 'off', ...extra },
    killAfterMs: 60_000,
  })
}

const counts = (result: ActionRun) => Object.fromEntries(COUNT_OUTPUTS.map((name) => [name, result.outputs[name]]))
/** The step's failure, as the runner shows it (the `::error::` command's data, unescaped). */
const failure = (result: ActionRun): string =>
  result.stdout
    .split('\n')
    .filter((line) => line.startsWith('::error::'))
    .map((line) => line.slice('::error::'.length).replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%'))
    .join('\n')
const mcpRequests = () =>
  hub.requests
    .filter((r) => r.path.startsWith('/services/mcpserver/'))
    .map((r) => ({
      method: r.method,
      rpc: r.body ? (JSON.parse(r.body) as { method?: string }).method : undefined,
      session: r.headers['mcp-session-id'],
    }))

describe('an mcp-url with the cluster id, as the connect page hands it out', () => {
  it('fails, because the tool misses what the query API finds, and names the URL to use', async () => {
    useEndpoint({})
    const clusterIdUrl = `${hub.url}/services/mcpserver/${hub.clusterId}${MCP_TAIL}`
    const result = await impact({ 'impact-source': 'mcp', 'mcp-url': clusterIdUrl })
    expect(result.code).toBe(1)
    const message = failure(result)
    expect(message).toContain('found:false, although the query API finds the object there')
    expect(message).toContain(
      `\`mcp-url\` names "${hub.clusterId}" where the graph tools need the workspace path "${fleet.workspacePath}"`,
    )
    expect(message).toContain(`set \`mcp-url\` to ${hub.mcpUrl}`)
    expect(result.stdout).not.toMatch(/none of the \d+ target\(s\) was found/)
    // The same step with the URL it names passes.
    const fixed = await impact({ 'impact-source': 'mcp', 'mcp-url': hub.mcpUrl })
    expect(fixed.code).toBe(0)
    expect(Number(fixed.outputs['downstream-count'])).toBeGreaterThan(0)
  })
})

describe('an MCP server with the specification session lifecycle', () => {
  it('does the handshake, skips priming events, asks again after a transient unknown tool, renews an ended session, and ends its session', async () => {
    const viaQuery = await impact({})
    expect(viaQuery.code).toBe(0)
    useEndpoint({ sessions: true, primingEvents: true, unknownToolCalls: 1 }, 2)
    hub.reset()
    const viaMcp = await impact({ 'impact-source': 'mcp', 'mcp-url': hub.mcpUrl })
    expect(viaMcp.code, failure(viaMcp)).toBe(0)
    expect(counts(viaMcp)).toEqual(counts(viaQuery))
    expect(readResultFile<ImpactReportFile>(viaMcp).impacts).toEqual(readResultFile<ImpactReportFile>(viaQuery).impacts)
    expectSecretsNowhere(viaMcp, [hub.token])

    const seen = mcpRequests()
    // checkout is on two edges, asked one after the other: the first call is refused for want of a
    // session, the first call in it meets an unknown tool and is asked again, the server then ends
    // every session, and the second edge's call meets 404 and starts a new one, which DELETE ends.
    expect(seen.map((r) => `${r.method} ${r.rpc ?? ''} ${r.session ? 'session' : 'none'}`)).toEqual([
      'POST tools/call none',
      'POST initialize none',
      'POST notifications/initialized session',
      'POST tools/call session',
      'POST tools/call session',
      'POST tools/call session',
      'POST initialize none',
      'POST notifications/initialized session',
      'POST tools/call session',
      'DELETE  session',
    ])
    const sessions = [...new Set(seen.map((r) => r.session).filter(Boolean))]
    expect(sessions).toHaveLength(2)
    expect(endpoint.mcp.openSessions()).toBe(0)
    expect(viaMcp.stdout).toContain('starting a new one')
  })
})

describe('an MCP endpoint that streams without end', () => {
  it('stops reading at the cap, hangs up and says so', async () => {
    streamed.length = 0
    const result = await impact({ 'impact-source': 'mcp', 'mcp-url': `${hub.url}/hostile/mcp` })
    expect(result.signal, 'ended by itself, not by the 60 s guard').toBeNull()
    expect(result.code).toBe(1)
    expect(failure(result)).toContain('an answer larger than 4 MiB, the most this action reads from one MCP answer')
    // Counted, not timed: the stream offers 256 MiB; past the 4 MiB cap only socket buffers fill.
    await until(() => streamed.length > 0, 'the endless stream was hung up on')
    expect(Math.max(...streamed)).toBeLessThan(32 * 1024 * 1024)
  })
})
