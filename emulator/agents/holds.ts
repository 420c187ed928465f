// Held requests: an inline wait or /wait answers when the run settles or its time is up, and
// reset() and close() release every hold so no request is left hanging.
import type http from 'node:http'
import { isSettled } from './state.ts'
import type { AgentsState, Run } from './state.ts'

export type Holds = ReturnType<typeof createHolds>

export function createHolds(st: AgentsState) {
  const { holds, opts } = st

  function hold(run: Run, ms: number, res: http.ServerResponse): Promise<void> {
    if (st.closed || isSettled(run.phase) || ms <= 0) return Promise.resolve()
    return new Promise((resolve) => {
      let done = false
      const finish = (): void => {
        if (done) return
        done = true
        clearTimeout(timer)
        run.waiters.delete(onChange)
        holds.delete(finish)
        res.off('close', finish)
        resolve()
      }
      const onChange = (): void => {
        if (isSettled(run.phase)) finish()
      }
      const timer = setTimeout(finish, ms)
      timer.unref()
      run.waiters.add(onChange)
      holds.add(finish)
      res.on('close', finish)
    })
  }

  /** A timer that reset() and close() end early, so no request is left hanging on one. */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer)
        holds.delete(finish)
        resolve()
      }
      const timer = setTimeout(finish, ms)
      timer.unref()
      holds.add(finish)
    })
  }

  const capHold = (ms: number): number => (opts.maxHoldMs !== undefined ? Math.min(ms, opts.maxHoldMs) : ms)

  function releaseHolds(): void {
    for (const h of [...holds]) h()
    holds.clear()
  }

  return { hold, pause, capHold, releaseHolds }
}
