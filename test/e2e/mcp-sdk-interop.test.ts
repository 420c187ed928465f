/**
 * Interop with a real peer: `command: impact` with `impact-source: mcp` against an MCP server
 * built from the official @modelcontextprotocol/sdk (emulator/sdk-mcp-server.ts) in its
 * three shapes — stateless SSE, stateful session, JSON answers — fed from the same fleet as the
 * hub emulator's query API. Each must give the same report as the query API source.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  expectSecretsNowhere,
  hubInputs,
  readResultFile,
  runStep,
  useHubEmulator,
  type ActionRun,
  type ImpactReportFile,
} from './harness.ts'
import { startSdkMcpServer, type SdkMcpMode } from '../../emulator/index.ts'

// Four targets, two of them on two edges: six tool calls, up to four of them at once.
const TARGETS =
  '[{kind: Deployment, group: apps, name: checkout, namespace: shop}, {kind: ConfigMap, name: checkout-config, namespace: shop, edge: prod-eu}, {kind: Namespace, name: shop, edge: prod-us}, {kind: Deployment, group: apps, name: payments-api, namespace: payments}]'
const COUNT_OUTPUTS = ['targets-count', 'upstream-count', 'downstream-count', 'associated-count'] as const

const hub = useHubEmulator()

async function impact(extra: Record<string, string>): Promise<ActionRun> {
  return runStep({
    inputs: { command: 'impact', ...hubInputs(hub), targets: TARGETS, comment: 'off', ...extra },
    killAfterMs: 60_000,
  })
}

const counts = (result: ActionRun) => Object.fromEntries(COUNT_OUTPUTS.map((name) => [name, result.outputs[name]]))

describe.each<SdkMcpMode>(['stateless', 'session', 'json'])(
  'an MCP server built from the official SDK (%s)',
  (mode) => {
    it('gives the same counts and impacts as the query API', async () => {
      const fleet = hub.fleet
      if (!fleet) throw new Error('the hub emulator runs without a fleet')
      const sdk = await startSdkMcpServer(fleet, mode)
      onTestFinished(() => sdk.close())

      const viaQuery = await impact({})
      expect(viaQuery.code, viaQuery.stdout).toBe(0)
      // the SDK server listens on its own port: another origin than the hub's, trusted with the token here
      const viaMcp = await impact({
        'impact-source': 'mcp',
        'mcp-url': sdk.url,
        'mcp-trusted-origin': new URL(sdk.url).origin,
      })
      expect(viaMcp.code, viaMcp.stdout + viaMcp.stderr).toBe(0)

      expect(counts(viaMcp)).toEqual(counts(viaQuery))
      expect(Number(viaMcp.outputs['downstream-count'])).toBeGreaterThan(0)
      const fromMcp = readResultFile<ImpactReportFile>(viaMcp)
      expect(fromMcp.source).toBe('mcp')
      expect(fromMcp.impacts).toEqual(readResultFile<ImpactReportFile>(viaQuery).impacts)
      expect(fromMcp.impacts).toHaveLength(6)
      expectSecretsNowhere(viaMcp, [hub.token])

      const calls = sdk.requests.filter((r) => r.rpcMethod === 'tools/call')
      const answered = calls.filter((r) => r.status === 200)
      expect(answered).toHaveLength(6)
      for (const call of answered)
        expect(call.contentType).toMatch(mode === 'json' ? /^application\/json/ : /^text\/event-stream/)
      if (mode === 'stateless') {
        // The hub's shape: no handshake, no session, one POST per call.
        expect(sdk.requests.map((r) => `${r.method} ${r.rpcMethod} ${r.status}`)).toEqual(
          Array(6).fill('POST tools/call 200'),
        )
        expect(sdk.requests.every((r) => r.sessionId === undefined)).toBe(true)
        return
      }
      // The specification's lifecycle: calls refused without a session start one handshake,
      // every later call carries the session and the negotiated version, and DELETE ends it.
      const initialize = sdk.requests.filter((r) => r.rpcMethod === 'initialize')
      expect(initialize.map((r) => r.status)).toEqual([200])
      expect(sdk.requests.filter((r) => r.rpcMethod === 'notifications/initialized').map((r) => r.status)).toEqual([
        202,
      ])
      const refused = calls.filter((r) => r.status === 400)
      expect(refused.length).toBeGreaterThanOrEqual(1)
      expect(refused.every((r) => r.sessionId === undefined)).toBe(true)
      const session = answered[0]?.sessionId
      expect(session).toMatch(/^[0-9a-f-]{36}$/)
      for (const call of answered) expect(call).toMatchObject({ sessionId: session, protocolVersion: '2025-06-18' })
      expect(sdk.requests.at(-1)).toMatchObject({ method: 'DELETE', sessionId: session, status: 200 })
      expect(sdk.openSessions()).toBe(0)
      expect(viaMcp.stdout).toContain('MCP: the server asked for a session')
    })
  },
)
