import { fingerprint } from '../../../../src/runner/context.ts'
import { describe, expect, it } from 'vitest'
import type { Verdict } from '../../../../src/runner/workflow.js'
import type { RunResult } from '../../../../src/commands/runs/loop.js'
import type { RunDetail } from '../../../../src/hub/schemas.js'
import { detail as runDetail } from '../../fixtures/run.js'
import { renderRunSummary } from '../../../../src/commands/runs/summary.js'
import { SUMMARY_BYTE_BUDGET } from '../../../../src/markdown/format.js'
import { CMARK_GFM, judgeGfm } from '../../../oracles/gfm.ts'

const detail = (extra: Partial<RunDetail> = {}): RunDetail => runDetail('Succeeded', { id: 'r-123', ...extra })

function result(extra: Partial<RunResult> = {}): RunResult {
  return {
    agent: 'triage',
    runId: 'r-123',
    reused: false,
    phase: 'Succeeded',
    settled: true,
    outcome: 'succeeded',
    detail: detail(),
    waitedMs: 70_000,
    budget: 'timeout-seconds (600 s)',
    cancel: undefined,
    idempotencyKey: 'gha-abc',
    sessionId: 's',
    ...extra,
  }
}

const PASS: Verdict = { status: 'pass', message: 'Run r-123 of agent "triage" succeeded.' }

/** Markdown with code spans and fenced blocks removed: what GitHub would parse as prose/HTML. */
function outsideCode(markdown: string): string {
  const lines: string[] = []
  let fence: string | undefined
  for (const line of markdown.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined
      continue
    }
    if (marker) {
      fence = marker
      continue
    }
    lines.push(line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, ''))
  }
  return lines.join('\n')
}

/** The facts table (the first table, whose first header is "Run") as header → cell. */
function facts(markdown: string): Record<string, string> {
  const lines = markdown.split('\n')
  const at = lines.findIndex((line) => line.startsWith('| Run |'))
  const header = lines[at]
  const row = lines[at + 2]
  if (at < 0 || !header || !row) throw new Error(`no facts table in:\n${markdown}`)
  expect(lines[at + 1]).toMatch(/^\| ---( \| ---)* \|$/)
  const names = cells(header)
  const values = cells(row)
  expect(values).toHaveLength(names.length)
  return Object.fromEntries(names.map((name, index) => [name, values[index] ?? '']))
}

/** Cells of a GFM table row: split on pipes not escaped with a backslash (code spans included). */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim())
}

describe('renderRunSummary: a succeeded run', () => {
  const markdown = renderRunSummary(
    result({
      detail: detail({
        durationMS: 65_000,
        inputTokens: 12_345,
        outputTokens: 678,
        usdMicros: 42_000,
        output: '## Findings\n\nAll **good**.',
        sources: ['https://example.com/runbook', 'internal note'],
        steps: [
          { tool: 'kubectl_get', outcome: 'ok', durationMS: 1_200 },
          { tool: 'search', outcome: 'error', error: 'index | offline', durationMS: 300 },
        ],
      }),
    }),
    PASS,
  )

  it('has a heading with verdict icon, agent and phase, then the facts: no sentence that repeats the heading', () => {
    expect(markdown.startsWith('## ✅ Agent run: triage — Succeeded\n\n| Run |')).toBe(true)
    expect(markdown).not.toContain('succeeded.')
  })

  it('lists run id, phase, duration, waited, tokens and cost, then the key and session', () => {
    expect(facts(markdown)).toEqual({
      Run: '`r-123`',
      Phase: '**Succeeded**',
      Duration: '1 min 5 s',
      Waited: '1 min 10 s',
      'Tokens in / out': '12,345 / 678',
      Cost: '$0.04',
    })
    // the session only as a fingerprint: its id is never shown (issue 34 item 3)
    expect(markdown).toContain(`Idempotency key \`gha-abc\`, session \`${fingerprint('s')}\`.`)
  })

  it('shows the output and the sources', () => {
    expect(markdown).toContain('### Output\n\n#### Findings\n\nAll **good**.')
    expect(markdown).toContain('### Sources\n\n- <https://example.com/runbook>\n- internal note')
  })

  it('has a steps table with tool, outcome and duration', () => {
    expect(markdown).toContain('| # | Tool | Outcome | Duration |\n| ---: | --- | --- | ---: |')
    expect(markdown).toContain('| 1 | `kubectl_get` | ok | 1.2 s |')
    expect(markdown).toContain('| 2 | `search` | error — index \\| offline | 300 ms |')
    expect(markdown).toContain('</details>\n')
  })

  it('shows no hub message section for a success', () => {
    expect(markdown).not.toContain('### Message from the hub')
    expect(markdown).not.toContain('[!NOTE]')
  })

  it('the steps summary reads "Steps (2)": no markdown escapes inside HTML', () => {
    expect(markdown).toContain('<details><summary>Steps (2)</summary>\n\n| # | Tool |')
  })
})

