/**
 * Graph figures: query paging throughput and peak memory of the bundled action over 10,000
 * objects, the time to build and render the report for a 5,000-object blast radius, and the
 * requests an impact of 20 changed objects sends through each source.
 */
import { computeImpact } from '../src/commands/impact/compute-impact.ts'
import { GraphClient } from '../src/hub/graph.ts'
import { HubTransport } from '../src/hub/transport.ts'
import { McpGraphClient } from '../src/hub/mcp/client.ts'
import type { ImpactSettings } from '../src/commands/impact/inputs.ts'
import { renderImpactReport } from '../src/commands/impact/impact-report.ts'
import { runAction } from '../test/e2e/action-process.ts'
import { createLargeFleet, startHubEmulator } from '../emulator/index.ts'
import { median, row, samplePeakRss } from './stats.ts'

const ROUNDS = 5

export async function graphFigures(): Promise<void> {
  buildFigures()
  const fleet = createLargeFleet({ objects: 20_000, fanout: 5_000 })
  const hub = await startHubEmulator({ fleet })
  try {
    await pagingFigures(hub)
    await reportFigures(hub)
    await impactCostFigures(hub)
  } finally {
    await hub.close()
  }
}

type Hub = Awaited<ReturnType<typeof startHubEmulator>>

/** Building the emulator's 20,000-object fleet (the graph tests build it too). */
function buildFigures(): void {
  const took: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    const t = performance.now()
    createLargeFleet({ objects: 20_000 })
    took.push(performance.now() - t)
  }
  row('emulator: build a 20,000-object fleet', took, 'ms', 'a few hundred ms')
}

async function pagingFigures(hub: Hub): Promise<void> {
  // 10,000 objects: the ConfigMaps and Pods of the large fleet, 1,000 per page.
  const query = JSON.stringify({
    filter: {
      objects: [{ groupKind: { apiGroup: '', kind: 'Pod' } }, { groupKind: { apiGroup: '', kind: 'ConfigMap' } }],
    },
    limit: 1000,
  })
  const throughput: number[] = []
  const endToEnd: number[] = []
  const peaks: number[] = []
  let count = 0
  let pages = 0
  for (let round = 0; round < ROUNDS; round++) {
    hub.reset()
    let sampler: { stop(): number } | undefined
    const result = await runAction({
      inputs: {
        command: 'query',
        'hub-url': hub.url,
        token: hub.token,
        org: hub.org,
        workspace: hub.workspace,
        query,
        'max-objects': '10000',
      },
      onSpawn: (child) => (sampler = child.pid ? samplePeakRss(child.pid) : undefined),
    })
    peaks.push(sampler?.stop() ?? NaN)
    const queries = hub.requests.filter((r) => r.path.endsWith('/api/query'))
    const first = queries[0]
    count = Number(result.outputs.count)
    pages = queries.length
    if (result.code !== 0 || !first) throw new Error(`query bench failed: ${result.stdout}`)
    // From the first query sent to the process's exit: paging, streaming to the file, exit.
    throughput.push(count / ((result.exitedAt - first.at) / 1000))
    endToEnd.push(count / ((result.exitedAt - result.startedAt) / 1000))
    result.cleanup()
  }
  console.log(`\nquery paging: ${count} objects in ${pages} requests (page 1,000), ${ROUNDS} rounds`)
  row('paging throughput (first query → exit)', throughput, 'obj/s', 'target ≥ 20,000 obj/s')
  row('end to end incl. start-up', endToEnd, 'obj/s', '')
  row(
    'peak RSS of the action',
    peaks.map((b) => b / 1024 / 1024),
    'MB',
    'target < 150 MB',
  )
}

function impactSettings(): ImpactSettings {
  return {
    targets: [],
    manifests: [],
    timeoutSeconds: 1800,
    defaultNamespace: undefined,
    source: 'query',
    mcpUrl: undefined,
    maxDepth: 5,
    failOnDownstream: undefined,
    comment: 'off',
    commentKey: 'default',
    githubToken: '',
    maxTargets: 200,
    maxDocuments: 1000,
    scope: { namespaces: [], kinds: [] },
  }
}

