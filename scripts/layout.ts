// CONTRIBUTING.md's layout sketch takes each folder's line from the folder's README.md (its first
// line: what the folder owns and what it may not import), so the two cannot drift apart. `npm run docs`
// writes it (scripts/surface.ts calls updateLayout), `npm run docs -- --check` checks it, and
// test/docs/layout.test.ts fails when the sketch is stale. The file lists under a folder line are
// written by hand.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SKETCH = /(## Project layout[\s\S]*?```text\n)([\s\S]*?)(```)/
/** The column where a folder's line starts in the sketch. */
const COLUMN = 20

/** The first line of `folder`/README.md (a path from the root), or undefined when it has none. */
export function readmeLine(folder: string, root = ROOT): string | undefined {
  const file = join(root, folder, 'README.md')
  if (!existsSync(file)) return undefined
  return readFileSync(file, 'utf8').split('\n')[0]?.trim() || undefined
}

/** Each folder line of the sketch, with the folder's path (`src/hub/mcp`) and its line number in the block. */
export function sketchFolders(block: string): { path: string; index: number; indent: string; name: string }[] {
  const folders: string[] = []
  const found: { path: string; index: number; indent: string; name: string }[] = []
  block.split('\n').forEach((line, index) => {
    const folder = /^( *)([\w-]+)\/(?: |$)/.exec(line)
    if (!folder) {
      if (!line.startsWith(' ')) folders.length = 0
      return
    }
    const indent = folder[1] ?? ''
    const name = folder[2] ?? ''
    const depth = indent.length / 2
    folders.length = depth
    folders[depth] = name
    found.push({ path: folders.join('/'), index, indent, name })
  })
  return found
}

/** CONTRIBUTING.md with each folder line that has a README set to the README's first line. */
export function withReadmeLines(contributing: string, readme: (folder: string) => string | undefined): string {
  const match = SKETCH.exec(contributing)
  if (!match) throw new Error('CONTRIBUTING.md has no "## Project layout" section with a ```text block')
  const lines = (match[2] ?? '').split('\n')
  for (const { path, index, indent, name } of sketchFolders(match[2] ?? '')) {
    const text = readme(path)
    if (text !== undefined) lines[index] = `${`${indent}${name}/`.padEnd(COLUMN - 1)} ${text}`
  }
  return contributing.replace(SKETCH, (_, head: string, _block: string, tail: string) => head + lines.join('\n') + tail)
}

/** Writes the sketch's folder lines, or with `check` only says whether they are stale (then exits 1). */
export function updateLayout(check: boolean): void {
  const path = join(ROOT, 'CONTRIBUTING.md')
  const before = readFileSync(path, 'utf8')
  const after = withReadmeLines(before, (folder) => readmeLine(folder))
  if (check && after !== before) {
    console.error(
      "CONTRIBUTING.md's layout sketch differs from the folders' README.md: run `npm run docs` and commit it.",
    )
    process.exit(1)
  }
  if (!check && after !== before) writeFileSync(path, after)
  console.log(`CONTRIBUTING.md's layout sketch ${after === before ? 'matches' : 'now matches'} the folders' README.md.`)
}

if (import.meta.main) updateLayout(process.argv.includes('--check'))
