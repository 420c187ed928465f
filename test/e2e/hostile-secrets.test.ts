/**
 * End to end, secrets the hub or an agent echoes back: the hub token and the GitHub token, in
 * three shapes (a JWT with `_` and `-`, standard base64 with `+`, `/` and `=`, one with `"` and
 * `\`), planted in the agent's answer, the hub's failure message, step arguments, results and
 * errors (cut at the summary's clip), approval arguments, and an error body cut at the 500
 * characters the action quotes. dist/index.js runs as a process against the hub emulator. Each
 * place is judged as a reader gets it: the log as the runner shows it (its masks applied, by the
 * parser port), the job summary raw and as cmark-gfm renders it, the outputs and the result
 * file; each decoded (test/oracles/secret-traces.ts) and searched for the secret's first 8
 * characters and any 10 of them. Also: agent text cannot fake the log viewer's formatting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  BASE_SHA,
  HEAD_SHA,
  makeWorkspace,
  OWNER,
  pullRequestEnv,
  pullRequestEvent,
  REPO,
  runStep,
  type ActionRun,
} from './harness.ts'
import {
  DEFAULT_TOKENS,
  startGitHubEmulator,
  type GitHubEmulator,
  createDemoFleet,
  startHubEmulator,
  type HubEmulator,
} from '../../emulator/index.ts'
import { CMARK_GFM, renderGfm } from '../oracles/gfm.ts'
import { secretTraces } from '../oracles/secret-traces.ts'
import { fakedFormatting, readWorkflowCommands, shownLog } from '../oracles/workflow-commands.ts'
import { spellings } from '../fixtures/spelled-secrets.ts'

const SHAPES = {
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJlMmUifQ.q_Zx-9Lm_Tn-Ab4_Cd-Ef0Gh',
  base64: 'c2VjcmV0K3Rva2Vu/Zm9v+YmFy=Ym/F6+cXV4==',
  quoted: 'hub"tok\\en"9f3a\\8b2c_d4e5Xy',
} as const
type Shape = keyof typeof SHAPES
/** The GitHub token of each case: another shape, so both kinds of secret are echoed at once. */
const GITHUB_TOKEN_OF: Record<Shape, Shape> = { jwt: 'base64', base64: 'quoted', quoted: 'jwt' }

const FAKED_LINES = [
  '##[error]the build is broken',
  '##[group]folded',
  '##[endgroup]',
  '##[section]Fake section',
  '##[command]rm -rf /',
  '##[warning]w',
]

/** Where each place a reader sees shows a trace of the secret. */
function leaks(result: ActionRun, secret: string): string[] {
  const places: Record<string, string> = {
    log: shownLog(readWorkflowCommands(result.stdout)),
    stderr: result.stderr,
    'job summary': result.summary,
    ...(CMARK_GFM ? { 'job summary rendered': renderGfm(result.summary) } : {}),
    ...Object.fromEntries(Object.entries(result.outputs).map(([name, value]) => [`output ${name}`, value])),
    ...Object.fromEntries(
      Object.entries(result.files).map(([path, text]) => [`file ${path.slice(result.dir.length + 1)}`, text]),
    ),
  }
  return Object.entries(places).flatMap(([place, text]) =>
    secretTraces(text, secret).map((piece) => `${place}: ${piece}`),
  )
}

