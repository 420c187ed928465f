/**
 * Graph figures: query paging throughput and peak memory of the bundled action over 10,000
 * objects, and the time to build and render the report for a 5,000-object blast radius.
 */
import { computeImpact } from '../src/steps/impact/compute-impact.ts'
import { GraphClient } from '../src/hub/graph.ts'
import { HubTransport } from '../src/hub/transport.ts'
import type { ImpactSettings } from '../src/settings/settings.ts'
import { renderImpactReport } from '../src/steps/impact/impact-report.ts'
import { runAction } from '../test/e2e/action-process.ts'
import { createLargeFleet } from '../test/emulator/graph/index.ts'
import { startHubEmulator } from '../test/emulator/hub.ts'
import { median, row, samplePeakRss } from './stats.ts'

const ROUNDS = 5

export async function graphFigures(): Promise<void> {
  buildFigures()
  const fleet = createLargeFleet({ objects: 20_000, fanout: 5_000 })
  const hub = await startHubEmulator({ fleet })
  try {
    await pagingFigures(hub)
    await reportFigures(hub)
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
    filter: { objects: [{ groupKind: { apiGroup: '', kind: 'Pod' } }, { groupKind: { apiGroup: '', kind: 'ConfigMap' } }] },
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
      inputs: { command: 'query', 'hub-url': hub.url, token: hub.token, org: hub.org, workspace: hub.workspace, query, 'max-objects': '10000' },
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

async function reportFigures(hub: Hub): Promise<void> {
  const transport = new HubTransport({ baseUrl: new URL(hub.url), token: hub.token, org: hub.org, workspace: hub.workspace })
  const graph = new GraphClient(transport)
  const settings: ImpactSettings = {
    targets: [],
    manifests: [],
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
  const target = { kind: 'Deployment', group: 'apps', name: 'fanout', namespace: 'bulk', edge: 'edge-00', origin: { kind: 'input' as const } }
  const build: number[] = []
  const render: number[] = []
  let downstream = 0
  let sizes = ''
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now()
    const report = await computeImpact(settings, { targets: [target], skippedFiles: [] }, { graph, log: () => {} })
    const built = performance.now()
    const summary = renderImpactReport(report, { budget: 1_000_000 })
    const comment = renderImpactReport(report, { budget: 65_000, summaryUrl: 'https://github.com/acme/shop/actions/runs/1' })
    render.push(performance.now() - built)
    build.push(built - started)
    downstream = report.totals.downstream
    sizes = `summary ${(Buffer.byteLength(summary) / 1024).toFixed(0)} KiB, comment ${Array.from(comment).length.toLocaleString('en-US')} chars`
  }
  await transport.close()
  console.log(`\nimpact report for a ${downstream.toLocaleString('en-US')}-object blast radius (${sizes}), ${ROUNDS} rounds`)
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
