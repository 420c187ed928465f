/**
 * Peak memory of an action process, for the hostile-input tests and benchmarks (memory must stay
 * bounded whatever the hub or a pull request sends).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface MemoryProbe {
  /** Env for the action's process: makes Node report its peak RSS when it exits. */
  env: Record<string, string>
  /** Peak resident memory of the process in bytes (undefined when it did not exit by itself). */
  peakBytes(): number | undefined
  /** Kill `pid` with SIGKILL as soon as its RSS passes `limitBytes`; returns a stop function. */
  watch(pid: number, limitBytes: number): () => boolean
  cleanup(): void
}

/**
 * Measures the action's peak memory without touching its code: a preload (NODE_OPTIONS
 * --import) writes `process.resourceUsage().maxRSS` on exit. A watchdog reading /proc
 * (Linux) kills a process that grows past a limit, so a test against a build without caps
 * fails quickly instead of eating the machine.
 */
export function memoryProbe(): MemoryProbe {
  const dir = mkdtempSync(join(tmpdir(), 'hub-action-rss-'))
  const out = join(dir, 'max-rss')
  const preload = join(dir, 'report-rss.mjs')
  writeFileSync(
    preload,
    `import { writeFileSync } from 'node:fs'\nprocess.on('exit', () => writeFileSync(${JSON.stringify(out)}, String(process.resourceUsage().maxRSS * 1024)))\n`,
  )
  return {
    env: { NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` },
    peakBytes() {
      try {
        return Number(readFileSync(out, 'utf8'))
      } catch {
        return undefined
      }
    },
    watch(pid, limitBytes) {
      let killed = false
      const timer = setInterval(() => {
        try {
          const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
          if (rss?.[1] && Number(rss[1]) * 1024 > limitBytes) {
            killed = true
            process.kill(pid, 'SIGKILL')
          }
        } catch {
          // gone
        }
      }, 20)
      return () => {
        clearInterval(timer)
        return killed
      }
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}
