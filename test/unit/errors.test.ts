import { describe, expect, it } from 'vitest'
import { ActionError, renderError } from '../../src/errors.js'
import { GitHubError } from '../../src/github/errors.js'
import {
  HubAuthError,
  HubConnectionError,
  HubNotFoundError,
  HubProtocolError,
  HubServerError,
  HubWorkspaceError,
  type HubError,
} from '../../src/hub/errors.js'
import { OidcError } from '../../src/runner/oidc.js'
import { InputError } from '../../src/settings/settings.js'
import { checkWorkspace } from '../../src/hub/workspace-check.js'
import { StepRefusal } from '../../src/commands/runs/approve.js'

describe('the error root', () => {
  it('is what every reported failure extends, with its operation, hint and cause', () => {
    const cause = new Error('socket hang up')
    const errors = [
      new HubAuthError({ operation: 'start a run', hint: 'Check `token`.', status: 401, cause }),
      new GitHubError({
        operation: 'list the files of pull request #7',
        hint: 'Check `github-token`.',
        status: 403,
        cause,
      }),
      new OidcError('GitHub refused the OIDC token request.', { hint: 'check the audience', cause }),
      new InputError(['`timeout-seconds` must be a number']),
    ]
    for (const error of errors) {
      expect(error).toBeInstanceOf(ActionError)
      expect(error.operation).not.toBe('')
      expect(error.hint).not.toBe('')
    }
    expect(errors.map((error) => error.name)).toEqual(['HubAuthError', 'GitHubError', 'OidcError', 'InputError'])
    expect(errors.slice(0, 3).map((error) => error.cause)).toEqual([cause, cause, cause])
    expect(errors[0]?.message).toBe('Could not start a run (hub answered 401). Check `token`.')
  })
})

describe('renderError: the one renderer, the same words as before errors were data', () => {
  it('renders a hub failure from its data: status, reason, the hub’s words, the hint', () => {
    const cases: Array<[HubError, string]> = [
      [
        new HubNotFoundError({
          operation: 'get run r1',
          status: 404,
          reason: 'NotFound',
          hubMessage: 'run r1 not found',
          hint: 'Check `run-id`.',
        }),
        'Could not get run r1 (hub answered 404 NotFound: run r1 not found). Check `run-id`.',
      ],
      [
        new HubServerError({ operation: 'wait for run r1', status: 502, hint: 'Try again.' }),
        'Could not wait for run r1 (hub answered 502). Try again.',
      ],
      [
        new HubProtocolError({
          operation: 'list agents',
          hubMessage: 'an HTML page instead of JSON',
          hint: 'Check `hub-url`.',
        }),
        'Could not list agents (hub answered an error: an HTML page instead of JSON). Check `hub-url`.',
      ],
      [
        new HubConnectionError({
          operation: 'start a run of agent "triage"',
          hint: 'The connection to hub.example failed (ECONNREFUSED).',
        }),
        'Could not start a run of agent "triage". The connection to hub.example failed (ECONNREFUSED).',
      ],
    ]
    for (const [error, text] of cases) {
      expect(renderError(error)).toBe(text)
      // The message is the same rendering, kept for stack traces and cause chains.
      expect(error.message).toBe(text)
    }
  })

  it('renders GitHub failures, answered or not, with and without a hint', () => {
    expect(
      renderError(
        new GitHubError({
          operation: 'list the files of pull request #7',
          status: 403,
          githubMessage: 'Forbidden',
          hint: 'Give the job a permission.',
        }),
      ),
    ).toBe('Could not list the files of pull request #7 (GitHub answered 403: Forbidden). Give the job a permission.')
    expect(
      renderError(
        new GitHubError({
          operation: 'call GET /repos',
          githubMessage: 'ECONNRESET: socket hang up',
          hint: 'Check the network.',
        }),
      ),
    ).toBe('Could not call GET /repos (no answer from GitHub: ECONNRESET: socket hang up). Check the network.')
    expect(renderError(new GitHubError({ operation: 'create a comment', status: 418, hint: '' }))).toBe(
      'Could not create a comment (GitHub answered 418).',
    )
  })

  it('renders input problems, one or several, and the statement-shaped failures', () => {
    expect(renderError(new InputError(['`timeout-seconds` must be a number']))).toBe(
      'Invalid input: `timeout-seconds` must be a number',
    )
    expect(renderError(new InputError(['a is wrong', 'b is wrong']))).toBe(
      '2 invalid inputs:\n- a is wrong\n- b is wrong',
    )
    expect(
      renderError(
        new OidcError('Input `oidc-audience` is set but the runner offers no OIDC token', { hint: 'pass `token`' }),
      ),
    ).toBe('Input `oidc-audience` is set but the runner offers no OIDC token: pass `token`.')
    expect(renderError(new StepRefusal('Run r1 is not waiting for approval: nothing was resolved.'))).toBe(
      'Run r1 is not waiting for approval: nothing was resolved.',
    )
  })

  it('changes a field by building a new error from the data, never by editing a message', () => {
    const first = new HubNotFoundError({
      operation: 'call the tool',
      status: 404,
      hubMessage: 'nope',
      hint: 'Old hint.',
    })
    const second = first.with({ hint: 'New hint.' }, HubAuthError)
    expect(second).toBeInstanceOf(HubAuthError)
    expect(renderError(second)).toBe('Could not call the tool (hub answered 404: nope). New hint.')
    expect(renderError(first)).toBe('Could not call the tool (hub answered 404: nope). Old hint.')
    expect(Object.isFrozen(first.data)).toBe(true)
    const relabelled = new GitHubError({ operation: 'call GET /x', status: 404, hint: 'h' }).with({
      operation: 'read a.yaml at main',
    })
    expect(renderError(relabelled)).toBe('Could not read a.yaml at main (GitHub answered 404). h')
  })
})

