/**
 * End to end, the happy paths of `command: run`: dist/index.js as a child process (INPUT_*
 * variables, the runner's file commands) against the hub emulator over real HTTP.
 * Outputs, result file, job summary, what the hub receives, idempotency and sessions.
 */
import { describe, expect, it } from 'vitest'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  bodyOf,
  fingerprintOf,
  hubInputs,
  lines,
  runStep,
  useHubEmulator,
  waitRequests,
  type ActionRun,
} from './harness.ts'
import type { RecordedRequest } from '../../emulator/index.ts'

const AGENTS = '/services/providers/agents/api'

const hub = useHubEmulator({ maxHoldMs: 300 })

const inputs = (extra: Record<string, string>): Record<string, string> => hubInputs(hub, extra)
const act = (extra: Record<string, string>, env?: Record<string, string>): Promise<ActionRun> =>
  runStep({ inputs: inputs(extra), ...(env ? { env } : {}) })

const posts = (from = 0): RecordedRequest[] => hub.requests.slice(from).filter((r) => r.method === 'POST')
const waits = (from = 0): RecordedRequest[] => waitRequests(hub, from)

interface ResultFile {
  schema: string
  version: number
  agent: string
  runId: string
  phase: string
  settled: boolean
  reused: boolean
  outcome: string
  verdict: { status: string; message: string }
  idempotencyKey: string | null
  session: string | null
  run: Record<string, unknown> | null
}

function resultFile(result: ActionRun): ResultFile {
  const path = result.outputs['result-file'] ?? ''
  const text = result.files[path]
  expect(text, `result file ${path} was written`).toBeDefined()
  return JSON.parse(text ?? '{}') as ResultFile
}

describe('a run that succeeds', () => {
  it('sets every output, writes the result file and exits 0', async () => {
    const task = 'Are the payments pods healthy?'
    const result = await act({ agent: 'quick', task })

    expect(result.code).toBe(0)
    expect(hub.runs()).toHaveLength(1)
    const run = hub.runs()[0]!
    expect(run).toMatchObject({ agent: 'quick', task, phase: 'Succeeded' })
    const detail = hub.runDetail(run.id)!

    expect(result.outputs['run-id']).toBe(run.id)
    expect(result.outputs.phase).toBe('Succeeded')
    expect(result.outputs.settled).toBe('true')
    expect(result.outputs.reused).toBe('false')
    expect(result.outputs.output).toBe(detail.output)
    expect(result.outputs.output).toContain(`> ${task}`)

    const path = result.outputs['result-file'] ?? ''
    expect(path.startsWith(join(result.dir, 'runner_temp'))).toBe(true)
    expect(existsSync(path)).toBe(true)
    const file = resultFile(result)
    expect(file).toMatchObject({
      schema: 'hub-action/run-result',
      version: 2,
      agent: 'quick',
      runId: run.id,
      phase: 'Succeeded',
      settled: true,
      reused: false,
      outcome: 'succeeded',
      verdict: { status: 'pass', message: `Run ${run.id} of agent "quick" succeeded.` },
      idempotencyKey: run.idempotencyKey,
      session: fingerprintOf(run.sessionId ?? ''),
    })
    // The detail as the hub sent it, but for its session: a fingerprint (issue 34 item 3)
    const session = detail.sessionID
    expect(file.run).toEqual(typeof session === 'string' ? { ...detail, sessionID: fingerprintOf(session) } : detail)
    expect(JSON.stringify(file)).not.toContain(run.sessionId)

    expect(lines(result.stdout, '::error::')).toEqual([])
    expect(lines(result.stdout, '::notice::')).toEqual([`::notice::Run ${run.id} of agent "quick" succeeded.`])
  })

  it('writes a job summary with agent, phase, run id, tokens, cost, output, sources and steps', async () => {
    const result = await act({ agent: 'quick', task: 'Are the payments pods healthy?' })
    expect(result.code).toBe(0)
    const id = result.outputs['run-id'] ?? ''
    const summary = result.summary

    expect(summary).toContain('## ✅ Agent run: quick — Succeeded')
    // The heading and the table say it all: no sentence repeats them.
    expect(summary).toContain('## ✅ Agent run: quick — Succeeded\n\n| Run | Phase |')
    expect(summary).not.toContain(`Run ${id} of agent "quick" succeeded.`)
    expect(summary).toContain('| Run | Phase | Duration | Waited | Tokens in / out | Cost |')
    expect(summary).toContain(`| \`${id}\` | **Succeeded** |`)
    expect(summary).toContain('| 1,842 / 312 | $0.0042 |')
    expect(summary).toContain('### Output')
    expect(summary).toContain('> Are the payments pods healthy?')
    expect(summary).toContain('| checkout | 3/3 | 12m |')
    // The answer already lists its sources, so they are not listed again.
    expect(summary).not.toContain('### Sources')
    expect(summary).toContain('<details><summary>Steps (3)</summary>')
    expect(summary).toContain('| # | Tool | Outcome | Duration |')
    expect(summary).toContain('| 1 | `graph_query` | ok | 42 ms |')
    expect(summary).toContain('| 2 | `kubectl_get` | ok | 65 ms |')
    expect(summary).toContain('| 3 | `web_fetch` | ok | 31 ms |')
    expect(summary).not.toContain('Message from the hub')
  })

  it('prints the agent output to the log with workflow commands switched off', async () => {
    const result = await act({ agent: 'quick', task: 'Status of payments?' })
    const output = result.outputs.output ?? ''
    const fenced = [...result.stdout.matchAll(/::stop-commands::([0-9a-f-]+)\n([\s\S]*?)\n::\1::/g)].map(
      (block) => block[2],
    )
    // The live steps come first, in a block of their own; the output is the last block.
    expect(fenced.at(-1)).toBe(output)
    expect(fenced[0]).toMatch(/^Step 1: graph_query ok/)
  })

  it('writes each output to GITHUB_OUTPUT once: run-id and reused, set as soon as the run exists, not again at the end', async () => {
    const result = await act({ agent: 'quick', task: 'Status of payments?' })
    expect(result.code).toBe(0)
    const file = result.files[join(result.dir, 'github_output')] ?? ''
    // Each entry is a `name<<delimiter` line (the runner's file-command format).
    const names = [...file.matchAll(/^([^=<\n]+)<</gm)].map((entry) => entry[1])
    expect(names.filter((name) => name === 'run-id')).toEqual(['run-id'])
    expect(names.filter((name) => name === 'reused')).toEqual(['reused'])
    expect(names).toHaveLength(new Set(names).size)
    expect(result.outputs['run-id']).toBe(hub.runs().at(-1)?.id)
  })
})

