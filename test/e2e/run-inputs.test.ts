/**
 * End to end, bad inputs: each ends the step with exit code 1 and an ::error:: naming the
 * input, before a single request reaches the hub. dist/index.js as a child process with
 * INPUT_* variables, pointed at a live hub emulator that records every request.
 */
import { describe, expect, it } from 'vitest'
import type { HubEmulator } from '../../emulator/index.ts'
import { runStep, useHubEmulator, type ActionRun } from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })

function goodInputs(): Record<string, string> {
  return {
    'hub-url': hub.url,
    token: hub.token,
    org: hub.org,
    workspace: hub.workspace,
    agent: 'quick',
    task: 'Check payments',
  }
}

async function act(inputs: Record<string, string>): Promise<ActionRun> {
  return runStep({ inputs })
}

const errorLines = (stdout: string): string[] => stdout.split('\n').filter((line) => line.startsWith('::error::'))

interface BadInput {
  name: string
  /** Inputs changed from the good set ('' removes the value, as an unset input). */
  change: (hub: HubEmulator) => Record<string, string>
  /** The input the message must name. */
  input: string
  /** More the message must say. */
  says?: RegExp
}

const BAD_INPUTS: BadInput[] = [
  { name: 'org as a display name', change: () => ({ org: 'acme' }), input: 'org', says: /"acme" is not a UUID/ },
  {
    name: 'org as a malformed UUID',
    change: () => ({ org: '3f6c1a2e-8b4d-4e7a-9c15-2d7e0b9a4f6' }),
    input: 'org',
    says: /not a UUID/,
  },
  {
    name: 'workspace as a display name',
    change: () => ({ workspace: 'Production' }),
    input: 'workspace',
    says: /not a UUID.*display name/,
  },
  { name: 'missing workspace', change: () => ({ workspace: '' }), input: 'workspace', says: /is required/ },
  {
    name: 'plain http to a non-loopback host',
    change: () => ({ 'hub-url': 'http://hub.example.com' }),
    input: 'hub-url',
    says: /must use https/,
  },
  {
    name: 'plain http to a name under .localhost (looked up in DNS)',
    change: (h) => ({ 'hub-url': h.url.replace('127.0.0.1', 'hub.localhost') }),
    input: 'hub-url',
    says: /uses plain http to a name under \.localhost, which is looked up in DNS/,
  },
  { name: 'missing hub-url', change: () => ({ 'hub-url': '' }), input: 'hub-url', says: /is required/ },
  {
    name: 'hub-url that is not a URL',
    change: () => ({ 'hub-url': 'hub.example.com' }),
    input: 'hub-url',
    says: /not a URL/,
  },
  {
    name: 'hub-url with credentials',
    change: (h) => ({ 'hub-url': h.url.replace('http://', 'http://ci:s3cr3t-pass@') }),
    input: 'hub-url',
    says: /must not carry credentials/,
  },
  {
    name: 'hub-url with a query',
    change: (h) => ({ 'hub-url': `${h.url}/?org=x` }),
    input: 'hub-url',
    says: /without (a )?query/,
  },
  { name: 'missing token', change: () => ({ token: '' }), input: 'token', says: /is required/ },
  { name: 'missing agent', change: () => ({ agent: '' }), input: 'agent', says: /is required/ },
  {
    name: 'agent name that is not a DNS label',
    change: () => ({ agent: 'Release_Notes' }),
    input: 'agent',
    says: /not a valid agent name/,
  },
  { name: 'blank task', change: () => ({ task: '   \n  ' }), input: 'task', says: /must not be blank/ },
  {
    name: "timeout-seconds 'abc'",
    change: () => ({ 'timeout-seconds': 'abc' }),
    input: 'timeout-seconds',
    says: /"abc" is not a whole number/,
  },
  { name: 'negative timeout-seconds', change: () => ({ 'timeout-seconds': '-5' }), input: 'timeout-seconds' },
  { name: 'fractional timeout-seconds', change: () => ({ 'timeout-seconds': '1.5' }), input: 'timeout-seconds' },
  {
    name: "on-timeout 'explode'",
    change: () => ({ 'on-timeout': 'explode' }),
    input: 'on-timeout',
    says: /"explode" is not one of fail, warn, cancel/,
  },
  {
    name: "on-approval 'maybe'",
    change: () => ({ 'on-approval': 'maybe' }),
    input: 'on-approval',
    says: /"maybe" is not one of wait, fail, succeed/,
  },
  {
    name: "pending-timeout-seconds '0'",
    change: () => ({ 'pending-timeout-seconds': '0' }),
    input: 'pending-timeout-seconds',
    says: /out of range/,
  },
  {
    name: "on-cancel 'kill'",
    change: () => ({ 'on-cancel': 'kill' }),
    input: 'on-cancel',
    says: /"kill" is not one of detach, cancel/,
  },
  {
    name: 'cluster-id with spaces',
    change: () => ({ 'cluster-id': 'my cluster' }),
    input: 'cluster-id',
    says: /not a cluster id/,
  },
  {
    name: "command 'deploy'",
    change: () => ({ command: 'deploy' }),
    input: 'command',
    says: /"deploy" is not one of run, wait, cancel, approve, impact, query/,
  },
]

