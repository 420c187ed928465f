/**
 * `.env.example` runs `command: run`; for every other command it carries a commented block, to uncomment at
 * its end, that empties run's agent and task and sets what that command needs. Each block, appended to the
 * example as a dotenv file's later lines, runs dist/index.js against the hub emulator's demo fleet as is:
 * the step passes and the action warns about no input (it warns about an input set that its command does
 * not read, which is what a newcomer switching commands by hand used to meet).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { describe, expect, it } from 'vitest'
import { hubInputs, ROOT, runStep, useHubEmulator } from './harness.ts'
import { COMMANDS as TABLE } from '../../src/commands/index.ts'

const EXAMPLE = readFileSync(join(ROOT, '.env.example'), 'utf8')
const COMMANDS = Object.keys(TABLE)

/** The commented blocks after the example's last section: each `# INPUT_…` line, uncommented, by its command. */
function blocks(): Map<string, string[]> {
  const found = new Map<string, string[]>()
  const tail = EXAMPLE.slice(EXAMPLE.lastIndexOf('\n# ── '))
  for (const block of tail.split(/\n#\n/)) {
    const lines = block
      .split('\n')
      .filter((line) => /^# INPUT_[A-Z-]+=/.test(line))
      .map((line) => line.slice(2))
    const command = /^INPUT_COMMAND=(.*)$/m.exec(lines.join('\n'))?.[1]
    if (command) found.set(command, lines)
  }
  return found
}

describe('.env.example, one block per command', () => {
  const hub = useHubEmulator()

  it('has a block for every command but run (wait’s block serves cancel and approve, which take the same run-id)', () => {
    expect([...blocks().keys()].sort()).toEqual(
      COMMANDS.filter((command) => !['run', 'cancel', 'approve'].includes(command)).sort(),
    )
    expect(EXAMPLE).toMatch(/^# wait for \(or cancel, or approve\) a run/m)
  })

  it.each([...blocks()])(
    'the %s block runs against the emulator with no warning',
    { timeout: 60_000 },
    async (command, lines) => {
      const variables = parseEnv(`${EXAMPLE}\n${lines.join('\n')}\n`)
      expect(variables.INPUT_COMMAND).toBe(command)
      const inputs: Record<string, string> = {}
      const env: Record<string, string> = {}
      for (const [name, value] of Object.entries(variables))
        if (name.startsWith('INPUT_')) inputs[name.slice('INPUT_'.length).toLowerCase()] = value ?? ''
        else env[name] = value ?? ''
      Object.assign(inputs, hubInputs(hub))
      // the run-id a run prints, as the block says to paste
      if (command === 'wait' && inputs['run-id'] === '') {
        const started = await runStep({
          inputs: { ...hubInputs(hub), agent: 'quick', task: 'A task.', 'timeout-seconds': '0' },
        })
        inputs['run-id'] = started.outputs['run-id'] ?? ''
      }
      const run = await runStep({ inputs, env })
      expect(run.code, run.stdout).toBe(0)
      expect(run.stdout.split('\n').filter((line) => line.startsWith('::warning'))).toEqual([])
    },
  )
})
