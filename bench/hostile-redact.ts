/**
 * What the redactor (src/redact.ts) costs on 8 MiB of hostile text, the most one answer brings:
 * a secret spelled with references, percent-encoding or fullwidth letters, split by markdown, and
 * ordinary markdown prose (the markup pass reads every `*`, `_` and tag of it). Issue 34 item 6:
 * before the spellings of that issue were caught, 8 MiB of references cost 2.5 s (1.97 s here).
 * Figures printed; nothing passes or fails on time.
 */
import { redact, registerSecret } from '../src/redact.ts'

const MiB = 1024 * 1024

export function redactFigures(): void {
  registerSecret('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJyZWRhY3QifQ.q_Zx-9Lm_Tn-Ab4_Cd-Ef0Gh')
  registerSecret(`ghs_${'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'}`)
  const fill = (unit: string) => unit.repeat(Math.floor((8 * MiB) / Buffer.byteLength(unit)))
  const cases: Record<string, string> = {
    'references (&#98;)': fill('&#98;'),
    'zero-padded references (&#00000098;)': fill('&#00000098;'),
    'percent-encoded letters (%62)': fill('%62%63'),
    'fullwidth letters (ｂ)': fill('ｂｃｄ'),
    'markdown emphasis (**b**)': fill('a**b**c_d_`e`'),
    'empty comments and tags': fill('s<!-- -->e<b></b>c'),
    'markdown prose': fill('The **checkout** rollout `web` finished _fine_ on prod-eu; see <b>notes</b>. '),
    'plain ASCII': fill('abcdefghij klmnopqrst uvwxyz 0123456789 '),
  }
  console.log('\nredactor, 8 MiB of each (issue 34 item 6)')
  for (const [label, text] of Object.entries(cases)) {
    const started = performance.now()
    redact(text)
    console.log(`  ${label.padEnd(40)} ${((performance.now() - started) / 1000).toFixed(2)} s`)
  }
}
