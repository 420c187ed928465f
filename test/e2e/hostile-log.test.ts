/**
 * End to end, untrusted text in the log: a hub and a pull request that plant workflow commands
 * in every field the action logs (run id, phase, tool name, inbox id, the cancel error body;
 * manifest object names, file names, edge names, the not-found and skipped lines), in both forms
 * the runner parses and behind every whitespace it trims. dist/index.js runs as a process against
 * the hub emulator (its agents provider replaced by a hostile one); a port of the runner's parser
 * (test/oracles/workflow-commands.ts) judges stdout: no planted command executes, and the
 * planted text is still shown.
 */
import type http from 'node:http'
import { describe, expect, it, onTestFinished } from 'vitest'
import { hubInputs, makeWorkspace, runStep, useHubEmulator, type ActionRun } from './harness.ts'
import { type EmulatorRequest, createFleet } from '../../emulator/index.ts'
import { injectedCommands, readWorkflowCommands, shownLog } from '../oracles/workflow-commands.ts'

const MARK = 'PWNED'

/** Text that would issue a command on the runner in each way it allows; every planted data starts with MARK and names its tag. */
function hostile(tag: string): string {
  return [
    tag,
    `::add-mask::${MARK}-${tag}-mask`,
    ` \u00a0\u3000::set-output name=pwned::${MARK}-${tag}-output`,
    `\t::warning::${MARK}-${tag}-warning`,
    `seen ##[error]${MARK}-${tag}-legacy-error`,
    `##[add-mask]${MARK}-${tag}-legacy-mask`,
    `\r::error::${MARK}-${tag}-after-cr`,
    `\u2028::stop-commands::${MARK}${tag}stop`,
  ].join('\n')
}

/** The same on one line, for fields the action flattens to one line: only the legacy form can work there. */
const hostileInline = (tag: string) => `${tag}##[add-mask]${MARK}-${tag}-inline`

/** No planted command executes, whether the runner compares ordinally or with ICU; each tag's text is shown. */
function expectNoPlantedCommand(result: ActionRun, tags: string[]): void {
  for (const collation of ['ordinal', 'icu'] as const) {
    const view = readWorkflowCommands(result.stdout, { collation })
    const injected = injectedCommands(view, MARK).map((c) => `${view.lines[c.line]?.text ?? ''}`)
    expect(injected, `commands planted by untrusted text (${collation})`).toEqual([])
    expect(view.stoppedAtEnd).toBe(false)
    const shown = shownLog(view)
    for (const tag of tags)
      expect(shown, `the planted text tagged ${tag} is still in the log`).toContain(`${MARK}-${tag}-`)
  }
}

type Answer = { status: number; body: unknown; delayMs?: number }
type Script = (request: EmulatorRequest) => Answer | undefined

let script: Script = () => undefined

/** The hub's agents provider, replaced: it answers what the test's script says. */
function hostileAgents(request: EmulatorRequest, res: http.ServerResponse): void {
  const answer = script(request) ?? {
    status: 404,
    body: { kind: 'Status', reason: 'NotFound', message: 'not scripted', code: 404 },
  }
  const send = () => {
    if (res.destroyed) return
    const text = JSON.stringify(answer.body)
    res
      .writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      .end(text)
  }
  if (answer.delayMs) setTimeout(send, answer.delayMs).unref()
  else send()
}

const EDGE = `edge##[add-mask]${MARK}-edge-name`
const hub = useHubEmulator({
  providers: { agents: hostileAgents },
  fleet: createFleet(
    [
      {
        edge: EDGE,
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: 'settings',
          namespace: 'shop',
          uid: '0f1e2d3c-4b5a-4697-8877-665544332211',
          creationTimestamp: '2025-01-06T09:00:00Z',
        },
        data: { a: '1' },
      } as never,
    ],
    { edges: [EDGE] },
  ),
})

async function act(inputs: Record<string, string>, env: Record<string, string> = {}): Promise<ActionRun> {
  return runStep({
    inputs: hubInputs(hub, inputs),
    env,
    killAfterMs: 45_000,
  })
}

