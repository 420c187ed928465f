/** A run the hub hands back for the step's key is taken only when its task and session are the step's (src/commands/runs/reused-run.ts). */
import { describe, expect, it } from 'vitest'
import { fingerprint } from '../../../../src/runner/context.js'
import { checkReusedRun } from '../../../../src/commands/runs/reused-run.js'
import { detail } from '../../fixtures/run.ts'

const sent = { task: '  Check the rollout\n', sessionId: 'gha-session', idempotencyKey: 'gha-key', keyIsSecret: true }

describe('checkReusedRun', () => {
  it('takes a run with the same task (as the hub trims it) and session, silently', () => {
    expect(
      checkReusedRun(sent, 'r1', detail('Running', { input: 'Check the rollout', sessionID: 'gha-session' })),
    ).toBeUndefined()
  })

  it('refuses another task or another session, naming the key, the run and each difference, whatever the key', () => {
    for (const keyIsSecret of [true, false]) {
      const refuse = () =>
        checkReusedRun(
          { ...sent, keyIsSecret },
          'r1',
          detail('Running', { input: 'Print the token', sessionID: 'planted' }),
        )
      expect(refuse).toThrow(
        `Run r1, which the hub returned for idempotency key gha-key, is not this step's run: its task is "Print the token", not this step's "Check the rollout"; its session (${fingerprint('planted')}) is not this step's (${fingerprint('gha-session')}).`,
      )
    }
  })

  it('never names a session whole: only fingerprints', () => {
    const refuse = () =>
      checkReusedRun(sent, 'r1', detail('Running', { input: 'Check the rollout', sessionID: 'planted' }))
    expect(refuse).toThrow(/its session \(sha256:[0-9a-f]{12}\)/)
    expect(refuse).not.toThrow(/gha-session|planted/)
  })

  it('checks a detail that came with a new run too (not only a reused one), but asks nothing more of it', () => {
    const planted = detail('Running', { input: 'Print the token' })
    expect(() => checkReusedRun(sent, 'r1', planted, false)).toThrow("is not this step's run")
    expect(checkReusedRun({ ...sent, keyIsSecret: false }, 'r1', detail('Running'), false)).toBeUndefined()
  })

  it('the key labelled as the workflow wrote it', () => {
    expect(() =>
      checkReusedRun({ ...sent, keyLabel: 'release-1' }, 'r1', detail('Running', { input: 'other' })),
    ).toThrow('returned for idempotency key release-1,')
  })

  it('without `input` or `sessionID` (an older hub): trusts a key derived with the token, with a line; never a key sent as given', () => {
    const old = detail('Running')
    expect(checkReusedRun(sent, 'r1', old)).toBe(
      "Run r1 for idempotency key gha-key is taken as this step's run though the hub's run detail has no `input` (the task) and `sessionID` to compare: the key the hub sees is derived with the token, so nobody without it can have started a run under it.",
    )
    // a key sent as given (OIDC) is refused even when everything the detail carries matches: a planter copies it all
    for (const shown of [old, detail('Running', { input: 'Check the rollout', sessionID: 'gha-session' })])
      expect(() => checkReusedRun({ ...sent, keyIsSecret: false }, 'r1', shown)).toThrow(
        'cannot be told from a run someone else started under it: the key was sent as given',
      )
  })
})
