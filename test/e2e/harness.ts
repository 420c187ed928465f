/**
 * The one module end-to-end tests import their helpers from. The pieces live in their own small
 * files (the action as a process, the hub emulator per file, pull-request fixtures, the start
 * gate, the memory probe) and are re-exported here, next to the helpers every run test wrote
 * for itself: the step's inputs, a run that cleans up after the test, stdout lines, and the
 * requests the emulator recorded. (Benchmarks and scripts import the pieces they need directly:
 * this module loads vitest.)
 */
import { createHash } from 'node:crypto'
import { onTestFinished } from 'vitest'
import type { HubEmulator, RecordedRequest } from '../../emulator/index.ts'
import { runAction, type ActionOptions, type ActionRun } from './action-process.ts'

export * from './action-process.ts'
export * from './fixtures/hub-session.ts'
export * from './fixtures/impact-harness.ts'
export * from './memory-probe.ts'
export * from './start-gate.ts'

/** Run the action as a step; its files are removed when the test finishes. */
/** How the action shows a session id (or a key before its run exists): `sha256:` and 12 hex digits, computed here on its own. */
export function fingerprintOf(value: string): string {
  return `sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 12)}`
}

export async function runStep(options: ActionOptions): Promise<ActionRun> {
  const result = await runAction(options)
  onTestFinished(() => result.cleanup())
  return result
}

/** The `::error::` lines of a step's log. */
export function errorLines(result: ActionRun): string[] {
  return result.stdout.split('\n').filter((line) => line.startsWith('::error::'))
}

/** The long-polls (`GET …/wait`) the emulator received, from request `from` on. */
export function waitRequests(hub: HubEmulator, from = 0): RecordedRequest[] {
  return hub.requests.slice(from).filter((r) => r.method === 'GET' && r.path.endsWith('/wait'))
}

/** A recorded request's JSON body (null when there is none). */
export function bodyOf(request: RecordedRequest | undefined): Record<string, unknown> {
  return JSON.parse(request?.body ?? 'null') as Record<string, unknown>
}

/** Poll (every 10 ms, at most `limitMs`) until a condition holds; for events, not for timing. */
export async function until(condition: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
