/**
 * `npm run demo`: a guided tour of the action for a newcomer. The bundled action (dist/index.js)
 * runs as the GitHub runner runs it — a process with INPUT_* variables and the runner's files —
 * against the hub emulator and the GitHub emulator on 127.0.0.1. Each step's log is shown the way
 * GitHub's log viewer shows it, and its outputs, job summary and pull-request comment are
 * rendered for the terminal. Scenes: a run, its re-run, a failure, the impact of a pull request,
 * a query, a rollout gate that passes and one that names the edge that lags.
 */
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { ROOT, runAction, type ActionRun, type ActionOptions } from '../test/e2e/action-process.ts'
import { ACTIONS_TOKEN, startGitHubEmulator, startHubEmulator } from '../emulator/index.ts'
import { build, distFreshness } from './demo/build.ts'
import { renderRunnerLog } from './demo/runner-log.ts'
import { styleFor } from './demo/style.ts'
import { renderMarkdown } from './demo/terminal-markdown.ts'
import { CANARY_TARGETS, FRONTEND, PULL_REQUEST, pullRequestWorkspace, QUERY } from './demo/fixtures.ts'
import { fold, oneLine, wrap } from './demo/layout.ts'
import { IMPACT_WORKFLOW, queryStep, rolloutStep, runStep } from './demo/snippets.ts'

const started = performance.now()
const style = styleFor(process.stdout, process.env)
// every line fits 100 columns: longer ones are folded under their own margin
const print = (...lines: string[]): void =>
  console.log(lines.flatMap((text) => text.split('\n').flatMap((line) => fold(line))).join('\n'))
const indent = (lines: string[], by = '    '): string => lines.map((line) => (by + line).trimEnd()).join('\n')

// `--no-build`: dist/ was just built (npm test builds before its tests run this)
let rebuilt = false
if (!process.argv.includes('--no-build')) {
  const freshness = distFreshness(ROOT)
  if (freshness.current)
    print(style.dim(`dist/ is the build of these sources (${freshness.commit}): no rebuild needed.`), '')
  else {
    print(style.dim(`Building dist/ first (${freshness.reason}) …`))
    build(ROOT)
    rebuilt = true
  }
}
const built = performance.now()

const [hub, github] = await Promise.all([startHubEmulator(), startGitHubEmulator()])
const workspace = pullRequestWorkspace()
const runs: ActionRun[] = []
const hubInputs = { 'hub-url': hub.url, token: hub.token, org: hub.org, workspace: hub.workspace }
const task = 'Check that every deployment in namespace payments is healthy after the release.'
const unexpected: string[] = []

async function step(
  title: string,
  about: string,
  yaml: { label: string; lines: string[] },
  options: ActionOptions,
): Promise<ActionRun> {
  print(
    '',
    style.heading(`━━ ${title}`),
    '',
    indent(wrap(about, 96).split('\n'), '  '),
    '',
    style.dim(`  ${yaml.label}:`),
    indent(yaml.lines.map(style.code)),
    '',
  )
  const run = await runAction(options)
  runs.push(run)
  print(style.dim(`  Its log (exit code ${run.code}${run.code === 0 ? ': the step passed' : ': the step failed'}):`))
  // the runner's temporary folder is the reader's $RUNNER_TEMP, not this machine's path
  const shown = (text: string): string => text.split(join(run.dir, 'runner_temp')).join('$RUNNER_TEMP')
  const outputs = Object.fromEntries(Object.entries(run.outputs).map(([name, value]) => [name, shown(value)]))
  const seen = { ...run, stdout: shown(run.stdout), summary: shown(run.summary), outputs }
  print(indent(renderRunnerLog(seen.stdout, { style })))
  if (run.stderr.trim()) print(indent(run.stderr.trim().split('\n').map(style.dim)))
  return seen
}

function outputs(run: ActionRun, names: string[]): void {
  print('', style.dim('  Step outputs (steps.<id>.outputs.*):'))
  const width = Math.max(...names.map((name) => name.length))
  for (const name of names) print(`    ${name.padEnd(width)}  ${oneLine(run.outputs[name] ?? '(not set)')}`)
}

function markdown(label: string, text: string, openDetails = 0): void {
  print('', style.dim(`  ${label}:`), '', indent(renderMarkdown(text, { style, openDetails }), '    │ '))
}

/**
 * The tour, one scene a step the action runs, in order: each names its command and plays the step, returning
 * what went other than it should. The intro counts the commands and steps from this list.
 */
interface Scene {
  command: 'run' | 'impact' | 'query' | 'rollout'
  play(): Promise<string[]>
}

