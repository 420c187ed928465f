import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { InputError, readSettings } from '../../../src/settings/settings.js'
import { COMMANDS, type Settings } from '../../../src/commands/index.js'
import type { RunSettings } from '../../../src/commands/runs/run-inputs.js'

const TOKEN = 'hubtok_Zq8xVv3Kp0'
const ORG = '11111111-2222-3333-4444-555555555555'
const WS = '66666666-7777-8888-9999-000000000000'
const VALID: Record<string, string> = {
  'hub-url': 'https://hub.example.com',
  token: TOKEN,
  org: ORG,
  workspace: WS,
  agent: 'triage',
  task: 'Check the rollout of web',
}
const GITHUB: NodeJS.ProcessEnv = {
  GITHUB_REPOSITORY: 'octo/app',
  GITHUB_SHA: 'a'.repeat(40),
  GITHUB_WORKFLOW: 'ci',
  GITHUB_JOB: 'build',
  GITHUB_RUN_ID: '1001',
  GITHUB_RUN_ATTEMPT: '1',
}

let stdout: string[]

beforeEach(() => {
  stdout = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk))
    return true
  })
})

afterEach(() => {
  vi.restoreAllMocks()
})

/** Inputs as the runner passes them: INPUT_<NAME> variables. */
function inputVariables(inputs: Record<string, string>): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(inputs).map(([name, value]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, value]),
  )
}

function read(overrides: Record<string, string> = {}, env: NodeJS.ProcessEnv = GITHUB): Settings {
  return readSettings({ ...env, ...inputVariables({ ...VALID, ...overrides }) }, COMMANDS)
}

function run(overrides: Record<string, string> = {}, env: NodeJS.ProcessEnv = GITHUB): RunSettings {
  const settings = read(overrides, env)
  if (settings.command !== 'run') throw new Error('expected command run')
  return settings.run
}

function inputError(overrides: Record<string, string>): InputError {
  try {
    read(overrides)
  } catch (error) {
    if (error instanceof InputError) {
      expect(error.message).not.toContain(TOKEN)
      return error
    }
    throw error
  }
  throw new Error(`expected an InputError for ${JSON.stringify(overrides)}`)
}

