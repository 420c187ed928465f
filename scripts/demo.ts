/**
 * `npm run demo`: the bundled action (dist/index.js) runs as GitHub would run it, against the
 * hub emulator on loopback, and its log, step outputs and job summary are printed. Then the
 * same job runs again on the same commit, to show that a re-run attaches to the first run.
 */
import { startHubEmulator } from '../test/emulator/hub.ts'
import { runAction, type ActionRun } from '../test/e2e/action-process.ts'

const hub = await startHubEmulator()
const inputs = {
  'hub-url': hub.url,
  token: hub.token,
  org: hub.org,
  workspace: hub.workspace,
  agent: 'quick',
  task: 'Check that every deployment in namespace payments is healthy after the release.',
}

let failed = false
try {
  banner(`Hub emulator listening on ${hub.url}. Running dist/index.js with command: run, agent: quick`)
  const first = await runAction({ inputs })
  show(first)
  banner('Re-running the same job on the same commit (same idempotency key)')
  const second = await runAction({ inputs })
  console.log(indent(second.stdout.trim()))
  console.log(
    `\nreused=${second.outputs.reused}, run-id ${second.outputs['run-id'] === first.outputs['run-id'] ? 'unchanged' : 'CHANGED'}; runs on the hub: ${hub.runs().length}`,
  )
  failed = first.code !== 0 || second.code !== 0
  first.cleanup()
  second.cleanup()
} finally {
  await hub.close()
}
process.exitCode = failed ? 1 : 0

function show(run: ActionRun): void {
  console.log(indent(run.stdout.trim()))
  if (run.stderr.trim()) console.log(indent(run.stderr.trim()))
  banner(`Step outputs (exit code ${run.code})`)
  for (const [name, value] of Object.entries(run.outputs)) {
    const shown = value.includes('\n') ? `${value.split('\n')[0]} … (${value.split('\n').length} lines)` : value
    console.log(`  ${name} = ${shown}`)
  }
  banner('Job summary (GITHUB_STEP_SUMMARY)')
  console.log(indent(run.summary.trim()))
}

function banner(text: string): void {
  console.log(`\n━━ ${text}\n`)
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ')
}
