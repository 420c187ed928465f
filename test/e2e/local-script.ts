/**
 * `npm run local` (scripts/local.ts) as a child process, for the tests that run it.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from './action-process.ts'

/** Safety net only: the process tree is killed if it has not ended by then. */
const KILL_AFTER_MS = 100_000

export interface ScriptRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/**
 * Run scripts/local.ts as `npm run local` does (this Node, the project's 24), in `cwd` (a
 * folder of the test's, so a developer's own .env never counts), with a clean runner
 * environment (no GITHUB_* or INPUT_* leaking in from a CI runner) and TMPDIR set to the test's
 * folder `tmp`, so every file it keeps is removed afterwards. It gets its own process group, so the
 * safety net kills the tree.
 */
export function runLocal(cwd: string, args: string[], tmp: string): Promise<ScriptRun> {
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(GITHUB_|INPUT_|RUNNER_|ACTIONS_)/.test(name)),
  )
  env.TMPDIR = tmp
  env.NO_COLOR = '1'
  // In a git worktree node_modules is a symlink: local-action stubs @actions/core at the path
  // npm reports, so Node must keep that path rather than resolve it to the real one.
  env.NODE_OPTIONS = '--preserve-symlinks'
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'local.ts'), ...args], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    const killer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // already gone
      }
    }, KILL_AFTER_MS)
    child.on('error', (error) => {
      clearTimeout(killer)
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(killer)
      resolvePromise({ code, signal, stdout, stderr })
    })
  })
}
