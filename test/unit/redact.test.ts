/**
 * The one redactor (src/redact.ts): a secret in any form an encoding step of the action gives it
 * (escape, entity, look-alike, JSON, URL, clip) is caught. Each encoding step is fed a planted
 * secret; what it makes is judged, after the sink's redaction, by an independent decoder
 * (test/oracles/secret-traces.ts) and, for markdown, by cmark-gfm's rendering.
 */
import { describe, expect, it } from 'vitest'
import { redact, redactValue, registerSecret } from '../../src/redact.js'
import { clipBytes, clipCharacters, code, details, inline, table } from '../../src/markdown/format.js'
import { untrustedMarkdown } from '../../src/markdown/untrusted.js'
import { jsonTextForDisplay } from '../../src/markdown/json-text.js'
import { mermaidText, renderMermaid } from '../../src/commands/impact/mermaid.js'
import { stepLogLine } from '../../src/commands/runs/live-steps.js'
import { quoteHubText } from '../../src/commands/runs/approve.js'
import { quoteInput } from '../../src/settings/fields.js'
import { toGitHubError } from '../../src/github/errors.js'
import { renderRunSummary } from '../../src/commands/runs/summary.js'
import { renderImpactReport, renderImpactVerdictLine } from '../../src/commands/impact/impact-report.js'
import type { ImpactReport, RelatedObject } from '../../src/commands/impact/model.js'
import type { Target } from '../../src/model/target.js'
import type { RunResult } from '../../src/commands/runs/loop.js'
import { CMARK_GFM, renderGfm } from '../oracles/gfm.ts'
import { secretTraces } from '../oracles/secret-traces.ts'
import { spellings } from '../fixtures/spelled-secrets.ts'

/** Three shapes: a JWT (base64url: `_`, `-`), standard base64 (`+`, `/`, `=`), and one with `"` and `\`. */
export const TOKEN_SHAPES = {
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyZWRhY3QifQ.q_Zx-9Lm_Tn-Ab4_Cd-Ef0Gh',
  base64: 'c2VjcmV0K3Rva2Vu/Zm9v+YmFy=Ym/F6+cXV4==',
  quoted: 'hub"tok\\en"9f3a\\8b2c_d4e5Xy',
} as const
for (const secret of Object.values(TOKEN_SHAPES)) registerSecret(secret)

/** The traces of `secret` in text as the sink writes it, and in its GFM rendering when it is markdown. */
function leaks(text: string, secret: string, markdown = false): string[] {
  const written = redact(text)
  const rendered = markdown && CMARK_GFM ? renderGfm(written) : ''
  return [...secretTraces(written, secret), ...secretTraces(rendered, secret).map((piece) => `rendered: ${piece}`)]
}