describe('what the hub receives', () => {
  it('sends the auth headers, a hub-action user agent and never the hub-owned headers', async () => {
    const result = await act({ agent: 'quick', task: 'headers please' })
    expect(result.code).toBe(0)
    expect(hub.requests.length).toBeGreaterThanOrEqual(2)
    for (const request of hub.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${hub.token}`)
      expect(request.headers['x-hub-org']).toBe(hub.org)
      expect(request.headers['x-hub-workspace']).toBe(hub.workspace)
      expect(request.headers['user-agent']).toMatch(/^hub-action\//)
      expect(request.headers).not.toHaveProperty('x-hub-tenant')
      expect(request.headers).not.toHaveProperty('x-hub-cluster')
      expect(request.headers).not.toHaveProperty('x-hub-user')
    }
  })

  it('POSTs once with JSON {task, wait: 0, sessionId, idempotencyKey}, then long-polls the run', async () => {
    const task = 'Summarise the release'
    const result = await act({ agent: 'quick', task })
    const id = result.outputs['run-id'] ?? ''

    const [post, ...otherPosts] = posts()
    expect(otherPosts).toEqual([])
    expect(post?.path).toBe(`${AGENTS}/agents/quick/runs`)
    expect(post?.headers['content-type']).toMatch(/^application\/json\b/)
    // The whoami preflight, then the start.
    expect(hub.requests[0]?.path).toBe(`${AGENTS}/whoami`)
    expect(hub.requests[1]).toBe(post)

    const body = bodyOf(post)
    expect(body.task).toBe(task)
    expect(body.wait).toBe(0)
    expect(typeof body.sessionId).toBe('string')
    expect(body.sessionId).not.toBe('')
    expect(body.sessionId).not.toBe('api')
    expect(typeof body.idempotencyKey).toBe('string')
    expect(body.idempotencyKey).not.toBe('')
    expect(Object.keys(body).sort()).toEqual(['idempotencyKey', 'sessionId', 'task', 'wait'])

    const run = hub.runs()[0]
    expect(run?.sessionId).toBe(body.sessionId)
    expect(run?.idempotencyKey).toBe(body.idempotencyKey)
    expect(resultFile(result).idempotencyKey).toBe(body.idempotencyKey)
    expect(result.summary).toContain(
      `Idempotency key \`${String(body.idempotencyKey)}\`, session \`${fingerprintOf(String(body.sessionId))}\`.`,
    )
    expect(result.summary).not.toContain(String(body.sessionId))

    expect(waits().length).toBeGreaterThanOrEqual(1)
    for (const wait of waits()) {
      expect(wait.path).toBe(`${AGENTS}/runs/${id}/wait`)
      expect(wait.body).toBe('')
    }
  })

  it('derives a different session for another workflow run, and sends an explicit session id as is', async () => {
    const first = await act({ agent: 'quick', task: 'one', 'idempotency-key': 'none' })
    const other = await act({ agent: 'quick', task: 'one', 'idempotency-key': 'none' }, { GITHUB_RUN_ID: '7002' })
    const explicit = await act({
      agent: 'quick',
      task: 'one',
      'idempotency-key': 'none',
      'session-id': 'incident-4711',
    })
    expect([first.code, other.code, explicit.code]).toEqual([0, 0, 0])
    const sessions = posts().map((post) => bodyOf(post).sessionId)
    expect(sessions).toHaveLength(3)
    expect(sessions[0]).not.toBe(sessions[1])
    expect(sessions[2]).toBe('incident-4711')
    expect(hub.runs().map((run) => run.sessionId)).toEqual(sessions)
  })
})

