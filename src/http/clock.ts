/**
 * Time as the hub clients read it: one clock for deadlines and the waits between attempts,
 * replaceable as a whole so a test that moves time moves both.
 */
export interface Clock {
  /** Milliseconds since the epoch, as deadlines are written. */
  now: () => number
  /** Resolves after `ms`, or early (without throwing) when the signal aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** setTimeout that ends early, without throwing, when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
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