describe.each(Object.entries(TOKEN_SHAPES))('a %s-shaped secret', (_shape, secret) => {
  /** Each encoding step with the secret planted; `clipped` steps cut it at their boundary. */
  const steps: Record<string, { text: string; markdown?: boolean }> = {
    'format.ts inline': { text: inline(`said ${secret} twice ${secret}`), markdown: true },
    'format.ts htmlText (details summary)': { text: details(`about ${secret}`, 'body'), markdown: true },
    'format.ts table-cell pipes': {
      text: table([{ header: 'a', cell: (row: string) => code(row) }], [`${secret}|x`]),
      markdown: true,
    },
    'untrusted.ts escapeText and paragraphLines': {
      text: untrustedMarkdown(`${secret}\n${secret} **b**`).markdown,
      markdown: true,
    },
    'untrusted.ts code-span pipes': {
      text: untrustedMarkdown(`| a | b |\n| - | - |\n| \`${secret}\` | x |`).markdown,
      markdown: true,
    },
    'untrusted.ts URL normalisation': {
      text: untrustedMarkdown(`[see](https://example.com/a/${secret}?t=${encodeURIComponent(secret)})`).markdown,
      markdown: true,
    },
    'mermaid.ts look-alikes': { text: mermaidText(`${secret} (x)`) },
    'mermaid.ts the 60-character cut': { text: mermaidText(`${'x'.repeat(60 - 20)}${secret}`) },
    'summary.ts clip (characters)': {
      text: inline(clipCharacters(`${'a'.repeat(20)}${secret}`, 40, ' …(clipped)').text),
      markdown: true,
    },
    'summary.ts clip (bytes)': { text: clipBytes(`${'a'.repeat(20)}${secret}`, 50, '\n…(clipped)').text },
    'json-text.ts clip': { text: jsonTextForDisplay(JSON.stringify({ token: secret, more: 1 }), 32) },
    'live-steps.ts clip': {
      text: stepLogLine({ number: 1, step: { tool: `${'t'.repeat(70)}${secret}`, outcome: 'error', error: secret } }),
    },
    'approve.ts quote': { text: `${quoteHubText(secret)} ${quoteHubText(`${'q'.repeat(180)}${secret}`)}` },
    'fields.ts quoteInput()': { text: `${quoteInput(secret)} ${quoteInput(`${'s'.repeat(60)}${secret}`)}` },
  }

  it.each(Object.keys(steps))('is caught after %s', (name) => {
    const step = steps[name]!
    expect(
      secretTraces(step.text, secret).length,
      'the step carried the secret (else this proves nothing)',
    ).toBeGreaterThan(0)
    expect(leaks(step.text, secret, step.markdown)).toEqual([])
  })

  it('is caught in a run summary: agent output, hub message, step and approval arguments, ids', () => {
    const result: RunResult = {
      agent: `agent-${secret}`,
      runId: `r-${secret}`,
      reused: false,
      phase: 'PendingApproval',
      settled: false,
      outcome: 'pending-approval',
      detail: {
        id: `r-${secret}`,
        phase: 'PendingApproval',
        inputTokens: 0,
        outputTokens: 0,
        usdMicros: 0,
        message: `failed: ${secret}`,
        output: `The token is \`${secret}\` and ${secret}.`,
        steps: [
          {
            tool: `tool_${secret}`,
            outcome: 'error',
            error: `${'e'.repeat(150)}${secret}`,
            args: JSON.stringify({ auth: secret }),
          },
        ],
        children: [],
        pending: { tool: 'deploy', args: JSON.stringify({ bearer: secret }), inboxID: 'inbox-1' },
        sources: [`https://example.com/?t=${secret}`],
      },
      waitedMs: 1000,
      budget: 'timeout-seconds (600 s)',
      cancel: undefined,
      idempotencyKey: 'gha-abc',
      sessionId: 's',
    } as unknown as RunResult
    const markdown = renderRunSummary(result, { status: 'fail', message: `Run r-${secret} waits.` })
    expect(secretTraces(markdown, secret).length).toBeGreaterThan(0)
    expect(leaks(markdown, secret, true)).toEqual([])
  })

  it('is caught in an impact report and its log line: object, edge and relation names', () => {
    const target: Target = {
      kind: 'Deployment',
      group: 'apps',
      namespace: 'shop',
      name: `app-${secret}`,
      origin: { kind: 'input' },
    }
    const related = (name: string): RelatedObject => ({
      group: '',
      kind: 'ConfigMap',
      namespace: `ns-${secret}`,
      name,
      relations: [`rel-${secret}`],
    })
    const impact = {
      target,
      edge: `edge-${secret}`,
      upstream: [related(secret)],
      downstream: [related(`${'d'.repeat(45)}${secret}`)],
      associated: [],
      incomplete: false,
    }
    const report: ImpactReport = {
      source: 'query',
      targets: [target],
      impacts: [impact],
      notFound: [],
      skippedFiles: [],
      skippedTargets: [],
      edges: [`edge-${secret}`],
      totals: { upstream: 1, downstream: 1, associated: 0 },
      maxDepth: 5,
      warnings: [`the hub said ${'w'.repeat(290)}${secret}`],
    }
    for (const budget of [65_000, 2_000]) {
      const markdown = renderImpactReport(report, { budget })
      expect(secretTraces(markdown, secret).length).toBeGreaterThan(0)
      expect(leaks(markdown, secret, true)).toEqual([])
    }
    expect(leaks(renderImpactVerdictLine(impact), secret)).toEqual([])
    expect(leaks(renderMermaid(impact), secret)).toEqual([])
  })

  it('is caught in a GitHub error, the body cut at its clip boundary', () => {
    const thrown = Object.assign(new Error(`HttpError ${secret}`), {
      name: 'HttpError',
      status: 500,
      response: { status: 500, headers: {}, data: `${'g'.repeat(190)}${secret}` },
    })
    const error = toGitHubError(thrown, { operation: 'read a file', apiUrl: 'https://api.github.com' })
    expect(secretTraces(error.message, secret)).toEqual([])
    expect(secretTraces(String(thrown.stack), secret)).toEqual([])
  })

  it('is caught as received: in parsed JSON values and keys, JSON-escaped, URL-encoded and in base64', () => {
    const received = redactValue(JSON.parse(JSON.stringify({ [secret]: [secret, { deep: `x ${secret} y` }], n: 1 })))
    expect(JSON.stringify(received)).toBe('{"***":["***",{"deep":"x *** y"}],"n":1}')
    expect(redact(JSON.stringify(JSON.stringify({ t: secret })))).not.toContain(secret.slice(0, 10))
    expect(redact(`?t=${encodeURIComponent(secret)}&u=1`)).toBe('?t=***&u=1')
    for (const before of ['', 'a', 'ab']) {
      const base64 = Buffer.from(`${before}${secret}!`).toString('base64')
      // What is left decodes to at most a few bytes at each end of the secret.
      expect(redact(base64).replace('***', '').length).toBeLessThan(12)
    }
  })
})

describe.each(Object.entries(TOKEN_SHAPES))('a %s-shaped secret, spelled', (_shape, secret) => {
  it.each(Object.entries(spellings(secret)))('with %s, is caught, raw and rendered', (_name, spelled) => {
    const text = `before ${spelled} after`
    expect(
      secretTraces(text, secret).length,
      'the spelling shows the secret to a reader (else this proves nothing)',
    ).toBeGreaterThan(0)
    expect(leaks(text, secret, true)).toEqual([])
    expect(redact(text)).toBe('before *** after')
  })
})

describe('the redactor', () => {
  it('leaves text without a secret alone, and a prefix of fewer than 8 characters or not at a clip', () => {
    const text = 'eyJhbGc… is a JWT header; c2VjcmV0K3 and hub"tok are not secrets; 10 * 3 = 30'
    expect(redact(text)).toBe(text)
    const spelled = 'caf&#233; &amp; cr&egrave;me, &#x1F600; \u200b #1; <U+202E> and ‍ joiners'
    expect(redact(spelled)).toBe(spelled)
    expect(redact(`${TOKEN_SHAPES.jwt.slice(0, 20)}X and more`)).toBe(`${TOKEN_SHAPES.jwt.slice(0, 20)}X and more`)
  })

  it('hides a credential-looking word after "Bearer", not the words of "invalid bearer token"', () => {
    expect(redact('Authorization: Bearer other.jwt-value_1')).toBe('Authorization: Bearer ***')
    expect(redact('invalid bearer token')).toBe('invalid bearer token')
  })

  it('ignores values too short to tell from ordinary words', () => {
    registerSecret('abc')
    registerSecret('')
    expect(redact('abc abc')).toBe('abc abc')
  })
})