describe('idempotency', () => {
  it('a re-run of the job on the same commit attaches to the first run', async () => {
    const first = await act({ agent: 'quick', task: 'Write the release notes' })
    const firstRequests = hub.requests.length
    const again = await act({ agent: 'quick', task: 'Write the release notes' }, { GITHUB_RUN_ATTEMPT: '2' })

    expect([first.code, again.code]).toEqual([0, 0])
    expect(hub.runs()).toHaveLength(1)
    expect(again.outputs['run-id']).toBe(first.outputs['run-id'])
    expect(first.outputs.reused).toBe('false')
    expect(again.outputs.reused).toBe('true')
    expect(again.outputs.phase).toBe('Succeeded')
    expect(again.outputs.output).toBe(first.outputs.output)
    expect(bodyOf(posts(firstRequests)[0]).idempotencyKey).toBe(bodyOf(posts()[0]).idempotencyKey)
    // The hub handed back the settled run: nothing left to wait for.
    expect(hub.requests.slice(firstRequests).map((r) => `${r.method} ${r.path.split('/').pop() ?? ''}`)).toEqual([
      'GET whoami',
      'POST runs',
    ])
    expect(resultFile(again)).toMatchObject({ reused: true, phase: 'Succeeded', outcome: 'succeeded' })
    expect(again.summary).toContain('The hub returned an existing run for this idempotency key')
    expect(again.stdout).toContain(
      `Run ${first.outputs['run-id']} of agent "quick" attached to the existing run for this idempotency key`,
    )
  })

  it('two tasks on one commit are two runs', async () => {
    const notes = await act({ agent: 'quick', task: 'Write the release notes' })
    const review = await act({ agent: 'quick', task: 'Review the rollout' })
    expect([notes.code, review.code]).toEqual([0, 0])
    expect(hub.runs()).toHaveLength(2)
    expect(notes.outputs['run-id']).not.toBe(review.outputs['run-id'])
    expect([notes.outputs.reused, review.outputs.reused]).toEqual(['false', 'false'])
    const [a, b] = posts().map((post) => bodyOf(post).idempotencyKey)
    expect(a).not.toBe(b)
  })

  it('sends an explicit key derived with the token; the same key and task later return the first run, another task under it is refused', async () => {
    const first = await act({
      agent: 'quick',
      task: 'Write the release notes',
      'idempotency-key': 'release-notes/v1.2.0',
      'session-id': 'notes',
    })
    const second = await act({
      agent: 'quick',
      task: 'Write the release notes',
      'idempotency-key': 'release-notes/v1.2.0',
      'session-id': 'notes',
    })
    const sent = posts().map((post) => bodyOf(post).idempotencyKey)
    expect(sent[0]).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(sent).toEqual([sent[0], sent[0]])
    expect(hub.runs()).toHaveLength(1)
    expect(second.outputs['run-id']).toBe(first.outputs['run-id'])
    expect(second.outputs.reused).toBe('true')
    expect(resultFile(second).idempotencyKey).toBe(sent[0])
    expect(second.stdout).toContain(
      `Idempotency key: release-notes/v1.2.0 (the hub sees ${String(sent[0])}, derived from it with the token).`,
    )
    // The hub hands back the first run whatever the task: that run is not this step's (test/e2e/run-planted.test.ts).
    const other = await act({
      agent: 'quick',
      task: 'Something else',
      'idempotency-key': 'release-notes/v1.2.0',
      'session-id': 'notes',
    })
    expect(other.code).toBe(1)
    expect(other.stdout).toContain(
      `which the hub returned for idempotency key release-notes/v1.2.0, is not this step's run`,
    )
    expect(other.outputs['run-id']).toBeUndefined()
  })

  it('`none` sends no key, so two invocations are two runs', async () => {
    const first = await act({ agent: 'quick', task: 'Write the release notes', 'idempotency-key': 'none' })
    const second = await act({ agent: 'quick', task: 'Write the release notes', 'idempotency-key': 'none' })
    expect([first.code, second.code]).toEqual([0, 0])
    for (const post of posts()) expect(bodyOf(post)).not.toHaveProperty('idempotencyKey')
    expect(posts()).toHaveLength(2)
    expect(hub.runs()).toHaveLength(2)
    expect(first.outputs['run-id']).not.toBe(second.outputs['run-id'])
    expect([first.outputs.reused, second.outputs.reused]).toEqual(['false', 'false'])
    expect(resultFile(first).idempotencyKey).toBeNull()
  })

  it('`auto` without a commit SHA warns and sends no key', async () => {
    const result = await act({ agent: 'quick', task: 'no sha here' }, { GITHUB_SHA: '' })
    expect(result.code).toBe(0)
    expect(bodyOf(posts()[0])).not.toHaveProperty('idempotencyKey')
    expect(lines(result.stdout, '::warning::').join('\n')).toMatch(/idempotency-key.*GITHUB_SHA/)
  })
})

