/** The runner protocol as src/runner/workflow.ts writes it, judged by the port of the runner's parser. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  appendSummary,
  endGroup,
  info,
  infoVerbatim,
  OUTPUT_LIMIT_BYTES,
  setOutput,
  setSecret,
  startGroup,
  GITHUB_SUMMARY_LIMIT_BYTES,
  warning,
} from '../../../src/runner/workflow.js'
import { redact } from '../../../src/redact.js'
import { parseOutputFile } from '../../e2e/action-process.ts'
import { fakedFormatting, readWorkflowCommands, VIEWER_FORMATS } from '../../oracles/workflow-commands.ts'

/** Everything written to stdout while `write` runs. */
function stdoutOf(write: () => void): string {
  const written: string[] = []
  const original = process.stdout.write.bind(process.stdout)
  process.stdout.write = (chunk: string | Uint8Array) => {
    written.push(String(chunk))
    return true
  }
  try {
    write()
  } finally {
    process.stdout.write = original
  }
  return written.join('')
}

const HOSTILE = [
  '::add-mask::everything',
  '  ::set-env name=X::1',
  '\t\u00a0\u1680\u2003\u2028\u2029\u202f\u205f\u3000\u0085\v\f::stop-commands::tok',
  '\u200b::warning::zero-width before',
  '\ufeff::warning::bom before',
  'text then ##[add-mask]legacy',
  '###[warning]three hashes',
  '##[set-output name=x;y=1]v',
  'a\r::error::after a carriage return',
  'b\r\n  ::notice::after crlf',
  '::echo::on',
].join('\n')
/** HOSTILE as the log shows it: its invisible format characters spelled out (showFormatCharacters). */
const SHOWN = HOSTILE.replace('\u200b', '<U+200B>').replace('\ufeff', '<U+FEFF>')

