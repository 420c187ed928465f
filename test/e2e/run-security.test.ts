/**
 * End to end, what must never leak or execute: the token (absent from outputs, the job
 * summary and result files, on success and on error paths; on stdout only in the runner's
 * ::add-mask:: line), and hostile agent output (no raw HTML, comments, live mentions or
 * javascript: links in the summary; workflow commands switched off around it in the log).
 */
import { describe, expect, it } from 'vitest'
import { hubInputs, lines, runStep, useHubEmulator, type ActionRun } from './harness.ts'

const START = /\/agents\/[^/]+\/runs$/

const hub = useHubEmulator({ maxHoldMs: 300 })

const inputs = (extra: Record<string, string>): Record<string, string> =>
  hubInputs(hub, { agent: 'quick', task: 'Check payments', ...extra })
const act = (extra: Record<string, string> = {}): Promise<ActionRun> => runStep({ inputs: inputs(extra) })

/** The token appears only in the ::add-mask:: line: nowhere else on stdout, nor in stderr, outputs, summary or files. */
function expectTokenNowhere(result: ActionRun, token: string): void {
  const stdout = result.stdout.split('\n')
  expect(stdout.filter((line) => line === `::add-mask::${token}`)).toHaveLength(1)
  expect(Object.keys(result.files).length).toBeGreaterThanOrEqual(2)
  const leaks = [
    ...stdout
      .filter((line) => line.includes(token) && line !== `::add-mask::${token}`)
      .map((line) => `stdout: ${line}`),
    ...(result.stderr.includes(token) ? ['stderr'] : []),
    ...Object.entries(result.outputs)
      .filter(([, value]) => value.includes(token))
      .map(([name]) => `output ${name}`),
    ...Object.entries(result.files)
      .filter(([, text]) => text.includes(token))
      .map(([path]) => `file ${path.slice(result.dir.length + 1)}`),
  ]
  expect(leaks).toEqual([])
}

describe('the token never leaks', () => {
  it('on success: masked first, then absent from outputs, summary and the result file', async () => {
    const result = await act()
    expect(result.code).toBe(0)
    expect(result.stdout.split('\n')[0]).toBe(`::add-mask::${hub.token}`)
    expect(result.outputs['result-file']).toBeDefined()
    expect(Object.keys(result.files)).toContain(result.outputs['result-file'])
    expectTokenNowhere(result, hub.token)
  })

  it('on a 401 whose JSON error body echoes the token', async () => {
    hub.addFault({
      method: 'POST',
      path: START,
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({
        kind: 'Status',
        reason: 'Unauthorized',
        message: `token ${hub.token} has expired`,
        code: 401,
      }),
    })
    const result = await act()
    expect(result.code).toBe(1)
    const errors = lines(result.stdout, '::error::')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('401')
    expect(errors[0]).toContain('has expired')
    expectTokenNowhere(result, hub.token)
  })

  it('on a plain-text hub error that echoes the bearer header', async () => {
    hub.addFault({
      method: 'POST',
      path: START,
      status: 403,
      body: `forbidden: Authorization: Bearer ${hub.token} may not create runs`,
    })
    const result = await act()
    expect(result.code).toBe(1)
    expect(lines(result.stdout, '::error::')).toHaveLength(1)
    expectTokenNowhere(result, hub.token)
  })

  it('on a wait that fails with an error body echoing the token', async () => {
    hub.addFault({
      method: 'GET',
      path: /\/wait$/,
      status: 500,
      retryAfter: '0',
      body: `internal error for token=${hub.token}`,
      times: Infinity,
    })
    const result = await act()
    expect(result.code).toBe(1)
    expect(result.outputs['run-id']).toBe(hub.runs()[0]?.id)
    expectTokenNowhere(result, hub.token)
  })

  it('when the hub echoes the token in a failed run message', async () => {
    hub.setAgent('leaky', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Failed', afterMs: 20 },
      ],
      message: `provider rejected credential ${hub.token}`,
    })
    const result = await act({ agent: 'leaky' })
    expect(result.code).toBe(1)
    expect(result.outputs.phase).toBe('Failed')
    expectTokenNowhere(result, hub.token)
  })

  it('when the agent echoes the token in its output', async () => {
    hub.setAgent('leaky', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 20 },
      ],
      output: `I used the token ${hub.token} to call the API.`,
    })
    const result = await act({ agent: 'leaky' })
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    expectTokenNowhere(result, hub.token)
  })
})

describe('hostile agent output', () => {
  /** The summary with code blocks and code spans removed: what renders as live markdown. */
  function prose(markdown: string): string {
    return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[`~]*\s*$/gm, '').replace(/(`+)[^`]*?\1/g, '')
  }

  it('is neutralised in the job summary', async () => {
    const result = await act({ agent: 'hostile', task: 'write a report' })
    expect(result.code).toBe(0)
    expect(result.outputs.phase).toBe('Succeeded')
    const summary = result.summary
    expect(summary).toContain('### Output')
    expect(summary).toContain('## Report')

    expect(summary).not.toMatch(/<script/i)
    expect(summary).not.toMatch(/<img/i)
    expect(summary).not.toContain('<!--')
    // Tool names and errors are shown, not rendered: no live tag outside code.
    expect(prose(summary)).not.toMatch(/<\/?(b|i)>/)
    // The only </details> closes the action's own Steps section.
    expect(summary.match(/<\/details>/g)).toHaveLength(1)
    expect(summary.match(/<details>/g)).toHaveLength(1)
    expect(summary.indexOf('</details>')).toBeGreaterThan(summary.indexOf('<details><summary>Steps (2)</summary>'))
    // No live mention outside code.
    expect(prose(summary)).not.toMatch(/(^|[^\w`])@octocat\b/)
    expect(prose(summary)).not.toMatch(/(^|[^\w`])@github\/security-team\b/)
    // No javascript: link, in the output or in the sources list.
    expect(summary).not.toMatch(/\]\(\s*javascript:/i)
    expect(summary).not.toMatch(/<javascript:/i)
    expect(summary).not.toMatch(/href\s*=\s*["']?\s*javascript:/i)
    // The unterminated fence is closed, so it cannot swallow the sections after it.
    const afterOutput = summary.slice(summary.indexOf('### Output'))
    expect((afterOutput.slice(0, afterOutput.indexOf('### Sources')).match(/^```\s*$/gm) ?? []).length % 2).toBe(0)
    expect(summary).toContain('### Sources')
  })

  it('reaches the log only between ::stop-commands:: markers', async () => {
    const result = await act({ agent: 'hostile', task: 'write a report' })
    const output = result.outputs.output ?? ''
    expect(output).toContain('<script>alert(1)</script>')
    const blocks = [...result.stdout.matchAll(/^::stop-commands::([^\n]+)\n([\s\S]*?)\n::\1::$/gm)]
    // The live steps (tool names and errors are agent text too), then the output.
    expect(blocks.map((block) => block[2])).toEqual([expect.stringContaining('kubectl_get | @octocat'), output])
    // Outside those blocks, none of the agent's text reaches the log.
    const outside = blocks.reduce((text, block) => text.replace(block[0], ''), result.stdout)
    for (const piece of ['<script>', '@octocat', 'hub-action:comment', 'javascript:alert'])
      expect(outside).not.toContain(piece)
  })
})