describe('the workspace proof', () => {
  const check = (answer: Record<string, string>) =>
    checkWorkspace({ whoami: async () => answer }, { org: 'o', workspace: 'w' }, 'graph', {
      signal: new AbortController().signal,
      log: () => {},
    }).then(
      (result) => result,
      (caught: unknown) => (caught instanceof HubWorkspaceError ? renderError(caught) : caught),
    )

  it('is whoami echoing the same workspace with a non-empty clusterID', async () => {
    expect(await check({ workspaceUUID: 'w', clusterID: 'c-1' })).toBe('confirmed')
  })

  it('an empty clusterID is a workspace an org-wide membership admits but nothing backs (docs/hub-facts.md, "Memberships and the workspace proof")', async () => {
    const said = await check({ workspaceUUID: 'w', clusterID: '' })
    expect(said).toContain(
      'the hub echoed the workspace but with no cluster behind it (GET /api/whoami answered an empty clusterID)',
    )
    expect(said).toContain('No graph query was sent.')
    expect(await check({ workspaceUUID: 'w' })).toContain('empty clusterID')
  })

  it('another workspace echoed is no proof either', async () => {
    expect(await check({ workspaceUUID: 'x', clusterID: 'c-1' })).toContain(
      'the hub resolved this token to another workspace (GET /api/whoami answered workspaceUUID "x")',
    )
  })

  it('an older hub without workspaceUUID proves nothing either way', async () => {
    expect(await check({})).toBe('unchecked')
  })
})

describe('the workspace preflight', () => {
  it('reports the fallback to the personal org as a hub error (the request was sent), in the same words', async () => {
    const client = { whoami: async () => ({ workspaceUUID: '' }) }
    const error = await checkWorkspace(client, { org: 'o', workspace: 'w' }, 'run', {
      signal: new AbortController().signal,
      log: () => {},
    }).then(
      () => undefined,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(HubWorkspaceError)
    expect(error).not.toBeInstanceOf(InputError)
    expect(renderError(error as HubWorkspaceError)).toBe(
      'Invalid input: `org`/`workspace` (org "o", workspace "w"): the hub resolved this token to no workspace (GET /api/whoami answered an empty workspaceUUID), which means it fell back to the user\'s personal org, so a run would start outside the workspace you named. Set org and workspace to the UUIDs of a workspace the token\'s user is a member of (the hub\'s workspace settings show both). No run was created.',
    )
  })
})

describe('the workspace preflight and a hub it cannot reach', () => {
  const asked = (failure: Error) => {
    const logs: string[] = []
    const outcome = checkWorkspace(
      {
        whoami: async () => {
          throw failure
        },
      },
      { org: 'o', workspace: 'w' },
      'run',
      { signal: new AbortController().signal, log: (line) => logs.push(line) },
    ).then(
      (result) => result,
      (caught: unknown) => caught,
    )
    return { outcome, logs }
  }

  it('stops at a refused connection with one message: what follows would be refused too', async () => {
    const refused = new HubConnectionError({
      operation: 'read who the hub takes this token for',
      hint: 'The connection to 127.0.0.1:8787 was refused (ECONNREFUSED): nothing listens there.',
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    })
    const { outcome, logs } = asked(refused)
    const error = await outcome
    expect(error).toBeInstanceOf(HubConnectionError)
    expect(renderError(error as HubError)).toBe(
      'Could not check the workspace before starting (GET /api/whoami). The connection to 127.0.0.1:8787 was refused (ECONNREFUSED): nothing listens there. No run was created.',
    )
    expect(logs).toEqual([])
  })

  it('goes on after an attempt that timed out: the agents provider may be slow where the rest is not', async () => {
    const slow = new HubConnectionError({
      operation: 'read who the hub takes this token for',
      hint: 'No answer from hub.example.com within 10 s: check that the hub is up and reachable from the runner.',
      cause: Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }),
    })
    const { outcome, logs } = asked(slow)
    expect(await outcome).toBe('unchecked')
    expect(logs[0]).toContain('Could not check the workspace before starting (GET /api/whoami)')
    expect(logs[0]).toContain('Going on.')
  })
})
