/**
 * Numbers for people, in logs, messages and summaries alike: durations, counts, sizes and
 * dollars. Plain text, no markdown: any folder may use them.
 */

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  const seconds = ms / 1000
  if (seconds < 59.95) return `${seconds.toFixed(1)} s`
  // Round once, so 119.7 s is "2 min", never "1 min 60 s"; a zero part is left out.
  const whole = Math.round(seconds)
  const minutes = Math.floor(whole / 60)
  if (minutes < 60) return whole % 60 ? `${minutes} min ${whole % 60} s` : `${minutes} min`
  return minutes % 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${Math.floor(minutes / 60)} h`
}

/**
 * 12345 → "12,345". toLocaleString would do, but its first call loads ICU data, which costs
 * ~20 ms of a short-lived action.
 */
export function formatCount(value: number): string {
  const [whole = '0', fraction] = String(value).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return fraction === undefined ? grouped : `${grouped}.${fraction}`
}

/** A size for people: whole bytes (grouped) below 1 MiB, MiB to one decimal from there ("4 MiB", "2.1 MiB"). */
export function formatBytes(bytes: number): string {
  const MiB = 1024 * 1024
  return bytes >= MiB ? `${(bytes / MiB).toFixed(1).replace(/\.0$/, '')} MiB` : `${formatCount(bytes)} bytes`
}

export function formatUsd(micros: number): string {
  const dollars = micros / 1_000_000
  return dollars === 0 ? '$0' : dollars < 0.01 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`
}
