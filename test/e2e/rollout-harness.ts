/**
 * The rollout end-to-end tests' shared parts: the scripted rollout fleet behind the hub
 * emulator, moved to the next instant of a script at each poll (its GET /api/edges), and the
 * action run against it.
 */
import { afterEach, onTestFinished } from 'vitest'
import { judgeGfm, textOf } from '../oracles/gfm.ts'
import { startHubEmulator, type HubEmulator, createRolloutFleet, type RolloutScenario } from '../../emulator/index.ts'
import { hubInputs, lines, makeWorkspace, runStep, type ActionRun } from './harness.ts'

const EDGES = '/services/providers/graph/api/edges'
export const QUERY = '/services/providers/graph/api/query'
const WEB = '[{kind: Deployment, group: apps, namespace: shop, name: web}]'

let hub: HubEmulator | undefined
afterEach(async () => {
  await hub?.close()
  hub = undefined
})

/**
 * The fleet of `scenario`, shown at instants[i] (ms) from the i-th poll on (the last one stays);
 * `graph.storeDriver` plays a graph on that store (docs/hub-facts.md, "Store drivers").
 */
export async function fleetAt(
  scenario: RolloutScenario,
  instants: readonly number[],
  graph: { storeDriver?: 'sqlite' | 'postgres' } = {},
): Promise<HubEmulator> {
  let poll = -1
  let t = instants[0] ?? 0
  const fleet = createRolloutFleet({ scenario, clock: () => t })
  hub = await startHubEmulator({
    fleet,
    ...graph,
    onRequest: (r) => {
      if (r.method === 'GET' && r.path === EDGES) t = instants[Math.min(++poll, instants.length - 1)] ?? t
    },
  })
  return hub
}

/** `command: rollout` against the emulator, gating on shop/web unless `extra` says otherwise. */
export async function rollout(
  emulator: HubEmulator,
  extra: Record<string, string>,
  env: Record<string, string> = {},
): Promise<ActionRun> {
  return runStep({
    inputs: { command: 'rollout', ...hubInputs(emulator), targets: WEB, ...extra },
    env,
    killAfterMs: 60_000,
  })
}

export const summaryText = (result: ActionRun) => textOf(judgeGfm(result.summary).tree)
export const logOf = (result: ActionRun) => lines(result.stdout, '')
export const polls = (emulator: HubEmulator) =>
  emulator.requests.filter((r) => r.method === 'GET' && r.path === EDGES).length

export interface RolloutFile {
  state: string
  message: string
  tolerated: string[]
  edges: Array<{ edge: string; state: string; cells: Array<{ state: string; reason: string } | null> }>
  observations: Array<{ edge: string; target?: string; state: string; reason: string }>
  notChecked: Array<{ label: string }>
}

/**
 * A `manifests` gate over the `applied` fleet (objects as the API server stores applied
 * manifests): `files` are the workspace, the fleet is shown at `instants` as `fleetAt` does.
 */
export async function appliedGate(
  files: Record<string, string>,
  options: {
    timeoutSeconds: number
    instants?: number[]
    extra?: Record<string, string>
    graph?: { storeDriver?: 'sqlite' | 'postgres' }
  },
): Promise<{ result: ActionRun; emulator: HubEmulator }> {
  const emulator = await fleetAt('applied', options.instants ?? [0], options.graph)
  const ws = makeWorkspace(files)
  onTestFinished(ws.cleanup)
  const result = await rollout(
    emulator,
    { targets: '', manifests: 'deploy/*.yaml', 'timeout-seconds': String(options.timeoutSeconds), ...options.extra },
    { GITHUB_WORKSPACE: ws.dir },
  )
  return { result, emulator }
}
