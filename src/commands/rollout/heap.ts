/**
 * A full garbage collection between two looks of a large gate. Each look of 1,000 targets × 50
 * edges parses tens of MB of rows that are garbage once judged; V8 collects its old generation
 * only once it has grown well past what is live, so without this the action's memory grew by
 * tens of MB with every full look (bench/rollout.ts). `--expose-gc` set at run time makes `gc`
 * available in a new context; where that fails, nothing is done.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

let collect: (() => void) | null | undefined

/** Collects garbage now, when the runtime lets it; a no-op otherwise. */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc')
      const found: unknown = runInNewContext('gc')
      collect = typeof found === 'function' ? (found as () => void) : null
    } catch {
      collect = null
    }
  }
  collect?.()
}
