/**
 * Where the hub bearer goes (issue 18 §5): `mcp-url` on another origin than `hub-url` is an input
 * error unless `mcp-trusted-origin` names that origin exactly, and the hub's dispatcher sends
 * plain http (loopback only) straight to its address, never through HTTP_PROXY / HTTPS_PROXY.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import type { Dispatcher } from 'undici'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { hubDispatcher, send } from '../../../src/http/wire.js'
import { loadStructuredParser } from '../../../src/settings/structured.js'
import { InputError, readSettings } from '../../../src/settings/settings.js'
import { COMMANDS } from '../../../src/commands/index.js'

const TOKEN = 'hubtok_Origin9Kq2'
const HUB = 'https://hub.example.com'
const MCP_PATH = '/services/mcpserver/acme%2Fws/apis/hub.sh/v1alpha1/mcpservers/default/mcp'
const INPUTS: Record<string, string> = {
  command: 'impact',
  'hub-url': HUB,
  token: TOKEN,
  org: '11111111-2222-3333-4444-555555555555',
  workspace: '66666666-7777-8888-9999-000000000000',
  targets: '[{kind: Deployment, name: checkout}]',
  'impact-source': 'mcp',
}

function read(inputs: Record<string, string>) {
  const all = { ...INPUTS, ...inputs }
  return readSettings(
    Object.fromEntries(Object.entries(all).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value])),
    COMMANDS,
  )
}

function problems(inputs: Record<string, string>): readonly string[] {
  try {
    read(inputs)
  } catch (error) {
    if (error instanceof InputError) return error.problems
    throw error
  }
  throw new Error(`expected an InputError for ${JSON.stringify(inputs)}`)
}

function mcpUrlOf(inputs: Record<string, string>): string | undefined {
  const settings = read(inputs)
  if (settings.command !== 'impact') throw new Error('expected command impact')
  return settings.impact.mcpUrl?.href
}

describe('mcp-url and the hub origin', () => {
  beforeAll(loadStructuredParser)
  beforeEach(() => void vi.spyOn(process.stdout, 'write').mockImplementation(() => true))
  afterEach(() => vi.restoreAllMocks())

  it('takes an mcp-url on the hub origin, whatever its path', () => {
    expect(mcpUrlOf({ 'mcp-url': `${HUB}${MCP_PATH}` })).toBe(`${HUB}${MCP_PATH}`)
    expect(mcpUrlOf({ 'hub-url': `${HUB}/hub`, 'mcp-url': `${HUB}:443${MCP_PATH}` })).toBe(`${HUB}${MCP_PATH}`)
  })

  it.each([
    ['another host', `https://mcp.example.com${MCP_PATH}`, 'https://mcp.example.com'],
    ['another port', `https://hub.example.com:8443${MCP_PATH}`, 'https://hub.example.com:8443'],
    ['another scheme', `http://127.0.0.1:9000${MCP_PATH}`, 'http://127.0.0.1:9000'],
  ])('refuses an mcp-url on %s, naming the input, the value and the fix', (_case, mcpUrl, origin) => {
    expect(problems({ 'mcp-url': mcpUrl })).toEqual([
      `Input \`mcp-url\`: "${mcpUrl.slice(0, 80)}…" is on another origin than \`hub-url\` (${HUB}), and the hub token would be sent there. Use the MCP server URL on the hub's origin, or, if you trust ${origin} with the hub token, set \`mcp-trusted-origin: ${origin}\`.`,
    ])
  })

  it('refuses it with impact-source query too: the input is wrong before it is used', () => {
    expect(problems({ 'impact-source': 'query', 'mcp-url': 'https://mcp.example.com/mcp' })[0]).toMatch(
      /^Input `mcp-url`: .* is on another origin/,
    )
  })

  it.each([['https://mcp.example.com'], ['https://mcp.example.com/'], ['https://MCP.example.com:443']])(
    'takes it when mcp-trusted-origin names its origin exactly (%s)',
    (trusted) => {
      expect(mcpUrlOf({ 'mcp-url': 'https://mcp.example.com/mcp', 'mcp-trusted-origin': trusted })).toBe(
        'https://mcp.example.com/mcp',
      )
    },
  )

  it.each([
    [
      'https://mcp.example.com:8443',
      'is not the origin of `mcp-url` (https://mcp.example.com): set it to exactly https://mcp.example.com',
    ],
    [
      'http://mcp.example.com',
      'is not the origin of `mcp-url` (https://mcp.example.com): set it to exactly https://mcp.example.com',
    ],
    ['https://example.com', 'is not the origin of `mcp-url`'],
    ['https://mcp.example.com/mcp', 'is not an origin: write the scheme, host and port only'],
    ['https://mcp.example.com/?x', 'is not an origin'],
    ['mcp.example.com', 'is not an origin'],
    ['*', 'is not an origin'],
  ])('refuses mcp-trusted-origin %j for another origin', (trusted, expected) => {
    const found = problems({ 'mcp-url': 'https://mcp.example.com/mcp', 'mcp-trusted-origin': trusted })
    expect(found).toHaveLength(1)
    expect(found[0]).toContain(`Input \`mcp-trusted-origin\`: ${JSON.stringify(trusted)} ${expected}`)
  })

  it('refuses a trusted origin with no mcp-url to trust', () => {
    expect(problems({ 'impact-source': 'query', 'mcp-trusted-origin': 'https://mcp.example.com' })).toEqual([
      'Input `mcp-trusted-origin`: "https://mcp.example.com" is not the origin of `mcp-url` (empty): leave it empty unless `mcp-url` is on another origin than `hub-url` that you trust with the hub token.',
    ])
  })
})

/** A forward proxy that records what reaches it and forwards nothing. */
interface Recorder {
  server: Server
  seen: string[]
  url: string
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('hubDispatcher and proxies', () => {
  const proxy: Recorder = { server: createServer(), seen: [], url: '' }
  const hub: Recorder = { server: createServer(), seen: [], url: '' }
  const dispatchers: Dispatcher[] = []

  beforeAll(async () => {
    proxy.server.on('request', (req, res) => {
      proxy.seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`)
      res.writeHead(502).end()
    })
    proxy.server.on('connect', (req, socket: Socket) => {
      proxy.seen.push(`CONNECT ${req.url}`)
      socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')
    })
    hub.server.on('request', (req, res) => {
      hub.seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`)
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
    proxy.url = await listen(proxy.server)
    hub.url = await listen(hub.server)
  })

  afterEach(async () => {
    proxy.seen.length = 0
    hub.seen.length = 0
    await Promise.all(dispatchers.splice(0).map((d) => d.close()))
  })

  afterAll(async () => {
    for (const { server } of [proxy, hub]) {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  const dispatcher = (env: NodeJS.ProcessEnv): Dispatcher => {
    const made = hubDispatcher(env)
    dispatchers.push(made)
    return made
  }
  const get = async (d: Dispatcher, url: string) => {
    const response = await send(d, new URL(url), { method: 'GET', headers: { authorization: `Bearer ${TOKEN}` } })
    await response.body.dump()
    return response.statusCode
  }

  it('sends plain http to loopback directly, whatever HTTP_PROXY, HTTPS_PROXY and ALL_PROXY say', async () => {
    for (const env of [
      { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, ALL_PROXY: proxy.url },
      { http_proxy: proxy.url, https_proxy: proxy.url, all_proxy: proxy.url },
    ]) {
      expect(await get(dispatcher(env), `${hub.url}/services/providers/agents/api/agents`)).toBe(200)
    }
    expect(proxy.seen).toEqual([])
    expect(hub.seen).toEqual(Array(2).fill(`GET /services/providers/agents/api/agents Bearer ${TOKEN}`))
  })

  it('keeps sending https through HTTPS_PROXY, or HTTP_PROXY when that is all there is', async () => {
    for (const env of [
      { HTTPS_PROXY: proxy.url },
      { HTTP_PROXY: proxy.url },
      { https_proxy: proxy.url, HTTPS_PROXY: 'http://127.0.0.1:1' },
    ]) {
      await expect(get(dispatcher(env), 'https://hub.example.com/services')).rejects.toThrow()
    }
    expect(proxy.seen).toEqual(Array(3).fill('CONNECT hub.example.com:443'))
  })

  it('lets NO_PROXY exempt an https host, as before', async () => {
    // port 1 on loopback: nothing listens, so the direct attempt is refused at once
    await expect(
      get(dispatcher({ HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }), 'https://127.0.0.1:1/'),
    ).rejects.toThrow(/ECONNREFUSED/)
    expect(proxy.seen).toEqual([])
  })
})
