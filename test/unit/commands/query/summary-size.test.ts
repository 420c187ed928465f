/**
 * Query and dry-run summaries fit the job summary budget (GitHub rejects a step's summary over
 * 1 MiB and the step's report is then lost), whatever size the hub's names or the inputs are,
 * and point at the result file for the rest.
 */
import { describe, expect, it } from 'vitest'
import type { QueryResult } from '../../../../src/commands/query/run-query.js'
import { renderDryRun } from '../../../../src/commands/dry-run/summary.js'
import type { PlannedRequest } from '../../../../src/commands/command.js'
import { SUMMARY_BYTE_BUDGET } from '../../../../src/markdown/format.js'
import { renderQuerySummary } from '../../../../src/commands/query/summary.js'

const bytes = (text: string) => Buffer.byteLength(text, 'utf8')

function query(extra: Partial<QueryResult>): QueryResult {
  return {
    count: 20,
    pages: 1,
    stoppedBy: undefined,
    sample: [],
    edges: undefined,
    resultFile: '/tmp/q/query-result.json',
    ...extra,
  } as QueryResult
}

describe('renderQuerySummary: size', () => {
  it('clips 1 MB names: 20 of them fit, with the result file named', () => {
    const sample = Array.from({ length: 20 }, (_, i) => ({
      object: {
        kind: `K${'k'.repeat(1_000_000)}`,
        metadata: { name: `n${i}${'é'.repeat(1_000_000)}`, namespace: 'ns' },
      },
      cluster: `edge-${'e'.repeat(1_000_000)}`,
    }))
    const markdown = renderQuerySummary(query({ sample }), 10_000)
    expect(bytes(markdown)).toBeLessThanOrEqual(SUMMARY_BYTE_BUDGET)
    expect(markdown).toContain('First 20 of 20:')
    expect(markdown).toContain('written to `/tmp/q/query-result.json` (output `result-file`)')
  })

  it('clips a huge edge list when nothing matched', () => {
    const markdown = renderQuerySummary(
      query({ count: 0, edges: Array.from({ length: 10_000 }, (_, i) => `edge-${i}-${'x'.repeat(1_000)}`) }),
      10,
    )
    expect(bytes(markdown)).toBeLessThan(64 * 1024)
    expect(markdown).toContain('and 9,950 more')
  })
})

describe('renderDryRun: size', () => {
  const request = (body: unknown): PlannedRequest => ({
    method: 'POST',
    url: 'https://hub.example/api',
    headers: { authorization: 'Bearer ***' },
    body,
    note: 'start the run',
  })

  it('clips a huge body and counts the requests that do not fit, pointing at the result file', () => {
    const requests = Array.from({ length: 40 }, () => request({ task: 't'.repeat(2_000_000) }))
    const markdown = renderDryRun('run', requests)
    expect(bytes(markdown)).toBeLessThanOrEqual(SUMMARY_BYTE_BUDGET)
    expect(markdown).toContain('the result file (output `result-file`) holds every request in full')
    expect(markdown).toMatch(/… and \d+ more request\(s\)\./)
  })

  it('is unchanged for small requests', () => {
    const markdown = renderDryRun('run', [request({ task: 'hi' })])
    expect(markdown).not.toContain('[!NOTE]')
    expect(markdown).toContain('"task": "hi"')
  })
})
