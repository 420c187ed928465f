/**
 * End to end, `command: impact` on a pull request: dist/index.js as a child process against the
 * hub emulator (demo fleet) and the GitHub emulator over loopback HTTP. Changed manifests over
 * several pages of PR files (removed ones read at the base commit, templates skipped), one
 * sticky comment kept up to date across runs, comments by others left alone, a read-only
 * token, `comment: off`, and `fail-on-downstream` failing only after publishing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  BASE_SHA,
  expectSecretsNowhere,
  HEAD_SHA,
  hubInputs,
  lines,
  makeWorkspace,
  MARKER_LINE,
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
import {
  ACTIONS_BOT_LOGIN,
  ACTIONS_TOKEN,
  READONLY_TOKEN,
  type PullRequestFileInput,
  type GitHubRecordedRequest,
} from '../../emulator/index.ts'

const PR = 7
const CHECKOUT_EU = '[{kind: Deployment, group: apps, name: checkout, namespace: shop, edge: prod-eu}]'

const MODIFIED = 'deploy/shop/checkout.yaml'
const ADDED = 'deploy/shop/worker.yaml'
const REMOVED = 'deploy/shop/feature-flags.yaml'
const TEMPLATE = 'deploy/charts/shop/templates/deployment.yaml'

const MANIFESTS: Record<string, string> = {
  [MODIFIED]: [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: checkout',
    '  namespace: shop',
    'spec:',
    '  replicas: 3',
    '  template:',
    '    spec:',
    '      containers:',
    '        - name: checkout',
    '          image: registry.acme.test/shop/checkout:2.4.0',
    '---',
    'apiVersion: v1',
    'kind: Service',
    'metadata:',
    '  name: checkout',
    '  namespace: shop',
    'spec:',
    '  selector: {app: checkout}',
    '',
  ].join('\n'),
  // no namespace: the `namespace` input gives it one
  [ADDED]: [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: worker',
    'spec:',
    '  replicas: 1',
    '',
  ].join('\n'),
  [TEMPLATE]: [
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: {{ .Values.name }}',
    '  namespace: shop',
    'spec:',
    '  replicas: {{ .Values.x }}',
    '',
  ].join('\n'),
  // a Kubernetes object outside the `manifests` globs: never a target
  'docs/examples/configmap.yaml': [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: checkout-config',
    '  namespace: shop',
    '',
  ].join('\n'),
}
const REMOVED_TEXT = [
  'apiVersion: v1',
  'kind: ConfigMap',
  'metadata:',
  '  name: feature-flags',
  '  namespace: shop',
  'data:',
  '  flags: "new-checkout=true"',
  '',
].join('\n')

/** 145 changed files (two pages of 100): four match the globs, two of them on the second page. */
function changedFiles(): PullRequestFileInput[] {
  const files: PullRequestFileInput[] = []
  for (let i = 0; files.length < 145; i++) {
    if (files.length === 12) files.push({ filename: MODIFIED, status: 'modified' })
    if (files.length === 60) files.push({ filename: TEMPLATE, status: 'added' })
    if (files.length === 118) files.push({ filename: REMOVED, status: 'removed' })
    if (files.length === 131) files.push({ filename: ADDED, status: 'added' })
    if (files.length === 140) files.push({ filename: 'docs/examples/configmap.yaml', status: 'added' })
    const kind = i % 3
    files.push({
      filename: kind === 0 ? `src/module-${i}.ts` : kind === 1 ? `docs/page-${i}.md` : `deploy/README-${i}.md`,
      status: i % 5 === 0 ? 'added' : 'modified',
    })
  }
  return files.slice(0, 145)
}

const hub = useHubEmulator()
const github = useGitHubEmulator()
let workspace: { dir: string; cleanup: () => void }

beforeAll(() => {
  workspace = makeWorkspace(MANIFESTS)
})
afterAll(() => {
  workspace.cleanup()
})
beforeEach(() => {
  github.addPullRequest({
    owner: OWNER,
    repo: REPO,
    number: PR,
    baseSha: BASE_SHA,
    headSha: HEAD_SHA,
    files: changedFiles(),
  })
  github.setContent(OWNER, REPO, BASE_SHA, REMOVED, REMOVED_TEXT)
})

interface RunOptions {
  inputs: Record<string, string>
  runId?: string
  headSha?: string
}

async function onPullRequest({ inputs, runId = '7001', headSha = HEAD_SHA }: RunOptions): Promise<ActionRun> {
  return runStep({
    inputs: {
      command: 'impact',
      ...hubInputs(hub),
      'github-token': ACTIONS_TOKEN,
      ...inputs,
    },
    env: pullRequestEnv(github.url, workspace.dir, runId),
    event: pullRequestEvent(PR, BASE_SHA, headSha),
  })
}

