/** A JSON answer read with the caller's schema: the hub's words redacted, its shape checked. */
import * as z from '../zod.js'
import { redact, redactValue } from '../redact.js'
import { HubProtocolError } from './errors.js'
import type { HubResponse } from './request.js'

export function parseJsonAnswer<T>(
  answer: { status: number; contentType: string; body: string },
  request: { operation: string; schema: z.core.$ZodType<T> },
): HubResponse<T> {
  if (answer.status < 200 || answer.status >= 300) return { status: answer.status, data: undefined }
  const type = answer.contentType.toLowerCase()
  if (!type.includes('json')) {
    const html = type.includes('html')
    throw new HubProtocolError({
      operation: request.operation,
      status: answer.status,
      // The header is the server's words too: redacted as they are quoted.
      hubMessage: html
        ? 'an HTML page instead of JSON'
        : `a ${redact(answer.contentType) || 'body without Content-Type'} instead of JSON`,
      hint: html
        ? '`hub-url` seems to point at the portal or a wrong path: use the hub base URL that serves /services/providers/….'
        : 'Something between the action and the hub answered instead of the hub: check `hub-url` and any proxy in between.',
    })
  }
  let json: unknown
  try {
    // Every string the hub sends is redacted as it is received, before anything escapes or clips it.
    json = redactValue(JSON.parse(answer.body))
  } catch (cause) {
    throw new HubProtocolError({
      operation: request.operation,
      status: answer.status,
      hubMessage: 'a body that is not valid JSON',
      hint: 'The answer was cut or garbled on the way: try again, and check any proxy between the action and the hub.',
      cause,
    })
  }
  const parsed = z.safeParse(request.schema, json)
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ')
    throw new HubProtocolError({
      operation: request.operation,
      status: answer.status,
      hubMessage: `an unexpected body (${issues})`,
      hint: 'The hub speaks a different version of the API than this action expects: check `hub-url`, and report this with the hub version.',
      cause: parsed.error,
    })
  }
  return { status: answer.status, data: parsed.data }
}
