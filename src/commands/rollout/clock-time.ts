/** Times as the rollout log and summary write them. Pure. */

/** "12:03:10 UTC": the runner's log and the summary are read across time zones. */
export function clockTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`
}

/** "+42 s", "+3 min 5 s": how long after the step's start. */
export function sinceStart(ms: number, startedAt: number): string {
  const s = Math.max(0, Math.round((ms - startedAt) / 1000))
  return s < 60 ? `+${s} s` : `+${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`
}
