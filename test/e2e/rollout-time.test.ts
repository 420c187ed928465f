/**
 * End to end, `command: rollout` over time (issue 32): what a gate must make of a fleet across
 * several looks. dist/index.js as a process against the scripted fleets of
 * emulator/graph/rollout-fleet-time.ts; each poll moves the fleet to the next instant of a
 * script, so nothing sleeps.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { makeWorkspace, readResultFile } from './harness.ts'
import { QUERY, fleetAt, polls, rollout, summaryText, type RolloutFile } from './rollout-harness.ts'

type Cells = Omit<RolloutFile, 'edges'> & {
  edges: Array<{ edge: string; latchedAt: string | null; cells: Array<{ state: string; proof: string | null } | null> }>
}

function workspace(files: Record<string, string>): { GITHUB_WORKSPACE: string } {
  const ws = makeWorkspace(files)
  onTestFinished(ws.cleanup)
  return { GITHUB_WORKSPACE: ws.dir }
}

const JOB = '[{kind: Job, group: batch, namespace: shop, name: migrate-1-5}]'

describe('a targets gate binds its green to this release', () => {
  it('never passes on a Deployment unchanged since its first read, and says which input gives the evidence', async () => {
    // every edge runs 1.4, healthy; the release lands only at 20 s, after this gate gave up
    const emulator = await fleetAt('stamped', [0])
    const result = await rollout(emulator, { 'timeout-seconds': '3' })
    expect(result.code).toBe(1)
    expect(result.outputs['rollout-state']).toBe('timeout')
    expect(result.stdout).toContain(
      'prod-eu · Deployment.apps shop/web: in progress — healthy, but unchanged since the first read',
    )
    expect(result.stdout).toMatch(
      /::error::Rollout not complete after 3 s .*set `revision` to the value the deploy stamps/,
    )
  })

  it('with `revision`, passes only where the object and its pod template carry it', async () => {
    const emulator = await fleetAt('stamped', [0, 200_000])
    const result = await rollout(emulator, { revision: '1.5' })
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain(
      'staging · Deployment.apps shop/web: in progress — not this release: app.kubernetes.io/version is "1.4" on the object and its pod template, `revision` asks for "1.5"',
    )
    expect(polls(emulator)).toBe(2)
    const file = readResultFile<Cells>(result)
    expect(file.edges.map((e) => e.cells[0]?.proof)).toEqual([
      'revision app.kubernetes.io/version=1.5',
      'revision app.kubernetes.io/version=1.5',
      'revision app.kubernetes.io/version=1.5',
    ])
    expect(summaryText(result)).toContain('revision app.kubernetes.io/version=1.5')
    // the summary names the result file as the other steps do, not by the runner's absolute path
    expect(summaryText(result)).toContain('$RUNNER_TEMP/hub-action/rollout-result.json')
  })

  it('says in its log which edges it watches: not "every engaged edge" for a target pinned to one', async () => {
    const emulator = await fleetAt('stamped', [0, 200_000])
    const targets = '[{kind: Deployment, group: apps, namespace: shop, name: web, edge: prod-eu}]'
    const result = await rollout(emulator, { targets, revision: '1.5' })
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain('Waiting up to 1800 s for 1 target(s) on the edge(s) they name (prod-eu)')
    expect(result.stdout).not.toContain('every engaged edge')
  })

  it('names the edge of a pinned target beside one on every edge, rather than counting them', async () => {
    const emulator = await fleetAt('stamped', [0])
    const targets =
      '[{kind: Deployment, group: apps, namespace: shop, name: web, edge: prod-eu}, {kind: Deployment, group: apps, namespace: shop, name: api}]'
    const result = await rollout(emulator, { targets, revision: '1.5', 'timeout-seconds': '3' })
    expect(result.stdout).toContain(
      'Waiting up to 3 s for 2 target(s) on every engaged edge (Deployment.apps shop/web only on prod-eu)',
    )
    expect(result.stdout).not.toContain('of them only on the edge each names')
  })

  it('without `revision`, passes once a new generation is seen during the step, and says so', async () => {
    const emulator = await fleetAt('stamped', [0, 200_000])
    const result = await rollout(emulator, {})
    expect(result.code, result.stdout).toBe(0)
    expect(polls(emulator)).toBe(2)
    const proofs = readResultFile<Cells>(result).edges.map((e) => e.cells[0]?.proof)
    expect(proofs).toEqual([
      expect.stringMatching(/^generation 1 → 2 seen at \d\d:\d\d:\d\d UTC$/),
      expect.stringMatching(/^generation 1 → 2 seen at /),
      expect.stringMatching(/^generation 1 → 2 seen at /),
    ])
    expect(summaryText(result)).toContain('generation 1 → 2 seen at')
  })

  it('fails a GitOps-only gate (a Namespace and a HelmRelease) at once, before any graph request, naming `on-unverifiable`', async () => {
    const emulator = await fleetAt('converging', [0])
    const env = workspace({
      'deploy/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n',
      'deploy/web.yaml':
        'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: web, namespace: shop}\nspec: {chart: {spec: {chart: web, version: 1.5.0}}}\n',
    })
    const result = await rollout(emulator, { targets: '', manifests: 'deploy/*.yaml' }, env)
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(
      /::error::This release is carried by HelmRelease\.helm\.toolkit\.fluxcd\.io shop\/web, of kinds the graph does not sync, and nothing the gate checks runs its pods.*`on-unverifiable: fail`/,
    )
    expect(emulator.requests.filter((r) => r.path === QUERY)).toHaveLength(0)
    const warned = await rollout(
      emulator,
      { targets: '', manifests: 'deploy/*.yaml', 'on-unverifiable': 'warn', 'timeout-seconds': '2' },
      env,
    )
    expect(warned.stdout).toMatch(
      /::warning::This release is carried by HelmRelease\.helm\.toolkit\.fluxcd\.io shop\/web/,
    )
  })
})

describe('fleet time', () => {
  it('passes a Job its TTL deleted after it was seen Complete, with a note, instead of waiting for it', async () => {
    // 40 s: complete on prod-eu and prod-us; 70 s: both deleted by their TTL, staging complete
    const emulator = await fleetAt('ttl-job', [15_000, 40_000, 70_000])
    const result = await rollout(emulator, { targets: JOB, 'timeout-seconds': '10' })
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).toContain(
      'prod-eu · Job.batch shop/migrate-1-5: current — complete 1/1, then deleted after it finished (TTL: its ttlSecondsAfterFinished)',
    )
    expect(summaryText(result)).toContain('then deleted after it finished (TTL')
  })

  it("warns up front when a release Job's TTL is shorter than a look's gap", async () => {
    const emulator = await fleetAt('ttl-job', [15_000])
    const env = workspace({
      'deploy/job.yaml':
        'apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate-1-5, namespace: shop}\nspec:\n  ttlSecondsAfterFinished: 10\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: migrate-1-5, image: "registry/web:1.5"}]\n',
    })
    const result = await rollout(emulator, { targets: '', manifests: 'deploy/*.yaml', 'timeout-seconds': '2' }, env)
    expect(result.stdout).toMatch(
      /::warning::Job\.batch shop\/migrate-1-5 sets ttlSecondsAfterFinished: 10, shorter than a look's gap/,
    )
  })

  it("passes the fix-forward of a crash-looping release on the same image: the old pods' crashes are not the new revision's", async () => {
    const emulator = await fleetAt('fix-forward', [0, 8_000, 200_000])
    const result = await rollout(emulator, {})
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).not.toContain('CrashLoopBackOff')
    expect(result.outputs['rollout-state']).toBe('current')
  })

  it('passes a new pod that crashes twice while a migration runs, then comes up', async () => {
    // staging's first new pod: crash at 6 s, again at 18 s (back-off), ready at 40 s
    const emulator = await fleetAt('transient-crash', [0, 8_000, 20_000, 200_000])
    const result = await rollout(emulator, {})
    expect(result.code, result.stdout).toBe(0)
    expect(result.stdout).not.toMatch(/failed — pod web-/)
    expect(polls(emulator)).toBe(4)
  })

  it('latches each edge once current: 5 % of 100 edges dipping at every look does not hold the gate', async () => {
    const emulator = await fleetAt(
      'flapping',
      Array.from({ length: 40 }, (_, i) => i * 1000),
    )
    const result = await rollout(emulator, { revision: '1.5', 'timeout-seconds': '12' })
    expect(result.code, result.stdout).toBe(0)
    expect(result.outputs['current-count']).toBe('100')
    expect(summaryText(result)).toMatch(/latched \+\d+ s/)
  })
})
