/**
 * End to end, a hostile agent answer against the job summary, judged by GitHub's own markdown
 * parser (cmark-gfm): dist/index.js as a process against the hub emulator. Whatever the agent
 * writes — containers that close, fences left open inside them, raw HTML, a forged sticky
 * marker, mentions, link definitions, setext headings — the rendered summary holds no HTML but
 * the action's own Steps section, no comment, no image, no live mention, and the action's
 * Output, Sources and Steps sections are still sections.
 */
import { expect, it, onTestFinished } from 'vitest'
import { hubInputs, runAction, useHubEmulator } from './harness.ts'
import { describeWithGfm, judgeGfm } from '../oracles/gfm.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })

const HOSTILE_ANSWER = [
  'Here is the report.',
  '',
  '- first finding',
  '- second finding',
  '  ```',
  '  a fence the list item closes',
  'after the list <img src=x onerror=alert(1)>',
  '<details open><summary>Approve me</summary>',
  '',
  '> a quote',
  '> ```',
  '> a fence the quote closes',
  '',
  '<h1>Forged heading</h1>',
  '',
  '<!-- hub-action:impact v1 key=default run=99999999 attempt=1 sha=deadbeef -->',
  '',
  'cc @everyone and @acme/security-team, also &#64;octocat',
  '',
  '<script>alert(1)</script>',
  '',
  '[docs]: javascript:alert(1)',
  'See [the docs][docs] and ![pixel](https://tracker.example/p.png).',
  '',
  'Sources',
  '=======',
  '',
  '- <https://forged.example/source>',
  '',
  'Steps',
  '-----',
  '',
  '</details>',
  '',
  '1. a list',
  '   ```',
  '   left open',
].join('\n')

describeWithGfm('a hostile agent answer in the job summary', () => {
  it('renders no HTML, comment, image or live mention of the agent, and keeps our sections', async () => {
    hub.setAgent('hostile-md', {
      steps: [
        { phase: 'Running', afterMs: 0 },
        { phase: 'Succeeded', afterMs: 20 },
      ],
      output: HOSTILE_ANSWER,
      sources: ['https://example.com/runbook'],
      toolSteps: [
        { tool: 'kubectl_get <img src=x>', outcome: 'ok', durationMS: 5 },
        { tool: 'search', outcome: 'error', durationMS: 3, error: '<details open> @everyone ``` <!-- x -->' },
      ],
    })
    const result = await runAction({
      inputs: { ...hubInputs(hub), agent: 'hostile-md', task: 'report' },
    })
    onTestFinished(() => result.cleanup())
    expect(result.code).toBe(0)
    expect(result.summary).toContain('### Output')

    const judged = judgeGfm(result.summary)
    // The only raw HTML is the action's own collapsible Steps section.
    expect(judged.rawHtml).toEqual(['<details><summary>Steps (2)</summary>\n', '</details>\n'])
    expect(judged.comments).toEqual([])
    expect(judged.images).toEqual([])
    for (const element of ['img', 'script', 'h1']) expect(judged.elements).not.toContain(element)
    expect(judged.mentions).toEqual([])
    for (const link of judged.links) expect(link).toMatch(/^(https?|mailto):/)

    // Our sections are still headings, in order; the agent's rank below them.
    expect(judged.headings.filter((heading) => heading.level <= 3).map((heading) => heading.text)).toEqual([
      '✅ Agent run: hostile-md — Succeeded',
      'Output',
      'Sources',
    ])
    // The Steps table is a table, with both rows.
    const steps = judged.tables.find((table) => table.header.join('|') === '#|Tool|Outcome|Duration')
    expect(steps?.rows).toBe(2)
    expect(judged.links).toContain('https://example.com/runbook')
  })
})
