/**
 * Figures of a hostile hub (issue 7): the request rate of the action against a hub that
 * answers every wait at once, and the peak memory of the action for the worst hostile
 * answers (an endless run detail, an endless query page, the largest query page the caps
 * let through). Target: under 300 MB whatever the hub sends.
 */
import { runAction } from '../test/e2e/action-process.ts'
import {
  endlessQueryPage,
  endlessWait,
  hostileProvider,
  instantWait,
  type Hostility,
  startHubEmulator,
  type HubEmulator,
} from '../emulator/index.ts'
import { memoryProbe } from '../test/e2e/memory-probe.ts'

const LIMIT = 300 * 1024 * 1024

export async function hostileFigures(): Promise<void> {
  const hub = await startHubEmulator({ agents: { endless: { steps: [{ phase: 'Running', afterMs: 0 }] } } })
  const inputs = { 'hub-url': hub.url, token: hub.token, org: hub.org, workspace: hub.workspace }
  try {
    console.log('\nhostile hub')
    hub.reset()
    const instant = instantWait(hub)
    const seconds = 20
    const busy = await runAction({
      inputs: { ...inputs, agent: 'endless', task: 'spin', 'timeout-seconds': String(seconds), 'on-timeout': 'warn' },
      killAfterMs: 60_000,
    })
    instant.restore()
    const duration = (busy.exitedAt - busy.startedAt) / 1000
    console.log(
      `  instant-answer /wait: ${instant.answered} waits in ${duration.toFixed(1)} s = ${(instant.answered / duration).toFixed(2)} requests/s (was ~1,500/s; exit ${busy.code})`,
    )
    busy.cleanup()

    const cases: Array<{ label: string; install: () => Hostility; inputs: Record<string, string> }> = [
      {
        label: 'endless run detail on /wait',
        install: () => endlessWait(hub),
        inputs: { agent: 'endless', task: 'endless body' },
      },
      {
        label: 'endless query page of {}',
        install: () => endlessQueryPage(hub),
        inputs: { command: 'query', query: '{"limit": 10000}', 'max-objects': '10000' },
      },
      {
        label: 'largest page under the caps (495,000 rows)',
        install: () => largestPage(hub),
        inputs: { command: 'query', query: '{"limit": 10000}', 'max-objects': '10000' },
      },
      {
        // each root of an impact lookup would fan out into a query: refused past one page (100)
        label: 'impact lookup answered with the largest page',
        install: () => largestPage(hub),
        inputs: { command: 'impact', targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]' },
      },
    ]
    let worst = 0
    for (const item of cases) {
      hub.reset()
      const hostility = item.install()
      const peak = await measured(hub, { ...inputs, ...item.inputs })
      hostility.restore()
      worst = Math.max(worst, peak.bytes)
      console.log(
        `  peak RSS, ${item.label.padEnd(44)} ${(peak.bytes / 1024 / 1024).toFixed(0).padStart(4)} MB  exit ${peak.code}${peak.killed ? ' (KILLED past 300 MB)' : ''}`,
      )
    }
    console.log(
      `  peak RSS of the action, worst hostile case: ${(worst / 1024 / 1024).toFixed(0)} MB (target < 300 MB)`,
    )
  } finally {
    await hub.close()
  }
}

/** A complete, valid page of 495,000 rows with ids (two values each): just under the 1,000,000-value cap. */
function largestPage(hub: HubEmulator): Hostility {
  const body = `{"objects":[${Array.from({ length: 495_000 }, (_, i) => `{"id":"${i}"}`).join(',')}]}`
  return hostileProvider(
    hub,
    (req) => req.method === 'POST' && req.path === '/api/query',
    (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end(body)
    },
    'graph',
  )
}

async function measured(
  _hub: HubEmulator,
  inputs: Record<string, string>,
): Promise<{ bytes: number; code: number | null; killed: boolean }> {
  const probe = memoryProbe()
  let stop: (() => boolean) | undefined
  const result = await runAction({
    inputs,
    env: probe.env,
    killAfterMs: 60_000,
    onSpawn: (child) => (stop = child.pid ? probe.watch(child.pid, 2 * LIMIT) : undefined),
  })
  const killed = stop?.() ?? false
  const bytes = probe.peakBytes() ?? NaN
  result.cleanup()
  probe.cleanup()
  return { bytes, code: result.code, killed }
}
