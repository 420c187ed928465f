/** The step's one time budget (src/http/budget.ts): one deadline on one clock. */
import { describe, expect, it } from 'vitest'
import { Budget } from '../../../src/http/budget.ts'

const clockAt = (start: number) => {
  let now = start
  return { clock: { now: () => now, sleep: () => Promise.resolve() }, move: (ms: number) => (now += ms) }
}

describe('Budget', () => {
  it('ends timeout-seconds after it was built, on its own clock', () => {
    const { clock, move } = clockAt(1_000)
    const budget = new Budget(60, clock)
    expect(budget.deadline).toBe(61_000)
    expect(budget.left()).toBe(60_000)
    move(59_999)
    expect(budget.left()).toBe(1)
    move(1)
    expect(budget.left()).toBe(0)
  })

  it('bounds a caller deadline by its own end, and tells when its own end is the one that binds', () => {
    const { clock } = clockAt(0)
    const budget = new Budget(10, clock)
    expect(budget.bound(undefined)).toBe(10_000)
    expect(budget.bound(5_000)).toBe(5_000)
    expect(budget.bound(20_000)).toBe(10_000)
    expect(budget.binds(budget.bound(20_000))).toBe(true)
    expect(budget.binds(budget.bound(5_000))).toBe(false)
  })

  it('0 or none is no budget: unbounded, caller deadlines as they are', () => {
    for (const seconds of [0, undefined]) {
      const budget = new Budget(seconds, clockAt(0).clock)
      expect(budget.deadline).toBeUndefined()
      expect(budget.left()).toBe(Infinity)
      expect(budget.bound(5)).toBe(5)
      expect(budget.binds(undefined)).toBe(false)
    }
  })

  it('says what it waited on, naming the input and its value', () => {
    expect(new Budget(60, clockAt(0).clock).ranOut('The graph')).toBe(
      "The graph did not answer within timeout-seconds (60 s), the step's one time budget",
    )
  })
})
