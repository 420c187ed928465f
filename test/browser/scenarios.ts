/**
 * The demo scenarios, produced for real: the bundled action (dist/index.js) runs as the runner
 * runs it against the hub emulator, and for the impact report on a pull request against the
 * GitHub emulator too. What it wrote (job summaries, the comment it posted) is rendered.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAction, RUNNER_ENV, type ActionRun } from '../e2e/action-process.ts'
import { impactDiagrams, pin, pinRollout, withoutMarker } from './pins.ts'
import {
  ACTIONS_BOT_LOGIN,
  ACTIONS_TOKEN,
  startGitHubEmulator,
  startHubEmulator,
  createRolloutFleet,
} from '../../emulator/index.ts'
import { renderGitHubMarkdown, type RenderOptions } from './render.ts'
import { environmentsPage } from './environments.ts'
import { GRAPH_LEGEND, OWNED_LEGEND } from '../../src/commands/impact/mermaid.js'

export interface Scenario {
  /** File name (without .png) of the screenshot in docs/images/. */
  name: string
  markdown: string
  /** A page of GitHub's own (not markdown) built from what the emulator recorded; drawn instead of `markdown`. */
  page?: string
  render: RenderOptions
  /** Texts (or patterns) the rendered page must show, once its `<details>` are opened. */
  expectText: Array<string | RegExp>
  /** Texts the rendered page must not show, even unfolded. */
  rejectText: Array<string | RegExp>
  /** Texts the page must show as GitHub first shows it, before a reader opens anything. */
  expectVisible: Array<string | RegExp>
  /** Texts inside `<details>` that GitHub shows folded: not visible before a click. */
  expectFolded: Array<string | RegExp>
  /** How many Mermaid diagrams must be drawn. */
  diagrams: number
}

const PR = 42
const BASE_SHA = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567'
const TARGET = { kind: 'Deployment', group: 'apps', name: 'checkout', namespace: 'shop' }
/** A pull request that changes only a Helm chart's values, rendered at base and head (test/fixtures/rendered/helm). */
const CHART_PR = 43
const CHART_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'rendered', 'helm')

