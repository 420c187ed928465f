/** Small helpers for printing figures. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? NaN
}

export function row(label: string, values: readonly number[], unit: string, target: string): void {
  const min = Math.min(...values)
  console.log(
    `  ${label.padEnd(38)} median ${median(values).toFixed(0).padStart(5)} ${unit}  p90 ${percentile(values, 0.9).toFixed(0).padStart(5)} ${unit}  min ${min.toFixed(0)} ${unit}  ${target}`,
  )
}

/** Peak resident memory of a running process, sampled from /proc until it exits (Linux). */
export function samplePeakRss(pid: number, everyMs = 10): { stop(): number } {
  let peak = 0
  const read = async () => {
    try {
      const { readFileSync } = await import('node:fs')
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      const hwm = /VmHWM:\s+(\d+) kB/.exec(status)
      if (hwm?.[1]) peak = Math.max(peak, Number(hwm[1]) * 1024)
    } catch {
      // the process is gone
    }
  }
  const timer = setInterval(() => void read(), everyMs)
  void read()
  return {
    stop() {
      clearInterval(timer)
      return peak
    },
  }
}
