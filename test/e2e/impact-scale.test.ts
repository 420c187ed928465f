/**
 * End to end, a blast radius of thousands of objects on a pull request: dist/index.js as a
 * child process against the hub emulator over a large generated fleet and the GitHub emulator.
 * The comment is cut to fit GitHub's limit yet keeps the totals, the verdict lines and the
 * caveat; the job summary stays under 1 MiB; the result file keeps every object.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  BASE_SHA,
  expectSecretsNowhere,
  HEAD_SHA,
  hubInputs,
  lines,
  makeWorkspace,
  OWNER,
  pullRequestEnv,
  pullRequestEvent,
  readResultFile,
  REPO,
  runStep,
  useGitHubEmulator,
  useHubEmulator,
  verdictLines,
  type ActionRun,
  type ImpactReportFile,
} from './harness.ts'
import { createLargeFleet, ACTIONS_BOT_LOGIN, ACTIONS_TOKEN } from '../../emulator/index.ts'

const PR = 12
const FANOUT_PODS = 5000
const QUERY = '/services/providers/graph/api/query'
const GITHUB_COMMENT_LIMIT = 65_536
const ONE_MIB = 1024 * 1024
const TARGETS = [
  '- {kind: Deployment, group: apps, name: fanout, namespace: bulk}',
  '- {kind: ConfigMap, name: fanout-config, namespace: bulk}',
  '- {kind: Secret, name: fanout-secret, namespace: bulk}',
].join('\n')
const CAVEAT = [
  '> [!NOTE]',
  '> Impact comes only from declared relationships: owner references, spec references, label selectors, namespace membership and declared links.',
  '> Runtime traffic (calls, DNS names, queues, shared databases) is not traced, and the hub stops at 10,000 rows.',
  '> An empty list proves nothing: something can still depend on an object in a way the graph does not record.',
].join('\n')

const hub = useHubEmulator({ fleet: createLargeFleet({ objects: 8_000, fanout: FANOUT_PODS }) })
const github = useGitHubEmulator()
let workspace: { dir: string; cleanup: () => void }

beforeAll(() => {
  workspace = makeWorkspace({})
})
afterAll(() => {
  workspace.cleanup()
})
beforeEach(() => {
  github.addPullRequest({ owner: OWNER, repo: REPO, number: PR, baseSha: BASE_SHA, headSha: HEAD_SHA, files: [] })
})

async function impact(extra: Record<string, string>): Promise<ActionRun> {
  return runStep({
    inputs: { command: 'impact', ...hubInputs(hub), 'github-token': ACTIONS_TOKEN, ...extra },
    env: pullRequestEnv(github.url, workspace.dir, '8100'),
    event: pullRequestEvent(PR),
  })
}

const codePoints = (text: string): number => Array.from(text).length
const fanoutPods = () => hub.fleet!.objects.filter((o) => o.kind === 'Pod' && o.metadata.name.startsWith('fanout-'))

describe('a blast radius of thousands of objects', () => {
  it('still fits one comment with totals, verdict lines and the caveat; the summary stays under 1 MiB', async () => {
    expect(fanoutPods()).toHaveLength(FANOUT_PODS)
    const result = await impact({ targets: TARGETS, 'max-depth': '2' })
    expect(result.code).toBe(0)
    expect(lines(result.stdout, '::error::')).toEqual([])
    // The Deployment's `selects` (its matchLabels, matched against every kind) holds its 5,000
    // Pods again beside `descendants+`: over the hub's 10,000 rows, so the hub cuts that query.
    expect(lines(result.stdout, '::warning::')).toEqual([
      '::warning::The hub cut the result for Deployment fanout on edge-00 (row cap): counts are a lower bound.',
    ])

    // every pod is downstream of each target: the Deployment's through its ReplicaSet (read from
    // the Pods' owners where the cut query stopped), the pods that use them for the ConfigMap and
    // the Secret, each with the ReplicaSet and the Deployment that own those pods
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.impacts.map((i) => `${i.target.kind} ${i.edge} ${i.incomplete}`)).toEqual([
      'Deployment edge-00 true',
      'ConfigMap edge-00 false',
      'Secret edge-00 false',
    ])
    const podNames = fanoutPods().map((o) => o.metadata.name)
    for (const impactOf of file.impacts) {
      expect(new Set(impactOf.downstream.filter((o) => o.kind === 'Pod').map((o) => o.name))).toEqual(new Set(podNames))
      expect(impactOf.downstream.filter((o) => o.kind !== 'Pod').map((o) => `${o.kind} ${o.name}`)).toEqual(
        impactOf.target.kind === 'Deployment'
          ? ['PodDisruptionBudget fanout', 'ReplicaSet fanout-6f7d8c9b5', 'Service fanout']
          : ['Deployment fanout', 'PodDisruptionBudget fanout', 'ReplicaSet fanout-6f7d8c9b5'],
      )
    }
    const downstreamTotal = FANOUT_PODS + 4
    expect(file.totals.downstream).toBe(downstreamTotal)
    expect(result.outputs['downstream-count']).toBe(String(downstreamTotal))
    expect(result.outputs['targets-count']).toBe('3')
    const upstream = Number(result.outputs['upstream-count']).toLocaleString('en-US')

    // one Pod scan of namespace `bulk` followed every page (500 Pods each), once for all three targets
    const scans = hub.requests
      .filter((r) => r.method === 'POST' && r.path === QUERY)
      .map((r) => JSON.parse(r.body) as { cluster?: { name: string }; filter?: unknown; limit?: number })
      .filter(
        (spec) =>
          JSON.stringify(spec.filter) ===
          JSON.stringify({ objects: [{ groupKind: { apiGroup: '', kind: 'Pod' }, namespace: 'bulk' }] }),
      )
    expect(scans).toHaveLength(Math.floor(FANOUT_PODS / 500) + 1)
    expect(scans.every((spec) => spec.cluster?.name === 'edge-00' && spec.limit === 500)).toBe(true)

    // one comment, within GitHub's limit, with what matters
    const comments = github.comments(OWNER, REPO, PR)
    expect(comments).toHaveLength(1)
    const body = comments[0]!.body
    expect(comments[0]!.user.login).toBe(ACTIONS_BOT_LOGIN)
    expect(codePoints(body)).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT)
    expect(body.split('\n')[0]).toBe(`<!-- hub-action:impact v1 key=default run=8100 attempt=1 sha=${HEAD_SHA} -->`)
    expect(body).toContain(
      `**3 targets · ≥ ${upstream} upstream · ≥ ${downstreamTotal.toLocaleString('en-US')} downstream · ≥ 0 associated**`,
    )
    const downstream = (FANOUT_PODS + 3).toLocaleString('en-US')
    expect(verdictLines(body)).toEqual([
      `- **Deployment.apps bulk/fanout** on edge-00 — ${upstream} upstream, ${downstream} downstream, 0 associated · ⚠️ **incomplete** — the hub cut the result (row cap or limit), so there may be more`,
      `- **ConfigMap bulk/fanout-config** on edge-00 — 1 upstream, ${downstream} downstream, 0 associated`,
      `- **Secret bulk/fanout-secret** on edge-00 — 1 upstream, ${downstream} downstream, 0 associated`,
    ])
    expect(body).toContain(CAVEAT)
    expect(body).toContain(
      'Trimmed to fit: [see the full report in the job summary](<https://github.com/acme/shop/actions/runs/8100>).',
    )
    expect(body.split('\n').slice(1).join('\n')).toBe(result.outputs.report)
    expect(result.outputs['comment-url']).toBe(comments[0]!.html_url)

    // the job summary keeps more detail, yet stays under the runner's 1 MiB
    expect(Buffer.byteLength(result.summary, 'utf8')).toBeLessThan(ONE_MIB)
    expect(result.summary.length).toBeGreaterThan(body.length)
    expect(result.summary).toContain(
      `**3 targets · ≥ ${upstream} upstream · ≥ ${downstreamTotal.toLocaleString('en-US')} downstream · ≥ 0 associated**`,
    )
    expect(verdictLines(result.summary)).toEqual(verdictLines(body))
    expect(result.summary).toContain(CAVEAT)
    expect(result.summary).toContain(`| Pod | bulk/${podNames[podNames.length - 1]} | descendants |`)

    expectSecretsNowhere(result, [hub.token, ACTIONS_TOKEN], { 'comment body': body })
  })

  it('gives the same counts through the MCP tool at that scale', async () => {
    const target = '[{kind: Deployment, group: apps, name: fanout, namespace: bulk, edge: edge-00}]'
    const viaQuery = await impact({ targets: target, 'max-depth': '2', comment: 'off' })
    const viaMcp = await impact({
      targets: target,
      'max-depth': '2',
      comment: 'off',
      'impact-source': 'mcp',
      'mcp-url': hub.mcpUrl,
    })
    for (const result of [viaQuery, viaMcp]) {
      expect(result.code).toBe(0)
      // its ReplicaSet and Pods, the Service selecting them (derived) and the PDB (selected-by, and derived)
      expect(result.outputs['downstream-count']).toBe(String(FANOUT_PODS + 3))
    }
    for (const name of ['targets-count', 'upstream-count', 'downstream-count', 'associated-count'])
      expect(viaMcp.outputs[name]).toBe(viaQuery.outputs[name])
    // The query route hears the hub cut its relation query (10,000 rows); the tool stops there
    // silently and says nothing a client can read, so only the query route marks it incomplete.
    const uncut = (impacts: ImpactReportFile['impacts']) => impacts.map((i) => ({ ...i, incomplete: undefined }))
    expect(verdictLines(viaMcp.outputs.report ?? '')).toEqual(
      verdictLines(viaQuery.outputs.report ?? '').map((line) => line.replace(/ · ⚠️ \*\*incomplete\*\*.*$/, '')),
    )
    expect(uncut(readResultFile<ImpactReportFile>(viaMcp).impacts)).toEqual(
      uncut(readResultFile<ImpactReportFile>(viaQuery).impacts),
    )
  })
})