export async function produceScenarios(): Promise<Scenario[]> {
  const hub = await startHubEmulator()
  const gh = await startGitHubEmulator()
  // The rollout gate's fleet: the `deadline` scenario at 0 s, then at 200 s from the second poll on.
  let polls = 0
  const rolloutHub = await startHubEmulator({
    fleet: createRolloutFleet({ scenario: 'deadline', clock: () => (polls > 1 ? 200_000 : 0) }),
    onRequest: (r) => {
      if (r.method === 'GET' && r.path.endsWith('/api/edges')) polls++
    },
  })
  // The same fleet and clock for the gate that writes GitHub deployments (its own poll count).
  let deployPolls = 0
  const deployHub = await startHubEmulator({
    fleet: createRolloutFleet({ scenario: 'deadline', clock: () => (deployPolls > 1 ? 200_000 : 0) }),
    onRequest: (r) => {
      if (r.method === 'GET' && r.path.endsWith('/api/edges')) deployPolls++
    },
  })
  const runs: ActionRun[] = []
  const chartCheckout = mkdtempSync(join(tmpdir(), 'hub-action-chart-'))
  cpSync(CHART_FIXTURE, chartCheckout, { recursive: true })
  withoutNetworkPolicy(chartCheckout)
  const run = async (options: Parameters<typeof runAction>[0]): Promise<ActionRun> => {
    const result = await runAction(options)
    runs.push(result)
    return result
  }
  try {
    const hubInputs = { 'hub-url': hub.url, token: hub.token, org: hub.org, workspace: hub.workspace }
    const repository = RUNNER_ENV.GITHUB_REPOSITORY ?? 'acme/shop'
    const [owner = 'acme', repo = 'shop'] = repository.split('/')
    const headSha = RUNNER_ENV.GITHUB_SHA ?? 'f'.repeat(40)
    gh.addPullRequest({ owner, repo, number: PR, baseSha: BASE_SHA, headSha, title: 'Scale checkout to 4 replicas' })
    gh.addPullRequest({
      owner,
      repo,
      number: CHART_PR,
      baseSha: BASE_SHA,
      headSha,
      title: 'shop chart: debug logging, feature flags off',
      files: [{ filename: 'charts/shop/values.yaml', status: 'modified' }],
    })
    const pullRequestEvent = (number: number) => ({
      action: 'synchronize',
      number,
      pull_request: { number, base: { sha: BASE_SHA }, head: { sha: headSha } },
      repository: { name: repo, full_name: repository, owner: { login: owner } },
    })

    const rolloutInputs = {
      'hub-url': rolloutHub.url,
      token: rolloutHub.token,
      org: rolloutHub.org,
      workspace: rolloutHub.workspace,
    }
    gh.addRepo(owner, repo)
    const [succeeded, failed, impact, chart, rollout, deployed] = await Promise.all([
      run({
        inputs: {
          ...hubInputs,
          agent: 'quick',
          task: 'Check that every deployment in namespace payments is healthy after the release.',
        },
      }),
      run({
        inputs: {
          ...hubInputs,
          agent: 'failing',
          task: 'Check that every deployment in namespace payments is healthy after the release.',
        },
      }),
      run({
        inputs: { ...hubInputs, command: 'impact', targets: JSON.stringify([TARGET]), 'github-token': ACTIONS_TOKEN },
        env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_API_URL: gh.url, GITHUB_JOB: 'impact' },
        event: pullRequestEvent(PR),
      }),
      run({
        inputs: {
          ...hubInputs,
          command: 'impact',
          'rendered-head': 'rendered/head.yaml',
          'rendered-base': 'rendered/base.yaml',
          'github-token': ACTIONS_TOKEN,
        },
        env: {
          GITHUB_EVENT_NAME: 'pull_request',
          GITHUB_API_URL: gh.url,
          GITHUB_JOB: 'impact',
          GITHUB_WORKSPACE: chartCheckout,
        },
        event: pullRequestEvent(CHART_PR),
      }),
      run({
        inputs: {
          ...rolloutInputs,
          command: 'rollout',
          targets:
            '[{kind: Deployment, group: apps, namespace: shop, name: web}, {kind: Service, namespace: shop, name: web}]',
        },
        env: { GITHUB_JOB: 'deploy' },
      }),
      run({
        inputs: {
          'hub-url': deployHub.url,
          token: deployHub.token,
          org: deployHub.org,
          workspace: deployHub.workspace,
          command: 'rollout',
          targets: '[{kind: Deployment, group: apps, namespace: shop, name: web}]',
          'deployment-environment': 'production',
          'github-token': ACTIONS_TOKEN,
        },
        env: { GITHUB_JOB: 'deploy', GITHUB_API_URL: gh.url },
      }),
    ])
    const deployments = gh.deployments(owner, repo)
    const latestStates = new Set(deployments.map((d) => d.statuses.at(-1)?.state))
    const chartComment = gh.comments(owner, repo, CHART_PR)[0]?.body ?? ''

    const comments = gh.comments(owner, repo, PR)
    const comment = comments[0]?.body ?? ''
    const problems: string[] = []
    if (succeeded.code !== 0)
      problems.push(`command run, agent quick: exit code ${succeeded.code}\n${succeeded.stdout}${succeeded.stderr}`)
    if (failed.code === 0) problems.push('command run, agent failing: the step passed; it must fail')
    if (impact.code !== 0) problems.push(`command impact: exit code ${impact.code}\n${impact.stdout}${impact.stderr}`)
    if (chart.code !== 0)
      problems.push(`command impact, rendered chart: exit code ${chart.code}\n${chart.stdout}${chart.stderr}`)
    if (!chartComment) problems.push(`command impact, rendered chart: no comment on pull request #${CHART_PR}`)
    if (comments.length !== 1)
      problems.push(`command impact: ${comments.length} comments on pull request #${PR}, expected 1`)
    else if (withoutMarker(comment) !== withoutMarker(impact.outputs.report ?? ''))
      problems.push('command impact: the comment on the pull request is not the `report` output')
    if (rollout.outputs['rollout-state'] !== 'failed')
      problems.push(`command rollout: state ${rollout.outputs['rollout-state']}, expected failed\n${rollout.stdout}`)
    if (deployed.outputs['rollout-state'] !== 'failed')
      problems.push(
        `command rollout, deployments: state ${deployed.outputs['rollout-state']}, expected failed\n${deployed.stdout}`,
      )
    if (!latestStates.has('success') || !latestStates.has('failure'))
      problems.push(
        `command rollout, deployments: latest states ${[...latestStates].join(', ')}; expected a success and a failure`,
      )
    for (const [name, result] of Object.entries({ succeeded, failed, impact, rollout }))
      if (!result.summary.trim()) problems.push(`${name}: the job summary is empty`)
    if (problems.length > 0) throw new Error(`The demo scenarios did not run as expected:\n${problems.join('\n')}`)

    const totals = /\d+ targets? · \d+ upstream · \d+ downstream · \d+ associated/
    /** The legend as the page shows it (the markdown sets it in italics). */
    const legend = GRAPH_LEGEND.replace(/^_|_$/g, '')
    /** The sentence that used to open each target's details by repeating its summary line. */
    const repeatedSummary = /on edge prod-(eu|us), (named|rendered)/
    const summaryHeader = (job: string) => ({ bold: `${job} summary`, text: '' })
    return [
      {
        name: 'run-succeeded',
        markdown: pin(succeeded, 'd3b07384-d9a0-4c1f-9e3b-5f2a7c81e6b4', { Duration: '156 ms', Waited: '274 ms' }),
        render: {
          context: 'document',
          header: summaryHeader(RUNNER_ENV.GITHUB_JOB ?? 'notes'),
          title: 'run succeeded',
        },
        expectText: [
          'Agent run: quick — Succeeded',
          'Succeeded',
          '1,842 / 312',
          'Steps (3)',
          'payments-api',
          'graph_query',
        ],
        // No sentence under the heading that only repeats it.
        rejectText: [/Run \S+ of agent "quick" succeeded/],
        expectVisible: ['Agent run: quick — Succeeded', 'Steps (3)', 'payments-api'],
        expectFolded: ['graph_query', 'Calls:'],
        diagrams: 0,
      },
      {
        name: 'run-failed',
        markdown: pin(failed, '8f14e45f-ceea-4e7a-b6b4-1c2d3e4f5a6b', { Duration: '90 ms', Waited: '176 ms' }),
        render: { context: 'document', header: summaryHeader(RUNNER_ENV.GITHUB_JOB ?? 'notes'), title: 'run failed' },
        expectText: [
          'Agent run: failing — Failed',
          'Failed',
          'model credential missing for provider openai',
          'Message from the hub',
        ],
        rejectText: ['Succeeded', /of agent "failing" failed/],
        expectVisible: ['Message from the hub', 'model credential missing for provider openai'],
        expectFolded: [],
        diagrams: 0,
      },
      {
        name: 'impact-comment',
        markdown: comment,
        render: {
          context: 'comment',
          header: { bold: ACTIONS_BOT_LOGIN.replace(/\[bot\]$/, ''), text: 'bot commented' },
          title: 'impact comment',
        },
        expectText: ['Impact of this change', totals, 'shop/checkout', 'Upstream', 'Downstream', 'Note'],
        // The sticky comment's marker is an HTML comment: GitHub never shows it.
        rejectText: ['hub-action:impact', '<!--', repeatedSummary],
        // The first target and edge (prod-eu: 11 upstream) comes open, with its legend; its tables fold under its graph; prod-us (9 upstream) is folded.
        expectVisible: [
          legend,
          OWNED_LEGEND.replace(/^_|_$/g, ''),
          'Upstream — what it depends on (7)',
          'Named in the targets input.',
        ],
        expectFolded: ['Upstream — what it depends on (6)', 'Relation(s)'],
        diagrams: impactDiagrams(impact.summary),
      },
      {
        name: 'impact-rendered-chart',
        markdown: chartComment,
        render: {
          context: 'comment',
          header: { bold: ACTIONS_BOT_LOGIN.replace(/\[bot\]$/, ''), text: 'bot commented' },
          title: 'impact of a rendered chart',
        },
        expectText: [
          'Impact of this change',
          'ConfigMap shop/checkout-config',
          'changed',
          'ConfigMap shop/feature-flags',
          'removed in this PR',
          'shop/templates/feature-flags.yaml',
        ],
        // unchanged objects (the Deployment differs only in its checksum annotation) are no target
        rejectText: ['hub-action:impact', 'Deployment.apps shop/checkout', repeatedSummary],
        // prod-eu's checkout-config (6 downstream) opens; prod-us's (5 downstream) is folded.
        expectVisible: [legend, 'Downstream — what depends on it (6)', 'Rendered from shop/templates/configmap.yaml'],
        expectFolded: ['Downstream — what depends on it (5)'],
        diagrams: impactDiagrams(chart.summary),
      },
      {
        name: 'rollout-summary',
        markdown: pinRollout(rollout.summary),
        render: { context: 'document', header: summaryHeader('deploy'), title: 'rollout gate' },
        expectText: ['Rollout failed', 'deadline exceeded', 'prod-us', 'Targets × edges', 'Service shop/web'],
        rejectText: [],
        expectVisible: ['Rollout failed', 'deadline exceeded', 'Last change seen'],
        expectFolded: [],
        diagrams: 0,
      },
      {
        name: 'rollout-deployments',
        markdown: '',
        page: environmentsPage(repository, deployments),
        render: { title: 'rollout deployments' },
        expectText: [
          'production/prod-us',
          'production/prod-eu',
          'Failure',
          'Success',
          headSha.slice(0, 7),
          'View logs',
          /All 1 target\(s\) are current on this edge\./,
        ],
        rejectText: ['In progress', headSha],
        expectVisible: ['production/prod-us', 'View logs'],
        expectFolded: [],
        diagrams: 0,
      },
    ]
  } finally {
    rmSync(chartCheckout, { recursive: true, force: true })
    for (const result of runs) result.cleanup()
    await Promise.all([hub.close(), gh.close(), rolloutHub.close(), deployHub.close()])
  }
}

/** The page a scenario's picture is drawn from: its own page, or its markdown as GitHub renders it. */
export function pageOf(scenario: Scenario): string {
  return scenario.page ?? renderGitHubMarkdown(scenario.markdown, scenario.render)
}

/**
 * The chart's pull request as the picture shows it: the network policy left off, so the comment
 * is a changed and a removed object and fits a README's screen (the e2e tests cover the added,
 * not yet synchronized policy).
 */
function withoutNetworkPolicy(checkout: string): void {
  const values = join(checkout, 'charts', 'shop', 'values.yaml')
  writeFileSync(
    values,
    readFileSync(values, 'utf8')
      .replace(', a network policy on', '')
      .replace(/networkPolicy:\n {2}enabled: true/, 'networkPolicy:\n  enabled: false'),
  )
  const head = join(checkout, 'rendered', 'head.yaml')
  const documents = readFileSync(head, 'utf8').split(/^(?=---\n)/m)
  writeFileSync(
    head,
    documents.filter((document) => !document.includes('# Source: shop/templates/networkpolicy.yaml')).join(''),
  )
}
