/**
 * The trust rules every workflow the project ships or shows must keep (.github/workflows,
 * examples/, and the workflows and step lists of the README and docs/): third-party actions pinned by commit with the version beside
 * it, write permissions granted per job, no persisted git credentials next to pull-request content,
 * and pull-request charts and overlays rendered in a job that holds no hub secret.
 */
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { RUNS } from '../../src/commands/runs/index.ts'
import { inputDefaults } from '../../src/settings/defaults.ts'
import { COMMANDS } from '../../src/commands/index.ts'
import {
  exampleWorkflows,
  repositoryWorkflows,
  shownWorkflows,
  workflowText,
  type Job,
  type Workflow,
  type WorkflowSource,
} from './fixtures/workflows.js'

/** This action: pinned by commit like every other (the README's Versioning says which placeholder, before v1.0.0). */
const THIS_ACTION = 'acme/hub-action@'
/** Commands of this action that start, follow or decide an agent's run: the runs family's. */
const AGENT_COMMANDS: readonly string[] = Object.keys(RUNS)
/** What a step without `command:` does. */
const DEFAULT_COMMAND = inputDefaults(COMMANDS).command
/** The one write an agent's job may hold: the OIDC token request, which writes nothing. */
const AGENT_JOB_WRITES = ['id-token: write']
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target', 'workflow_run']
const RENDERER = /\bhelm\s+template\b|\bkustomize\s+build\b|\bkubectl\s+kustomize\b/

const sources = [...repositoryWorkflows, ...shownWorkflows]
const names = sources.map((source) => source.name)

function parsed(source: WorkflowSource): Workflow {
  return parse(workflowText(source)) as Workflow
}

function jobsOf(source: WorkflowSource): Array<[string, Job]> {
  return Object.entries(parsed(source).jobs ?? {})
}

function bySource(name: string): WorkflowSource {
  const found = sources.find((source) => source.name === name)
  if (!found) throw new Error(`no workflow ${name}`)
  return found
}

function events(source: WorkflowSource): string[] {
  const on = parsed(source).on
  if (typeof on === 'string') return [on]
  if (Array.isArray(on)) return on.map(String)
  return Object.keys(on ?? {})
}

/** A step list from the docs can be pasted into any workflow: it is held to the pull-request rules. */
function handlesPullRequests(source: WorkflowSource): boolean {
  return source.steps || events(source).some((event) => PULL_REQUEST_EVENTS.includes(event))
}

function writes(permissions: Job['permissions']): string[] {
  if (permissions === undefined) return []
  if (typeof permissions === 'string') return permissions === 'read-all' ? [] : [permissions]
  return Object.entries(permissions)
    .filter(([, level]) => level !== 'read' && level !== 'none')
    .map(([scope, level]) => `${scope}: ${level}`)
}

