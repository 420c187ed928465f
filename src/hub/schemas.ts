/**
 * Shapes of hub answers, checked at the boundary. Loose objects: the hub adds fields over
 * time and we must tolerate them; every field the spec calls optional may be absent. Then how
 * a run's `phase` is read, whatever its spelling.
 */
import * as z from '../zod.js'

const optionalNumber = z.optional(z.number())
const optionalString = z.optional(z.string())

/** One step of an agent's run (a tool call), as the run detail lists it; not a step of this action. */
const AgentStepSchema = z.looseObject({
  id: optionalString,
  tool: z._default(z.string(), '(unnamed tool)'),
  args: z.optional(z.unknown()),
  result: z.optional(z.unknown()),
  outcome: z._default(z.string(), 'unknown'),
  error: optionalString,
  durationMS: optionalNumber,
  at: optionalString,
})

export const RunDetailSchema = z.looseObject({
  id: z.string(),
  agent: optionalString,
  sessionID: optionalString,
  trigger: optionalString,
  class: optionalString,
  parentRunID: optionalString,
  phase: z.string(),
  attempt: optionalNumber,
  inputPreview: optionalString,
  message: optionalString,
  hasOutput: z.optional(z.boolean()),
  inputTokens: z._default(z.number(), 0),
  outputTokens: z._default(z.number(), 0),
  usdMicros: z._default(z.number(), 0),
  createdAt: optionalString,
  startedAt: optionalString,
  finishedAt: optionalString,
  durationMS: optionalNumber,
  input: optionalString,
  output: optionalString,
  sources: z.optional(z.array(z.string())),
  pending: z.optional(z.looseObject({ inboxID: optionalString, tool: optionalString, args: z.optional(z.unknown()) })),
  steps: z._default(z.array(AgentStepSchema), []),
  children: z._default(z.array(z.unknown()), []),
})

/**
 * One of a run's children (delegated or spawned runs): a summary; anything else is ignored. Its
 * cost and tokens are read only when the hub sent them (absent is "not reported", not zero).
 */
export const ChildRunSchema = z.looseObject({
  id: optionalString,
  agent: optionalString,
  phase: optionalString,
  class: optionalString,
  trigger: optionalString,
  inputTokens: optionalNumber,
  outputTokens: optionalNumber,
  usdMicros: optionalNumber,
})

export const CreateRunResponseSchema = z.looseObject({
  runId: z.string().check(z.minLength(1)),
  phase: z.string(),
  reused: z.optional(z.boolean()),
  run: z.optional(RunDetailSchema),
})

export const AgentSchema = z.looseObject({
  metadata: z.optional(z.looseObject({ name: optionalString })),
  status: z.optional(z.looseObject({ phase: optionalString, suspendedReason: optionalString })),
})

/** `GET /api/whoami`: an empty `workspaceUUID` is the silent fallback to the personal org. */
export const WhoAmISchema = z.looseObject({
  tenantPath: optionalString,
  orgUUID: optionalString,
  workspaceUUID: optionalString,
  clusterID: optionalString,
  user: z.optional(z.unknown()),
})

export type AgentStep = z.infer<typeof AgentStepSchema>
export type RunDetail = z.infer<typeof RunDetailSchema>
export type CreateRunResponse = z.infer<typeof CreateRunResponseSchema>
export type AgentObject = z.infer<typeof AgentSchema>
export type WhoAmI = z.infer<typeof WhoAmISchema>

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
