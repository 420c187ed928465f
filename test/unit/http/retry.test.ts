import { describe, expect, it } from 'vitest'
import {
  DEFAULT_RETRY_POLICY,
  RETRYABLE_STATUS,
  backoffDelay,
  cameBackEarly,
  decideRetry,
  earlyWaitPause,
  parseRetryAfter,
  retryWait,
  type RetryPolicy,
} from '../../../src/http/retry.js'

const NOW = Date.parse('2025-03-01T12:00:00Z')
const policy: RetryPolicy = { maxAttempts: 5, baseDelayMs: 300, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 }
const half = () => 0.5

describe('decideRetry: which answers are retried', () => {
  it.each([408, 429, 502, 503, 504])('retries status %i', (status) => {
    const decision = decideRetry({ kind: 'status', status }, 1, true, policy, NOW, half)
    expect(decision.retry).toBe(true)
  })

  it.each([400, 401, 403, 404, 409, 500, 501])('never retries status %i', (status) => {
    expect(decideRetry({ kind: 'status', status }, 1, true, policy, NOW, half)).toEqual({ retry: false })
  })

  it('the retryable set is exactly 408, 429, 502, 503, 504', () => {
    expect([...RETRYABLE_STATUS].sort()).toEqual([408, 429, 502, 503, 504])
  })

  it("a policy's own retryStatus replaces the set (the GitHub client's adds 500)", () => {
    const github = { ...policy, retryStatus: new Set([500, 502]) }
    expect(decideRetry({ kind: 'status', status: 500 }, 1, true, github, NOW, half).retry).toBe(true)
    expect(decideRetry({ kind: 'status', status: 429 }, 1, true, github, NOW, half)).toEqual({ retry: false })
  })

  it('retries a connection error with backoff', () => {
    // attempt 1: ceiling 300 → 150 + 0.5 * 150
    expect(decideRetry({ kind: 'connection' }, 1, true, policy, NOW, half)).toEqual({ retry: true, delayMs: 225 })
  })

  it('never retries a request that may not be sent twice, whatever the outcome', () => {
    expect(decideRetry({ kind: 'status', status: 503 }, 1, false, policy, NOW, half)).toEqual({ retry: false })
    expect(decideRetry({ kind: 'connection' }, 1, false, policy, NOW, half)).toEqual({ retry: false })
    expect(decideRetry({ kind: 'status', status: 429, retryAfter: '1' }, 1, false, policy, NOW, half)).toEqual({
      retry: false,
    })
  })

  it('stops once maxAttempts attempts have been made', () => {
    expect(decideRetry({ kind: 'connection' }, 4, true, policy, NOW, half).retry).toBe(true)
    expect(decideRetry({ kind: 'connection' }, 5, true, policy, NOW, half)).toEqual({ retry: false })
    expect(decideRetry({ kind: 'connection' }, 6, true, policy, NOW, half)).toEqual({ retry: false })
    const single = { ...policy, maxAttempts: 1 }
    expect(decideRetry({ kind: 'status', status: 503 }, 1, true, single, NOW, half)).toEqual({ retry: false })
  })

  it('default policy: 5 attempts, 300 ms base, 8 s cap, 60 s longest Retry-After', () => {
    expect(DEFAULT_RETRY_POLICY).toEqual({
      maxAttempts: 5,
      baseDelayMs: 300,
      maxDelayMs: 8_000,
      maxRetryAfterMs: 60_000,
    })
  })
})

