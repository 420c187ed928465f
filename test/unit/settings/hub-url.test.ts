/**
 * `hub-url` carrying the hub's own API path is an input error naming the base URL to use
 * (issue 21); a path prefix the hub may be served under is left alone.
 */
import { describe, expect, it } from 'vitest'
import { hubUrl } from '../../../src/settings/fields.ts'

function messages(text: string): string[] {
  const result = hubUrl.safeParse(text)
  return result.success ? [] : result.error.issues.map((issue) => issue.message)
}

describe('hub-url with the hub API path', () => {
  it.each([
    ['https://hub.example.com/services', '/services', 'https://hub.example.com'],
    ['https://hub.example.com/services/', '/services', 'https://hub.example.com'],
    ['https://hub.example.com/api', '/api', 'https://hub.example.com'],
    [
      'https://hub.example.com/services/providers/agents/api',
      '/services/providers/agents/api',
      'https://hub.example.com',
    ],
    [
      'https://hub.example.com/services/providers/graph/api/query',
      '/services/providers/graph/api/query',
      'https://hub.example.com',
    ],
    ['https://corp.example/hub/services', '/services', 'https://corp.example/hub'],
    ['https://corp.example/hub/api/agents/triage/runs', '/api/agents/triage/runs', 'https://corp.example/hub'],
    ['https://hub.example.com/services/mcpserver/ws/mcp', '/services/mcpserver/ws/mcp', 'https://hub.example.com'],
  ])('%s is refused, naming the API path %s and the base URL %s', (text, path, base) => {
    expect(messages(text)).toEqual([
      `"${text}" carries the hub's API path (\`${path}\`), which the action adds itself (\`/services/providers/…\`), so every request would miss. Set \`hub-url\` to ${base}.`,
    ])
  })

  it.each([
    'https://hub.example.com',
    'https://corp.example/hub',
    'https://corp.example/services/hub',
    'https://corp.example/api-gateway/hub',
    'https://corp.example/apis/hub',
    'http://127.0.0.1:8080/hub/',
  ])('%s is a base URL (a prefix the hub may be served under)', (text) => expect(messages(text)).toEqual([]))
})