describe('readSettings: valid inputs', () => {
  it('reads a minimal set and applies the defaults', () => {
    const settings = read()
    expect(settings.command).toBe('run')
    expect(settings.hub.url.href).toBe('https://hub.example.com/')
    expect(settings.hub.token).toBe(TOKEN)
    expect(settings.hub.org).toBe(ORG)
    expect(settings.hub.workspace).toBe(WS)
    expect(settings.hub.clusterId).toBeUndefined()
    if (settings.command !== 'run') throw new Error('expected run')
    expect(settings.run).toMatchObject({
      agent: 'triage',
      task: 'Check the rollout of web',
      idempotencyKeySource: 'auto',
      timeoutSeconds: 1800,
      onTimeout: 'fail',
      onApproval: 'wait',
      pendingTimeoutSeconds: 300,
      onCancel: 'detach',
      liveSteps: true,
    })
    expect(settings.run.idempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(settings.runner.sha).toBe(GITHUB.GITHUB_SHA)
    expect(Object.isFrozen(settings)).toBe(true)
    expect(Object.isFrozen(settings.run)).toBe(true)
    expect(Object.isFrozen(settings.hub)).toBe(true)
  })

  it('masks the token before anything else', () => {
    read()
    expect(stdout[0]).toBe(`::add-mask::${TOKEN}\n`)
  })

  it('reads every non-default input', () => {
    const settings = run({
      'timeout-seconds': '0',
      'on-timeout': 'cancel',
      'on-approval': 'succeed',
      'pending-timeout-seconds': '45',
      'on-cancel': 'cancel',
      'idempotency-key': 'my-key',
      'session-id': 'review-42',
      'live-steps': 'FALSE',
      'allow-empty-output': 'true',
    })
    expect(settings).toMatchObject({
      timeoutSeconds: 0,
      onTimeout: 'cancel',
      onApproval: 'succeed',
      pendingTimeoutSeconds: 45,
      onCancel: 'cancel',
      idempotencyKeySource: 'explicit',
      idempotencyKeyGiven: 'my-key',
      sessionId: 'review-42',
      liveSteps: false,
      allowEmptyOutput: true,
    })
    expect(settings.idempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(read({ 'cluster-id': 'edge-7' }).hub.clusterId).toBe('edge-7')
  })

  it.each([
    'http://127.0.0.1:8080',
    'http://127.45.6.7:8080',
    'http://localhost',
    'http://localhost:3000/hub',
    'http://[::1]:8080',
    'https://hub.example.com/prefix/',
    'https://hub.localhost',
  ])('accepts hub-url %s', (url) => {
    expect(read({ 'hub-url': url }).hub.url.href).toBe(new URL(url).href)
  })

  it('keeps the task as written (multi-line, not trimmed)', () => {
    expect(run({ task: 'line one\n  line two\n' }).task).toBe('line one\n  line two\n')
  })

  it.each(['a', 'a'.repeat(63), 'my-agent-2', '0agent'])('accepts agent name %s', (agent) => {
    expect(run({ agent }).agent).toBe(agent)
  })
})

describe('readSettings: bad inputs', () => {
  it.each([
    ['org', 'my-org', '"my-org" is not a UUID'],
    ['workspace', 'Platform Team', '"Platform Team" is not a UUID'],
    ['hub-url', 'http://example.com', '"http://example.com" must use https'],
    ['hub-url', 'http://127.0.0.1.nip.io', '"http://127.0.0.1.nip.io" must use https'],
    [
      'hub-url',
      'http://foo.localhost:8080',
      '"http://foo.localhost:8080" uses plain http to a name under .localhost, which is looked up in DNS',
    ],
    ['hub-url', 'http://hub.localhost./', '"http://hub.localhost./" uses plain http to a name under .localhost'],
    ['hub-url', 'http://localhost./', '"http://localhost./" must use https'],
    [
      'hub-url',
      'https://hub.example.com/?debug=1',
      '"https://hub.example.com/?debug=1" must be a base URL without query',
    ],
    [
      'hub-url',
      'https://hub.example.com/#top',
      '"https://hub.example.com/#top" must be a base URL without query or fragment',
    ],
    ['hub-url', 'hub.example.com', '"hub.example.com" is not a URL'],
    ['hub-url', 'ftp://hub.example.com', '"ftp://hub.example.com" must use https'],
    ['agent', 'Triage', '"Triage" is not a valid agent name'],
    ['agent', 'my_agent', '"my_agent" is not a valid agent name'],
    ['agent', 'a'.repeat(64), `"${'a'.repeat(64)}" is not a valid agent name`],
    ['agent', '-agent', '"-agent" is not a valid agent name'],
    ['agent', 'agent-', '"agent-" is not a valid agent name'],
    ['timeout-seconds', '1.5', '"1.5" is not a whole number of seconds'],
    ['timeout-seconds', '-1', '"-1" is not a whole number of seconds'],
    ['timeout-seconds', 'abc', '"abc" is not a whole number of seconds'],
    ['timeout-seconds', '432001', 'out of range'],
    ['on-timeout', 'explode', '"explode" is not one of fail, warn, cancel'],
    ['on-approval', 'maybe', '"maybe" is not one of wait, fail, succeed'],
    ['pending-timeout-seconds', '0', '"0" is out of range: use 1 to 432000 seconds'],
    ['on-cancel', 'kill', '"kill" is not one of detach, cancel'],
    ['live-steps', 'off', '"off" is not a boolean: use true or false'],
    ['command', 'explode', '"explode" is not one of run, wait, cancel, approve, impact, query'],
    ['cluster-id', 'bad id!', '"bad id!" is not a cluster id'],
  ])('%s = %j is refused, naming the input and the value', (name, value, expected) => {
    const error = inputError({ [name]: value })
    expect(error.problems).toHaveLength(1)
    expect(error.message).toContain(`Input \`${name}\``)
    expect(error.message).toContain(expected)
    expect(error.message.startsWith('Invalid input: ')).toBe(true)
  })

  it('a URL carrying credentials is refused without echoing them', () => {
    const error = inputError({ 'hub-url': 'https://alice:hunter2@hub.example.com' })
    expect(error.message).toContain('Input `hub-url` must not carry credentials')
    expect(error.message).not.toContain('hunter2')
  })

  it.each([
    ['hub-url', 'Input `hub-url` is required'],
    ['org', 'Input `org` is required'],
    ['workspace', 'Input `workspace` is required'],
    ['token', 'Input `token` is required'],
    ['agent', 'Input `agent` is required'],
    ['task', 'Input `task` is required'],
  ])('missing %s is refused', (name, expected) => {
    const error = inputError({ [name]: '' })
    expect(error.message).toContain(expected)
  })

  it('a blank task is refused', () => {
    const error = inputError({ task: '  \n\t ' })
    expect(error.message).toContain('Input `task` is required for `command: run` and must not be blank')
  })

  it('command impact needs targets or manifests', () => {
    const error = inputError({ command: 'impact' })
    expect(error.message).toContain('Input `targets` or `manifests` is required for `command: impact`')
  })

  it('reports several problems together', () => {
    const error = inputError({ org: 'acme', agent: 'Bad_Agent', 'timeout-seconds': 'soon', 'on-cancel': 'kill' })
    expect(error.problems).toHaveLength(4)
    expect(error.message.startsWith('4 invalid inputs:\n- ')).toBe(true)
    for (const part of [
      '`org`',
      '"acme"',
      '`agent`',
      '"Bad_Agent"',
      '`timeout-seconds`',
      '"soon"',
      '`on-cancel`',
      '"kill"',
    ]) {
      expect(error.message).toContain(part)
    }
  })

  it('a token pasted with its "Bearer " prefix is refused with exactly that, without echoing it', () => {
    for (const token of [`Bearer ${TOKEN}`, `bearer  ${TOKEN}`]) {
      const error = inputError({ token })
      expect(error.problems).toEqual([
        'Input `token` starts with the word "Bearer": give the token alone (the action sends `Authorization: Bearer <token>` itself).',
      ])
      expect(error.message).not.toContain(TOKEN)
    }
    expect(read({ token: 'Bearerless-token-0123' }).hub.token).toBe('Bearerless-token-0123')
  })

  it('never shows the token in the problems it lists', () => {
    const error = inputError({ agent: 'Bad', 'on-timeout': 'x' })
    expect(error.message).not.toContain(TOKEN)
  })
})

describe('idempotency key', () => {
  it('auto is stable for the same inputs and commit', () => {
    expect(run().idempotencyKey).toBe(run().idempotencyKey)
  })

  it('auto differs for another task, agent or commit', () => {
    const base = run().idempotencyKey
    expect(run({ task: 'Something else' }).idempotencyKey).not.toBe(base)
    expect(run({ agent: 'other' }).idempotencyKey).not.toBe(base)
    expect(run({}, { ...GITHUB, GITHUB_SHA: 'b'.repeat(40) }).idempotencyKey).not.toBe(base)
    expect(run({}, { ...GITHUB, GITHUB_JOB: 'deploy' }).idempotencyKey).not.toBe(base)
  })

  it('auto is equal when only the run attempt or run id differ (a re-run attaches)', () => {
    const base = run().idempotencyKey
    expect(run({}, { ...GITHUB, GITHUB_RUN_ATTEMPT: '2' }).idempotencyKey).toBe(base)
    expect(run({}, { ...GITHUB, GITHUB_RUN_ID: '2002', GITHUB_RUN_ATTEMPT: '3' }).idempotencyKey).toBe(base)
  })

  it('auto is keyed by the token: another token gives another key and session; a re-run attempt has its own key for the re-run rule', () => {
    const base = run()
    const other = run({ token: 'another-token-0123456789' })
    expect(other.idempotencyKey).not.toBe(base.idempotencyKey)
    expect(other.sessionId).not.toBe(base.sessionId)
    expect(base.rerunIdempotencyKey).toBeUndefined()
    const second = run({}, { ...GITHUB, GITHUB_RUN_ATTEMPT: '2' })
    expect(second.rerunIdempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(second.rerunIdempotencyKey).not.toContain(String(base.idempotencyKey))
    expect(run({}, { ...GITHUB, GITHUB_RUN_ATTEMPT: '2' }).rerunIdempotencyKey).toBe(second.rerunIdempotencyKey)
    expect(run({}, { ...GITHUB, GITHUB_RUN_ATTEMPT: '3' }).rerunIdempotencyKey).not.toBe(second.rerunIdempotencyKey)
  })

  it('auto with a GitHub OIDC token (new for every job, so no secret lasts across re-runs) is random, key and session', () => {
    const oidc = { token: '', 'oidc-audience': 'hub' }
    expect(run(oidc).idempotencyKey).toMatch(/^gha-[0-9a-f]{32}$/)
    expect(run(oidc).idempotencyKey).not.toBe(run(oidc).idempotencyKey)
    expect(run(oidc).sessionId).toMatch(/^gha-[0-9a-f-]{36}$/)
    expect(run(oidc).sessionId).not.toBe(run(oidc).sessionId)
  })

  it('auto without GITHUB_SHA sends no key and warns', () => {
    const settings = run({}, { ...GITHUB, GITHUB_SHA: undefined })
    expect(settings.idempotencyKey).toBeUndefined()
    expect(settings.idempotencyKeySource).toBe('none')
    expect(stdout.join('')).toContain('::warning::idempotency-key is `auto` but GITHUB_SHA is not set')
  })

  it('none sends no key; a key of the workflow is sent derived with the token, the same for the same key', () => {
    expect(run({ 'idempotency-key': 'none' })).toMatchObject({
      idempotencyKey: undefined,
      idempotencyKeySource: 'none',
    })
    const given = run({ 'idempotency-key': 'release-1.2.3' })
    expect(given).toMatchObject({
      idempotencyKeySource: 'explicit',
      idempotencyKeyGiven: 'release-1.2.3',
      idempotencyKeyIsSecret: true,
    })
    expect(given.idempotencyKey).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(given.idempotencyKey).not.toContain('release-1.2.3')
    // the same key whatever the task, commit or run; another token, another key
    expect(
      run({ 'idempotency-key': 'release-1.2.3', task: 'other' }, { ...GITHUB, GITHUB_RUN_ID: '9' }).idempotencyKey,
    ).toBe(given.idempotencyKey)
    expect(run({ 'idempotency-key': 'release-1.2.3', token: 'another-token-0123456789' }).idempotencyKey).not.toBe(
      given.idempotencyKey,
    )
  })

  it('a key of the workflow with OIDC (no secret to derive it with) is sent as given, marked so, with a warning', () => {
    const raw = run({ 'idempotency-key': 'release-1.2.3', token: '', 'oidc-audience': 'hub' })
    expect(raw).toMatchObject({ idempotencyKey: 'release-1.2.3', idempotencyKeyIsSecret: false })
    expect(stdout.join('')).toContain('::warning::idempotency-key "release-1.2.3" is sent to the hub as given')
  })
})

describe('session id', () => {
  it('auto follows the key: the same key, the same session (another workflow run on the commit); another key, another', () => {
    const base = run().sessionId
    expect(base).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(run({}, { ...GITHUB, GITHUB_RUN_ATTEMPT: '2' }).sessionId).toBe(base)
    expect(run({}, { ...GITHUB, GITHUB_RUN_ID: '1002' }).sessionId).toBe(base)
    expect(run({}, { ...GITHUB, GITHUB_JOB: 'test' }).sessionId).not.toBe(base)
    expect(run({ task: 'other' }).sessionId).not.toBe(base)
    expect(run({ 'idempotency-key': 'k1' }).sessionId).not.toBe(run({ 'idempotency-key': 'k2' }).sessionId)
    // a re-run attempt's fresh run gets the session of its own key
    const second = run({}, { ...GITHUB, GITHUB_RUN_ATTEMPT: '2' })
    expect(second.rerunSessionId).toMatch(/^gha-[0-9a-f]{40}$/)
    expect(second.rerunSessionId).not.toBe(base)
  })

  it('auto without a key (none, or no GITHUB_SHA) is a fresh random id for this step alone', () => {
    for (const [inputs, env] of [
      [{ 'idempotency-key': 'none' }, GITHUB],
      [{}, { ...GITHUB, GITHUB_SHA: undefined }],
    ] as const) {
      const first = run(inputs, env).sessionId
      expect(first).toMatch(/^gha-[0-9a-f-]{36}$/)
      expect(run(inputs, env).sessionId).not.toBe(first)
    }
  })

  it('an explicit session id is kept', () => {
    expect(run({ 'session-id': 'my-session' }).sessionId).toBe('my-session')
  })
})

describe('lifecycle commands', () => {
  const RUN_ID = '0b6f3c2e-1d4a-4f5b-9c8d-7e6f5a4b3c2d'

  it('wait reads run-id and the waiting policies', () => {
    const settings = read({ command: 'wait', 'run-id': RUN_ID, 'timeout-seconds': '600', 'on-approval': 'succeed' })
    if (settings.command !== 'wait') throw new Error('expected wait')
    expect(settings.wait).toEqual({
      runId: RUN_ID,
      timeoutSeconds: 600,
      onTimeout: 'fail',
      onApproval: 'succeed',
      pendingTimeoutSeconds: 300,
      onCancel: 'detach',
      liveSteps: true,
      allowEmptyOutput: false,
    })
  })

  it('approve reads the decision, response, expect-tool and approval-id', () => {
    const settings = read({
      command: 'approve',
      'run-id': RUN_ID,
      decision: 'answer',
      response: 'use staging',
      'expect-tool': 'kubectl_apply',
      'approval-id': 'a-1',
    })
    if (settings.command !== 'approve') throw new Error('expected approve')
    expect(settings.approve).toEqual({
      runId: RUN_ID,
      decision: 'answer',
      response: 'use staging',
      expectTool: 'kubectl_apply',
      approvalId: 'a-1',
    })
    expect(settings.wait.timeoutSeconds).toBe(1800)
  })

  it.each([
    [{ command: 'wait' }, 'Input `run-id` is required for `command: wait`'],
    [{ command: 'cancel' }, 'Input `run-id` is required for `command: cancel`'],
    [{ command: 'approve' }, 'Input `run-id` is required for `command: approve`'],
    [{ command: 'wait', 'run-id': 'a b' }, 'Input `run-id`: "a b" is not a run id'],
    [
      { command: 'wait', 'run-id': RUN_ID, 'timeout-seconds': '0' },
      'Input `timeout-seconds`: "0" is out of range: use 1 to',
    ],
    [
      { command: 'approve', 'run-id': RUN_ID, decision: 'maybe' },
      'Input `decision`: "maybe" is not one of approve, deny, answer',
    ],
    [
      { command: 'approve', 'run-id': RUN_ID, decision: 'answer' },
      'Input `response` is required with `decision: answer`',
    ],
    [
      { command: 'approve', 'run-id': RUN_ID, 'approval-id': 'x y' },
      'Input `approval-id`: "x y" is not an approval id',
    ],
  ])('%j is refused: %s', (overrides, expected) => {
    expect(inputError(overrides).message).toContain(expected)
  })

  it.each([
    [{ command: 'run', 'on-timeout': 'cancel' }, 'Input `on-timeout`: "cancel" cannot work with `cluster-id`'],
    [{ command: 'run', 'on-cancel': 'cancel' }, 'Input `on-cancel`: "cancel" cannot work with `cluster-id`'],
    [
      { command: 'wait', 'run-id': RUN_ID, 'on-timeout': 'cancel' },
      'Input `on-timeout`: "cancel" cannot work with `cluster-id`',
    ],
    [{ command: 'cancel', 'run-id': RUN_ID }, 'Input `cluster-id`: `command: cancel` cannot work there'],
    [{ command: 'approve', 'run-id': RUN_ID }, 'Input `cluster-id`: `command: approve` cannot work there'],
  ])('with cluster-id, %j is refused before any request', (overrides, expected) => {
    const error = inputError({ 'cluster-id': 'edge-7', ...overrides })
    expect(error.problems).toHaveLength(1)
    expect(error.message).toContain(expected)
    expect(error.message).toContain('has no')
  })

  it('with cluster-id, waiting policies that never cancel are accepted', () => {
    expect(
      read({ 'cluster-id': 'edge-7', command: 'wait', 'run-id': RUN_ID, 'on-timeout': 'warn' }).hub.clusterId,
    ).toBe('edge-7')
  })
})
