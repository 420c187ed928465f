/** CONTRIBUTING.md's layout sketch names every file under src/, and only files that exist (folder boundaries: eslint.boundaries.js). */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)

/** The src/ part of the sketch, as paths: a folder line sets the folder for its file names. */
function sketchedSources(contributing: string): string[] {
  const block = /## Project layout[\s\S]*?```text\n([\s\S]*?)```/.exec(contributing)?.[1] ?? ''
  const paths: string[] = []
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
    const file = /^ {2,}([\w.-]+\.(?:ts|json)) /.exec(line)
    const names = file
      ? [file[1] ?? '']
      : [...line.slice(20).matchAll(/([\w.-]+\.ts)\b/g)].map((match) => match[1] ?? '')
    for (const name of names) paths.push([...folders, name].join('/'))
  }
  return paths.sort()
}

describe('CONTRIBUTING.md project layout', () => {
  it('names every file under src/, in its folder, and nothing else', () => {
    const sketched = sketchedSources(readFileSync(new URL('CONTRIBUTING.md', root), 'utf8'))
    const actual = readdirSync(new URL('src/', root), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(fileURLToPath(root), join(entry.parentPath, entry.name)))
      .sort()
    expect(sketched).toEqual(actual)
  })
})
