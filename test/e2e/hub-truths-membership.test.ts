/**
 * End to end, the workspace proof (issue 33, item 3). An org-wide membership admits any workspace
 * string: whoami echoes it with an empty clusterID, the agents routes answer 400 "no workspace
 * cluster on request" and the graph answers nothing (docs/hub-facts.md, "Memberships and the
 * workspace proof"). Every command fails before its first run or graph request, naming the
 * workspace; an upper-case UUID is sent lower-cased. dist/index.js against the hub emulator.
 */
import { describe, expect, it } from 'vitest'
import { errorLines as errors, hubInputs, runStep, useHubEmulator } from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300, orgWideMembership: true })
/** A workspace of the org that does not exist (mistyped, or deleted). */
const MISTYPED = '9a2b7c4d-1e3f-4a5b-8c6d-7e8f9a0b1c2e'
const act = (extra: Record<string, string>) => runStep({ inputs: hubInputs(hub, { workspace: MISTYPED, ...extra }) })
const beyondWhoami = () => hub.requests.filter((r) => !r.path.endsWith('/api/whoami'))

describe('a workspace string the hub admits but knows no cluster for', () => {
  it.each([
    [
      'impact',
      {
        command: 'impact',
        targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]',
        'fail-on-downstream': '1',
      },
    ],
    ['query', { command: 'query', query: '{filter: {objects: [{groupKind: {kind: Deployment}}]}}' }],
    [
      'rollout',
      {
        command: 'rollout',
        targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]',
        'timeout-seconds': '30',
      },
    ],
    ['run', { agent: 'quick', task: 'Check' }],
    ['wait', { command: 'wait', 'run-id': 'r-1' }],
    ['cancel', { command: 'cancel', 'run-id': 'r-1' }],
    ['approve', { command: 'approve', 'run-id': 'r-1' }],
  ])('%s fails before its first request past whoami, naming the workspace', async (_name, inputs) => {
    const result = await act(inputs)
    expect(result.code).toBe(1)
    const [error] = errors(result)
    expect(error).toContain(`workspace "${MISTYPED}"`)
    expect(error).toContain('empty clusterID')
    expect(error).toContain('mistyped or deleted')
    expect(beyondWhoami()).toEqual([])
  })
})

describe('an upper-case workspace UUID', () => {
  it('is sent lower-cased, as the hub writes it, and the run starts in the workspace', async () => {
    const result = await runStep({
      inputs: hubInputs(hub, { workspace: hub.workspace.toUpperCase(), agent: 'quick', task: 'Check' }),
    })
    expect(result.code).toBe(0)
    expect(hub.requests.every((r) => r.headers['x-hub-workspace'] === hub.workspace)).toBe(true)
  })
})