async function reportFigures(hub: Hub): Promise<void> {
  const transport = new HubTransport({
    baseUrl: new URL(hub.url),
    token: hub.token,
    org: hub.org,
    workspace: hub.workspace,
  })
  const graph = new GraphClient(transport)
  const settings = impactSettings()
  const target = {
    kind: 'Deployment',
    group: 'apps',
    name: 'fanout',
    namespace: 'bulk',
    edge: 'edge-00',
    origin: { kind: 'input' as const },
  }
  const build: number[] = []
  const render: number[] = []
  let downstream = 0
  let sizes = ''
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    const report = await computeImpact(settings, { targets: [target], skippedFiles: [] }, { graph, log: () => {} })
    const built = performance.now()
    const summary = renderImpactReport(report, { budget: 1_000_000 })
    const comment = renderImpactReport(report, {
      budget: 65_000,
      summaryUrl: 'https://github.com/acme/shop/actions/runs/1',
    })
    render.push(performance.now() - built)
    build.push(built - started)
    downstream = report.totals.downstream
    sizes = `summary ${(Buffer.byteLength(summary) / 1024).toFixed(0)} KiB, comment ${Array.from(comment).length.toLocaleString('en-US')} chars`
  }
  await transport.close()
  console.log(
    `\nimpact report for a ${downstream.toLocaleString('en-US')}-object blast radius (${sizes}), ${ROUNDS} rounds`,
  )
  row('build (query + classify)', build, 'ms', '')
  row('render (summary + comment)', render, 'ms', '')
  row(
    'build + render',
    build.map((b, i) => b + (render[i] ?? 0)),
    'ms',
    'target < 500 ms',
  )
  void median
}

/**
 * What an impact of 20 changed objects costs in requests: the large fleet's first ten units, a
 * ConfigMap and a Deployment each, named without an edge, so each is looked up and found on all
 * three edges, in ten namespaces: 30 target-edge pairs per kind, 30 (edge, namespace) places.
 * Every request goes through the step's limiter (4 in flight); the count is what a hub serves.
 */
async function impactCostFigures(hub: Hub): Promise<void> {
  const targets = Array.from({ length: 10 }, (_, k) => {
    const name = `app-${String(k).padStart(5, '0')}`
    const namespace = `ns-${String(k).padStart(2, '0')}`
    return [
      { kind: 'ConfigMap', group: '', name: `${name}-config`, namespace, origin: { kind: 'input' as const } },
      { kind: 'Deployment', group: 'apps', name, namespace, origin: { kind: 'input' as const } },
    ]
  }).flat()
  console.log(
    `\nimpact of ${targets.length} changed objects (10 ConfigMaps, 10 Deployments, 10 namespaces × 3 edges): requests sent`,
  )
  for (const source of ['query', 'mcp'] as const) {
    hub.reset()
    const transport = new HubTransport({
      baseUrl: new URL(hub.url),
      token: hub.token,
      org: hub.org,
      workspace: hub.workspace,
    })
    const tool =
      source === 'mcp' ? new McpGraphClient({ url: new URL(hub.mcpUrl), transport, log: () => {} }) : undefined
    const started = performance.now()
    const report = await computeImpact(
      { ...impactSettings(), source },
      { targets, skippedFiles: [] },
      { graph: new GraphClient(transport), tool, log: () => {} },
    )
    const took = performance.now() - started
    await tool?.close()
    await transport.close()
    const kinds = { lookup: 0, impact: 0, 'pod scan': 0, 'selector scan': 0, other: 0 }
    for (const request of hub.requests.filter((r) => r.path.endsWith('/api/query'))) kinds[queryKind(request.body)]++
    const toolCalls = hub.requests.filter(
      (r) => r.path.startsWith('/services/mcpserver/') && r.body.includes('"tools/call"'),
    ).length
    const queries = Object.values(kinds).reduce((sum, n) => sum + n, 0)
    const breakdown = Object.entries(kinds)
      .filter(([, n]) => n > 0)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ')
    console.log(
      `  ${source.padEnd(5)}  ${String(queries).padStart(3)} queries (${breakdown})${toolCalls ? ` + ${toolCalls} tool calls` : ''}; ${report.impacts.length} target-edge pairs, ${report.totals.downstream} downstream; ${took.toFixed(0)} ms`,
    )
  }
}

function queryKind(body: string): 'lookup' | 'impact' | 'pod scan' | 'selector scan' | 'other' {
  const spec = JSON.parse(body) as {
    filter?: { objects?: Array<{ groupKind?: { kind?: string }; name?: string }> }
    objects?: { relations?: object }
  }
  const filters = spec.filter?.objects ?? []
  if (!spec.objects?.relations) return filters.some((f) => f.groupKind?.kind === 'Service') ? 'selector scan' : 'lookup'
  if (filters[0]?.name !== undefined) return 'impact'
  return filters[0]?.groupKind?.kind === 'Pod' ? 'pod scan' : 'other'
}
