// Graph provider and MCP aggregate endpoint of the hub emulator.
export * from './fleet.ts'
export * from './large-fleet.ts'
export * from './demo-fleet.ts'
export * from './relations.ts'
export * from './query.ts'
export * from './handler.ts'
export * from './mcp.ts'
export * from './mcp-impact.ts'
