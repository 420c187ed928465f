/**
 * Shapes of hub answers, checked at the boundary. Loose objects: the hub adds fields over
 * time and we must tolerate them; every field the spec calls optional may be absent.
 */
import { z } from 'zod'

const optionalNumber = z.number().optional()
const optionalString = z.string().optional()

const RunStepSchema = z.looseObject({
  id: optionalString,
  tool: z.string().default('(unnamed tool)'),
  args: z.unknown().optional(),
  result: z.unknown().optional(),
  outcome: z.string().default('unknown'),
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
  hasOutput: z.boolean().optional(),
  inputTokens: z.number().default(0),
  outputTokens: z.number().default(0),
  usdMicros: z.number().default(0),
  createdAt: optionalString,
  startedAt: optionalString,
  finishedAt: optionalString,
  durationMS: optionalNumber,
  input: optionalString,
  output: optionalString,
  sources: z.array(z.string()).optional(),
  pending: z.looseObject({ inboxID: optionalString, tool: optionalString, args: z.unknown().optional() }).optional(),
  steps: z.array(RunStepSchema).default([]),
  children: z.array(z.unknown()).default([]),
})

/** One of a run's children (delegated or spawned runs): a summary; anything else is ignored. */
export const ChildRunSchema = z.looseObject({
  id: optionalString,
  agent: optionalString,
  phase: optionalString,
  class: optionalString,
  trigger: optionalString,
})

export const CreateRunResponseSchema = z.looseObject({
  runId: z.string().min(1),
  phase: z.string(),
  reused: z.boolean().optional(),
  run: RunDetailSchema.optional(),
})

export const AgentSchema = z.looseObject({
  metadata: z.looseObject({ name: optionalString }).optional(),
  status: z.looseObject({ phase: optionalString, suspendedReason: optionalString }).optional(),
})

/** `GET /api/whoami`: an empty `workspaceUUID` is the silent fallback to the personal org. */
export const WhoAmISchema = z.looseObject({
  tenantPath: optionalString,
  orgUUID: optionalString,
  workspaceUUID: optionalString,
  user: z.unknown().optional(),
})

export type RunStep = z.infer<typeof RunStepSchema>
export type RunDetail = z.infer<typeof RunDetailSchema>
export type CreateRunResponse = z.infer<typeof CreateRunResponseSchema>
export type AgentObject = z.infer<typeof AgentSchema>
export type WhoAmI = z.infer<typeof WhoAmISchema>
