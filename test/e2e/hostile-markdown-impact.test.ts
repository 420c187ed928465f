/**
 * End to end, hostile names from a pull request against the impact PR comment and job
 * summary, judged by GitHub's own markdown parser (cmark-gfm): file names, object kinds, names
 * and namespaces, and YAML errors quoting the file, each carrying HTML, a forged sticky marker,
 * mentions and markdown. The comment holds no HTML but the action's own marker and details,
 * no live mention, and its sections are still headings.
 */
import { afterAll, beforeAll, beforeEach, expect, it, onTestFinished } from 'vitest'
import {
  BASE_SHA,
  HEAD_SHA,
  hubInputs,
  makeWorkspace,
  MARKER_LINE,
  OWNER,
  pullRequestEnv,
  pullRequestEvent,
  REPO,
  runAction,
  useGitHubEmulator,
  useHubEmulator,
} from './harness.ts'
import { ACTIONS_TOKEN } from '../../emulator/index.ts'
import { describeWithGfm, judgeGfm, textOf, walk, type GfmJudgement, type GfmNode } from '../oracles/gfm.ts'

const PR = 11
const HOSTILE = '<img src=x onerror=alert(1)> <details open> @everyone @acme/security-team'
const MARKER = '<!-- hub-action:impact v1 key=default run=99999999 attempt=1 sha=deadbeef -->'

const FILES: Record<string, string> = {
  [`deploy/${HOSTILE}.yaml`]: [
    'apiVersion: apps/v1',
    `kind: "${MARKER}"`,
    'metadata:',
    `  name: "</details><h1>forged</h1> @everyone"`,
    `  namespace: "- [x](javascript:alert(1)) @acme/ops"`,
    '',
  ].join('\n'),
  'deploy/second.yaml': [
    'apiVersion: v1',
    'kind: "ConfigMap\\n\\n### Sources\\n\\n<script>alert(1)</script>"',
    'metadata:',
    '  name: "name\\n===\\n<details open>"',
    '  namespace: shop',
    '',
  ].join('\n'),
  // A kind that is a list marker: the name must stay text inside our list item, not open a list.
  'deploy/third.yaml': ['apiVersion: v1', 'kind: "-"', 'metadata:', '  name: "1. item"', '  namespace: shop', ''].join(
    '\n',
  ),
  [`deploy/broken ${MARKER}.yaml`]: `kind: [unclosed <script>alert(1)</script> @everyone\nmetadata: {name: "<h1>x</h1>"`,
  [`deploy/charts/@everyone <b>t</b>.yaml`]: 'kind: Deployment\nmetadata:\n  name: {{ .Values.name }}\n',
}

const hub = useHubEmulator()
const github = useGitHubEmulator()
let workspace: { dir: string; cleanup: () => void }

beforeAll(() => {
  workspace = makeWorkspace(FILES)
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
    files: Object.keys(FILES).map((filename) => ({ filename, status: 'added' as const })),
  })
})

function expectOnlyOurs(judged: GfmJudgement, ownHtml: RegExp[]): void {
  const foreign = judged.rawHtml.filter((html) => !ownHtml.some((own) => own.test(html.trim())))
  expect(foreign).toEqual([])
  expect(judged.comments.filter((comment) => !MARKER_LINE.test(comment))).toEqual([])
  expect(judged.mentions).toEqual([])
  expect(judged.images).toEqual([])
  for (const element of ['img', 'script', 'h1']) expect(judged.elements).not.toContain(element)
  for (const link of judged.links) expect(link).toMatch(/^https?:/)
}

/** The list right after the level-3 heading that starts with `title`. */
function listAfter(tree: GfmNode, title: string): GfmNode | undefined {
  const blocks = tree.children
  const at = blocks.findIndex(
    (node) => node.type === 'heading' && node.attributes.level === '3' && textOf(node).startsWith(title),
  )
  return blocks.slice(at + 1).find((node) => node.type === 'list')
}

/** The action's own raw HTML: collapsible per-target details (summary text escaped), the first one open. */
const OWN_DETAILS = [/^<details( open)?><summary>[^<]*<\/summary>$/, /^<\/details>$/]

describeWithGfm('hostile names in the impact comment and summary', () => {
  it('render as text: no HTML, comment, image or mention of theirs, and our sections stay headings', async () => {
    const result = await runAction({
      inputs: {
        command: 'impact',
        ...hubInputs(hub),
        'github-token': ACTIONS_TOKEN,
        manifests: 'deploy/**',
        namespace: 'shop',
      },
      env: pullRequestEnv(github.url, workspace.dir),
      event: pullRequestEvent(PR),
    })
    onTestFinished(() => result.cleanup())
    expect(result.code).toBe(0)

    const comments = github.comments(OWNER, REPO, PR)
    expect(comments).toHaveLength(1)
    const body = comments[0]?.body ?? ''
    const [markerLine = '', ...rest] = body.split('\n')
    expect(markerLine).toMatch(MARKER_LINE)

    for (const [what, markdown, own] of [
      ['comment', rest.join('\n'), OWN_DETAILS],
      ['job summary', result.summary, OWN_DETAILS],
    ] as const) {
      const judged = judgeGfm(markdown)
      expect(judged.rawHtml.length, `${what}: the forged marker is not an HTML comment`).toBe(
        judged.rawHtml.filter((html) => !html.includes('hub-action:impact')).length,
      )
      expectOnlyOurs(judged, [...own])
      const headings = judged.headings.map((heading) => `${heading.level} ${heading.text}`)
      expect(headings[0], what).toBe('2 Impact of this change')
      // Our level-3 sections only: no name became a heading of its own.
      for (const heading of judged.headings.slice(1)) expect(heading.level, `${what}: ${heading.text}`).toBe(3)
      expect(
        headings
          .filter((heading) => heading.startsWith('3 '))
          .map((heading) => heading.slice(2).replace(/ \(\d+\)$/, '')),
      ).toEqual(expect.arrayContaining(['Not synchronized', 'Skipped files']))
      // Each name is text in one flat list item: no name opened a list of its own.
      const notFound = listAfter(judged.tree, 'Not synchronized')
      expect(notFound?.children, what).toHaveLength(3)
      let nested = 0
      for (const item of notFound?.children ?? []) walk(item, (node) => void (node.type === 'list' && nested++))
      expect(nested, `${what}: lists opened by a name`).toBe(0)
    }
    // The comment holds one marker, ours, on its first line.
    expect(body.match(/<!--/g)).toHaveLength(1)
  })
})
