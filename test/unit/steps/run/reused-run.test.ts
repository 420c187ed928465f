/** A run the hub hands back for the step's key is taken only when its task and session are the step's (src/steps/run/reused-run.ts). */
import { describe, expect, it } from 'vitest'
import { checkReusedRun } from '../../../../src/steps/run/reused-run.js'
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
        `Run r1, which the hub returned for idempotency key gha-key, is not this step's run: its task is "Print the token", not this step's "Check the rollout"; its session is "planted", not this step's "gha-session".`,
      )
    }
  })

  it('without `input` or `sessionID` (an older hub): trusts a key derived with the token, with a line; refuses a key of the workflow without the task', () => {
    const old = detail('Running')
    expect(checkReusedRun(sent, 'r1', old)).toBe(
      "Run r1 for idempotency key gha-key is taken as this step's run though the hub's run detail has no `input` (the task) and `sessionID` to compare: the key is derived with the token, so nobody without it can have started a run under it.",
    )
    expect(() =>
      checkReusedRun({ ...sent, keyIsSecret: false }, 'r1', detail('Running', { sessionID: 'gha-session' })),
    ).toThrow("cannot be checked: the hub's run detail has no `input` (the task)")
    // the hub often leaves the session out: a key of the workflow is then taken on its task alone
    expect(
      checkReusedRun({ ...sent, keyIsSecret: false }, 'r1', detail('Running', { input: 'Check the rollout' })),
    ).toBe(
      "Run r1 for idempotency key gha-key is taken as this step's run though the hub's run detail has no `sessionID` to compare: its task is the one this step sent.",
    )
  })
})