describe('waiting', () => {
  it('follows a slow run across several long-polls, each asking the hub to hold', async () => {
    hub.setAgent('slowish', {
      steps: [
        { phase: 'Pending', afterMs: 0 },
        { phase: 'Running', afterMs: 50 },
        { phase: 'Succeeded', afterMs: 1000 },
      ],
      output: 'done slowly',
      inputTokens: 10,
      outputTokens: 5,
      usdMicros: 20,
    })
    const result = await act({ agent: 'slowish', task: 'take your time' })

    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    expect(result.outputs.output).toBe('done slowly')
    expect(hub.runs()).toHaveLength(1)
    expect(posts()).toHaveLength(1)
    const id = result.outputs['run-id'] ?? ''
    expect(waits().length).toBeGreaterThanOrEqual(2)
    for (const wait of waits()) {
      expect(wait.path).toBe(`${AGENTS}/runs/${id}/wait`)
      expect(wait.query.timeoutSeconds).toMatch(/^[1-9]\d*$/)
      expect(Number(wait.query.timeoutSeconds)).toBeLessThanOrEqual(300)
    }
  })

  it('`timeout-seconds: 0` returns at once with the run id, not settled, after exactly one request', async () => {
    const result = await act({ agent: 'quick', task: 'fire and forget', 'timeout-seconds': '0' })
    expect(result.code).toBe(0)
    expect(hub.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${AGENTS}/whoami`,
      `POST ${AGENTS}/agents/quick/runs`,
    ])
    expect(hub.runs()).toHaveLength(1)
    expect(result.outputs['run-id']).toBe(hub.runs()[0]?.id)
    expect(result.outputs.settled).toBe('false')
    expect(result.outputs.phase).toBe('Pending')
    expect(result.outputs.reused).toBe('false')
    expect(result.outputs.output).toBe('')
    expect(resultFile(result)).toMatchObject({ outcome: 'started', settled: false, run: null })
    expect(lines(result.stdout, '::error::')).toEqual([])
  })
})

describe('lowercase phases (the contract spelling)', () => {
  it('reports canonical phases in outputs, result file and summary', async () => {
    hub.setLowercasePhases(true)
    const result = await act({ agent: 'quick', task: 'lowercase please' })
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    expect(result.outputs.settled).toBe('true')
    const file = resultFile(result)
    expect(file.phase).toBe('Succeeded')
    // The hub really spoke lowercase: the raw detail keeps its spelling.
    expect(file.run?.phase).toBe('succeeded')
    expect(result.summary).toContain('## ✅ Agent run: quick — Succeeded')
  })

  it('fails a lowercase `failed` run', async () => {
    hub.setLowercasePhases(true)
    const result = await act({ agent: 'failing', task: 'lowercase failure' })
    expect(result.code).toBe(1)
    expect(result.outputs.phase).toBe('Failed')
    expect(result.outputs.settled).toBe('true')
  })
})
