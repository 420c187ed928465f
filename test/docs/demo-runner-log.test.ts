/** The demo's runner-log renderer: a step's stdout shown as GitHub's log viewer shows it. */
import { describe, expect, it } from 'vitest'
import { renderRunnerLog } from '../../scripts/demo/runner-log.ts'

const log = (...lines: string[]): string => `${lines.join('\n')}\n`

describe('renderRunnerLog', () => {
  it('hides an ::add-mask:: value on every later line, and the command itself', () => {
    const shown = renderRunnerLog(
      log(
        'token is hub-secret-123 here',
        '::add-mask::hub-secret-123',
        'token is hub-secret-123 here',
        '::group::hub-secret-123',
        'x',
        '::endgroup::',
      ),
    )
    // as on GitHub, a line printed before the mask was registered stays as it was
    expect(shown).toEqual(['token is hub-secret-123 here', 'token is *** here', '▸ *** (1 line, folded)'])
  })

  it('hides the longer of two overlapping secrets whole', () => {
    expect(renderRunnerLog(log('::add-mask::abc', '::add-mask::abcdef', 'abcdef abc'))).toEqual(['*** ***'])
  })

  it('folds a group to one line with its line count, or shows it indented when expanded', () => {
    const text = log(
      'before',
      '::group::Agent output',
      'one',
      'two',
      '::endgroup::',
      '::group::Waiting for run r1',
      '::endgroup::',
      'after',
    )
    expect(renderRunnerLog(text)).toEqual([
      'before',
      '▸ Agent output (2 lines, folded)',
      '▸ Waiting for run r1',
      'after',
    ])
    expect(renderRunnerLog(text, { expand: (title) => title === 'Agent output' })).toEqual([
      'before',
      '▾ Agent output',
      '  one',
      '  two',
      '▸ Waiting for run r1',
      'after',
    ])
  })

  it('closes a group left open at the end, as the runner does', () => {
    expect(renderRunnerLog(log('::group::Open', 'inside'))).toEqual(['▸ Open (1 line, folded)'])
  })

  it('shows lines under ::stop-commands:: as written, hides the stop and resume lines, then runs commands again', () => {
    const shown = renderRunnerLog(
      log(
        '::add-mask::s3cret',
        '::stop-commands::5f0c',
        '::warning::not a warning',
        'value s3cret',
        '::5f0c::',
        '::warning::a warning',
      ),
    )
    expect(shown).toEqual(['::warning::not a warning', 'value ***', '⚠ Warning: a warning'])
  })

  it('shows annotations the way GitHub does, with their file and line, and multi-line messages indented', () => {
    const shown = renderRunnerLog(
      log(
        '::error::Run r1 failed: no credential',
        '::notice title=Impact::11 upstream',
        '::warning file=deploy/a.yaml,line=3::first%0Asecond 100%25',
      ),
    )
    expect(shown).toEqual([
      '✖ Error: Run r1 failed: no credential',
      'ℹ Notice: Impact: 11 upstream',
      '⚠ Warning: first (deploy/a.yaml:3)',
      '  second 100%',
    ])
  })

  it('prints no workflow command line: debug, output and mask commands leave no trace', () => {
    const shown = renderRunnerLog(
      log(
        '::add-mask::x1y2z3',
        '::debug::request sent',
        '::set-output name=a::b',
        '::group::g',
        '::endgroup::',
        '::notice::done',
        'plain',
      ),
    )
    expect(shown).toEqual(['▸ g', 'ℹ Notice: done', 'plain'])
    expect(shown.filter((line) => line.trimStart().startsWith('::') || line.includes('##['))).toEqual([])
  })

  it('renders an empty log as no lines', () => {
    expect(renderRunnerLog('')).toEqual([])
  })
})
