/**
 * The agents side of the third reading of the hub (docs/hub-facts.md, "Cancelling a run",
 * "Answers and approvals", "Memberships and the workspace proof", "Service-account route"), each
 * over real loopback HTTP against the hub emulator.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startHubEmulator, type HubEmulator } from './hub.ts'

const A = '/services/providers/agents'
const G = '/services/providers/graph'
let emu: HubEmulator | undefined
afterEach(async () => {
  await emu?.close()
  emu = undefined
})

async function call(hub: HubEmulator, method: string, path: string, body?: unknown, headers = hub.headers()) {
  const res = await fetch(hub.url + path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return {
    status: res.status,
    text,
    json: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
  }
}

async function startRun(hub: HubEmulator, agent: string): Promise<string> {
  const created = await call(hub, 'POST', `${A}/api/agents/${agent}/runs`, { task: 'x', wait: 0 })
  return created.json.runId as string
}

describe('cancel', () => {
  const endless = { steps: [{ phase: 'Running' as const, afterMs: 0 }] }

  it('on the Postgres store a cut run answers cancelling: true and then stays Running', async () => {
    emu = await startHubEmulator({ runStore: 'postgres', agents: { endless } })
    const runId = await startRun(emu, 'endless')
    const cancel = await call(emu, 'POST', `${A}/api/runs/${runId}/cancel`)
    expect(cancel).toMatchObject({ status: 202, json: { id: runId, cancelling: true } })
    expect((await call(emu, 'GET', `${A}/api/runs/${runId}`)).json.phase).toBe('Running')
  })

  it.each([
    ['fails it', 'fail', 'Failed'],
    ['resumes it from its last checkpoint', 'resume', 'Succeeded'],
  ] as const)('on Postgres the recovery sweep later %s', async (_what, outcome, phase) => {
    emu = await startHubEmulator({
      runStore: 'postgres',
      recoverySweep: { afterMs: 20, outcome },
      agents: {
        ends: {
          steps: [
            { phase: 'Running', afterMs: 0 },
            { phase: 'Succeeded', afterMs: 3_000 },
          ],
        },
      },
    })
    const runId = await startRun(emu, 'ends')
    expect((await call(emu, 'POST', `${A}/api/runs/${runId}/cancel`)).json).toEqual({ id: runId, cancelling: true })
    // The long-poll answers when the run settles: after the sweep, and for a resume its last step.
    expect((await call(emu, 'GET', `${A}/api/runs/${runId}/wait?timeoutSeconds=30`)).json.phase).toBe(phase)
  })

  it('on the in-memory store (the default) the same run ends Aborted', async () => {
    emu = await startHubEmulator({ agents: { endless } })
    const runId = await startRun(emu, 'endless')
    expect((await call(emu, 'POST', `${A}/api/runs/${runId}/cancel`)).json).toEqual({ id: runId, cancelling: true })
    expect((await call(emu, 'GET', `${A}/api/runs/${runId}`)).json.phase).toBe('Aborted')
  })

  it.each(['memory', 'postgres'] as const)(
    'a run parked at an approval answers cancelling: false, already written Aborted (%s)',
    async (runStore) => {
      emu = await startHubEmulator({ runStore })
      const runId = await startRun(emu, 'approval')
      const parked = await call(emu, 'GET', `${A}/api/runs/${runId}/wait?timeoutSeconds=5`)
      expect(parked.json.phase).toBe('PendingApproval')
      expect((await call(emu, 'POST', `${A}/api/runs/${runId}/cancel`)).json).toEqual({ id: runId, cancelling: false })
      expect((await call(emu, 'GET', `${A}/api/runs/${runId}`)).json.phase).toBe('Aborted')
    },
  )
})

describe('org-wide memberships', () => {
  const other = '11111111-2222-4333-8444-555555555555'

  it('admit any workspace string of the org: whoami echoes it with an empty clusterID', async () => {
    emu = await startHubEmulator({ orgWideMembership: true })
    for (const workspace of [other, 'not-even-a-uuid']) {
      const who = await call(emu, 'GET', `${A}/api/whoami`, undefined, emu.headers({ 'X-Hub-Workspace': workspace }))
      expect(who.json).toMatchObject({ orgUUID: emu.org, workspaceUUID: workspace, clusterID: '' })
    }
  })

  it('agents routes answer 400 "no workspace cluster on request", the graph answers nothing', async () => {
    emu = await startHubEmulator({ orgWideMembership: true })
    const headers = emu.headers({ 'X-Hub-Workspace': other })
    const start = await call(emu, 'POST', `${A}/api/agents/quick/runs`, { task: 'x' }, headers)
    expect(start.status).toBe(400)
    expect(start.json).toMatchObject({ reason: 'BadRequest', message: 'no workspace cluster on request' })
    const query = await call(emu, 'POST', `${G}/api/query`, { objects: { id: true } }, headers)
    expect(query).toMatchObject({ status: 200, json: {} })
    expect((await call(emu, 'GET', `${G}/api/edges`, undefined, headers)).json).toEqual({ edges: [] })
  })

  it('without one, the same header falls back to the personal org (an empty workspaceUUID)', async () => {
    emu = await startHubEmulator()
    const who = await call(emu, 'GET', `${A}/api/whoami`, undefined, emu.headers({ 'X-Hub-Workspace': other }))
    expect(who.json).toMatchObject({ orgUUID: emu.personalOrg, workspaceUUID: '', clusterID: '' })
  })
})

describe('the service-account route mapping', () => {
  it('reads check the mapping first: an unknown cluster id is a 409 on get and wait, a 403 on create', async () => {
    emu = await startHubEmulator()
    const sa = emu.headers({ Authorization: `Bearer ${emu.serviceAccountToken}` })
    for (const path of ['runs/r-1', 'runs/r-1/wait?timeoutSeconds=1'])
      expect((await call(emu, 'GET', `${A}/s2s/clusters/c-mistyped/${path}`, undefined, sa)).status).toBe(409)
    expect((await call(emu, 'POST', `${A}/s2s/clusters/c-mistyped/agents/quick/runs`, { task: 'x' }, sa)).status).toBe(
      403,
    )
  })

  it('whoami does not map the workspace; a user route acting on runs does', async () => {
    emu = await startHubEmulator({ unmappedCluster: true })
    const sa = emu.headers({ Authorization: `Bearer ${emu.serviceAccountToken}` })
    const read = () => call(emu as HubEmulator, 'GET', `${A}/s2s/clusters/${emu?.clusterId}/runs/nope`, undefined, sa)
    await call(emu, 'GET', `${A}/api/whoami`)
    expect((await read()).status).toBe(409)
    await call(emu, 'GET', `${A}/api/runs/nope`)
    expect((await read()).status).toBe(404)
  })
})
