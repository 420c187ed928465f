/**
 * Every relative link and #anchor in README.md and docs/*.md points at a file that exists and, for
 * an anchor, at a heading of that markdown file. Links and headings are read by cmark-gfm
 * (GitHub's parser); anchors are the ids GitHub gives headings: lower case, punctuation other
 * than `-` and `_` dropped, spaces to `-`, and `-1`, `-2`… on repeats.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { describeWithGfm, judgeGfm } from '../oracles/gfm.ts'
import { markdownDocuments } from './fixtures/workflows.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** GitHub's heading ids for one document, in order. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const { text } of judgeGfm(markdown).headings) {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/** Broken relative links of one document (`file`: its path from the root). */
function brokenLinks(file: string, markdown: string): string[] {
  const { links, images } = judgeGfm(markdown)
  return [...links, ...images].flatMap((link) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return [] // https:, mailto:
    const [path = '', anchor] = link.split('#')
    const target = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)))
    if (!existsSync(join(ROOT, target))) return [`${link}: no file ${target}`]
    if (anchor === undefined) return []
    if (statSync(join(ROOT, target)).isDirectory() || !target.endsWith('.md'))
      return [`${link}: an anchor into a file that is not markdown`]
    return anchorsOf(path === '' ? markdown : readFileSync(join(ROOT, target), 'utf8')).has(anchor)
      ? []
      : [`${link}: no heading #${anchor} in ${target}`]
  })
}

describeWithGfm('links in README.md and docs/', () => {
  it('finds the documents and their links', () => {
    expect(markdownDocuments.map((document) => document.name)).toEqual(
      expect.arrayContaining(['README.md', 'docs/reference.md', 'docs/troubleshooting.md']),
    )
  })

  it.each(markdownDocuments.map((document) => [document.name, document.text]))(
    '%s: every relative link and anchor resolves',
    (name, text) => {
      expect(brokenLinks(name, text)).toEqual([])
    },
  )

  it('reads anchors as GitHub makes them, and catches a broken one (the check is really judging)', () => {
    const sample =
      '# `run` (the default): start\n\n## Same\n\n## Same\n\n[a](#run-the-default-start) [b](#same-1) [c](#nope) [d](missing.md)\n'
    expect(anchorsOf(sample)).toEqual(new Set(['run-the-default-start', 'same', 'same-1']))
    expect(brokenLinks('README.md', sample)).toEqual([
      '#nope: no heading #nope in README.md',
      'missing.md: no file missing.md',
    ])
  })
})