describe('decideRetry: Retry-After', () => {
  it('honours delta-seconds exactly', () => {
    expect(decideRetry({ kind: 'status', status: 429, retryAfter: '7' }, 1, true, policy, NOW, half)).toEqual({
      retry: true,
      delayMs: 7_000,
    })
    expect(decideRetry({ kind: 'status', status: 503, retryAfter: ' 2 ' }, 2, true, policy, NOW, half)).toEqual({
      retry: true,
      delayMs: 2_000,
    })
  })

  it('Retry-After 0 means retry at once', () => {
    expect(decideRetry({ kind: 'status', status: 429, retryAfter: '0' }, 1, true, policy, NOW, half)).toEqual({
      retry: true,
      delayMs: 0,
    })
  })

  it('honours an HTTP date relative to now', () => {
    const at = new Date(NOW + 30_000).toUTCString()
    expect(decideRetry({ kind: 'status', status: 429, retryAfter: at }, 1, true, policy, NOW, half)).toEqual({
      retry: true,
      delayMs: 30_000,
    })
  })

  it('an HTTP date in the past retries at once, never with a negative delay', () => {
    const at = new Date(NOW - 10_000).toUTCString()
    expect(decideRetry({ kind: 'status', status: 503, retryAfter: at }, 1, true, policy, NOW, half)).toEqual({
      retry: true,
      delayMs: 0,
    })
  })

  it('a Retry-After longer than maxRetryAfterMs ends the retries', () => {
    expect(decideRetry({ kind: 'status', status: 429, retryAfter: '60' }, 1, true, policy, NOW, half)).toEqual({
      retry: true,
      delayMs: 60_000,
    })
    expect(decideRetry({ kind: 'status', status: 429, retryAfter: '61' }, 1, true, policy, NOW, half)).toEqual({
      retry: false,
    })
    const far = new Date(NOW + 3_600_000).toUTCString()
    expect(decideRetry({ kind: 'status', status: 503, retryAfter: far }, 1, true, policy, NOW, half)).toEqual({
      retry: false,
    })
  })

  it('an unreadable Retry-After falls back to backoff', () => {
    expect(decideRetry({ kind: 'status', status: 429, retryAfter: 'soon' }, 1, true, policy, NOW, half)).toEqual({
      retry: true,
      delayMs: 225,
    })
  })

  it('Retry-After does not make a non-retryable status retryable', () => {
    expect(decideRetry({ kind: 'status', status: 500, retryAfter: '1' }, 1, true, policy, NOW, half)).toEqual({
      retry: false,
    })
  })

  it('parseRetryAfter reads seconds and dates, and rejects the rest', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000)
    expect(parseRetryAfter(new Date(NOW + 5_000).toUTCString(), NOW)).toBe(5_000)
    expect(parseRetryAfter('later', NOW)).toBeUndefined()
    expect(parseRetryAfter('', NOW)).toBeUndefined()
  })

  it('parseRetryAfter rounds fractional seconds up, and refuses negative seconds and dates without words', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0)
    expect(parseRetryAfter('1.5', NOW)).toBe(1_500)
    expect(parseRetryAfter('0.0001', NOW)).toBe(1)
    expect(parseRetryAfter('-1', NOW)).toBeUndefined()
    // Date.parse would read these as dates.
    expect(parseRetryAfter('1.5.2', NOW)).toBeUndefined()
    expect(parseRetryAfter('2015-10-21', NOW)).toBeUndefined()
    // A date already past is negative: the callers wait 0.
    expect(parseRetryAfter(new Date(NOW - 60_000).toUTCString(), NOW)).toBe(-60_000)
  })

  it('retryWait is the wait of decideRetry without the status rule: Retry-After, capped, else backoff', () => {
    const waits = { baseDelayMs: 1_000, maxDelayMs: 60_000, maxRetryAfterMs: 60_000 }
    expect(retryWait('2', 1, waits, NOW, half)).toBe(2_000)
    expect(retryWait(new Date(NOW - 60_000).toUTCString(), 1, waits, NOW, half)).toBe(0)
    expect(retryWait('61', 1, waits, NOW, half)).toBeUndefined()
    expect(retryWait(undefined, 2, waits, NOW, half)).toBe(1_500)
    expect(retryWait('soon', 1, waits, NOW, half)).toBe(750)
  })
})

describe('backoff', () => {
  it('doubles per attempt from the base, with jitter in [ceiling/2, ceiling]', () => {
    const zero = () => 0
    const one = () => 0.999_999_999
    // ceilings: 300, 600, 1200, 2400, 4800, 8000 (capped)
    const ceilings = [300, 600, 1200, 2400, 4800, 8000, 8000]
    ceilings.forEach((ceiling, index) => {
      const attempt = index + 1
      expect(backoffDelay(attempt, policy, zero)).toBe(ceiling / 2)
      expect(backoffDelay(attempt, policy, one)).toBe(ceiling)
      expect(backoffDelay(attempt, policy, half)).toBe(Math.round((ceiling * 3) / 4))
    })
  })

  it('decideRetry never exceeds the cap, even late', () => {
    const many = { ...policy, maxAttempts: 50 }
    for (let attempt = 1; attempt < 50; attempt++) {
      for (const r of [0, 0.25, 0.5, 0.75, 0.999_999]) {
        const decision = decideRetry({ kind: 'connection' }, attempt, true, many, NOW, () => r)
        if (!decision.retry) throw new Error(`attempt ${attempt} was not retried`)
        expect(decision.delayMs).toBeLessThanOrEqual(8_000)
        expect(decision.delayMs).toBeGreaterThanOrEqual(150)
      }
    }
    expect(decideRetry({ kind: 'connection' }, 30, true, many, NOW, () => 0)).toEqual({ retry: true, delayMs: 4_000 })
  })

  it('uses the injected random source', () => {
    const values = [0.1, 0.9]
    const random = () => values.shift() ?? 0
    expect(decideRetry({ kind: 'status', status: 502 }, 3, true, policy, NOW, random)).toEqual({
      retry: true,
      delayMs: 660, // 600 + 0.1 * 600
    })
    expect(decideRetry({ kind: 'status', status: 502 }, 3, true, policy, NOW, random)).toEqual({
      retry: true,
      delayMs: 1140, // 600 + 0.9 * 600
    })
  })
})

describe('pacing of waits that come back early', () => {
  it('a wait is early when the hub held it for less than 90 % of the hold asked', () => {
    expect(cameBackEarly(3, 50_000)).toBe(true)
    expect(cameBackEarly(44_000, 50_000)).toBe(true)
    expect(cameBackEarly(45_000, 50_000)).toBe(false)
  })

  it('no pause before any early answer; then the interval grows to 8 s, with jitter, minus the time the wait took', () => {
    expect(earlyWaitPause(0, 0, () => 1)).toBe(0)
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((n) => earlyWaitPause(n, 0, () => 1))).toEqual([
      250, 500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ])
    expect(earlyWaitPause(6, 0, () => 0)).toBe(4_000)
    expect(earlyWaitPause(3, 400, () => 1)).toBe(600)
    expect(earlyWaitPause(3, 5_000, () => 1)).toBe(0)
  })
})
