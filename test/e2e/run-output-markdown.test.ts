/**
 * End to end, `output-markdown` (issue 34 item 9): recipes publish only what the action cleaned.
 * The raw `output` is the agent's text as written, for scripts; `output-markdown` is the answer as
 * the job summary shows it, for a release page or a comment: raw HTML shown as text, no @mention
 * that notifies, no image that loads, invisible characters shown. Judged raw and, when cmark-gfm
 * is there, as GitHub renders it.
 */
import { expect, it } from 'vitest'
import { hubInputs, runStep, useHubEmulator } from './harness.ts'
import { CMARK_GFM, renderGfm } from '../oracles/gfm.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })

const ANSWER = [
  '## Release notes',
  '',
  'Thanks @octocat for the fix. <img src="https://tracker.example/p.gif"> <script>alert(1)</script>',
  '',
  '![pixel](https://tracker.example/q.gif) and a [link](javascript:alert(1)) and hidden\u{e0100}\u{e0101}text.',
].join('\n')

it('is the answer as the summary shows it: no raw HTML, mention, image or hidden text; `output` stays raw', async () => {
  hub.setAgent('notes', {
    steps: [
      { phase: 'Running', afterMs: 0 },
      { phase: 'Succeeded', afterMs: 20 },
    ],
    output: ANSWER,
  })
  const result = await runStep({ inputs: { ...hubInputs(hub), agent: 'notes', task: 'Write the notes' } })
  expect(result.code).toBe(0)
  expect(result.outputs.output).toBe(ANSWER)
  const cleaned = result.outputs['output-markdown'] ?? ''
  expect(cleaned).toContain('Release notes')
  expect(cleaned).not.toContain('<img')
  expect(cleaned).not.toContain('<script')
  expect(cleaned).not.toContain('@octocat')
  // shown, escaped for markdown (`&lt;U\+E0100&gt;` reads <U+E0100>), never raw
  expect(cleaned).not.toMatch(/[\u{e0100}-\u{e01ef}]/u)
  expect(cleaned.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\\\+/g, '+')).toContain('<U+E0100><U+E0101>')
  if (CMARK_GFM) {
    const html = renderGfm(cleaned)
    expect(html).not.toMatch(/<img|<script|javascript:/)
    expect(html).toContain('Release notes')
  }
})
