/**
 * Where the hub bearer goes, end to end (issue 18 §5): an `mcp-url` on another origin than
 * `hub-url` stops the step before any request, naming the input, the value and the fix; and a
 * loopback http hub is reached directly even when HTTP_PROXY, HTTPS_PROXY and ALL_PROXY name a
 * proxy, which must see nothing.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { errorLines, expectSecretsNowhere, hubInputs, runStep, useHubEmulator, type ActionRun } from './harness.ts'

const TARGET = '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]'

const hub = useHubEmulator()

/** A server on 127.0.0.1 that records every request and CONNECT it gets and answers 502: a stand-in for a proxy or a foreign MCP server. */
const recorder = { server: createServer(), seen: [] as string[], url: '' }
const record = (req: IncomingMessage) =>
  recorder.seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`)

beforeAll(async () => {
  recorder.server.on('request', (req, res) => {
    record(req)
    res.writeHead(502).end()
  })
  recorder.server.on('connect', (req, socket: Socket) => {
    record(req)
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
  })
  await new Promise<void>((resolve) => recorder.server.listen(0, '127.0.0.1', resolve))
  recorder.url = `http://127.0.0.1:${(recorder.server.address() as AddressInfo).port}`
})
beforeEach(() => void (recorder.seen.length = 0))
afterAll(async () => {
  recorder.server.closeAllConnections()
  await new Promise<void>((resolve) => recorder.server.close(() => resolve()))
})

function impact(extra: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
  return runStep({
    inputs: { command: 'impact', ...hubInputs(hub), targets: TARGET, comment: 'off', 'impact-source': 'mcp', ...extra },
    env,
  })
}

describe('an mcp-url on another origin than hub-url', () => {
  it.each([
    ['another port', () => `${recorder.url}/services/mcpserver/acme/apis/hub.sh/v1alpha1/mcpservers/default/mcp`],
    ['another host name for the same server', () => hub.mcpUrl.replace('//127.0.0.1:', '//localhost:')],
  ])('on %s is refused before any request, naming the input, the value and the fix', async (_case, mcpUrl) => {
    const url = mcpUrl()
    const origin = new URL(url).origin
    const result = await impact({ 'mcp-url': url })

    expect(result.code).toBe(1)
    expect(hub.requests).toEqual([])
    expect(recorder.seen).toEqual([])
    const errors = errorLines(result)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('Invalid input: Input `mcp-url`: "')
    expect(errors[0]).toContain(`"${origin}/services/mcpserver/`)
    expect(errors[0]).toContain(`is on another origin than \`hub-url\` (${hub.url})`)
    expect(errors[0]).toContain(`set \`mcp-trusted-origin: ${origin}\``)
    expect(result.stdout.split('\n').filter((line) => line.includes(hub.token))).toEqual([`::add-mask::${hub.token}`])
  })

  it('is used once mcp-trusted-origin names its origin: the bearer goes there, as asked', async () => {
    const url = hub.mcpUrl.replace('//127.0.0.1:', '//localhost:')
    const result = await impact({ 'mcp-url': url, 'mcp-trusted-origin': new URL(url).origin })
    expect(result.code, result.stdout).toBe(0)
    expect(hub.requests.filter((r) => r.path.startsWith('/services/mcpserver/')).length).toBeGreaterThan(0)
  })
})

describe('a loopback http hub behind HTTP_PROXY, HTTPS_PROXY and ALL_PROXY', () => {
  it('is reached directly, hub and MCP endpoint alike: the proxy sees nothing', async () => {
    const proxies = { HTTP_PROXY: recorder.url, HTTPS_PROXY: recorder.url, ALL_PROXY: recorder.url }
    const lower = Object.fromEntries(Object.entries(proxies).map(([name, value]) => [name.toLowerCase(), value]))
    const result = await impact({ 'mcp-url': hub.mcpUrl }, { ...proxies, ...lower })

    expect(result.code, result.stdout).toBe(0)
    expect(recorder.seen).toEqual([])
    const mcpCalls = hub.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/services/mcpserver/'))
    expect(mcpCalls.length).toBeGreaterThan(0)
    expectSecretsNowhere(result, [hub.token])
  })
})
