/**
 * The one time budget of a step: `timeout-seconds` from the moment the step began, read on one
 * clock. Every hub request (agents, graph, MCP) and every GitHub request of the step is bounded
 * by it: no attempt outlives it, no retry starts after it, and a step whose budget ran out inside
 * a request says what it waited on. Built once, in main.ts, from the command's settings.
 */
import { systemClock, type Clock } from './retry.js'

export class Budget {
  /** When the budget ends (ms since epoch, on `clock`); undefined: unbounded (`timeout-seconds: 0` on `run`). */
  readonly deadline: number | undefined
  /** The command's `timeout-seconds`. */
  readonly seconds: number | undefined
  /** The one clock the budget and every request's deadline are read on. */
  readonly clock: Clock

  /** `seconds`: the command's `timeout-seconds`; 0 or undefined is no budget. */
  constructor(seconds: number | undefined, clock: Clock = systemClock) {
    this.seconds = seconds
    this.clock = clock
    this.deadline = seconds !== undefined && seconds > 0 ? clock.now() + seconds * 1000 : undefined
  }

  /** Milliseconds left (Infinity when unbounded; 0 or less once spent). */
  left(): number {
    return this.deadline === undefined ? Infinity : this.deadline - this.clock.now()
  }

  /** The earlier of the budget's end and a caller's own `deadline`. */
  bound(deadline: number | undefined): number | undefined {
    if (this.deadline === undefined) return deadline
    return deadline === undefined ? this.deadline : Math.min(deadline, this.deadline)
  }

  /** True when `deadline` is the budget's own end (not an earlier one the caller set). */
  binds(deadline: number | undefined): boolean {
    return deadline !== undefined && deadline === this.deadline
  }

  /** What a step says when the budget ran out waiting on `who` (`The graph`): one sentence, no period. */
  ranOut(who: string): string {
    return `${who} did not answer within timeout-seconds (${this.seconds ?? 0} s), the step's one time budget`
  }
}