describe.each(Object.keys(SHAPES) as Shape[])('a %s-shaped hub token, echoed', (shape) => {
  const token = SHAPES[shape]
  const githubToken = SHAPES[GITHUB_TOKEN_OF[shape]]
  const echo = `hub ${token} gh ${githubToken}`
  let hub: HubEmulator

  beforeAll(async () => {
    hub = await startHubEmulator({ token, maxHoldMs: 300 })
  })
  afterAll(async () => {
    await hub.close()
  })

  const act = (inputs: Record<string, string>) =>
    runStep({
      inputs: {
        'hub-url': hub.url,
        token,
        'github-token': githubToken,
        org: hub.org,
        workspace: hub.workspace,
        task: 'check',
        ...inputs,
      },
    })

  /** A step that failed before the run started writes no result file: then `files` is 2. */
  function expectNowhere(result: ActionRun, files = 3): void {
    expect(Object.keys(result.files).length, 'output, summary and result files were read').toBeGreaterThanOrEqual(files)
    expect(leaks(result, token)).toEqual([])
    expect(leaks(result, githubToken)).toEqual([])
  }

  it('in the answer, step arguments, results and errors: nowhere, and no faked log formatting', async () => {
    hub.setAgent('echo', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 20 },
      ],
      output: `Use \`${token}\` as ${token}.\n\n${FAKED_LINES.join('\n')}\n\n| t | g |\n| - | - |\n| ${token} | ${githubToken} |\n\n[link](https://example.com/${token})`,
      sources: [`https://example.com/?t=${encodeURIComponent(token)}`],
      toolSteps: [
        {
          tool: `call_${token}`,
          outcome: 'ok',
          args: { authorization: `Bearer ${token}`, github: githubToken },
          result: JSON.stringify({ echo }),
        },
        { tool: 'fetch', outcome: 'error', error: `${'e'.repeat(180)}${token} and ${githubToken}` },
      ],
    })
    const result = await act({ agent: 'echo' })
    expect(result.code).toBe(0)
    expect(result.summary).toContain('### Output')
    expectNowhere(result)
    for (const collation of ['ordinal', 'icu'] as const) {
      const view = readWorkflowCommands(result.stdout, { collation })
      expect(fakedFormatting(view).map((line) => line.text)).toEqual([])
    }
  })

  it('spelled with character references or invisible characters inside, in the answer (`output`), steps, message and approval: nowhere', async () => {
    // Rendered as markdown (a release body made of `output`) each spelling becomes the token in clear.
    const spelled = (secret: string) => Object.entries(spellings(secret)).map(([how, text]) => `${how}: ${text}`)
    const both = [...spelled(token), ...spelled(githubToken)]
    expect(both.every((line) => secretTraces(line, token).length + secretTraces(line, githubToken).length > 0)).toBe(
      true,
    )
    hub.setAgent('spelled', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 20 },
      ],
      output: both.join('\n\n'),
      toolSteps: [
        {
          tool: 'echo',
          outcome: 'ok',
          args: { spelled: both.slice(0, 6) },
          result: JSON.stringify({ spelled: both.slice(6) }),
        },
      ],
    })
    const answer = await act({ agent: 'spelled' })
    expect(answer.code).toBe(0)
    expect(answer.outputs.output).toContain('decimal references: ***')
    expectNowhere(answer)
    hub.setAgent('spelled-failing', { steps: [{ phase: 'Failed', afterMs: 0 }], message: both.slice(0, 4).join(' ') })
    expectNowhere(await act({ agent: 'spelled-failing' }))
    hub.setAgent('spelled-gated', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
      ],
      approval: { tool: 'apply', args: { spelled: both } },
    })
    const gate = await act({ agent: 'spelled-gated', 'on-approval': 'succeed' })
    expect(gate.code).toBe(0)
    expect(gate.outputs['approval-args']).toContain('***')
    expectNowhere(gate)
  })

  it("in the hub's failure message and approval arguments: nowhere", async () => {
    hub.setAgent('failing', { steps: [{ phase: 'Failed', afterMs: 0 }], message: `model call failed: ${echo}` })
    expectNowhere(await act({ agent: 'failing' }))
    hub.setAgent('gated', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'PendingApproval', afterMs: 20 },
      ],
      approval: { tool: `apply_${token}`, args: { token, github: githubToken, padded: `${'p'.repeat(100)}${token}` } },
    })
    const gate = await act({ agent: 'gated', 'on-approval': 'succeed' })
    expect(gate.code).toBe(0)
    expect(gate.summary).toContain('### Waiting for approval')
    expectNowhere(gate)
  })

  it('in an error body cut where the action quotes it (500 characters), its marks JSON-escaped as \\uXXXX: nowhere', async () => {
    // JSON.parse turns each \uXXXX back into the mark: only a redactor that reads the parsed text sees the token.
    const escaped = token.replace(/[^A-Za-z0-9]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    const body = `{"kind":"Status","message":"${'x'.repeat(490)}${escaped}","code":400}`
    hub.addFault({ method: 'POST', path: '/runs', status: 400, contentType: 'application/json', body })
    const result = await act({ agent: 'echo' })
    expect(result.code).toBe(1)
    expect(result.stdout).toContain('x'.repeat(100))
    expectNowhere(result, 2)
  })

  it('in `query` and `targets` values that an input error quotes in part (an apiVersion cut at its last `/`): nowhere', async () => {
    // A manifest pasted whole: the message builds {apiGroup: …} from the apiVersion before its last `/`,
    // which in a base64 token cuts the token itself.
    const pasted = (text: string) =>
      JSON.stringify({ apiVersion: text, kind: text, metadata: { name: text, namespace: text } })
    for (const text of [token, githubToken]) {
      const query = await act({ command: 'query', query: pasted(text) })
      expect(query.code).toBe(1)
      expect(query.stdout).toContain('the kind goes in `filter.objects[].groupKind`')
      expectNowhere(query, 2)
      const targets = await act({ command: 'impact', targets: `[${pasted(text)}]` })
      expect(targets.code).toBe(1)
      expectNowhere(targets, 2)
    }
  })
})

