import { describe, expect, it } from 'vitest'
import { KNOWN_PHASES, canonicalPhase, isSettled, isTerminal } from '../../../src/hub/schemas.js'

describe('canonicalPhase', () => {
  it.each([
    ['pending', 'Pending'],
    ['running', 'Running'],
    ['pendingapproval', 'PendingApproval'],
    ['succeeded', 'Succeeded'],
    ['failed', 'Failed'],
    ['aborted', 'Aborted'],
  ])('lowercase %s → %s', (given, expected) => {
    expect(canonicalPhase(given)).toBe(expected)
  })

  it('keeps PascalCase as is', () => {
    for (const phase of KNOWN_PHASES) expect(canonicalPhase(phase)).toBe(phase)
  })

  it.each([
    ['SUCCEEDED', 'Succeeded'],
    ['rUnNiNg', 'Running'],
    ['PENDING_APPROVAL', 'PendingApproval'],
    ['pending-approval', 'PendingApproval'],
    ['Pending Approval', 'PendingApproval'],
  ])('odd case/separators %s → %s', (given, expected) => {
    expect(canonicalPhase(given)).toBe(expected)
  })

  it('passes unknown phases through exactly as sent', () => {
    expect(canonicalPhase('Queued')).toBe('Queued')
    expect(canonicalPhase('weird Phase')).toBe('weird Phase')
    expect(canonicalPhase('')).toBe('')
  })
})

describe('isTerminal / isSettled', () => {
  it.each([
    ['Pending', false, false],
    ['running', false, false],
    ['PendingApproval', false, true],
    ['pendingapproval', false, true],
    ['Succeeded', true, true],
    ['failed', true, true],
    ['ABORTED', true, true],
    ['Queued', false, false],
    ['', false, false],
  ])('%s: terminal %s, settled %s', (phase, terminal, settled) => {
    expect(isTerminal(phase)).toBe(terminal)
    expect(isSettled(phase)).toBe(settled)
  })
})