describe('renderRunSummary: other runs', () => {
  it('a failed run shows the hub message in a fence', () => {
    const markdown = renderRunSummary(
      result({
        phase: 'Failed',
        outcome: 'failed',
        detail: detail({ phase: 'Failed', message: 'model credential missing\n```\n<b>x</b>' }),
      }),
      { status: 'fail', message: 'Run r-123 of agent "triage" failed: model credential missing' },
    )
    // The verdict ("Run … failed: <message>") would repeat the heading and the message below.
    expect(markdown.startsWith('## ❌ Agent run: triage — Failed\n\n| Run |')).toBe(true)
    expect(markdown.match(/model credential missing/g)).toHaveLength(1)
    expect(markdown).toContain('### Message from the hub\n\n````text\nmodel credential missing\n```\n<b>x</b>\n````')
    expect(outsideCode(markdown)).not.toContain('<b>')
  })

  it('a verdict that says more than the heading stays: a failure without a message, a timeout', () => {
    const silent = renderRunSummary(
      result({ phase: 'Failed', outcome: 'failed', detail: detail({ phase: 'Failed' }) }),
      {
        status: 'fail',
        message: 'Run r-123 of agent "triage" failed (the hub gave no message)',
      },
    )
    expect(silent).toContain(
      '## ❌ Agent run: triage — Failed\n\nRun r-123 of agent "triage" failed \\(the hub gave no message\\)\n\n| Run |',
    )
    const late = renderRunSummary(
      result({ phase: 'Running', outcome: 'timed-out', settled: false, detail: detail({ phase: 'Running' }) }),
      {
        status: 'fail',
        message: 'Run r-123 of agent "triage" did not settle within timeout-seconds (60 s); last phase Running.',
      },
    )
    expect(late).toContain(
      '\n\nRun r-123 of agent "triage" did not settle within timeout-seconds \\(60 s\\); last phase Running.\n\n| Run |',
    )
  })

  it('a reused run shows the notice', () => {
    const markdown = renderRunSummary(result({ reused: true }), PASS)
    expect(markdown).toContain('> [!NOTE]\n> The hub returned an existing run for this idempotency key')
  })

  it('a run without detail has no tokens or cost, and says it is not settled', () => {
    const markdown = renderRunSummary(
      result({ detail: undefined, phase: 'Pending', settled: false, outcome: 'started', idempotencyKey: undefined }),
      {
        status: 'pass',
        message: 'started',
      },
    )
    expect(facts(markdown)).toEqual({
      Run: '`r-123`',
      Phase: '**Pending** (not settled)',
      Duration: '—',
      Waited: '1 min 10 s',
    })
    expect(markdown).not.toContain('Tokens')
    expect(markdown).not.toContain('Cost')
    expect(markdown).not.toContain('Idempotency key')
  })

  it('a run awaiting approval names the tool and shows its arguments', () => {
    const markdown = renderRunSummary(
      result({
        phase: 'PendingApproval',
        outcome: 'awaiting-approval',
        detail: detail({
          phase: 'PendingApproval',
          pending: { inboxID: 'i', tool: 'kubectl_apply', args: { file: 'a.yaml' } },
        }),
      }),
      { status: 'warn', message: 'waiting' },
    )
    // At the gate the run neither passed nor failed, whatever the step's verdict.
    expect(markdown.startsWith('## ⏸️ Agent run: triage — waiting for approval\n\nwaiting\n\n| Run | Phase |')).toBe(
      true,
    )
    expect(markdown).toContain('| **PendingApproval** |')
    expect(markdown).toContain(
      '### Waiting for approval\n\nTool `kubectl_apply` needs a human\'s approval (approval `i`): on the hub, or with `command: approve` and this step\'s `approval-id` output.\n\n```json\n{\n  "file": "a.yaml"\n}\n```',
    )
  })

  it('duration falls back to startedAt/finishedAt', () => {
    const markdown = renderRunSummary(
      result({ detail: detail({ startedAt: '2025-01-01T00:00:00Z', finishedAt: '2025-01-01T00:00:02.500Z' }) }),
      PASS,
    )
    expect(facts(markdown)['Duration']).toBe('2.5 s')
  })

  it('an unclosed fence in the output is closed before the next section', () => {
    const markdown = renderRunSummary(
      result({ detail: detail({ output: '```\nunclosed', sources: ['https://example.com'] }) }),
      PASS,
    )
    expect(markdown).toContain('```\nunclosed\n```\n\n### Sources')
  })
})

