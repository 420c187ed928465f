/**
 * scripts/local/local-action-log.ts: @github/local-action's stdout given back as the runner would have read
 * it, for `npm run local` to show like the demo, and the outputs its core stubs printed.
 */
import { expect, it } from 'vitest'
import { renderRunnerLog } from '../../scripts/demo/runner-log.ts'
import { readLocalAction } from '../../scripts/local/local-action-log.ts'

const RULE = '='.repeat(80)
const title = (text: string) => [RULE, `${' '.repeat(20)}${text}`, RULE, '']
const BANNER = ['     _        _   _  ', '    / \\   ___| |_(_) ', ...title('Configuration'), '┌───┐', '│ x │', '└───┘']

it('gives back the log the runner would have read, and the outputs apart', () => {
  const stdout = [
    ...BANNER,
    ...title('Running Action'),
    '::set-output name=run-id::abc',
    '::info::Run abc started.',
    '::group::Agent output',
    '::info::::stop-commands::t0k3n',
    '::info::## Answer',
    '::error::not a command here',
    '::info::::t0k3n::',
    '::endgroup::',
    '::set-output name=output::## Answer',
    '',
    'two lines',
    '::notice title=impact: Deployment.apps shop/checkout,file=deploy/a.yaml,line=2::Modified',
    '::error title=Run failed::first line',
    'second line',
    '',
    ...title('Action Outputs'),
    '┌─────────┐',
    "│ 0 │ 'run-id' │ 'abc' │",
    '└─────────┘',
    '',
  ].join('\n')
  const run = readLocalAction(stdout)
  expect(run.ran).toBe(true)
  expect(run.ended).toBe(true)
  expect(run.outputs).toEqual({ 'run-id': 'abc', output: '## Answer\n\ntwo lines' })
  expect(run.after).toEqual([])
  expect(renderRunnerLog(run.runnerLog, { expand: () => true })).toEqual([
    'Run abc started.',
    '▾ Agent output',
    '  ## Answer',
    '  ::error::not a command here',
    'ℹ Notice: impact: Deployment.apps shop/checkout: Modified (deploy/a.yaml:2)',
    '✖ Error: Run failed: first line',
    '  second line',
  ])
})

it('while the action runs, holds back a last blank line and rule that may open the outputs title', () => {
  const running = [...BANNER, ...title('Running Action'), '::info::one', '', RULE, ''].join('\n')
  const run = readLocalAction(running)
  expect(run.ended).toBe(false)
  expect(run.runnerLog).toBe('one\n')
})

it('when local-action stops before running the action, keeps all it said', () => {
  const stdout = [...BANNER, 'Error: No package.json file found', ''].join('\n')
  expect(readLocalAction(stdout)).toMatchObject({
    ran: false,
    preamble: [...BANNER, 'Error: No package.json file found'],
  })
})
