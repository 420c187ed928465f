/**
 * A pull-request comment tried locally, as a newcomer would: `npm run emulator -- --github` (scripts/emulator.ts)
 * as a process serves the hub and a GitHub with the demo's pull request, and says which `npm run local` command
 * runs `command: impact` on it; that command, run as a process, posts the sticky comment, which the emulator
 * prints and the GET it names reads back. Run again, it updates that comment instead of adding one.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ROOT } from './harness.ts'
import { runLocal } from './local-script.ts'

interface Started {
  url: string
  github: {
    url: string
    token: string
    repository: string
    pullRequest: number
    commentsUrl: string
    dotenvFile: string
  }
}

let emulator: ChildProcessWithoutNullStreams
let stdout = ''
let started: Started
let tmp: string

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'hub-action-local-pr-test-'))
  emulator = spawn(process.execPath, [join(ROOT, 'scripts', 'emulator.ts'), '--github'], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', TMPDIR: tmp },
  })
  emulator.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  started = await new Promise<Started>((resolve, reject) => {
    emulator.on('exit', (code) => reject(new Error(`the emulator exited with ${code}`)))
    const check = setInterval(() => {
      if (!stdout.includes('\n')) return
      clearInterval(check)
      resolve(JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as Started)
    }, 20)
  })
})
afterAll(() => {
  if (emulator.exitCode === null) emulator.kill('SIGKILL')
  rmSync(tmp, { recursive: true, force: true })
})

/** The pull request's comments, read back as the emulator says to. */
async function comments(): Promise<Array<{ id: number; body: string; user: { login: string } }>> {
  const response = await fetch(started.github.commentsUrl, {
    headers: { authorization: `Bearer ${started.github.token}` },
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Array<{ id: number; body: string; user: { login: string } }>
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Waits until the emulator's stdout matches, for its comment watcher prints on its own clock. */
async function printed(pattern: RegExp): Promise<string> {
  for (let waited = 0; waited < 5_000 && !pattern.test(stdout); waited += 50)
    await new Promise((resolve) => setTimeout(resolve, 50))
  expect(stdout).toMatch(pattern)
  return stdout
}

it(
  'npm run emulator -- --github: npm run local with the file it names posts the sticky impact comment, then updates it',
  { timeout: 120_000 },
  async () => {
    expect(started.github).toMatchObject({ repository: 'acme/shop', pullRequest: 42 })
    // what it tells the newcomer: the command to run, the lines for a .env of their own, the GET
    // the JSON line comes first; the rest may still be on its way when the machine is busy
    await printed(
      new RegExp(
        escapeRegExp(`curl -s -H "Authorization: Bearer ${started.github.token}" ${started.github.commentsUrl}`),
      ),
    )
    expect(stdout).toContain(`npm run local -- ${started.github.dotenvFile}`)
    expect(stdout).toMatch(/^ {2}GITHUB_EVENT_PATH=\/.*event\.json$/m)
    // the lines for one's own .env empty run's agent and task, which impact does not read
    expect(stdout).toMatch(/^ {2}INPUT_AGENT=$/m)
    expect(stdout).toMatch(/^ {2}INPUT_TASK=$/m)
    expect(await comments()).toEqual([])

    const first = await runLocal(ROOT, [started.github.dotenvFile], tmp)
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(0)
    // the file is made for impact: no warning about an input the user did not set
    expect(first.stdout).not.toMatch(/Warning|does not read/)
    expect(first.stdout).toMatch(/^ {2}comment-url +https:\/\/github\.com\/acme\/shop\/pull\/42#issuecomment-\d+$/m)
    expect(first.stdout).toMatch(/^ {2}result-file +\$RUNNER_TEMP\/hub-action\/impact-report\.json$/m)
    const [comment, ...more] = await comments()
    expect(more).toEqual([])
    expect(comment?.user.login).toBe('github-actions[bot]')
    expect(comment?.body).toContain('Deployment.apps shop/checkout')
    expect(comment?.body).toContain('Deployment.apps shop/frontend')
    await printed(new RegExp(`Comment ${comment?.id} posted on acme/shop#42 \\(.*\\):\\n\\n {2}│ `))

    // the same step again: one sticky comment, updated in place (or already up to date)
    const second = await runLocal(ROOT, [started.github.dotenvFile], tmp)
    expect(second.code, second.stderr).toBe(0)
    expect((await comments()).map((kept) => kept.id)).toEqual([comment?.id])

    emulator.kill('SIGTERM')
    const code = await new Promise((resolve) => emulator.on('exit', resolve))
    expect(code).toBe(0)
    expect(existsSync(started.github.dotenvFile)).toBe(false)
  },
)
