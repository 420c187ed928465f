/**
 * Lets matrix legs meet the hub at the same moment. Processes start over seconds on a busy
 * machine; a matrix's legs reach the hub within moments. The gate sits in front of the emulator's
 * agents provider, holds the first `count` start requests (at most `limitMs` after the first one
 * arrived) and then lets them on together; later requests pass at once. Shared by the e2e test
 * and the bench of the same-key race.
 */
import type { HubEmulator, ProviderHandler } from '../../emulator/index.ts'

export interface StartGate {
  /** Let the held starts on now and hold no more. */
  open(): void
  /** How many starts were held and then let on together. */
  held(): number
}

/** The action's per-request timeout is 30 s, so the default stays well below it. */
export function gateStarts(hub: HubEmulator, count: number, limitMs = 15_000): StartGate {
  const agents = hub.agents.handler
  let left = count
  let waiting: Array<() => void> = []
  let passed = 0
  let timer: NodeJS.Timeout | undefined
  const open = (): void => {
    clearTimeout(timer)
    passed += waiting.length
    for (const release of waiting) release()
    waiting = []
    left = 0
  }
  const gated: ProviderHandler = async (req, res) => {
    if (left > 0 && req.method === 'POST' && /^\/api\/agents\/[^/]+\/runs$/.test(req.path)) {
      await new Promise<void>((resolve) => {
        waiting.push(resolve)
        if (waiting.length === 1) timer = setTimeout(open, limitMs)
        if (waiting.length >= left) open()
      })
    }
    await agents(req, res)
  }
  hub.mount('agents', gated)
  return { open, held: () => passed }
}