describe('renderRunSummary: hostile content', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<!-- hub-action:run-summary -->',
    '</details>',
    '| pipes | here |',
    '@octocat <b>bold</b>',
  ].join('\n')
  const markdown = renderRunSummary(
    result({
      runId: 'run-<b>1</b>',
      phase: '<b>Weird</b>',
      detail: detail({
        output: hostile,
        sources: ['javascript:alert(1)', '<img src=x onerror=alert(1)>', 'https://example.com/"><script>'],
        steps: [
          { tool: '<b>x</b>', outcome: '<img src=x>', error: '<script>alert(1)</script> @octocat', durationMS: 5 },
        ],
      }),
    }),
    { status: 'pass', message: 'Run <b>r</b> said <!-- hub-action:x --> @octocat' },
  )

  it('renders (by cmark-gfm) no HTML but the Steps section, no comment and no image', () => {
    if (!CMARK_GFM) return
    const judgement = judgeGfm(markdown)
    expect(judgement.rawHtml).toEqual(['<details><summary>Steps (1)</summary>\n', '</details>\n'])
    expect(judgement.comments).toEqual([])
    expect(judgement.images).toEqual([])
    expect(judgement.elements).not.toContain('script')
    expect(judgement.elements).not.toContain('img')
  })

  it('has no unescaped <b> outside code spans', () => {
    expect(outsideCode(markdown)).not.toContain('<b>')
    expect(markdown).toContain('| 1 | `<b>x</b>` |')
    expect(facts(markdown)).toMatchObject({ Run: '`run-<b>1</b>`', Phase: '**&lt;b&gt;Weird&lt;/b&gt;**' })
  })

  it('closes </details> only where it opened it', () => {
    expect(outsideCode(markdown).match(/<\/details>/g)).toHaveLength(1)
    expect(outsideCode(markdown).match(/<details>/g)).toHaveLength(1)
  })

  it('neutralises mentions everywhere', () => {
    expect(markdown.replace(/```[\s\S]*?```/g, '')).not.toMatch(/@octocat/)
    expect(markdown).toContain('@\u200boctocat')
    if (CMARK_GFM) expect(judgeGfm(markdown).mentions).toEqual([])
  })

  it('shows a pipe line in the output as text, and escapes pipes in cells', () => {
    expect(markdown).toContain('\\| pipes \\| here \\|')
    const stepRow = markdown.split('\n').find((line) => line.startsWith('| 1 |'))
    expect(stepRow && cells(stepRow)).toHaveLength(4)
  })

  // BUG: code() is used for table cells (run id, tool name) but does not escape `|`. In a
  // GFM table a pipe splits the cell even inside a code span (GFM spec, example 200), so a
  // tool named "a|b" shifts the steps table by one column.
  it('a pipe in a tool name does not split its table cell', () => {
    const withPipe = renderRunSummary(
      result({ detail: detail({ steps: [{ tool: 'shell|sh', outcome: 'ok', durationMS: 1 }] }) }),
      PASS,
    )
    const row = withPipe.split('\n').find((line) => line.startsWith('| 1 |'))
    expect(row && cells(row)).toHaveLength(4)
  })
})

