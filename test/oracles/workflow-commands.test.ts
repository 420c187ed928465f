/** The runner-parser port on behaviours of the real runner (actions/runner ActionCommand.cs, ActionCommandManager.cs). */
import { describe, expect, it } from 'vitest'
import { exposedLines, fakedFormatting, readWorkflowCommands, shownLog } from './workflow-commands.ts'

const names = (stdout: string, collation: 'ordinal' | 'icu' = 'ordinal') =>
  readWorkflowCommands(stdout, { collation }).commands.map((c) => `${c.form}${c.name}`)

describe('the `::` form', () => {
  it('is read after the whitespace .NET TrimStart() strips, Unicode spaces included', () => {
    expect(names('::warning::a\n  ::warning::b\n\t\u00a0\u3000\u2028\u0085::warning::c\n')).toEqual([
      '::warning',
      '::warning',
      '::warning',
    ])
  })

  it('is not read after a character that is no whitespace, a zero-width space included', () => {
    expect(names('x ::warning::a\n\u200b::warning::b\n:\u200b:warning::c\n')).toEqual([])
  })

  it('needs a registered name (any case) and a second `::`', () => {
    expect(names('::ADD-MASK::x\n::nope::x\n::warning x\n::warning\n')).toEqual(['::ADD-MASK'])
  })

  it('unescapes data and properties as the runner does', () => {
    const [command] = readWorkflowCommands('::set-output name=a%3Ab%2Cc,x=1::line%0Anext %25 %3A\n').commands
    expect(command?.properties).toEqual({ name: 'a:b,c', x: '1' })
    expect(command?.data).toBe('line\nnext % %3A')
  })

  it('splits lines where .NET ReadLine does: \\r, \\n and \\r\\n', () => {
    expect(names('a\r::warning::x\r\n::error::y\n')).toEqual(['::warning', '::error'])
  })

  it('wins over the legacy form on the same line', () => {
    const view = readWorkflowCommands('::warning::see ##[add-mask]secret\n')
    expect(view.commands.map((c) => c.name)).toEqual(['warning'])
    expect(view.masks).toEqual([])
  })
})

describe('the legacy `##[` form', () => {
  it('is read anywhere in a line, with `;` properties and data after `]`', () => {
    const view = readWorkflowCommands('build ok ##[set-output name=a;b=c%3Bd]value%5D\n')
    expect(view.commands).toEqual([
      { name: 'set-output', form: '##[', properties: { name: 'a', b: 'c;d' }, data: 'value]', line: 0 },
    ])
  })

  it('is not read when `##` and `[` are apart, or without `]`', () => {
    expect(names('##\u200b[add-mask]x\n##[add-mask x\n')).toEqual([])
  })
})

describe('stop-commands', () => {
  it('switches every command off until its token, in either form and any case', () => {
    const view = readWorkflowCommands(
      ['::stop-commands::tok123', '::add-mask::s3cret', '##[warning]x', '::TOK123::', '::add-mask::other', ''].join(
        '\n',
      ),
    )
    expect(view.commands.map((c) => c.name)).toEqual(['stop-commands', 'TOK123', 'add-mask'])
    expect(view.lines[1]?.stopped).toBe(true)
    expect(view.masks).toEqual(['other'])
    expect(view.stoppedAtEnd).toBe(false)
    expect(readWorkflowCommands('::stop-commands::t0\n##[t0]\n::warning::w\n').commands.map((c) => c.name)).toEqual([
      'stop-commands',
      't0',
      'warning',
    ])
    expect(readWorkflowCommands('::stop-commands::never\n').stoppedAtEnd).toBe(true)
  })
})

describe('masks', () => {
  it('hide a value on later lines; the add-mask line itself prints nothing', () => {
    const view = readWorkflowCommands('early s3cret\n::add-mask::s3cret\nlate s3cret\n::warning::s3cret here\n')
    expect(view.lines.map((line) => line.shown)).toEqual(['early s3cret', '', 'late ***', '##[warning]*** here'])
    expect(exposedLines(view, 's3cret').map((line) => line.text)).toEqual(['early s3cret'])
  })

  it('an add-mask while commands are stopped is printed in clear and masks nothing', () => {
    const view = readWorkflowCommands('::stop-commands::abcdefg\n::add-mask::tok-9f8e\nuse tok-9f8e\n::abcdefg::\n')
    expect(exposedLines(view, 'tok-9f8e').map((line) => line.text)).toEqual(['::add-mask::tok-9f8e', 'use tok-9f8e'])
    expect(shownLog(view)).toContain('use tok-9f8e')
  })
})

describe('the ICU collation', () => {
  it('skips zero-width marks when it looks for `::` and `##[`, yet reads the name at the same offset', () => {
    // Matched, but the name is read from offset 2 (after `::`) or 3 (after `##[`): a mark shifts it off.
    expect(names('\u200b::warning::x\n:\u200b:warning::x\n#\u200b#[warning]x\n##\u200b[warning]x\n', 'icu')).toEqual([])
    expect(names('::warning::x\nsay ##[error]y\n', 'icu')).toEqual(['::warning', '##[error'])
  })
})

describe('log viewer formatting', () => {
  it('is faked by a printed line starting `##[error]`, `##[group]`…, not by the lines of commands the runner ran', () => {
    const stdout =
      '::stop-commands::t1\n##[error]fake\n  ##[GROUP]fold\nsay ##[error]mid-line\n##[section]s\n::t1::\n::error::real\n::group::real\n::endgroup::\n'
    expect(fakedFormatting(readWorkflowCommands(stdout)).map((line) => line.text)).toEqual([
      '##[error]fake',
      '  ##[GROUP]fold',
      '##[section]s',
    ])
  })
})