describe('bad inputs stop the step before any request', () => {
  it.each(BAD_INPUTS)(
    '$name → exit 1, an ::error:: naming `$input`, zero requests',
    async ({ change, input, says }) => {
      const result = await act({ ...goodInputs(), ...change(hub) })
      expect(result.code).toBe(1)
      const errors = errorLines(result.stdout)
      expect(errors).toHaveLength(1)
      expect(errors[0]).toContain(`Input \`${input}\``)
      if (says) expect(errors[0]).toMatch(says)
      expect(hub.requests).toEqual([])
      expect(hub.runs()).toEqual([])
      expect(result.outputs).toEqual({})
      expect(result.summary).toBe('')
    },
  )

  it('lists every bad input at once', async () => {
    const result = await act({ ...goodInputs(), org: 'acme', 'on-timeout': 'explode', 'timeout-seconds': 'abc' })
    expect(result.code).toBe(1)
    const errors = errorLines(result.stdout)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('3 invalid inputs')
    for (const input of ['org', 'on-timeout', 'timeout-seconds']) expect(errors[0]).toContain(`Input \`${input}\``)
    expect(hub.requests).toEqual([])
  })

  it('never echoes the password of a hub-url with credentials', async () => {
    const result = await act({ ...goodInputs(), 'hub-url': hub.url.replace('http://', 'http://ci:s3cr3t-pass@') })
    expect(result.code).toBe(1)
    expect(result.stdout).not.toContain('s3cr3t-pass')
    expect(result.stderr).not.toContain('s3cr3t-pass')
    expect(hub.requests).toEqual([])
  })
})

describe('an input the command does not read', () => {
  /** What the runner passes besides `with:`: every action.yml default (the workflow token for github-token). */
  const runnerDefaults = {
    command: 'run',
    'idempotency-key': 'auto',
    'session-id': 'auto',
    'timeout-seconds': '1800',
    'max-depth': '5',
    'impact-source': 'query',
    comment: 'update',
    'github-token': 'ghs_workflowToken000000000000000000000',
  }

  it('gets one warning naming it and the commands that read it; the step still runs', async () => {
    const result = await act({ ...runnerDefaults, ...goodInputs(), 'max-depth': '7', 'fail-on-downstream': 'any' })
    expect(result.code).toBe(0)
    expect(result.stdout.split('\n').filter((line) => line.startsWith('::warning::'))).toEqual([
      "::warning::Input `max-depth` is set but `command: run` does not read it; it is read by `impact`. Remove it, or check the step's command.",
      "::warning::Input `fail-on-downstream` is set but `command: run` does not read it; it is read by `impact`. Remove it, or check the step's command.",
    ])
  })

  it('is not reported when it holds the default the runner passes anyway', async () => {
    const result = await act({ ...runnerDefaults, ...goodInputs() })
    expect(result.code).toBe(0)
    expect(result.stdout).not.toContain('::warning::')
  })
})
