/**
 * The demo's text fitted to a terminal of 100 columns: prose wrapped at spaces, and any longer
 * line (a log line, a rendered paragraph) folded under its own indent and margin (`│ `), so
 * that the structure of what is shown stays readable.
 */
import { visibleWidth } from './style.ts'

const WIDTH = 100

/** Prose broken at spaces into lines of at most `width` columns; a `code span` is never split. */
export function wrap(text: string, width = WIDTH): string {
  const lines: string[] = []
  let line = ''
  for (const word of text.match(/(?:`[^`]*`|\S)+/g) ?? []) {
    if (line && visibleWidth(line) + visibleWidth(word) + 1 > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return [...lines, line].join('\n')
}

/** A line over `width` columns folded at spaces; the continuation lines keep its margin, two columns in. */
export function fold(line: string, width = WIDTH): string[] {
  if (visibleWidth(line) <= width) return [line]
  const margin = /^(?:[ │]|\u001b\[[0-9;]*m)*/.exec(line)?.[0] ?? ''
  const lines = wrap(line.slice(margin.length), width - visibleWidth(margin) - 2).split('\n')
  return lines.map((text, at) => (at === 0 ? margin : `${margin}  `) + text)
}

/** A value shown on one line: its first line, and how many there are when it has several. */
export function oneLine(value: string): string {
  const lines = value.split('\n')
  return lines.length > 1 ? `${lines[0]} … (${lines.length} lines)` : value
}