const manifestInputs = {
  manifests: 'deploy/**/*.yaml\n# charts are rendered elsewhere, but their changes still count\ndeploy/charts/**',
  namespace: 'shop',
}

const requests = (method: string, path: RegExp): GitHubRecordedRequest[] =>
  github.requests.filter((r) => r.method === method && path.test(r.path))
const commentWrites = (): GitHubRecordedRequest[] =>
  github.requests.filter((r) => (r.method === 'POST' || r.method === 'PATCH') && r.path.includes('/comments'))
const prComments = () => github.comments(OWNER, REPO, PR)

describe('a pull request with changed manifests', () => {
  it('reads targets from added, modified and removed files over every page of changed files, skips the template, and writes one comment', async () => {
    const result = await onPullRequest({ inputs: manifestInputs })
    expect(result.code).toBe(0)
    expect(lines(result.stdout, '::error::')).toEqual([])

    // every page of the PR's files was read
    const fileListings = requests('GET', new RegExp(`^/repos/${OWNER}/${REPO}/pulls/${PR}/files$`))
    expect(fileListings.map((r) => r.query.page ?? '1')).toEqual(['1', '2'])
    // only the removed file is read through the API, at the base commit; the others come from the checkout
    const contents = requests('GET', /\/contents\//)
    expect(contents.map((r) => `${r.path}?ref=${r.query.ref}`)).toEqual([
      `/repos/${OWNER}/${REPO}/contents/${REMOVED}?ref=${BASE_SHA}`,
    ])

    const file = readResultFile<ImpactReportFile>(result)
    expect(file.schema).toBe('hub-action/impact-report')
    expect(file.commit).toBe(HEAD_SHA)
    expect(
      file.targets.map((t) => `${t.kind} ${t.namespace}/${t.name} ← ${t.origin.path} (${t.origin.change})`).sort(),
    ).toEqual([
      `ConfigMap shop/feature-flags ← ${REMOVED} (removed)`,
      `Deployment shop/checkout ← ${MODIFIED} (modified)`,
      `Deployment shop/worker ← ${ADDED} (added)`,
      `Service shop/checkout ← ${MODIFIED} (modified)`,
    ])
    expect(file.skippedFiles).toEqual([
      {
        path: TEMPLATE,
        reason:
          'a template (contains {{ }}): render it (`helm template`, `kustomize build`) in an earlier step and pass the output as `rendered-head` (examples/helm-impact.yml), or name its objects in `targets`',
      },
    ])
    expect(file.notFound.map((t) => `${t.kind} ${t.namespace}/${t.name}`)).toEqual(['Deployment shop/worker'])
    expect(file.impacts.map((i) => `${i.target.kind} ${i.target.name} on ${i.edge}`)).toEqual([
      'Deployment checkout on prod-eu',
      'Deployment checkout on prod-us',
      'Service checkout on prod-eu',
      'Service checkout on prod-us',
      'ConfigMap feature-flags on prod-eu',
    ])
    // the removed ConfigMap is used (optionally) by the checkout pods on prod-eu
    const flags = file.impacts.find((i) => i.target.name === 'feature-flags')
    expect(flags?.downstream.filter((o) => o.kind === 'Pod').map((o) => o.relations)).toEqual([
      ['referenced-by'],
      ['referenced-by'],
      ['referenced-by'],
    ])
    expect(result.outputs['targets-count']).toBe('4')

    // the report: removed objects flagged, the template listed as skipped, the new object as not synchronized
    const report = result.outputs.report ?? ''
    expect(verdictLines(report)).toContain(
      '- **ConfigMap shop/feature-flags** on prod-eu — 1 upstream, 5 downstream, 0 associated · ⚠️ **removed in this PR** — deleting it affects every downstream object',
    )
    expect(verdictLines(report)).toHaveLength(5)
    // markdown-escaped, so the braces and backticks render as text
    expect(report).toContain(
      `### Skipped files (1)\n\n- ${TEMPLATE} — a template \\(contains \\{\\{ \\}\\}\\): render it \\(\\\`helm template\\\``,
    )
    expect(report).toContain('as \\`rendered-head\\`')
    expect(report).toContain(`- Deployment.apps shop/worker — from ${ADDED} (added)`)
    expect(report).not.toContain('docs/examples')
    expect(result.summary).toContain('### Skipped files (1)')
    expect(result.summary).toContain(`for commit ${HEAD_SHA}`)

    // exactly one comment, by the Actions bot, marker first, then the report
    const comments = prComments()
    expect(comments).toHaveLength(1)
    const comment = comments[0]!
    expect(comment.user.login).toBe(ACTIONS_BOT_LOGIN)
    const [first, ...rest] = comment.body.split('\n')
    expect(first).toBe(`<!-- hub-action:impact v1 key=default run=7001 attempt=1 sha=${HEAD_SHA} -->`)
    expect(rest.join('\n')).toBe(report)
    expect(result.outputs['comment-url']).toBe(comment.html_url)
    expect(requests('POST', /\/comments$/)).toHaveLength(1)
    expect(requests('PATCH', /.*/)).toHaveLength(0)

    expectSecretsNowhere(result, [hub.token, ACTIONS_TOKEN], { 'comment body': comment.body })
  })

  it('keeps one comment across later runs: unchanged when the report is the same, edited in place when it changes, never a second POST', async () => {
    const first = await onPullRequest({ inputs: manifestInputs, runId: '7001' })
    expect(first.code).toBe(0)
    const [original] = prComments()
    expect(original).toBeDefined()
    const postsAfterFirst = requests('POST', /\/comments$/).length
    expect(postsAfterFirst).toBe(1)

    // a re-run of the same head: same report, nothing written
    const second = await onPullRequest({ inputs: manifestInputs, runId: '7002' })
    expect(second.code).toBe(0)
    expect(second.stdout).toContain(`Comment on #${PR} unchanged: ${original!.html_url}`)
    expect(second.outputs['comment-url']).toBe(original!.html_url)
    expect(prComments()).toEqual([original])
    expect(commentWrites()).toHaveLength(1)

    // a new push: the report names the new head commit, so the same comment is edited
    const newHead = '3333333333333333333333333333333333333333'
    const third = await onPullRequest({ inputs: manifestInputs, runId: '7003', headSha: newHead })
    expect(third.code).toBe(0)
    const comments = prComments()
    expect(comments).toHaveLength(1)
    expect(comments[0]!.id).toBe(original!.id)
    expect(comments[0]!.body).not.toBe(original!.body)
    expect(comments[0]!.body.split('\n')[0]).toBe(
      `<!-- hub-action:impact v1 key=default run=7003 attempt=1 sha=${newHead} -->`,
    )
    expect(comments[0]!.body).toContain(`for commit ${newHead}`)
    expect(third.outputs['comment-url']).toBe(original!.html_url)
    expect(requests('POST', /\/comments$/)).toHaveLength(postsAfterFirst)
    expect(requests('PATCH', /\/issues\/comments\/\d+$/).map((r) => r.path)).toEqual([
      `/repos/${OWNER}/${REPO}/issues/comments/${original!.id}`,
    ])

    // a slower, older run finishing last does not overwrite the newer report
    const stale = await onPullRequest({
      inputs: manifestInputs,
      runId: '6990',
      headSha: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    })
    expect(stale.code).toBe(0)
    expect(lines(stale.stdout, '::notice::')).toContain(
      `::notice::Left the comment on #${PR} alone: it holds the report of a newer run.`,
    )
    expect(prComments()).toEqual(comments)
    expect(commentWrites()).toHaveLength(2)
  })

  it('finds its comment beyond the first page of comments and edits it', async () => {
    for (let i = 0; i < 130; i++)
      github.addComment(OWNER, REPO, PR, { login: i % 2 ? 'octocat' : 'hubot', body: `review note ${i}` })
    const first = await onPullRequest({ inputs: { targets: CHECKOUT_EU }, runId: '7001' })
    expect(first.code).toBe(0)
    const ours = prComments().filter((c) => c.user.login === ACTIONS_BOT_LOGIN)
    expect(ours).toHaveLength(1)

    const second = await onPullRequest({
      inputs: { targets: CHECKOUT_EU },
      runId: '7002',
      headSha: '4444444444444444444444444444444444444444',
    })
    expect(second.code).toBe(0)
    const listings = requests('GET', new RegExp(`^/repos/${OWNER}/${REPO}/issues/${PR}/comments$`))
    expect(listings.filter((r) => r.query.page === '2').length).toBe(2)
    const after = prComments()
    expect(after).toHaveLength(131)
    expect(after.filter((c) => c.user.login === ACTIONS_BOT_LOGIN).map((c) => c.id)).toEqual([ours[0]!.id])
    expect(requests('POST', /\/comments$/)).toHaveLength(1)
    expect(requests('PATCH', /\/issues\/comments\/\d+$/)).toHaveLength(1)
    expect(second.outputs['comment-url']).toBe(ours[0]!.html_url)
  })

  it('leaves a human comment that quotes the marker untouched and writes its own', async () => {
    const quoted = `<!-- hub-action:impact v1 key=default run=9999 attempt=1 sha=${HEAD_SHA} -->\n> Impact of this change\n\nWhy does checkout show up here?`
    const human = github.addComment(OWNER, REPO, PR, { login: 'octocat', body: quoted })

    const result = await onPullRequest({ inputs: { targets: CHECKOUT_EU } })
    expect(result.code).toBe(0)
    const comments = prComments()
    expect(comments).toHaveLength(2)
    expect(comments[0]).toEqual(human)
    expect(comments[1]!.user.login).toBe(ACTIONS_BOT_LOGIN)
    expect(comments[1]!.body.split('\n')[0]).toMatch(MARKER_LINE)
    expect(result.outputs['comment-url']).toBe(comments[1]!.html_url)
    expect(requests('PATCH', /.*/)).toEqual([])
    expect(requests('DELETE', /.*/)).toEqual([])
    expect(requests('POST', /\/comments$/)).toHaveLength(1)
  })

  it('with a read-only token: warns about the 403, keeps the verdict and still writes the summary', async () => {
    const result = await onPullRequest({ inputs: { ...manifestInputs, 'github-token': READONLY_TOKEN } })
    expect(result.code).toBe(0)
    const warnings = lines(result.stdout, '::warning::')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`Could not comment on pull request #${PR} (403)`)
    expect(warnings[0]).toContain('The report is in the job summary.')
    expect(lines(result.stdout, '::error::')).toEqual([])
    expect(lines(result.stdout, '::notice::')).toEqual([
      expect.stringMatching(
        /^::notice::Impact: \d+ upstream, \d+ downstream, \d+ associated across 5 target-edge pairs\.$/,
      ),
    ])
    // the manifests were still read with it
    expect(result.outputs['targets-count']).toBe('4')
    expect(result.summary).toContain('## Impact of this change')
    expect(verdictLines(result.summary)).toHaveLength(5)
    expect(result.outputs['comment-url']).toBe('')
    expect(prComments()).toEqual([])
    expect(requests('POST', /\/comments$/)).toHaveLength(1)
    expectSecretsNowhere(result, [hub.token, READONLY_TOKEN])
  })

  it('with `comment: off`: reads the changed files but sends no comment request at all', async () => {
    const result = await onPullRequest({ inputs: { ...manifestInputs, comment: 'off' } })
    expect(result.code).toBe(0)
    expect(result.outputs['targets-count']).toBe('4')
    expect(result.outputs['comment-url']).toBe('')
    expect(github.requests.length).toBeGreaterThan(0)
    expect(github.requests.filter((r) => r.path.includes('/issues') || r.path === '/user')).toEqual([])
    expect(prComments()).toEqual([])
  })

  it('with `comment: off` and named targets: no request to GitHub at all', async () => {
    const result = await onPullRequest({ inputs: { targets: CHECKOUT_EU, comment: 'off' } })
    expect(result.code).toBe(0)
    expect(result.outputs['downstream-count']).toBe('8')
    expect(github.requests).toEqual([])
  })
})