describe('impact: object names that carry the tokens, in the pull-request comment', () => {
  const token = SHAPES.jwt
  const githubToken = 'ghs_e2eRedact_0123-4567+89ab/cdef=='
  let hub: HubEmulator
  let github: GitHubEmulator
  let workspace: { dir: string; cleanup: () => void }

  beforeAll(async () => {
    // The checkout Pods on prod-eu renamed after each token: downstream of the target, in the comment's table and graph.
    const fleet = createDemoFleet()
    const pods = fleet.objects.filter(
      (o) =>
        o.kind === 'Pod' &&
        o.edge === 'prod-eu' &&
        o.metadata.namespace === 'shop' &&
        o.metadata.name.startsWith('checkout-'),
    )
    const names = [token, githubToken]
    pods.forEach((pod, index) => (pod.metadata.name = `checkout-${names[index % names.length]}`))
    fleet.version++
    hub = await startHubEmulator({ token, fleet })
    github = await startGitHubEmulator({
      tokens: { ...DEFAULT_TOKENS, [githubToken]: { login: 'hub-bot[bot]', type: 'Bot' } },
    })
    github.addPullRequest({ owner: OWNER, repo: REPO, number: 12, baseSha: BASE_SHA, headSha: HEAD_SHA, files: [] })
    workspace = makeWorkspace({})
  })
  afterAll(async () => {
    workspace.cleanup()
    await Promise.all([hub.close(), github.close()])
  })

  it('are in no comment, summary, output, file or log line, raw, escaped, rendered or clipped', async () => {
    const result = await runStep({
      inputs: {
        command: 'impact',
        'hub-url': hub.url,
        token,
        'github-token': githubToken,
        org: hub.org,
        workspace: hub.workspace,
        targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop, edge: prod-eu}]',
      },
      env: pullRequestEnv(github.url, workspace.dir, '9301'),
      event: pullRequestEvent(12, BASE_SHA, HEAD_SHA),
    })
    expect(result.code).toBe(0)
    const [comment] = github.comments(OWNER, REPO, 12)
    expect(comment?.body).toContain('checkout-')
    for (const secret of [token, githubToken]) {
      expect(leaks(result, secret)).toEqual([])
      const body = comment?.body ?? ''
      expect([...secretTraces(body, secret), ...(CMARK_GFM ? secretTraces(renderGfm(body), secret) : [])]).toEqual([])
    }
  })
})
