/**
 * scripts/local/dotenv-checks.ts: what `npm run local` says about a dotenv file where the runner or a
 * newcomer needs a word the action cannot give (a misspelt input, an emulator not started).
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  connectionRefused,
  inputVariable,
  loopbackAddress,
  unexpectedInputs,
} from '../../scripts/local/dotenv-checks.ts'
import { ROOT } from '../e2e/action-process.ts'

describe('unexpectedInputs', () => {
  const declared = ['hub-url', 'token', 'dry-run']

  it('words the runner’s warning for variables action.yml does not declare, named as with: keys', () => {
    expect(
      unexpectedInputs({ INPUT_HUB_URL: 'x', INPUT_TOKEN: 't', INPUT_DRYRUN: 'true', GITHUB_SHA: 'abc' }, declared),
    ).toBe("Unexpected input(s) 'hub_url', 'dryrun', valid inputs are ['hub-url', 'token', 'dry-run']")
  })

  it('is silent when every INPUT_ variable is declared, whatever the case the file writes it in', () => {
    expect(unexpectedInputs({ 'INPUT_HUB-URL': 'x', Input_Token: 't', CI: 'true' }, declared)).toBeUndefined()
    expect(inputVariable('hub-url')).toBe('INPUT_HUB-URL')
  })
})

describe('loopbackAddress', () => {
  it('finds this machine’s addresses and their ports, the scheme’s port by default', () => {
    expect(loopbackAddress('http://127.0.0.1:8787')).toEqual({ host: '127.0.0.1', port: 8787 })
    expect(loopbackAddress('http://localhost')).toEqual({ host: 'localhost', port: 80 })
    expect(loopbackAddress('https://[::1]/')).toEqual({ host: '::1', port: 443 })
    expect(loopbackAddress('http://127.1.2.3:9')).toEqual({ host: '127.1.2.3', port: 9 })
  })

  it('is undefined for another host, a name that only starts like one, or no URL', () => {
    for (const url of ['https://hub.example.com', 'http://127.0.0.1.example.com', 'not a url', '', undefined])
      expect(loopbackAddress(url), String(url)).toBeUndefined()
  })
})

describe('connectionRefused', () => {
  it('is true where nothing listens, false where something does', async () => {
    const server = createServer((socket) => socket.end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    expect(await connectionRefused({ host: '127.0.0.1', port })).toBe(false)
    await new Promise((resolve) => server.close(resolve))
    expect(await connectionRefused({ host: '127.0.0.1', port })).toBe(true)
  })
})

describe('README', () => {
  it('says, where it lists npm run local, to start the emulator on .env.example’s port before running a .env copied from it', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const row = readme.split('\n').find((line) => line.startsWith('| `npm run local` |')) ?? ''
    const { port } = loopbackAddress(parseEnv(readFileSync(join(ROOT, '.env.example'), 'utf8'))['INPUT_HUB-URL']) ?? {}
    expect(port).toBeDefined()
    expect(row).toMatch(new RegExp(`start \`npm run emulator -- --port ${port}\` first`))
  })
})
