/**
 * The one clock of the action: what time it is and how to wait, read by the step's time budget
 * (./budget.ts), the hub transport's and GitHub's retries, the run loop and the rollout poll.
 * Replaceable as a whole, so a test or a benchmark that moves time moves every deadline and
 * every wait with it.
 */

export interface Clock {
  /** Milliseconds since the epoch, as deadlines are written. */
  now: () => number
  /**
   * Resolves after `ms`, or early (without throwing) when the signal aborts: the caller checks
   * its signal afterwards and decides what an abort means (an interrupt, a cancel, a retry dropped).
   */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** setTimeout that ends early, without throwing, when the signal aborts. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

export const systemClock: Clock = Object.freeze({ now: () => Date.now(), sleep: abortableSleep })
