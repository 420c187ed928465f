/**
 * Every message the action can print has a row in docs/troubleshooting.md. The
 * messages are found in the sources by their syntax (TypeScript's own parser), not listed by
 * hand: the first argument of core.warning/error/notice/setFailed and of `new …Error(…)`, and
 * every `hint`, `message`, `error`, `skipped` and `reason` text. A message's first words (before any value from the run)
 * must stand in the section, as its rows quote them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const srcRoot = new URL('../../src/', import.meta.url).pathname
const troubleshooting = readFileSync(new URL('../../docs/troubleshooting.md', import.meta.url), 'utf8')

/** How many leading characters of a message's first fixed words a row must quote. */
const QUOTED_LENGTH = 28
/** Fixed words shorter than this say too little to look up (e.g. `${a}: ${b}`). */
const MIN_FIXED = 12

/** Fields that carry a message to the user: error hints and texts, zod issues, reasons a file was skipped. */
const MESSAGE_FIELDS = ['hint', 'message', 'error', 'skipped', 'reason']

interface Message {
  file: string
  line: number
  beginning: string
}

describe('docs/troubleshooting.md', () => {
  const section = normalise(troubleshooting.replaceAll('\\|', '|'))
  const messages = collectMessages(srcRoot)

  it('finds the messages in the sources (the scan itself works)', () => {
    expect(messages.length).toBeGreaterThan(90)
    expect(messages.some((m) => m.beginning.startsWith('Could not comment on pull'))).toBe(true)
  })

  it('has a row for every message the action can print', () => {
    const missing = messages
      .filter((m) => !section.includes(m.beginning))
      .map((m) => `${m.file}:${m.line} "${m.beginning}…"`)
    expect(
      missing,
      `messages without a row in docs/troubleshooting.md (quote their first words in a row):\n${missing.join('\n')}`,
    ).toEqual([])
  })

  it('fails for a message that has no row', () => {
    expect(section.includes(fixedBeginning('A message nobody documented, ever: ${x}'))).toBe(false)
  })
})

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ')
}

/**
 * The message's first fixed words long enough to look up (values from the run are `${`),
 * cut at the end of its first clause or at QUOTED_LENGTH.
 */
function fixedBeginning(template: string): string {
  const chunks = template.split('${').map((chunk, index) => (index === 0 ? chunk : chunk.slice(chunk.indexOf('}') + 1)))
  const words =
    chunks
      .map((chunk) =>
        normalise(chunk)
          .trim()
          .replace(/^[.,:;)]\s*/, ''),
      )
      .find((chunk) => chunk.length >= MIN_FIXED) ?? ''
  // A row may stop quoting at the first clause's end and write `…` for the rest.
  const clause = /^.*?[.:;](?= )/.exec(words)?.[0] ?? words
  return clause
    .slice(0, QUOTED_LENGTH)
    .trim()
    .replace(/[.:;]$/, '')
}

function collectMessages(root: string): Message[] {
  const found: Message[] = []
  for (const file of sourceFiles(root)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
    const add = (node: ts.Node | undefined) => {
      for (const text of texts(node)) {
        const beginning = fixedBeginning(text)
        if (beginning.length < MIN_FIXED) continue
        const { line } = source.getLineAndCharacterOfPosition(node!.getStart())
        found.push({ file: file.slice(root.length), line: line + 1, beginning })
      }
    }
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isCoreReport(node.expression)) add(node.arguments[0])
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && isUserFacingError(node.expression.text))
        add(node.arguments?.[0])
      if (
        ts.isPropertyAssignment(node) &&
        ts.isIdentifier(node.name) &&
        MESSAGE_FIELDS.includes(node.name.text) &&
        !inSuperCall(node)
      )
        add(node.initializer)
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'rehint')
        add(node.arguments[1])
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'hint')
        add(node.initializer)
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  return found
}

/** A field of an error class's own `super(…, { hint })`: the class's wording, never printed alone. */
function inSuperCall(node: ts.Node): boolean {
  const call = node.parent.parent
  return ts.isCallExpression(call) && call.expression.kind === ts.SyntaxKind.SuperKeyword
}

/** Our own error classes; a built-in `Error`/`TypeError` marks a bug in the action, not a user's trouble. */
function isUserFacingError(name: string): boolean {
  return name.endsWith('Error') && !['Error', 'TypeError', 'RangeError', 'SyntaxError'].includes(name)
}

/** `core.warning(…)`, `core.error(…)`, `core.notice(…)`, `core.setFailed(…)`. */
function isCoreReport(callee: ts.Expression): boolean {
  return ts.isPropertyAccessExpression(callee) && ['warning', 'error', 'notice', 'setFailed'].includes(callee.name.text)
}

/** The literal texts an expression can be: a string, a template, either branch of `?:`, both sides of `+`. */
function texts(node: ts.Node | undefined): string[] {
  if (!node) return []
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text]
  if (ts.isTemplateExpression(node))
    return [node.head.text + node.templateSpans.map((span) => '${}' + span.literal.text).join('')]
  if (ts.isParenthesizedExpression(node)) return texts(node.expression)
  if (ts.isConditionalExpression(node)) return [...texts(node.whenTrue), ...texts(node.whenFalse)]
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) return texts(node.left)
  return []
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}
