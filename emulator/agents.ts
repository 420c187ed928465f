// Agents provider of the hub emulator (docs/hub-facts.md, "Agents provider"), split by concern under agents/:
// scripts.ts (script types and DEFAULT_AGENTS), state.ts, runs.ts (the run state machine),
// views.ts, holds.ts, endpoints.ts (create, wait, cancel), inbox.ts (approvals), routes.ts
// (user and service-account routes) and provider.ts, which wires them.
export type { AgentScript } from './agents/scripts.ts'
export { DEFAULT_AGENTS } from './agents/scripts.ts'
export type { RunRecord } from './agents/views.ts'
export type { AgentsProvider } from './agents/provider.ts'
export { createAgentsProvider } from './agents/provider.ts'
