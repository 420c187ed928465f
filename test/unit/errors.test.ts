import { describe, expect, it } from 'vitest'
import { ActionError } from '../../src/errors.js'
import { GitHubError } from '../../src/github/errors.js'
import { HubAuthError } from '../../src/hub/errors.js'
import { OidcError } from '../../src/runner/oidc.js'
import { InputError } from '../../src/settings/settings.js'

describe('the error root', () => {
  it('is what every reported failure extends, with its operation, hint and cause', () => {
    const cause = new Error('socket hang up')
    const errors = [
      new HubAuthError({ operation: 'start a run', hint: 'Check `token`.', status: 401, cause }),
      new GitHubError({ operation: 'list the files of pull request #7', hint: 'Check `github-token`.', status: 403, cause }),
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