/** What each command does, for the intro: the commands the scenes show, in the order they first come. */
const COMMAND_INTRO: Record<Scene['command'], string> = {
  run: '`command: run` starts an agent on a task and waits for its answer',
  impact: '`command: impact` tells a pull request what its change to Kubernetes objects touches across the fleet',
  query: '`command: query` exports a graph query',
  rollout: '`command: rollout` holds a release until its objects run on every edge',
}

let first: ActionRun | undefined
const scenes: Scene[] = [
  {
    command: 'run',
    async play() {
      first = await step(
        '1. command: run — an agent answers a question',
        'The step starts a run of the agent "quick" on the hub, waits until the run settles, and publishes its answer.',
        { label: 'The workflow step', lines: runStep('quick', task) },
        { inputs: { ...hubInputs, agent: 'quick', task } },
      )
      outputs(first, ['run-id', 'phase', 'reused', 'result-file'])
      markdown('Job summary', first.summary)
      print(
        '',
        indent(
          wrap(
            'The idempotency key lets a re-run of this job find this run (the next step). The session (input ' +
              '`session-id`; by default `gha-<repository>-<workflow run id>-<job>`) is the agent’s conversation on the hub: ' +
              'each workflow run and job gets its own, so runs never read each other’s messages.',
            96,
          ).split('\n'),
          '  ',
        ),
      )
      return first.code === 0 ? [] : [`the run exited ${first.code}`]
    },
  },
  {
    command: 'run',
    async play() {
      const again = await step(
        '2. The same job re-run on the same commit — it attaches instead of starting a second run',
        'Re-running a job sends the same idempotency key (made from the repository, commit, workflow, job, agent and task), so the hub hands back the first run instead of starting, and paying for, another.',
        {
          label: 'The same workflow step, in a re-run of the job (same commit, same job)',
          lines: runStep('quick', task),
        },
        { inputs: { ...hubInputs, agent: 'quick', task } },
      )
      outputs(again, ['run-id', 'reused', 'phase'])
      print(
        '',
        `  ${style.good('→')} Same run id, reused=${again.outputs.reused}; the hub holds ${hub.runs().length} run for both jobs.`,
      )
      return again.outputs.reused === 'true' && again.outputs['run-id'] === first?.outputs['run-id']
        ? []
        : ['the re-run did not attach to the first run']
    },
  },
  {
    command: 'run',
    async play() {
      const failed = await step(
        '3. A run that fails — the hub’s reason becomes the step’s error',
        'When the run fails on the hub, the step fails too, with the hub’s message as its error and in the job summary.',
        { label: 'The workflow step', lines: runStep('failing', task) },
        { inputs: { ...hubInputs, agent: 'failing', task }, env: { GITHUB_JOB: 'health' } },
      )
      outputs(failed, ['run-id', 'phase', 'settled', 'result-file'])
      markdown('Job summary', failed.summary)
      return failed.code === 1 ? [] : [`the failing run exited ${failed.code}, expected 1`]
    },
  },
  {
    command: 'impact',
    async play() {
      github.addPullRequest({ ...PULL_REQUEST, files: [{ filename: PULL_REQUEST.changed, status: 'modified' }] })
      const impact = await step(
        `4. command: impact — pull request #${PULL_REQUEST.number} “${PULL_REQUEST.title}”`,
        `The pull request changes one manifest, ${PULL_REQUEST.changed}. The step reads the object it declares (Deployment.apps shop/checkout), asks the fleet graph what it depends on (upstream) and what depends on it (downstream) on every edge, and posts one comment that later pushes update in place.`,
        { label: 'The workflow (.github/workflows/impact.yml)', lines: IMPACT_WORKFLOW },
        {
          inputs: { ...hubInputs, command: 'impact', manifests: 'deploy/**/*.yaml', 'github-token': ACTIONS_TOKEN },
          env: {
            GITHUB_EVENT_NAME: 'pull_request',
            GITHUB_API_URL: github.url,
            GITHUB_WORKSPACE: workspace.dir,
            GITHUB_JOB: 'impact',
          },
          event: PULL_REQUEST.event,
        },
      )
      outputs(impact, ['targets-count', 'upstream-count', 'downstream-count', 'associated-count', 'comment-url'])
      const comments = github.comments(PULL_REQUEST.owner, PULL_REQUEST.repo, PULL_REQUEST.number)
      markdown(
        `The comment it posted on pull request #${PULL_REQUEST.number} (updated in place on the next push; the job summary holds the same report; the first target comes unfolded)`,
        comments[0]?.body ?? '(no comment)',
      )
      return impact.code === 0 && comments.length === 1
        ? []
        : [`impact exited ${impact.code} with ${comments.length} comments`]
    },
  },
  {
    command: 'query',
    async play() {
      const query = await step(
        '5. command: query — every Deployment.apps on every edge',
        'The step follows every page of a graph query and streams the objects to a JSON file (an artifact to upload, say); the job summary lists the first 20.',
        { label: 'The workflow step', lines: queryStep(QUERY) },
        {
          inputs: { ...hubInputs, command: 'query', query: QUERY },
          env: { GITHUB_JOB: 'inventory' },
        },
      )
      outputs(query, ['count', 'result-file'])
      markdown('Job summary', query.summary)
      return query.code === 0 && Number(query.outputs.count) > 0
        ? []
        : [`query exited ${query.code} with count ${query.outputs.count}`]
    },
  },
  {
    command: 'rollout',
    async play() {
      const rolledOut = await step(
        `6. command: rollout — is ${FRONTEND} running on every edge?`,
        'After a deploy, the gate polls the fleet graph until every object of the manifests runs what they set (synced), its controller has seen it, and it is healthy, on every engaged edge.',
        { label: 'The workflow step, after the deploy', lines: rolloutStep({ manifests: FRONTEND }, 600) },
        {
          inputs: { ...hubInputs, command: 'rollout', manifests: FRONTEND, 'timeout-seconds': '600' },
          env: { GITHUB_EVENT_NAME: 'push', GITHUB_WORKSPACE: workspace.dir, GITHUB_JOB: 'gate' },
        },
      )
      outputs(rolledOut, ['rollout-state', 'current-count'])
      markdown('Job summary', rolledOut.summary)
      return rolledOut.code === 0 ? [] : [`the rollout gate on ${FRONTEND} exited ${rolledOut.code}`]
    },
  },
  {
    command: 'rollout',
    async play() {
      const lagging = await step(
        '7. command: rollout — a canary that does not roll out on edge staging',
        'When an edge lags, the step fails and says which edge, which object and why; `lagging` lists them.',
        { label: 'The workflow step', lines: rolloutStep({ targets: CANARY_TARGETS }, 5) },
        {
          inputs: { ...hubInputs, command: 'rollout', targets: CANARY_TARGETS, 'timeout-seconds': '5' },
          env: { GITHUB_EVENT_NAME: 'push', GITHUB_JOB: 'gate' },
        },
      )
      outputs(lagging, ['rollout-state', 'in-progress-count', 'failed-count'])
      markdown('Job summary', lagging.summary)
      return lagging.code === 1 && (lagging.outputs.lagging ?? '').includes('staging')
        ? []
        : ['the canary gate did not name edge staging']
    },
  },
]
const commands = [...new Set(scenes.map((scene) => scene.command))]

