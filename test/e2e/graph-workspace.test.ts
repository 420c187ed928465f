/**
 * End to end, the graph commands and a wrong org or workspace. The hub does not refuse such a
 * pair: it answers for the user's personal org, where the graph holds no objects, so an impact
 * gate would pass and a query export nothing (docs/hub-facts.md, "The hub in front"). Each graph
 * command asks whoami first and fails there, naming the inputs, before any graph query. Where the
 * hub serves no agents provider to ask, an empty answer with no engaged edge fails instead.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, runStep, useHubEmulator, type ActionRun } from './harness.ts'
import { sendText } from '../../emulator/index.ts'

const hub = useHubEmulator()
const GRAPH = '/services/providers/graph'
/** A well-formed UUID of a workspace nobody belongs to. */
const STRANGER = '00000000-0000-4000-8000-000000000000'

const COMMANDS: Record<string, Record<string, string>> = {
  impact: { command: 'impact', targets: '[{kind: Deployment, group: apps, name: checkout}]' },
  query: { command: 'query', query: 'filter: {objects: [{groupKind: {kind: Deployment}}]}' },
  rollout: {
    command: 'rollout',
    targets: '[{kind: Deployment, group: apps, name: checkout}]',
    'timeout-seconds': '30',
  },
}

async function act(inputs: Record<string, string>): Promise<ActionRun> {
  const result = await runStep({ inputs: { ...hubInputs(hub), ...inputs }, killAfterMs: 60_000 })
  onTestFinished(() => result.cleanup())
  return result
}

const graphRequests = () => hub.requests.filter((r) => r.path.startsWith(GRAPH))

describe('a wrong org or workspace UUID fails every graph command before any graph query', () => {
  for (const [name, inputs] of Object.entries(COMMANDS)) {
    for (const wrong of ['org', 'workspace'] as const) {
      it(`${name}, wrong ${wrong}`, async () => {
        const result = await act({ ...inputs, [wrong]: STRANGER })
        expect(result.code).toBe(1)
        expect(result.stdout).toContain('`org`/`workspace`')
        expect(result.stdout).toContain(STRANGER)
        expect(result.stdout).toContain("fell back to the user's personal org")
        expect(result.stdout).toContain('No graph query was sent.')
        expect(graphRequests()).toEqual([])
        expect(hub.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /services/providers/agents/api/whoami'])
      })
    }
  }

  it('the right pair is confirmed with one whoami, then the command goes on', async () => {
    const result = await act(COMMANDS.query!)
    expect(result.code).toBe(0)
    expect(hub.requests[0]?.path).toBe('/services/providers/agents/api/whoami')
    expect(graphRequests().length).toBeGreaterThan(0)
  })
})

describe('a hub without an agents provider: the pair cannot be checked', () => {
  const withoutAgents = () => {
    hub.mount('agents', (_req, res) => sendText(res, 404, '404 page not found'))
    onTestFinished(() => hub.mount('agents', hub.agents.handler))
  }

  it('says so and goes on with the right pair', async () => {
    withoutAgents()
    const result = await act(COMMANDS.query!)
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Could not check the workspace before querying the graph')
    expect(graphRequests().length).toBeGreaterThan(0)
  })

  it('an empty answer with no engaged edge fails as the likely wrong pair', async () => {
    withoutAgents()
    for (const [name, inputs] of Object.entries({ impact: COMMANDS.impact!, query: COMMANDS.query! })) {
      hub.requests.length = 0
      const result = await act({ ...inputs, workspace: STRANGER })
      expect(result.code, name).toBe(1)
      expect(result.stdout, name).toContain('no engaged edge')
      expect(result.stdout, name).toContain('`org`/`workspace`')
    }
  })
})
