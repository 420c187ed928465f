// A hostile or broken hub, on top of the hub emulator (docs/hub-facts.md, "The hub in front"): waits that
// answer at once, bodies that never end, answers that drip a byte a second, outages that
// end. Each behaviour replaces a provider of a running emulator; `restore()` puts the
// emulator's own provider back. Every server-side loop is bounded in bytes and time.
import type http from 'node:http'
import { sendJson, sendText, type EmulatorRequest, type HubEmulator, type ProviderHandler } from './hub.ts'

export interface Hostility {
  /** Requests the hostile behaviour answered. */
  readonly answered: number
  restore(): void
}

type Answer = (req: EmulatorRequest, res: http.ServerResponse) => void | Promise<void>

const WAIT_PATH = /\/runs\/([^/]+)\/wait$/
const runIdOf = (req: EmulatorRequest) => decodeURIComponent(WAIT_PATH.exec(req.path)?.[1] ?? '')

/**
 * Replace provider `name` (default `agents`): requests that `matches` picks get `answer`,
 * the others go to the emulator's own agents provider (or 404 for another provider).
 */
export function hostileProvider(
  hub: HubEmulator,
  matches: (req: EmulatorRequest) => boolean,
  answer: Answer,
  name = 'agents',
): Hostility {
  let answered = 0
  const fallback: ProviderHandler =
    name === 'agents' ? hub.agents.handler : (_req, res) => sendText(res, 404, '404 page not found')
  hub.mount(name, async (req, res) => {
    if (!matches(req)) return fallback(req, res)
    answered++
    await answer(req, res)
  })
  return {
    get answered() {
      return answered
    },
    restore: () => hub.mount(name, name === 'agents' ? hub.agents.handler : fallback),
  }
}

const isWait = (req: EmulatorRequest) => req.method === 'GET' && WAIT_PATH.test(req.path)

/** `/wait` answers at once with the run as it is, whatever its phase: a hub that never holds. */
export function instantWait(hub: HubEmulator): Hostility {
  return hostileProvider(hub, isWait, (req, res) => {
    const id = runIdOf(req)
    const detail = hub.runDetail(id)
    if (detail) sendJson(res, 200, detail)
    else sendText(res, 404, 'run not found')
  })
}

interface EndlessOptions {
  /** Written first (e.g. the start of a JSON object). */
  head: string
  /** Repeated for ever after the head (e.g. `{},`). */
  unit: string
  /** Safety bound of the server: it stops there whatever the client does (default 1 GiB). */
  maxBytes?: number
}

/** 200 JSON whose body never ends (until `maxBytes`); writes wait for the client to read. */
function endlessBody(res: http.ServerResponse, options: EndlessOptions): Promise<void> {
  const limit = options.maxBytes ?? 1024 * 1024 * 1024
  const chunk = Buffer.from(options.unit.repeat(Math.max(1, Math.floor((64 * 1024) / options.unit.length))))
  res.writeHead(200, { 'Content-Type': 'application/json' })
  let sent = res.write(options.head) ? Buffer.byteLength(options.head) : 0
  return new Promise((resolve) => {
    const pump = () => {
      while (!res.destroyed && sent < limit) {
        sent += chunk.length
        if (!res.write(chunk)) return void res.once('drain', pump)
      }
      if (!res.destroyed) res.end()
      resolve()
    }
    res.on('close', () => resolve())
    pump()
  })
}

/** `/wait` answers 200 with a run detail that never ends: an output string without end. */
export function endlessWait(hub: HubEmulator): Hostility {
  return hostileProvider(hub, isWait, (_req, res) =>
    endlessBody(res, { head: '{"id":"r","phase":"Running","output":"', unit: 'x' }),
  )
}

/** Every query page is an endless array of empty rows: what JSON.parse would spend most on. */
export function endlessQueryPage(hub: HubEmulator): Hostility {
  return hostileProvider(
    hub,
    (req) => req.method === 'POST' && req.path === '/api/query',
    (_req, res) => endlessBody(res, { head: '{"objects":[', unit: '{},' }),
    'graph',
  )
}

/** `/wait` answers 200 and then one byte of a valid run detail every `everyMs` (default 1 s). */
export function drippingWait(hub: HubEmulator, everyMs = 1_000): Hostility {
  return hostileProvider(hub, isWait, (req, res) => {
    const id = runIdOf(req)
    const text = JSON.stringify(hub.runDetail(id) ?? { id, phase: 'Running' })
    res.writeHead(200, { 'Content-Type': 'application/json' })
    let at = 0
    return new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (res.destroyed || at >= text.length) {
          clearInterval(timer)
          if (!res.destroyed) res.end()
          return resolve()
        }
        res.write(text.charAt(at++))
      }, everyMs)
      timer.unref()
      res.on('close', () => {
        clearInterval(timer)
        resolve()
      })
    })
  })
}

/**
 * `/wait` answers 503 `provider not ready: agents` for `ms` from the first wait on (an
 * outage that starts once the run exists), then the emulator answers again.
 */
export function waitOutage(hub: HubEmulator, ms: number): Hostility & { readonly endedAt: number | undefined } {
  let endsAt: number | undefined
  const hostility = hostileProvider(
    hub,
    (req) => {
      if (!isWait(req)) return false
      endsAt ??= Date.now() + ms
      return Date.now() < endsAt
    },
    (_req, res) => sendText(res, 503, 'provider not ready: agents'),
  )
  return Object.defineProperty(hostility, 'endedAt', { get: () => endsAt }) as Hostility & {
    readonly endedAt: number | undefined
  }
}

/** Every request to the graph provider is taken and never answered (until the client hangs up): a graph that hangs. */
export function hangingGraph(hub: HubEmulator): Hostility {
  return hostileProvider(
    hub,
    () => true,
    (_req, res) => new Promise<void>((resolve) => res.on('close', () => resolve())),
    'graph',
  )
}

/** Every request to the graph provider is answered 200, then an endless page one byte every `everyMs`: a graph that drips. */
export function drippingGraph(hub: HubEmulator, everyMs = 200): Hostility {
  return hostileProvider(
    hub,
    () => true,
    (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      const text = '{"objects":['
      let at = 0
      return new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (res.destroyed) return
          // the head, then empty rows without end: never a whole answer
          res.write(at < text.length ? text.charAt(at) : '{},'.charAt((at - text.length) % 3))
          at++
        }, everyMs)
        timer.unref()
        res.on('close', () => {
          clearInterval(timer)
          resolve()
        })
      })
    },
    'graph',
  )
}
