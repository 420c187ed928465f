/**
 * The one time budget of a step: `timeout-seconds` from the moment the step began, read on one
 * clock. Every hub request (agents, graph, MCP) and every GitHub request of the step is bounded
 * by it: no attempt outlives it, no retry starts after it, and a step whose budget ran out inside
 * a request says what it waited on. Built once, in main.ts, from the command's settings.
 */
import { systemClock, type Clock } from './clock.js'

export class Budget {
  /** When the budget began (ms since epoch, on `clock`): the step's start, as its waits count it. */
  readonly startedAt: number
  /** When the budget ends (ms since epoch, on `clock`); undefined: unbounded (`timeout-seconds: 0` on `run`). */
  readonly deadline: number | undefined
  /** The command's `timeout-seconds`; 0: none. */
  readonly seconds: number
  /** The one clock the budget and every request's deadline are read on. */
  readonly clock: Clock

  /** `seconds`: the command's `timeout-seconds`; 0 or undefined is no budget. */
  constructor(seconds: number | undefined, clock: Clock = systemClock) {
    this.seconds = seconds ?? 0
    this.clock = clock
    this.startedAt = clock.now()
    this.deadline = seconds !== undefined && seconds > 0 ? this.startedAt + seconds * 1000 : undefined
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

  /** Milliseconds since the budget began. */
  spent(): number {
    return this.clock.now() - this.startedAt
  }

  /** The budget as messages name it: `timeout-seconds (120 s)`. */
  get named(): string {
    return `timeout-seconds (${this.seconds} s)`
  }

  /** What a step says when the budget ran out waiting on `who` (`The graph`): one sentence, no period. */
  ranOut(who: string): string {
    return `${who} did not answer within ${this.named}, the step's one time budget`
  }
}
