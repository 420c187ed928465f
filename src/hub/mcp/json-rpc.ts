/**
 * JSON-RPC 2.0 as MCP carries it: the response shape, finding our answer among the messages a
 * server sends (notifications, requests, batches), and the error codes we read.
 */
import * as z from '../../zod.js'
import { redact, redactValue } from '../../redact.js'
import type { RefusedAnswer } from '../transport.js'

const RpcId = z.union([z.string(), z.number(), z.null()])
const RpcResponse = z.looseObject({
  jsonrpc: z.literal('2.0'),
  id: RpcId,
  result: z.optional(z.unknown()),
  error: z.optional(z.looseObject({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) })),
})
export type RpcResponse = z.infer<typeof RpcResponse>
export type RpcError = NonNullable<RpcResponse['error']>

/** JSON-RPC "request timed out", as MCP servers use it. */
export const RPC_TIMEOUT_CODE = -32001

/** A request (with `id`) or a notification (without) as we send it; `jsonrpc` is added on the way. */
export interface Outgoing {
  method: string
  id?: number
  params?: unknown
}

/** What one POST came back with: our response, an acknowledgement (of a notification), or an HTTP refusal. */
export type Answer =
  RefusedAnswer | { kind: 'response'; response: RpcResponse; sessionId: string | undefined } | { kind: 'accepted' }

/** Our response in one JSON text, or why the text is not one a server may send. */
export type Found =
  | { kind: 'found'; response: RpcResponse | undefined }
  | { kind: 'not-json'; cause: unknown }
  | { kind: 'bad-shape'; error: z.core.$ZodError }

/** The JSON-RPC response with our id in one JSON text (a message or a batch), if any. */
export function findResponse(text: string, id: number): Found {
  let json: unknown
  try {
    // Every string the server sends is redacted as it is received, before anything escapes or clips it.
    json = redactValue(JSON.parse(text))
  } catch (cause) {
    return { kind: 'not-json', cause }
  }
  let orphanError: RpcResponse | undefined
  for (const message of Array.isArray(json) ? json : [json]) {
    // Notifications and requests from the server (progress, logging) are not our answer.
    if (!message || typeof message !== 'object' || !('id' in message) || 'method' in message) continue
    const parsed = RpcResponse.safeParse(message)
    if (!parsed.success) return { kind: 'bad-shape', error: parsed.error }
    const response = parsed.data
    if (response.id === id) return { kind: 'found', response }
    // A server that could not read our id answers with a null one.
    if (response.id === null && response.error) orphanError = response
  }
  return { kind: 'found', response: orphanError }
}

/** The aggregate's "unknown tool": a provider that failed discovery for this request has no tools. */
export function isUnknownTool(error: RpcError): boolean {
  return (error.code === -32602 || error.code === 0) && error.message.toLowerCase().includes('unknown tool')
}

/** The text of a JSON-RPC error body (`{"jsonrpc":"2.0","error":{…},"id":null}`), as MCP servers refuse at the HTTP level. */
export function rpcErrorText(answer: RefusedAnswer): string | undefined {
  if (!answer.contentType.toLowerCase().includes('json')) return undefined
  try {
    const parsed = JSON.parse(answer.body) as { error?: { message?: unknown } }
    return typeof parsed.error?.message === 'string' ? redact(parsed.error.message) : undefined
  } catch {
    return undefined
  }
}