describe('command: run', () => {
  it('a hostile run id, phase, tool name and inbox id issue no command', async () => {
    const runId = `run-7 ${hostile('runid')}`
    script = (request) => {
      if (request.method === 'POST' && request.path.endsWith('/runs'))
        return { status: 201, body: { runId, phase: `Queued ${hostile('phase')}`, reused: false } }
      if (request.method === 'GET' && request.path.endsWith('/wait'))
        return {
          status: 200,
          body: {
            id: runId,
            phase: 'PendingApproval',
            pending: { inboxID: hostile('inbox'), tool: hostile('tool'), args: { note: hostile('args') } },
            steps: [{ tool: hostile('tool'), outcome: 'pending_approval' }],
            children: [],
          },
        }
      return undefined
    }
    const result = await act({ agent: 'quick', task: 'Check payments', 'on-approval': 'fail', 'timeout-seconds': '20' })
    expect(result.code).toBe(1)
    expect(result.stdout).not.toContain('Unexpected error')
    expect(result.outputs.phase).toBe('PendingApproval')
    expectNoPlantedCommand(result, ['runid', 'phase', 'tool', 'inbox', 'args'])
  })

  it('a hostile error body on cancel issues no command', async () => {
    script = (request) => {
      if (request.method === 'POST' && request.path.endsWith('/cancel'))
        return {
          status: 400,
          body: { kind: 'Status', reason: 'BadRequest', message: `cannot cancel: ${hostile('cancel')}`, code: 400 },
        }
      if (request.method === 'POST' && request.path.endsWith('/runs'))
        return { status: 201, body: { runId: 'run-8', phase: 'Running', reused: false } }
      if (request.method === 'GET' && request.path.endsWith('/wait'))
        return { status: 200, body: { id: 'run-8', phase: 'Running', steps: [], children: [] }, delayMs: 300 }
      return undefined
    }
    const result = await act({ agent: 'quick', task: 'Check payments', 'timeout-seconds': '1', 'on-timeout': 'cancel' })
    expect(result.code).toBe(1)
    expect(hub.requests.some((r) => r.method === 'POST' && r.path.endsWith('/cancel'))).toBe(true)
    expectNoPlantedCommand(result, ['cancel'])
  })
})

describe('command: impact', () => {
  /** A manifest as JSON (which is YAML), every non-ASCII character escaped so no parser reads it as a line break. */
  const manifest = (...objects: unknown[]) =>
    objects
      .map((object) =>
        JSON.stringify(object).replace(
          /[\u007f-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        ),
      )
      .join('\n---\n')

  it('hostile object names, file names and edge names issue no command, in verdict, not-found and skipped lines', async () => {
    const workspace = makeWorkspace({
      'deploy/settings.yaml': manifest({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'settings', namespace: 'shop' },
      }),
      'deploy/ghost.yaml': manifest(
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: hostile('name'), namespace: 'shop' } },
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: hostileInline('inline-name'), namespace: hostile('namespace') },
        },
      ),
      [`deploy/bad##[warning]${MARK}-file-legacy.yaml`]: 'a: [\n',
      [`deploy/nl\n::add-mask::${MARK}-file-newline.yaml`]: 'a: [\n',
    })
    onTestFinished(() => workspace.cleanup())
    const result = await act(
      { command: 'impact', manifests: 'deploy/**/*.yaml' },
      { GITHUB_WORKSPACE: workspace.dir, GITHUB_EVENT_NAME: 'push', GITHUB_API_URL: 'http://127.0.0.1:9' },
    )
    expect(result.code).toBe(0)
    // The ConfigMap was found on the hostile edge, so its verdict line names that edge.
    expect(result.outputs['targets-count']).toBe('3')
    expect(result.stdout).toMatch(/ConfigMap shop\/settings on edge##/)
    expectNoPlantedCommand(result, ['edge', 'name', 'namespace', 'inline-name', 'file'])
  })
})