print(
  style.heading('hub-action: a guided tour'),
  '',
  wrap(
    'A hub runs AI agents for your Kubernetes fleet and keeps a graph of every object on every edge ' +
      '(an edge is one cluster the hub is connected to, e.g. prod-eu). This action lets a GitHub workflow use it in ' +
      `${numberWord(commands.length)} ways: ${commands.map((command) => COMMAND_INTRO[command]).join('; ')}. ` +
      `Below, the bundled action (dist/index.js) runs ${numberWord(scenes.length)} times as GitHub would run it, ` +
      'against a hub emulator and a GitHub emulator on this machine (127.0.0.1, nothing leaves it). For each step ' +
      "you see its log as GitHub's log viewer shows it, its outputs, and what it wrote to the job summary or the pull request.",
  ),
)

try {
  print(
    '',
    wrap(
      `The hub emulator listens on ${hub.url} with a demo fleet on edges prod-eu, prod-us and staging; the GitHub emulator on ${github.url}.`,
    ),
  )
  for (const scene of scenes) unexpected.push(...(await scene.play()))
} finally {
  for (const run of runs) run.cleanup()
  workspace.cleanup()
  await Promise.all([hub.close(), github.close()])
}

const seconds = (from: number): string => ((performance.now() - from) / 1000).toFixed(1)
print(
  '',
  style.heading('━━ That was the tour'),
  '',
  wrap(
    `${capitalize(numberWord(runs.length))} steps in ${seconds(built)} s (${seconds(started)} s in all, ${rebuilt ? 'the build of dist/ included' : 'no build needed'}). Next: README.md to start on your hub, examples/ for workflows to copy, docs/reference.md for every input and output; ` +
      '`npm test` for the tests; `npm run emulator` for a hub emulator of your own.',
  ),
)
if (unexpected.length > 0) {
  print('', style.error(`The demo did not go as it should: ${unexpected.join('; ')}.`))
  process.exitCode = 1
}

/** A count as a word, as prose writes small numbers. */
function numberWord(count: number): string {
  const words = [
    'no',
    'one',
    'two',
    'three',
    'four',
    'five',
    'six',
    'seven',
    'eight',
    'nine',
    'ten',
    'eleven',
    'twelve',
  ]
  return words[count] ?? String(count)
}

function capitalize(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`
}
