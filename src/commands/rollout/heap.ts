/**
 * A full garbage collection between two looks of a large gate, and within one every few
 * thousand rows. Each look of 1,000 targets × 50 edges parses tens of MB of rows that are
 * garbage once judged; V8 collects its old generation only once it has grown well past what is
 * live, and grows its young generation (to 128 MB) as pages and cells survive its scavenges, and
 * neither shrinks back while the step is busy. The collection is the one V8 makes when memory
 * runs short, which also gives the young generation back: at 1,000 × 50 the action peaked at
 * ~317 MB with plain full collections, ~207 MB with these, in about the same time spent
 * collecting (bench/rollout.ts). `--expose-gc` set at run time makes `gc` available in a new
 * context; where that fails, nothing is done.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** V8's `gc` (its gc extension): `last-resort` collects until nothing more is freed, then shrinks the heap. */
type Collect = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void
let collect: Collect | null | undefined

/** Collects garbage now and gives the memory back, when the runtime lets it; a no-op otherwise. */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc')
      const found: unknown = runInNewContext('gc')
      collect = typeof found === 'function' ? (found as Collect) : null
    } catch {
      collect = null
    }
  }
  collect?.({ type: 'major', execution: 'sync', flavor: 'last-resort' })
}