/** Every `uses:` line as written, with what follows the value (the version comment). */
function usesLines(text: string): Array<{ uses: string; rest: string }> {
  return [...text.matchAll(/^[ \t]*(?:-[ \t]+)?uses:[ \t]*(['"]?)([^\s'"#]+)\1(.*)$/gm)].map((match) => ({
    uses: match[2] ?? '',
    rest: match[3] ?? '',
  }))
}

function thirdParty(uses: string): boolean {
  return !uses.startsWith('./') && !uses.startsWith(THIS_ACTION)
}

/**
 * This action's outputs that carry text the hub or an agent wrote, raw (redacted only). Not
 * `output-markdown` (the answer as the summary shows it) nor `report` (impact's own markdown, the
 * comment's body).
 */
const RAW_OUTPUTS = /\boutputs\.(output|approval-args|approval-tool)(?![\w-])/

/** A step that publishes what it is given: the job summary, a release, a comment. */
const PUBLISHES = /GITHUB_STEP_SUMMARY|\bgh\s+release\s+(?:create|edit)\b|\bgh\s+(?:pr|issue)\s+comment\b/

/**
 * Steps that publish one of RAW_OUTPUTS (directly, or through a job output that carries one) into
 * the job summary, a release or a comment, as `job: a step`.
 */
function rawIntoSummary(workflow: Workflow): string[] {
  const jobs = Object.entries(workflow.jobs ?? {})
  // job outputs that carry a raw output: `needs.<job>.outputs.<name>`
  const carried = jobs.flatMap(([jobName, job]) =>
    Object.entries(job.outputs ?? {})
      .filter(([, value]) => RAW_OUTPUTS.test(value))
      .map(([output]) => `needs.${jobName}.outputs.${output}`),
  )
  const raw = (text: string) => RAW_OUTPUTS.test(text) || carried.some((expression) => text.includes(expression))
  return jobs.flatMap(([jobName, job]) =>
    (job.steps ?? [])
      .filter((step) => PUBLISHES.test(step.run ?? ''))
      .filter((step) => raw(step.run ?? '') || Object.values(step.env ?? {}).some((value) => raw(String(value))))
      .map(() => `${jobName}: a step`),
  )
}

describe('workflow trust rules', () => {
  it('find the workflows of .github, examples/ and the docs, the Helm and Kustomize recipes among them', () => {
    expect(repositoryWorkflows.map((source) => source.name)).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/check-dist.yml',
        '.github/workflows/release.yml',
      ]),
    )
    expect(exampleWorkflows.map((source) => source.name)).toEqual(
      expect.arrayContaining(['examples/helm-impact.yml', 'examples/kustomize-impact.yml']),
    )
    const rendering = exampleWorkflows.filter((source) => RENDERER.test(source.text)).map((source) => source.name)
    expect(rendering.length, 'examples/ has a Helm and a Kustomize recipe').toBeGreaterThanOrEqual(2)
  })

  it.each(names)('%s: every `uses:` line is a step of the parsed workflow (no pin escapes the line check)', (name) => {
    const source = bySource(name)
    const fromLines = usesLines(source.text).map((line) => line.uses)
    const fromYaml = jobsOf(source).flatMap(([, job]) =>
      (job.steps ?? []).flatMap((step) => (step.uses ? [step.uses] : [])),
    )
    expect(fromLines).toEqual(fromYaml)
  })

  it.each(names)('%s: third-party actions are pinned to a full commit SHA with `# vX.Y.Z` beside it', (name) => {
    const unpinned = usesLines(bySource(name).text)
      .filter(({ uses }) => thirdParty(uses))
      .filter(
        ({ uses, rest }) => !/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(uses) || !/^\s+#\s*v\d+\.\d+\.\d+\b/.test(rest),
      )
      .map(({ uses, rest }) => `${uses}${rest}`)
    expect(unpinned, 'pin as `owner/repo@<40-hex commit> # vX.Y.Z` (Dependabot keeps such pins current)').toEqual([])
  })

  it.each(names)(
    '%s: this action is pinned to a full commit SHA with `# vX.Y.Z` beside it, never a movable tag',
    (name) => {
      const movable = usesLines(bySource(name).text)
        .filter(({ uses }) => uses.startsWith(THIS_ACTION))
        .filter(({ uses, rest }) => !/@[0-9a-f]{40}$/.test(uses) || !/^\s+#\s*v\d+\.\d+\.\d+\b/.test(rest))
        .map(({ uses, rest }) => `${uses}${rest}`)
      expect(movable, 'a job holding a hub token must not follow a tag or branch someone can move').toEqual([])
    },
  )

  it.each(names)('%s: an agent step runs in a job that can write nothing, and is handed no GitHub token', (name) => {
    const source = bySource(name)
    const agentSteps = (steps: Job['steps']) =>
      (steps ?? []).filter(
        (step) =>
          step.uses?.startsWith(THIS_ACTION) &&
          AGENT_COMMANDS.includes((step.with?.command as string | undefined) ?? DEFAULT_COMMAND ?? ''),
      )
    const jobs: Array<[string, Job]> = source.steps
      ? [['(steps)', { steps: parse(source.text) as NonNullable<Job['steps']> }]]
      : jobsOf(source)
    for (const [jobName, job] of jobs) {
      const steps = agentSteps(job.steps)
      if (steps.length === 0) continue
      if (!source.steps) {
        // A job without permissions of its own gets the workflow's (the rule above keeps those write-free).
        const granted = job.permissions ?? parsed(source).permissions
        const extra = writes(granted).filter((write) => !AGENT_JOB_WRITES.includes(write))
        expect(extra, `job ${jobName} runs an agent: move what needs ${extra.join(', ')} to a job of its own`).toEqual(
          [],
        )
        expect(
          granted,
          `job ${jobName} runs an agent: set permissions ({} if it needs none), or it gets the repository's default token`,
        ).toBeDefined()
      }
      for (const step of steps)
        expect(step.with ?? {}, `job ${jobName}: an agent step reads no github-token`).not.toHaveProperty(
          'github-token',
        )
    }
  })

  it.each(names)(
    '%s: the agent text this action outputs raw (`output`, `approval-args`, `approval-tool`) is never published (job summary, release, comment): the action writes its own summary, and `output-markdown` is the answer cleaned (issue 34 item 9)',
    (name) => {
      const source = bySource(name)
      if (source.steps) return
      expect(rawIntoSummary(parsed(source))).toEqual([])
    },
  )

  it('the summary rule fails for the old start-then-wait recipe, which printed the raw answer into the summary', () => {
    const old: Workflow = parse(`
jobs:
  review:
    outputs:
      answer: \${{ steps.review.outputs.output }}
    steps:
      - uses: acme/hub-action@${'0'.repeat(40)}
        id: review
        with: { command: wait }
      - run: printf '%s\\n' "$ANSWER" >> "$GITHUB_STEP_SUMMARY"
        env:
          ANSWER: \${{ steps.review.outputs.output }}
  later:
    needs: review
    steps:
      - run: echo "\${{ needs.review.outputs.answer }}" >> $GITHUB_STEP_SUMMARY
`) as Workflow
    expect(rawIntoSummary(old)).toEqual(['review: a step', 'later: a step'])
    // and the release-notes recipe as it was, which published the raw answer as the release's notes
    const release: Workflow = parse(`
jobs:
  notes:
    outputs:
      notes: \${{ steps.notes.outputs.output }}
  release:
    steps:
      - env:
          NOTES: \${{ needs.notes.outputs.notes }}
        run: gh release create "$TAG" --notes "$NOTES"
`) as Workflow
    expect(rawIntoSummary(release)).toEqual(['release: a step'])
  })

  it('the agent-step rule fails for an agent beside contents: write, and a tag pin fails the pin rule', () => {
    const job: Job = {
      permissions: { contents: 'write' },
      steps: [{ uses: `${THIS_ACTION}v1`, with: { agent: 'notes', task: 'x' } }],
    }
    expect(writes(job.permissions).filter((write) => !AGENT_JOB_WRITES.includes(write))).toEqual(['contents: write'])
    expect(
      usesLines('      - uses: acme/hub-action@v1\n').filter(({ uses }) => !/@[0-9a-f]{40}$/.test(uses)),
    ).toHaveLength(1)
  })

  it('one version is one commit everywhere, and one commit one version', () => {
    const pins = sources.flatMap((source) =>
      usesLines(source.text).filter(({ uses }) => thirdParty(uses) && /@[0-9a-f]{40}$/.test(uses)),
    )
    const versionOf = new Map<string, Set<string>>()
    const commitOf = new Map<string, Set<string>>()
    for (const { uses, rest } of pins) {
      const [action = '', commit = ''] = uses.split('@')
      const version = /#\s*(v[\d.]+)/.exec(rest)?.[1] ?? ''
      versionOf.set(uses, (versionOf.get(uses) ?? new Set()).add(version))
      commitOf.set(`${action}@${version}`, (commitOf.get(`${action}@${version}`) ?? new Set()).add(commit))
    }
    expect(pins.length).toBeGreaterThan(0)
    for (const [uses, versions] of versionOf)
      expect([...versions], `${uses} is labelled with several versions`).toHaveLength(1)
    for (const [version, commits] of commitOf)
      expect([...commits], `${version} is pinned to several commits`).toHaveLength(1)
  })

  it.each(names.filter((name) => !bySource(name).steps))(
    '%s: no write permission at workflow level; jobs ask for what they need',
    (name) => {
      const workflow = parsed(bySource(name))
      expect(workflow.permissions, 'set `permissions: {}` (or read-only) at the top').toBeDefined()
      expect(writes(workflow.permissions), 'move write permissions to the jobs that need them').toEqual([])
      for (const [jobName, job] of jobsOf(bySource(name))) {
        expect(job.permissions === 'write-all', `job ${jobName}: name each permission instead of write-all`).toBe(false)
      }
    },
  )

  it.each(names.filter((name) => handlesPullRequests(bySource(name))))(
    '%s: every actions/checkout has `persist-credentials: false`',
    (name) => {
      const persisting = jobsOf(bySource(name)).flatMap(([jobName, job]) =>
        (job.steps ?? [])
          .filter(
            (step) =>
              step.uses?.startsWith('actions/checkout@') && String(step.with?.['persist-credentials']) !== 'false',
          )
          .map((step) => `${jobName}: ${step.uses ?? ''}`),
      )
      expect(persisting, 'pull-request content must not sit next to a git credential').toEqual([])
    },
  )

  it.each(names.filter((name) => handlesPullRequests(bySource(name)) && RENDERER.test(bySource(name).text)))(
    '%s: the job that renders pull-request content holds no secret and no write permission',
    (name) => {
      const renderers = jobsOf(bySource(name)).filter(([, job]) =>
        (job.steps ?? []).some((step) => RENDERER.test(step.run ?? '')),
      )
      expect(renderers.length).toBeGreaterThan(0)
      for (const [jobName, job] of renderers) {
        expect(JSON.stringify(job), `job ${jobName} renders pull-request content: give it no secret`).not.toMatch(
          /\bsecrets\./,
        )
        if (!bySource(name).steps) {
          expect(job.permissions, `job ${jobName}: set its permissions (contents: read)`).toBeDefined()
          expect(writes(job.permissions), `job ${jobName}`).toEqual([])
        }
      }
    },
  )

  it.each(shownWorkflows.filter((source) => !source.steps && RENDERER.test(source.text)).map((source) => source.name))(
    '%s: `impact` needs the render job, downloads its artifact and runs only the action',
    (name) => {
      const jobs = jobsOf(bySource(name))
      const [renderName, render] = jobs.find(([, job]) =>
        (job.steps ?? []).some((step) => RENDERER.test(step.run ?? '')),
      ) ?? ['', {}]
      const upload = (render.steps ?? []).find((step) => step.uses?.startsWith('actions/upload-artifact@'))
      expect(upload, `${renderName} uploads the rendered sets`).toBeDefined()
      const [impactName, impact] = jobs.find(([, job]) =>
        (job.steps ?? []).some((step) => step.uses?.startsWith(THIS_ACTION)),
      ) ?? ['', {}]
      expect([impact.needs].flat(), `${impactName} needs ${renderName}`).toContain(renderName)
      const steps = impact.steps ?? []
      const download = steps.find((step) => step.uses?.startsWith('actions/download-artifact@'))
      expect(download?.with?.name, 'the artifact the render job uploaded').toBe(upload?.with?.name)
      expect(
        steps.filter((step) => step.run !== undefined),
        `${impactName} holds the hub secret: it runs no script`,
      ).toEqual([])
      const action = steps.find((step) => step.uses?.startsWith(THIS_ACTION))
      expect(String(action?.with?.token)).toMatch(/secrets\./)
      expect(String(action?.with?.['rendered-head'])).toMatch(new RegExp(`^${String(download?.with?.path)}/`))
    },
  )
})
