/**
 * Run phases. The server spells them PascalCase; the contract shows lowercase; some hubs may
 * send either. We compare without case and always report the canonical spelling.
 * @internal
 */
export const KNOWN_PHASES = ['Pending', 'Running', 'PendingApproval', 'Succeeded', 'Failed', 'Aborted'] as const
type KnownPhase = (typeof KNOWN_PHASES)[number]

const byLowerCase = new Map<string, KnownPhase>(KNOWN_PHASES.map((phase) => [phase.toLowerCase(), phase]))

/** Canonical spelling of a known phase; an unknown phase is passed through as the hub sent it. */
export function canonicalPhase(phase: string): string {
  return byLowerCase.get(phase.replace(/[\s_-]/g, '').toLowerCase()) ?? phase
}

export function isTerminal(phase: string): boolean {
  const canonical = canonicalPhase(phase)
  return canonical === 'Succeeded' || canonical === 'Failed' || canonical === 'Aborted'
}

/** The hub stops holding a wait for these: terminal phases plus the approval gate. */
export function isSettled(phase: string): boolean {
  return isTerminal(phase) || canonicalPhase(phase) === 'PendingApproval'
}