describe('renderRunSummary: size', () => {
  const MiB = 1024 * 1024
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8')
  const manySteps = Array.from({ length: 3_000 }, (_, i) => ({
    tool: `tool_${i}`,
    outcome: 'error',
    error: `failed <b>${'x'.repeat(300)}</b>`,
    durationMS: i,
  }))

  it('fits the budget with a 2 MB answer of escapes, 3,000 steps and a long hub message, and says where the rest is', () => {
    const markdown = renderRunSummary(
      result({
        outcome: 'failed',
        phase: 'Failed',
        detail: detail({
          output: '&<@'.repeat(700_000),
          message: 'm'.repeat(300_000),
          steps: manySteps,
          sources: Array.from({ length: 5_000 }, (_, i) => `https://example.com/${i}`),
        }),
      }),
      { status: 'fail', message: `Run r-123 failed: ${'m'.repeat(300_000)}` },
      { resultFile: '/tmp/runner/hub-action/run-r-123.json' },
    )
    expect(bytes(markdown)).toBeLessThanOrEqual(SUMMARY_BYTE_BUDGET)
    expect(SUMMARY_BYTE_BUDGET).toBeLessThan(MiB)
    expect(markdown).toContain(
      "under GitHub's 1 MiB limit: the result file `/tmp/runner/hub-action/run-r-123.json` (output `result-file`) holds all of it.",
    )
    expect(markdown).toMatch(/… and [\d,]+ more steps: the result file lists them all\./)
    expect(markdown).toContain('### Output')
    expect(markdown).toContain('<details><summary>Steps (3000)</summary>')
    expect(markdown.trimEnd().endsWith('</details>')).toBe(true)
    // The message shows once in full (clipped), not twice: the verdict line is cut short.
    expect(markdown.split('\n')[2]?.length).toBeLessThan(2_100)
  })

  it('fits the budget while a run awaits approval of 1.5 MB of arguments', () => {
    const markdown = renderRunSummary(
      result({
        outcome: 'awaiting-approval',
        phase: 'PendingApproval',
        detail: detail({
          phase: 'PendingApproval',
          pending: { tool: 'kubectl_apply', args: { manifest: 'y'.repeat(1_500_000) } },
          steps: manySteps,
        }),
      }),
      PASS,
      { resultFile: '/tmp/r.json' },
    )
    expect(bytes(markdown)).toBeLessThanOrEqual(SUMMARY_BYTE_BUDGET)
    expect(markdown).toContain('### Waiting for approval')
    expect(markdown).toContain('the result file `/tmp/r.json`')
  })

  it('adds no note when nothing was cut', () => {
    expect(renderRunSummary(result(), PASS, { resultFile: '/tmp/r.json' })).not.toContain('[!NOTE]')
  })

  it('keeps a cut answer well-formed: GitHub still sees the Sources and Steps sections', () => {
    if (!CMARK_GFM) return
    const answer = Array.from({ length: 5_000 }, (_, i) => `- item ${i}\n  \`\`\`\n  code <b>\n`).join('\n')
    const markdown = renderRunSummary(
      result({ detail: detail({ output: answer, sources: ['https://example.com'], steps: manySteps.slice(0, 2) }) }),
      PASS,
      {
        budget: 60_000,
      },
    )
    const judged = judgeGfm(markdown)
    expect(judged.headings.filter((heading) => heading.level === 3).map((heading) => heading.text)).toEqual([
      'Output',
      'Sources',
    ])
    expect(judged.rawHtml).toEqual(['<details><summary>Steps (2)</summary>\n', '</details>\n'])
  })
})