describe('log lines carrying untrusted text', () => {
  it('issue no command in either form, whatever the runner trims or how it compares', () => {
    const stdout = stdoutOf(() => {
      info(`Skipped ${HOSTILE}`)
      info(HOSTILE)
      warning(`hub said: ${HOSTILE}`)
      startGroup(`Waiting for run ${HOSTILE}`)
      endGroup()
    })
    for (const collation of ['ordinal', 'icu'] as const) {
      const commands = readWorkflowCommands(stdout, { collation }).commands.map((c) => `${c.form}${c.name} ${c.data}`)
      expect(commands, collation).toEqual([
        `::warning hub said: ${SHOWN.replace(/##\[/g, '##\u200b[')}`,
        `::group Waiting for run ${SHOWN.replace(/##\[/g, '##\u200b[')}`,
        '::endgroup ',
      ])
    }
  })

  it('read the same once the zero-width marks are taken out', () => {
    const stdout = stdoutOf(() => info(HOSTILE))
    expect(stdout.replace(/:\u200b:/g, '::').replace(/##\u200b\[/g, '##[')).toBe(`${SHOWN}\n`)
  })

  it('stay linear on a long run of whitespace and line breaks', () => {
    const started = performance.now()
    stdoutOf(() => info(`${' \u3000'.repeat(100_000)}x\n`.repeat(2) + '\n'.repeat(100_000)))
    expect(performance.now() - started).toBeLessThan(5_000)
  })

  it('reach stdout only through src/runner/workflow.ts (the one user of @actions/core), so no call site can skip the neutralising', () => {
    const root = new URL('../../../src/', import.meta.url).pathname
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'))
    expect(sources.length).toBeGreaterThan(20)
    const text = (file: string) => readFileSync(join(root, file), 'utf8')
    const writers = sources.filter((file) => /process\.(stdout|stderr)|console\./.test(text(file)))
    // The one exception is the entry's Node-version line, printed before any module (core included)
    // is evaluated: its text is ours, with nothing in it but the runtime's own version.
    expect(writers).toEqual(['index.ts'])
    const entryWrites = [...text('index.ts').matchAll(/process\.stdout\.write\(([\s\S]*?)\)\n/g)].map(
      (write) => write[1] ?? '',
    )
    expect(entryWrites).toHaveLength(1)
    expect([...(entryWrites[0] ?? '').matchAll(/\$\{([^}]*)\}/g)].map((interpolation) => interpolation[1])).toEqual([
      'MIN_NODE_MAJOR',
      'process.versions.node',
      'MIN_NODE_MAJOR',
    ])
    // src/runner/oidc.ts asks core for the ID token only; every line printed goes through runner/workflow.ts.
    const coreUsers = sources.filter((file) => /from '@actions\/core'/.test(text(file)))
    expect(
      coreUsers
        .map((file) => relative('.', file))
        .filter((file) => file !== 'runner/oidc.ts' && file !== 'runner/workflow.ts'),
    ).toEqual([])
    expect(coreUsers).toContain('runner/workflow.ts')
  })

  it('between stop-commands markers, show the text as written (but for `##[`) and let nothing run', () => {
    const stdout = stdoutOf(() => infoVerbatim(HOSTILE))
    const view = readWorkflowCommands(stdout)
    expect(view.commands.map((c) => c.name)).toEqual(['stop-commands', view.commands[0]?.data])
    expect(view.stoppedAtEnd).toBe(false)
    expect(stdout).toContain(SHOWN.replace(/##\[/g, '##\u200b['))
  })

  it('between stop-commands markers, draw no error, warning, fold or section in the log viewer', () => {
    const faked = VIEWER_FORMATS.flatMap((name) => [`##[${name}]fake ${name}`, `  ##[${name.toUpperCase()}]indented`])
    const stdout = stdoutOf(() => infoVerbatim(['agent output', ...faked, 'the end'].join('\n')))
    for (const collation of ['ordinal', 'icu'] as const) {
      const view = readWorkflowCommands(stdout, { collation })
      expect(fakedFormatting(view).map((line) => line.text)).toEqual([])
      expect(view.commands.map((c) => c.name)).toEqual(['stop-commands', view.commands[0]?.data])
    }
    expect(stdout.replace(/##\u200b\[/g, '##[')).toContain(faked.join('\n'))
  })
})

describe('redaction', () => {
  it('hides a secret as written and in its JSON, URL and base64 encodings', () => {
    const secret = 'tok"en\\with/quote+slash-0123456789'
    stdoutOf(() => setSecret(secret))
    const json = JSON.stringify({ token: secret })
    expect(redact(json)).toBe('{"token":"***"}')
    expect(redact(JSON.stringify(json))).not.toContain('0123456789')
    expect(redact(`https://x/?t=${encodeURIComponent(secret)}`)).toBe('https://x/?t=***')
    for (const prefix of ['', 'a', 'ab']) {
      const encoded = Buffer.from(`${prefix}${secret}!`).toString('base64')
      const redacted = redact(encoded)
      expect(redacted).toContain('***')
      // What is left decodes to at most a few bytes at each end of the secret.
      expect(redacted.length).toBeLessThan(12)
    }
  })
})

describe('size limits', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hub-action-runner-'))
  })
  afterEach(() => {
    delete process.env.GITHUB_OUTPUT
    delete process.env.GITHUB_STEP_SUMMARY
    rmSync(dir, { recursive: true, force: true })
  })

  it('writes an output once per value: the same value again is skipped, a new one is written', () => {
    process.env.GITHUB_OUTPUT = join(dir, 'output')
    writeFileSync(process.env.GITHUB_OUTPUT, '')
    setOutput('once-id', 'r-1')
    setOutput('once-id', 'r-1')
    setOutput('once-id', 'r-2')
    const names = [...readFileSync(process.env.GITHUB_OUTPUT, 'utf8').matchAll(/^([^=<\n]+)<</gm)].map((m) => m[1])
    expect(names).toEqual(['once-id', 'once-id'])
    expect(parseOutputFile(readFileSync(process.env.GITHUB_OUTPUT, 'utf8'))['once-id']).toBe('r-2')
  })

  it('cuts an output over 1 MB on a character boundary, with a note saying where the whole value is', () => {
    process.env.GITHUB_OUTPUT = join(dir, 'output')
    writeFileSync(process.env.GITHUB_OUTPUT, '')
    const big = 'é€😀'.repeat(250_000) // 2.25 MB in UTF-8
    const stdout = stdoutOf(() => {
      setOutput('output', big, { wholeIn: 'the result file /tmp/run.json' })
      setOutput('phase', 'Succeeded')
    })
    const outputs = parseOutputFile(readFileSync(process.env.GITHUB_OUTPUT, 'utf8'))
    const value = outputs.output ?? ''
    expect(Buffer.byteLength(value, 'utf8')).toBeLessThanOrEqual(OUTPUT_LIMIT_BYTES)
    expect(value).not.toContain('\ufffd')
    expect(big.startsWith(value.slice(0, value.indexOf('\n\n[hub-action')))).toBe(true)
    expect(value).toMatch(
      /\[hub-action: output `output` was cut to GitHub's limit of 1 MB per output; the whole value \(2\.1 MiB\) is in the result file \/tmp\/run\.json\.\]$/,
    )
    expect(outputs.phase).toBe('Succeeded')
    expect(readWorkflowCommands(stdout).commands.map((c) => c.name)).toEqual(['warning'])
  })

  it('never lets the job summary pass 1 MiB, closes an open fence and says where the report is', () => {
    const file = join(dir, 'summary')
    process.env.GITHUB_STEP_SUMMARY = file
    writeFileSync(file, '# Earlier\n'.repeat(10_000))
    const markdown = `## Report\n\n\`\`\`text\n${'a line of agent output\n'.repeat(60_000)}\`\`\`\n\n## Sources\n`
    const stdout = stdoutOf(() => expect(appendSummary(markdown)).toBe(true))
    const text = readFileSync(file, 'utf8')
    expect(statSync(file).size).toBeLessThanOrEqual(GITHUB_SUMMARY_LIMIT_BYTES)
    expect(text.startsWith('# Earlier\n'.repeat(10_000) + '## Report\n')).toBe(true)
    expect((text.match(/^```/gm) ?? []).length % 2).toBe(0)
    expect(text).toMatch(
      /> This summary was cut .* The whole report is in the result file \(output `result-file`\)\.\n$/,
    )
    expect(readWorkflowCommands(stdout).commands.map((c) => c.name)).toEqual(['warning'])

    // Full: a later append writes nothing more, and says so.
    const again = stdoutOf(() => appendSummary('more\n'.repeat(100)))
    expect(statSync(file).size).toBeLessThanOrEqual(GITHUB_SUMMARY_LIMIT_BYTES)
    expect(again).toContain('::warning::')
  })

  it('appends a summary within the limit untouched', () => {
    const file = join(dir, 'summary')
    process.env.GITHUB_STEP_SUMMARY = file
    writeFileSync(file, '')
    expect(appendSummary('## Fine')).toBe(true)
    expect(readFileSync(file, 'utf8')).toBe('## Fine\n')
  })
})