describe('fail-on-downstream', () => {
  it('passes when the downstream count is not above it', async () => {
    const result = await onPullRequest({ inputs: { targets: CHECKOUT_EU, 'fail-on-downstream': '8' } })
    expect(result.code).toBe(0)
    expect(result.outputs['downstream-count']).toBe('8')
    expect(lines(result.stdout, '::error::')).toEqual([])
    expect(lines(result.stdout, '::notice::')).toEqual([
      '::notice::Impact: 7 upstream, 8 downstream, 1 associated across 1 target-edge pair.',
    ])
    expect(prComments()).toHaveLength(1)
  })

  it('fails above it, after the summary and the comment were published', async () => {
    const result = await onPullRequest({ inputs: { targets: CHECKOUT_EU, 'fail-on-downstream': '3' } })
    expect(result.code).toBe(1)
    expect(lines(result.stdout, '::error::')).toEqual([
      '::error::Impact: 8 distinct objects downstream, more than fail-on-downstream (3). 7 upstream, 8 downstream, 1 associated across 1 target-edge pair.',
    ])
    // published before failing
    expect(result.summary).toContain('## Impact of this change')
    expect(verdictLines(result.summary)).toEqual([
      '- **Deployment.apps shop/checkout** on prod-eu — 7 upstream, 8 downstream, 1 associated',
    ])
    const comments = prComments()
    expect(comments).toHaveLength(1)
    expect(comments[0]!.body).toContain(
      '- **Deployment.apps shop/checkout** on prod-eu — 7 upstream, 8 downstream, 1 associated',
    )
    expect(result.outputs['comment-url']).toBe(comments[0]!.html_url)
    expect(result.outputs['downstream-count']).toBe('8')
    expect(readResultFile<ImpactReportFile>(result).totals).toEqual({ upstream: 7, downstream: 8, associated: 1 })
    expect(result.stdout.indexOf(`Comment on #${PR} created`)).toBeLessThan(result.stdout.indexOf('::error::'))
  })
})
