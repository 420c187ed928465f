/**
 * CONTRIBUTING.md's layout sketch names every file under src/, and only files that exist (folder
 * boundaries: eslint.boundaries.js); each folder's line is its README's first line (scripts/layout.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readmeLine, sketchFolders, withReadmeLines } from '../../scripts/layout.ts'

const root = new URL('../../', import.meta.url)

/** The src/ part of the sketch, as paths: a folder line sets the folder for its file names. */
function sketchedSources(contributing: string): string[] {
  const block = /## Project layout[\s\S]*?```text\n([\s\S]*?)```/.exec(contributing)?.[1] ?? ''
  const paths = new Set<string>()
  const folders: string[] = []
  let inSrc = false
  for (const line of block.split('\n')) {
    const folder = /^( *)([\w-]+)\/ /.exec(line) ?? /^( *)([\w-]+)\/$/.exec(line)
    if (folder) {
      const depth = (folder[1] ?? '').length / 2
      if (depth === 0) inSrc = folder[2] === 'src'
      folders.length = depth
      folders[depth] = folder[2] ?? ''
    } else if (!line.startsWith(' ')) inSrc = false
    if (!inSrc) continue
    // A file on a line of its own sits left of the notes column (20); a note may start with a file name.
    const file = /^ {2,18}([\w.-]+\.(?:ts|json)) /.exec(line)
    const names = file
      ? [file[1] ?? '']
      : [...line.slice(20).matchAll(/([\w.-]+\.ts)\b/g)].map((match) => match[1] ?? '')
    // A folder's line (its README's) may name a file its list names again.
    for (const name of names) paths.add([...folders, name].join('/'))
  }
  return [...paths].sort()
}

describe('CONTRIBUTING.md project layout', () => {
  it('names every file under src/, in its folder, and nothing else', () => {
    const sketched = sketchedSources(readFileSync(new URL('CONTRIBUTING.md', root), 'utf8'))
    const actual = readdirSync(new URL('src/', root), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== 'README.md')
      .map((entry) => relative(fileURLToPath(root), join(entry.parentPath, entry.name)))
      .sort()
    expect(sketched).toEqual(actual)
  })

  it('has a README.md in every folder of src/ and in emulator/, whose first line says what it owns and may not import', () => {
    const folders = readdirSync(new URL('src/', root), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => relative(fileURLToPath(root), join(entry.parentPath, entry.name)))
    for (const folder of ['src', ...folders, 'emulator'].filter((folder) => folder !== 'src'))
      expect(readmeLine(folder), `${folder}/README.md is missing or starts with an empty line`).toMatch(/\S/)
  })

  it('takes each folder line from the folder’s README (run `npm run docs` after changing one)', () => {
    const contributing = readFileSync(new URL('CONTRIBUTING.md', root), 'utf8')
    expect(contributing).toBe(withReadmeLines(contributing, (folder) => readmeLine(folder)))
    // Every folder with a README has its line in the sketch, so none is left out of it.
    const block = /## Project layout[\s\S]*?```text\n([\s\S]*?)```/.exec(contributing)?.[1] ?? ''
    const sketched = sketchFolders(block).map((folder) => folder.path)
    const withReadme = readdirSync(new URL('src/', root), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => relative(fileURLToPath(root), join(entry.parentPath, entry.name)))
      .concat('emulator')
      .filter((folder) => existsSync(new URL(`${folder}/README.md`, root)))
    expect(sketched).toEqual(expect.arrayContaining(withReadme))
  })

  it('writes a README line into a folder line and keeps the file list under it', () => {
    const before = [
      '## Project layout',
      '',
      '```text',
      'src/',
      '  hub/              an old line',
      '                    transport.ts',
      '    mcp/            client.ts',
      'emulator/           old',
      '```',
    ].join('\n')
    const lines: Record<string, string> = { 'src/hub': 'the hub’s clients', emulator: 'the hub on loopback' }
    expect(
      withReadmeLines(before, (folder) => lines[folder])
        .split('\n')
        .slice(3, 8),
    ).toEqual([
      'src/',
      '  hub/              the hub’s clients',
      '                    transport.ts',
      '    mcp/            client.ts',
      'emulator/           the hub on loopback',
    ])
  })
})
