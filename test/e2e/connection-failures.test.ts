/**
 * End to end, a hub the step cannot reach says once what failed and the likely fix (issue 36,
 * the first hour): nothing listening (with, on loopback, the emulator to start), a server that
 * never answers (what was waited on, where, how long, and why that is likely), and a certificate
 * for another host name (the URL to fix, not NODE_EXTRA_CA_CERTS). Before, the whoami preflight
 * said "Going on" and the start failed the same way again: two messages, and for a refused
 * connection eight retry lines; and a start refused before a byte was sent said the hub "may have
 * created the run". dist/index.js as a process against servers on 127.0.0.1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { errorLines, runStep, type ActionRun } from './harness.ts'
import { TLS_CERT, TLS_CERT_NAMES, TLS_KEY } from '../fixtures/tls-certificate.ts'

const SCOPE = {
  token: 'hub-token-1234',
  org: '5a1c7e2d-8b4f-4c3a-9e6d-1f2a3b4c5d6e',
  workspace: '0b6f7f0e-3c1a-4a8e-9f59-4c1d2e3f4a5b',
}
const RUN = { agent: 'triage', task: 'Check the fleet' }

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return (server.address() as AddressInfo).port
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createHttpServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const retryLines = (result: ActionRun) => result.stdout.split('\n').filter((line) => / retry \d/.test(line))

describe('nothing listens at hub-url', () => {
  it('on loopback: one error after the preflight’s retries, naming the refusal and the emulator to start; the start is not tried', async () => {
    const port = await closedPort()
    const result = await runStep({ inputs: { 'hub-url': `http://127.0.0.1:${port}`, ...SCOPE, ...RUN } })
    expect(result.code).toBe(1)
    const errors = errorLines(result)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(`The connection to 127.0.0.1:${port} was refused (ECONNREFUSED)`)
    expect(errors[0]).toContain(`\`npm run emulator -- --port ${port}\``)
    expect(errors[0]).toContain('No run was created.')
    // The preflight's retries, and no second round for the start.
    expect(retryLines(result)).toHaveLength(4)
    expect(retryLines(result).every((line) => line.includes('GET /services/providers/agents/api/whoami'))).toBe(true)
    expect(result.stdout).not.toContain('/runs')
    expect(result.stdout).not.toContain('Going on')
  })

  it('a start that was never sent (no preflight on the service-account route) does not say the run may exist', async () => {
    const port = await closedPort()
    const result = await runStep({
      inputs: {
        'hub-url': `http://127.0.0.1:${port}`,
        ...SCOPE,
        ...RUN,
        'cluster-id': 'c-7f3a',
        'idempotency-key': 'none',
      },
    })
    expect(result.code).toBe(1)
    const errors = errorLines(result)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('Could not start a run of agent "triage"')
    expect(errors[0]).toContain('was refused (ECONNREFUSED)')
    expect(errors[0]).not.toContain('may have created the run')
  })

  it('a graph command stops the same way, before any graph request', async () => {
    const port = await closedPort()
    const result = await runStep({
      inputs: {
        'hub-url': `http://localhost:${port}`,
        ...SCOPE,
        command: 'query',
        query: '{"filter":{"objects":[{"name":"web"}]}}',
      },
    })
    expect(result.code).toBe(1)
    expect(errorLines(result)).toHaveLength(1)
    expect(errorLines(result)[0]).toContain(`\`npm run emulator -- --port ${port}\``)
    expect(errorLines(result)[0]).toContain('No graph query was sent.')
    expect(result.stdout).not.toContain('/services/providers/graph/')
  })
})

describe('a hub that accepts connections and never answers', () => {
  it('ends at timeout-seconds with one error naming the request, the origin, how long, and the likely cause', async () => {
    const held: string[] = []
    const port = await listen(createHttpServer((req) => held.push(`${req.method} ${req.url}`)))
    const origin = `http://127.0.0.1:${port}`
    const result = await runStep({
      inputs: { 'hub-url': origin, ...SCOPE, ...RUN, 'timeout-seconds': '3' },
      killAfterMs: 25_000,
    })
    expect(result.signal).toBeNull()
    expect(result.code).toBe(1)
    const errors = errorLines(result)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(`it was still waiting for GET ${origin}/services/providers/agents/api/whoami (`)
    expect(errors[0]).toMatch(/\(\d+\.\d s on it/)
    expect(errors[0]).toContain(`${origin} answered none of this step's requests: it is likely down or unreachable`)
    expect(errors[0]).toContain('No run was created.')
    expect(held.every((request) => request === 'GET /services/providers/agents/api/whoami')).toBe(true)
  })
})

describe('a certificate for another host name', () => {
  it('names the host and the certificate’s names, and says to fix hub-url, not NODE_EXTRA_CA_CERTS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-action-tls-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const ca = join(dir, 'ca.pem')
    writeFileSync(ca, TLS_CERT)
    const port = await listen(createHttpsServer({ cert: TLS_CERT, key: TLS_KEY }, (_req, res) => res.end('{}')))
    const result = await runStep({
      inputs: { 'hub-url': `https://127.0.0.1:${port}`, ...SCOPE, ...RUN },
      env: { NODE_EXTRA_CA_CERTS: ca },
    })
    expect(result.code).toBe(1)
    const errors = errorLines(result)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(
      `The TLS certificate of 127.0.0.1:${port} does not name 127.0.0.1 (ERR_TLS_CERT_ALTNAME_INVALID): it is for ${TLS_CERT_NAMES.join(', ')}.`,
    )
    expect(errors[0]).toContain(
      `Set \`hub-url\` to the hub's URL with a host the certificate names (e.g. https://${TLS_CERT_NAMES[0]}:${port})`,
    )
    expect(errors[0]).not.toContain('point NODE_EXTRA_CA_CERTS at')
    expect(retryLines(result)).toEqual([])
  })
})
